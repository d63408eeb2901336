/**
 * Pulumi's import of this package's dynamic resources in Pulumi's dynamic provider host
 * (`provider/host/import.ts`), tested on the real host of the pinned `@pulumi/pulumi`, started as the
 * engine starts it (through the launcher) and called over gRPC as the engine's import calls it (a
 * Read with the id alone), against the emulator:
 *
 * - the host's code this relies on (its read, how it finds a provider) is exactly the pinned one;
 * - through the launcher, a Read by id alone of a `pulumi-nodejs:dynamic/compute:Vpc` answers the
 *   object's outputs and the inputs that manage it, each with the kind's provider line, with no write;
 * - Pulumi's host alone fails such a Read, and the patched host leaves another provider's as it was;
 * - a protocol or a host without a part it uses is left alone (fails closed).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { ComputeClient } from "../../../sdk/client";
import { providerText } from "../../../provider/program/shim";
import { hostReadUnpatchable, importUnpatchable } from "../../../provider/host/import";
import { hostModules } from "../../../provider/host/modules";
import { HOST_PINNED } from "../../../provider/host/entry";
import { writesSince } from "../../support/requests";

jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, "../../..");
const PULUMI = path.join(ROOT, "node_modules/@pulumi/pulumi");
const HOST = path.join(PULUMI, "cmd/dynamic-provider/index.js");
const LAUNCHER = path.join(ROOT, "plugins/pulumi-resource-pulumi-nodejs");

/* eslint-disable @typescript-eslint/no-require-imports -- the host's own protocol modules */
const grpc = require(require.resolve("@grpc/grpc-js", { paths: [PULUMI] })) as typeof import("@grpc/grpc-js");
const services = require(path.join(PULUMI, "proto/provider_grpc_pb")) as Record<string, never>;
const proto = require(path.join(PULUMI, "proto/provider_pb")) as Record<string, new () => Record<string, (...a: unknown[]) => unknown>>;
const { Struct } = require(require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [PULUMI] })) as {
  Struct: { fromJavaScript(v: object): unknown };
};
/* eslint-enable @typescript-eslint/no-require-imports */

const SOURCE = fs.readFileSync(HOST, "utf8");
/** A part of the host's file: from `start` to the end of its block. */
function part(start: string, end: string): string {
  const from = SOURCE.indexOf(start);
  const to = SOURCE.indexOf(end, from);
  return from < 0 || to < 0 ? "(missing)" : SOURCE.slice(from, to);
}
const readMethod = () => part("    async read(call, callback) {", "\n    }\n");

test("the host's code that imports rely on is the pinned @pulumi/pulumi's", () => {
  const sha = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);
  const found = {
    version: (JSON.parse(fs.readFileSync(path.join(PULUMI, "package.json"), "utf8")) as { version: string }).version,
    read: sha(readMethod()),
    getProvider: sha(part("async function getProvider(props, rawConfig) {", "\n}\n")),
    resultIncludingProvider: sha(part("function resultIncludingProvider(result, props) {", "\n}\n")),
  };
  const pinned = {
    version: HOST_PINNED,
    read: "36dcd1553fbf387a",
    getProvider: "2962d7d06ec35239",
    resultIncludingProvider: "b802d012af65d9f0",
  };
  if (JSON.stringify(found) !== JSON.stringify(pinned)) {
    throw new Error(
      "Pulumi's dynamic provider host is not the one provider/host/import.ts was written against.\n" +
        "Re-read node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js (read, getProvider, resultIncludingProvider): does a Read\n" +
        "still find its provider in the request's properties, and pass the provider's inputs on? Check import.ts against it,\n" +
        `then pin what you checked: ${JSON.stringify(found)}`,
    );
  }
});

/** One host process, started as the engine starts it, serving the emulator's account. */
class Host {
  private constructor(
    readonly child: ChildProcess,
    readonly client: Record<string, (req: unknown, cb: (err: Error | null, resp: Record<string, () => unknown>) => void) => void>,
  ) {}

