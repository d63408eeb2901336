/**
 * `pulumi-resource-compute`: the package's provider plugin, which the engine starts (through the
 * launcher `plugins/pulumi-resource-compute`) for every resource and data function of the
 * package's `compute:index:` tokens. Its arguments end with the engine's address; it serves
 * Pulumi's ResourceProvider protocol on a free loopback port and prints the port as its first
 * line, as every plugin does.
 *
 * A resource's lines (waits, retries, an adopted object) go to the engine's `Log` for the URN of
 * the request being served, as a status of the resource's own row (`serve/row-log.ts`, the same
 * mechanism as the dynamic host's); lines about no resource go to the engine's `Log` without one.
 * The engine shows nothing a provider plugin prints after its port. `--version` alone prints the
 * package's version and serves nothing.
 */
import { engineLog, unloggable, withRowLog, type EngineModules } from "../serve/row-log";
import { recordedSlowStart, saySlowStart, writeCompiledCode } from "../launch/quick-start";
import { serveUnary, unaryClient, type UnaryMethod } from "../serve/grpc";
import { ENGINE_LOG_PATH, loadProtocol, providerMethodPath, structsOf, type Protocol } from "./protocol";
import { providerService, type ServedMethod, type ServiceOptions } from "./server";
import { requestReader } from "./struct-values";
import type Schema from "./schema.json";
import { SDK_VERSION } from "../../sdk/version";

/**
 * The schema's text, as `pulumi package get-schema` prints it: read at the first GetSchema (a
 * 167 KB file that a run of `up`, `preview`, `refresh` or `destroy` never asks for).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded when first needed
const schemaText = () => JSON.stringify(require("./schema.json") as typeof Schema, null, 2);

/**
 * Serves the plugin on a free loopback port; `args` end with the engine's address, when there is an
 * engine. `account` fixes the account served whatever Configure says (`testing/plugin-mocks.ts`,
 * the emulated account of the mocks of Python and Go programs).
 */
export async function serve(
  args: string[],
  { account }: Pick<ServiceOptions, "account"> = {},
): Promise<{ port: number; server: { forceShutdown(): void } }> {
  const engineAddress = args.length > 0 && !args[args.length - 1]!.startsWith("-") ? args[args.length - 1] : undefined;
  const protocol: Protocol = loadProtocol();
  const modules: EngineModules = {
    client: EngineLogClient,
    logRequest: protocol.engine.LogRequest,
    insecure: () => undefined,
    info: protocol.engine.LogSeverity.INFO,
    warning: protocol.engine.LogSeverity.WARNING,
  };
  // Without an engine to send lines to (a test), they go to stderr.
  const log = unloggable(modules, engineAddress) === undefined ? engineLog(modules, engineAddress!) : undefined;
  const print = log ? (line: string) => log("info", line, "", false) : (line: string) => console.error(line);
  saySlowStart(recordedSlowStart(), print);
  const service = providerService(protocol, { schema: schemaText, print, ...(account ? { account } : {}) });
  const served = (log ? withRowLog(log, service) : service) as Record<string, ServedMethod>;
  const read = requestReader({ Reader: protocol.binary.BinaryReader, Struct: protocol.struct.Struct });
  const { write } = structsOf(protocol);
  const methods = new Map<string, UnaryMethod>(
    Object.entries(service).map(([name, method]) => [
      providerMethodPath(name),
      {
        decode: (bytes) => read(method.requestType, bytes),
        // The response's Structs written from their values (`plainStructs`).
        handle: (call, callback) =>
          served[name]!(call, (error, response) => callback(error, response && { serializeBinary: () => write(response) })),
      },
    ]),
  );
  return serveUnary(methods);
}

/** The engine's `Log`, as the row log calls it (`serve/row-log.ts`: a client with a `log` method), over the plugin's own gRPC. */
class EngineLogClient {
  private readonly call: ReturnType<typeof unaryClient>;
  constructor(address: string) {
    this.call = unaryClient(address);
  }
  log(request: { serializeBinary(): Uint8Array }, callback: (error: unknown) => void): void {
    this.call(ENGINE_LOG_PATH, request.serializeBinary(), callback);
  }
}

/** `pulumi-resource-compute --version`: the package's version, as the engine's GetPluginInfo has it; nothing served. */
const askedVersion = (args: string[]) => args.length === 1 && args[0] === "--version";

if (require.main === module && askedVersion(process.argv.slice(2))) {
  console.log(SDK_VERSION);
} else if (require.main === module) {
  serve(process.argv.slice(2)).then(
    // The engine reads the port from the first line; the server keeps the process alive. What the
    // start compiled is written first: an engine that needs no resource of the package ends the
    // plugin at once, and the next start would compile it all again.
    ({ port }) => {
      writeCompiledCode();
      console.log(String(port));
    },
    (error: unknown) => {
      console.error(`pulumi-resource-compute: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
