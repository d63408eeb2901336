/**
 * Preview support for Pulumi's dynamic provider host, inside the provider process only.
 *
 * The host (`@pulumi/pulumi/cmd/dynamic-provider`) does not declare preview support when the
 * engine configures it, so for a previewed update the engine hands back the new inputs as the
 * outputs: every output-only property (`hosts`, `size`, `updated`, …) turns unknown in the program
 * for the rest of the preview, and every resource that reads one plans a change that `up` will not
 * make. Declaring support makes the engine call `Create` and `Update` with `preview: true`, which
 * the stock host ignores: it would really create and update. So both go together here:
 *
 * - the host's `configure` answer declares `supportsPreview`;
 * - a previewed `update` of one of this package's resources answers the outputs the update will
 *   record as far as they are known (`previewOf`: recorded values, new input values, unknown where
 *   the spec says the update recomputes them); it never reaches the provider's `update`;
 * - a previewed `create`, and a previewed update of any other dynamic provider's resource, get the
 *   engine's own answer for a provider without preview support: the inputs as the state.
 *
 * Configure is the engine's first call, before any resource's code is loaded, so this module is
 * preloaded into the host process (`node -r`) by the plugin launcher `pulumi-resource-pulumi-nodejs`
 * beside this file, which the toolchain installs. It patches the gRPC server's `addService` for the
 * provider service and wraps the host's methods. It fails closed: unless the process runs the host
 * and every part it relies on is as pinned (`test/provider/host/preview.test.ts`), nothing is
 * wrapped, nothing is declared, and the engine previews as it did without it.
 *
 * The same wrapping serves each request in the context of its resource's URN, so that progress
 * reaches the engine as a status of that resource's row (`row-log.ts`).
 */
import { createRequire } from "node:module";
import { HOST_ENTRY } from "./entry";
import { unloggable, withRowLog, type EngineModules } from "./row-log";

/** This package's provider text (`shim.ts`); older serialized closures are not matched, and preview as before. */
const SHIM = /^exports\.handler=\(\)=>require\('pulumi-compute\/registry'\)\.provider\('([A-Za-z][A-Za-z0-9]*)'\)$/;

type Callback = (error: unknown, response?: unknown, ...rest: unknown[]) => void;
type Method = (call: { request: RpcRequest }, callback: Callback) => unknown;
interface RpcRequest {
  getPreview(): boolean;
  getProperties(): Struct;
  getOlds(): Struct;
  getNews(): Struct;
}
interface Struct {
  toJavaScript(): Record<string, unknown>;
}
interface RpcResponse {
  setProperties(properties: Struct): unknown;
  setSupportspreview(supports: boolean): unknown;
}
/** What of the host's modules the patch uses, resolved from the host's own file. */
export interface HostModules {
  server: { prototype: { addService(service: unknown, implementation: object): void } };
  service: unknown;
  proto: Record<string, { prototype: Record<string, unknown>; new (): RpcResponse }>;
  struct: { fromJavaScript(values: Record<string, unknown>): Struct };
  /** The engine's `Log` (`row-log.ts`); undefined when the host's protocol lacks it. */
  engine?: Partial<EngineModules>;
}

/** The resource kind of a provider text of this package, or undefined. */
export const kindOf = (text: unknown): string | undefined => (typeof text === "string" ? SHIM.exec(text)?.[1] : undefined);

/**
 * Why the host cannot be patched as pinned, or undefined when it can: every message, method and
 * setter the patch uses exists, and the host's own methods do not handle previews themselves (a
 * host that does needs no patch, and must not get one).
 */
export function unpatchable(modules: HostModules, implementation: Record<string, unknown>): string | undefined {
  const methods = ["configure", "create", "update"] as const;
  for (const name of methods) if (typeof implementation[name] !== "function") return `the host has no ${name} method`;
  const needs: Array<[string, string]> = [
    ["ConfigureResponse", "setSupportspreview"],
    ["CreateRequest", "getPreview"],
    ["UpdateRequest", "getPreview"],
    ["CreateResponse", "setProperties"],
    ["UpdateResponse", "setProperties"],
  ];
  for (const [message, method] of needs) {
    if (typeof modules.proto[message]?.prototype[method] !== "function") return `the protocol has no ${message}.${method}`;
  }
  for (const name of methods) {
    if (/[Pp]review/.test(String(implementation[name]))) return `the host's ${name} already handles previews`;
  }
  return undefined;
}