  static async start(launcher: string[], env: NodeJS.ProcessEnv): Promise<Host> {
    const child = spawn(launcher[0]!, [...launcher.slice(1), "127.0.0.1:1"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let err = "";
    child.stderr!.on("data", (c: Buffer) => (err += c));
    const port = await new Promise<string>((resolve, reject) => {
      child.stdout!.once("data", (c: Buffer) => resolve(String(c).trim()));
      child.once("exit", (code) => reject(new Error(`the host exited (${code}): ${err}`)));
    });
    const Client = (services as unknown as { ResourceProviderClient: new (a: string, c: unknown) => Host["client"] })
      .ResourceProviderClient;
    const host = new Host(child, new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure()));
    const configure = new proto.ConfigureRequest!();
    configure.setArgs!(Struct.fromJavaScript({}));
    await host.call("configure", configure);
    return host;
  }

  call(method: string, request: unknown): Promise<Record<string, () => unknown>> {
    return new Promise((resolve, reject) => this.client[method]!.call(this.client, request, (e, r) => (e ? reject(e) : resolve(r))));
  }

  /** The engine's import: a Read with the id alone. Its answer, or the error's text. */
  async importRead(type: string, id: string): Promise<{ id: string; props: unknown; inputs: unknown } | string> {
    const req = new proto.ReadRequest!();
    req.setId!(id);
    req.setUrn!(`urn:pulumi:dev::p::${type}::imported`);
    req.setType!(type);
    return this.call("read", req).then(
      (resp) => ({
        id: resp.getId!() as string,
        props: (resp.getProperties!() as { toJavaScript(): unknown }).toJavaScript(),
        inputs: (resp.getInputs!() as { toJavaScript(): unknown } | undefined)?.toJavaScript(),
      }),
      (error: Error & { details?: string }) => error.details ?? error.message,
    );
  }

  stop(): void {
    this.child.kill("SIGKILL");
  }
}

describe("the launcher and the real host", () => {
  let emulator: RunningEmulator;
  let api: ComputeClient;
  let patched: Host;
  let stock: Host;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    api = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
    const env = { ...process.env, COMPUTE_API_URL: emulator.url, COMPUTE_TOKEN: emulator.token };
    patched = await Host.start([LAUNCHER], env);
    stock = await Host.start([process.execPath, HOST], env);
  });
  afterAll(async () => {
    patched?.stop();
    stock?.stop();
    await api?.close();
    await emulator?.close();
  });

  test("a Read by id alone of a pulumi-compute resource answers the object and the inputs that manage it, with the provider line, and no write", async () => {
    const made = await api.vpcs.create({ label: "by-hand", region: "us-iad", description: "made by hand" });
    const mark = emulator.control.listRequests().length;
    const imported = await patched.importRead("pulumi-nodejs:dynamic/compute:Vpc", String(made.id));
    const line = providerText("Vpc");
    expect(imported).toEqual({
      id: String(made.id),
      props: expect.objectContaining({ label: "by-hand", region: "us-iad", description: "made by hand", __provider: line }),
      inputs: { label: "by-hand", region: "us-iad", description: "made by hand", __provider: line },
    });
    expect(writesSince(emulator, mark)).toEqual([]);
  });

  test("Pulumi's host alone cannot answer it; another dynamic provider's Read by id alone reaches the host as it was", async () => {
    const made = await api.vpcs.create({ label: "by-hand-2", region: "us-iad" });
    const stockAnswer = await stock.importRead("pulumi-nodejs:dynamic/compute:Vpc", String(made.id));
    expect(typeof stockAnswer).toBe("string");
    const foreign = await patched.importRead("pulumi-nodejs:dynamic:Resource", String(made.id));
    expect(foreign).toBe(await stock.importRead("pulumi-nodejs:dynamic:Resource", String(made.id)));
  });
});

describe("fails closed", () => {
  const modules = hostModules(HOST);
  const realRead = Object.assign(function read() {}, { toString: readMethod });

  test("the pinned host can be patched", () => {
    expect(importUnpatchable(modules)).toBeUndefined();
    expect(hostReadUnpatchable({ read: realRead })).toBeUndefined();
  });

  test("a protocol without ReadResponse.setInputs, a host without a read, or one whose read drops the inputs or finds its provider otherwise, is left alone", () => {
    const older = { ...modules, proto: { ...modules.proto, ReadResponse: function () {} } } as unknown as typeof modules;
    expect(importUnpatchable(older)).toBe("the protocol has no ReadResponse.setInputs");
    expect(importUnpatchable({ ...modules, struct: undefined })).toMatch(/Struct/);
    expect(hostReadUnpatchable({})).toBe("the host has no read method");
    const reshaped = (text: string) => ({ read: Object.assign(function read() {}, { toString: () => text }) });
    expect(hostReadUnpatchable(reshaped(readMethod().replace(/setInputs/g, "setOther")))).toBe(
      "the host's read does not pass a provider's inputs on",
    );
    expect(hostReadUnpatchable(reshaped(readMethod().replace("getProvider(props", "getProvider(req.getInputs().toJavaScript()")))).toMatch(
      /finds its provider otherwise/,
    );
  });
});