/** The host's provider service with previews answered here (see the module comment). */
export function withPreview(modules: HostModules, host: Record<string, Method>, previewOf: PreviewOf): object {
  const { proto, struct } = modules;
  const wrapped = Object.create(host) as Record<string, Method>;
  wrapped.configure = (call, callback) =>
    host.configure!.call(host, call, (error, response, ...rest) => {
      if (!error && response) (response as RpcResponse).setSupportspreview(true);
      callback(error, response, ...rest);
    });
  wrapped.create = (call, callback) => {
    if (!call.request.getPreview()) return host.create!.call(host, call, callback);
    const response = new proto.CreateResponse!();
    response.setProperties(call.request.getProperties());
    callback(undefined, response);
  };
  wrapped.update = (call, callback) => {
    if (!call.request.getPreview()) return host.update!.call(host, call, callback);
    const response = new proto.UpdateResponse!();
    response.setProperties(previewedUpdate(struct, call.request, previewOf));
    callback(undefined, response);
  };
  return wrapped;
}

export type PreviewOf = (kind: string, olds: Record<string, unknown>, news: Record<string, unknown>) => Record<string, unknown>;

/** This package's preview of an update; the new inputs (the engine's answer without preview support) for any other provider, or on any failure. */
function previewedUpdate(struct: HostModules["struct"], request: RpcRequest, previewOf: PreviewOf): Struct {
  const news = request.getNews();
  try {
    const inputs = news.toJavaScript();
    const kind = kindOf(inputs.__provider);
    if (!kind) return news;
    return struct.fromJavaScript({ ...previewOf(kind, request.getOlds().toJavaScript(), inputs), __provider: inputs.__provider });
  } catch (error) {
    console.error(`pulumi-compute: previewing an update as Pulumi does without provider previews: ${String(error)}`);
    return news;
  }
}

/** The host's modules, from the host's file (so the very instances it uses). */
function hostModules(hostFile: string): HostModules {
  const hostRequire = createRequire(hostFile);
  const grpc = hostRequire("@grpc/grpc-js") as { Server: HostModules["server"]; credentials: { createInsecure(): unknown } };
  return {
    server: grpc.Server,
    service: (hostRequire("../../proto/provider_grpc_pb") as { ResourceProviderService: unknown }).ResourceProviderService,
    proto: hostRequire("../../proto/provider_pb") as HostModules["proto"],
    struct: (hostRequire("google-protobuf/google/protobuf/struct_pb") as { Struct: HostModules["struct"] }).Struct,
    engine: engineModules(hostRequire, grpc),
  };
}

/** The engine's `Log` as the host's protocol has it; undefined when it has none (then lines stay on stdout). */
function engineModules(
  hostRequire: NodeJS.Require,
  grpc: { credentials: { createInsecure(): unknown } },
): Partial<EngineModules> | undefined {
  try {
    const engineProto = hostRequire("../../proto/engine_pb") as { LogRequest?: unknown; LogSeverity?: { INFO?: number } };
    const engineGrpc = hostRequire("../../proto/engine_grpc_pb") as { EngineClient?: unknown };
    return {
      client: engineGrpc.EngineClient as EngineModules["client"],
      logRequest: engineProto.LogRequest as EngineModules["logRequest"],
      insecure: () => grpc.credentials.createInsecure(),
      info: engineProto.LogSeverity?.INFO,
    };
  } catch {
    return undefined;
  }
}

/**
 * Installs the patch when `hostFile` is Pulumi's host as pinned; returns whether it did. The
 * provider service is wrapped when the host adds it to its server, after this module has loaded.
 */
export function installPreview(hostFile: string | undefined, previewOf: () => PreviewOf, engineAddress?: string): boolean {
  if (!hostFile || !HOST_ENTRY.test(hostFile) || installed) return false;
  let modules: HostModules;
  try {
    modules = hostModules(hostFile);
  } catch {
    return false;
  }
  const addService = modules.server.prototype.addService;
  modules.server.prototype.addService = function (this: unknown, service: unknown, implementation: object) {
    const host = implementation as Record<string, Method>;
    const reason = service === modules.service ? unpatchable(modules, host) : "not the provider service";
    if (service === modules.service) declined = reason;
    if (reason !== undefined) return addService.call(this, service, implementation);
    // Lines on the resources' own rows need only the engine's Log; previews stay patched without it.
    unlogged = unloggable(modules.engine, engineAddress);
    const logged = unlogged === undefined ? withRowLog(modules.engine as EngineModules, host, engineAddress!) : host;
    const served = withPreview(modules, logged as Record<string, Method>, (...args) => previewOf()(...args));
    return addService.call(this, service, served);
  };
  installed = true;
  return true;
}

let installed = false;
/** Why the provider service was left as the host made it, when it was (for tests and debugging). */
export let declined: string | undefined;
/** Why lines stay on stdout instead of the resources' rows, when they do. */
export let unlogged: string | undefined;

// Preloaded into the host (`node -r`), the host's file is the script being run; anywhere else
// (tests, a program, another script) this does nothing. The registry loads at the first preview.
// The host's first argument is the engine's address (its `main(process.argv.slice(2))`).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use; the type comes with it
installPreview(process.argv[1], () => (require("../registry") as typeof import("../registry")).previewOf, process.argv[2]);
