/**
 * The real dynamic provider host of the pinned `@pulumi/pulumi`, for the tests of `provider/host/`:
 * its files and protocol modules, its code as text (to pin what a change relies on), and a host
 * process started as the engine starts it (through this package's launcher, or Pulumi's host
 * alone) and called over gRPC as the engine calls it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

export const ROOT = path.resolve(__dirname, "../../..");
export const PULUMI = path.join(ROOT, "node_modules/@pulumi/pulumi");
export const HOST = path.join(PULUMI, "cmd/dynamic-provider/index.js");
export const LAUNCHER = path.join(ROOT, "plugins/pulumi-resource-pulumi-nodejs");

/* eslint-disable @typescript-eslint/no-require-imports -- the host's own protocol modules */
export const grpc = require(require.resolve("@grpc/grpc-js", { paths: [PULUMI] })) as typeof import("@grpc/grpc-js");
export const services = require(path.join(PULUMI, "proto/provider_grpc_pb")) as Record<string, never>;
export const proto = require(path.join(PULUMI, "proto/provider_pb")) as Record<
  string,
  new () => Record<string, (...a: unknown[]) => unknown>
>;
export const engineServices = require(path.join(PULUMI, "proto/engine_grpc_pb")) as { EngineService: never };
const { Empty } = require(require.resolve("google-protobuf/google/protobuf/empty_pb", { paths: [PULUMI] })) as { Empty: new () => unknown };
export const { Struct } = require(require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [PULUMI] })) as {
  Struct: { fromJavaScript(v: object): unknown };
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** The host's file, as text. */
export const hostSource = (): string => fs.readFileSync(HOST, "utf8");

/** A method of the host's provider service, as text (`(missing)` when it is not there). */
export function hostMethod(name: string, source = hostSource()): string {
  const start = source.indexOf(`    async ${name}(call, callback) {`);
  const end = source.indexOf("\n    }\n", start);
  return start < 0 || end < 0 ? "(missing)" : source.slice(start, end);
}

/** A short digest of a part of the host's code. */
export const sha = (text: string): string => createHash("sha256").update(text).digest("hex").slice(0, 16);

/** The `@pulumi/pulumi` version the host's package says. */
export const hostVersion = (): string =>
  (JSON.parse(fs.readFileSync(path.join(PULUMI, "package.json"), "utf8")) as { version: string }).version;

/** Fails saying what to re-read (`reread`) when the host's parts (`found`) are not the ones a change was checked against (`pinned`). */
export function expectPinned(found: Record<string, string>, pinned: Record<string, string>, reread: string): void {
  if (JSON.stringify(found) === JSON.stringify(pinned)) return;
  throw new Error(`${reread}\nthen pin what you checked: ${JSON.stringify(found)}`);
}

/** A stand-in for the engine's `Engine` service: it keeps what `Log` receives. */
export async function fakeEngine(): Promise<{ address: string; logs: Array<Record<string, unknown>>; stop(): void }> {
  const logs: Array<Record<string, unknown>> = [];
  const server = new grpc.Server();
  server.addService(engineServices.EngineService, {
    log: (call: { request: Record<string, () => unknown> }, callback: (error: null, response: unknown) => void) => {
      const request = call.request;
      logs.push({
        urn: request.getUrn!(),
        message: request.getMessage!(),
        ephemeral: request.getEphemeral!(),
        severity: request.getSeverity!(),
      });
      callback(null, new Empty());
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return { address: `127.0.0.1:${port}`, logs, stop: () => server.forceShutdown() };
}

type Client = Record<string, (req: unknown, cb: (err: Error | null, resp: Record<string, () => unknown>) => void) => void>;

/** One host process, started as the engine starts it, in this repository (where pulumi-compute resolves to itself). */
export class HostProcess {
  constructor(
    readonly child: ChildProcess,
    readonly client: Client,
    /** The port the host printed. */
    readonly port: number,
  ) {}

  /** `launcher` (a command line) with the engine's address as its last argument, and `env`. */
  static async start<T extends HostProcess>(
    this: new (child: ChildProcess, client: Client, port: number) => T,
    launcher: string[],
    engine = "127.0.0.1:1",
    env: NodeJS.ProcessEnv = process.env,
  ): Promise<T> {
    const child = spawn(launcher[0]!, [...launcher.slice(1), engine], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let err = "";
    child.stderr!.on("data", (c: Buffer) => (err += c));
    const port = await new Promise<string>((resolve, reject) => {
      child.stdout!.once("data", (c: Buffer) => resolve(String(c).trim()));
      child.once("exit", (code) => reject(new Error(`the host exited (${code}): ${err}`)));
    });
    const Client = (services as unknown as { ResourceProviderClient: new (a: string, c: unknown) => Client }).ResourceProviderClient;
    const host = new this(child, new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure()), Number(port));
    host.stderr = () => err;
    return host;
  }

  /** What the host has written to stderr since its start (its warnings, when it has no engine to send them to). */
  stderr: () => string = () => "";

  call<T = Record<string, () => unknown>>(method: string, request: unknown): Promise<T> {
    return new Promise((resolve, reject) => this.client[method]!.call(this.client, request, (e, r) => (e ? reject(e) : resolve(r as T))));
  }

  stop(): void {
    this.child.kill("SIGKILL");
  }
}

/** `proto` with its `message` reshaped to lack `member` (a protocol of another release), its static members kept. */
export function withoutMember<P extends Record<string, unknown>>(proto: P, message: string, member: string): P {
  const Original = proto[message] as { prototype: object };
  const Reshaped = function () {} as unknown as { prototype: object };
  Object.assign(Reshaped, Original);
  Reshaped.prototype = Object.fromEntries(
    Object.entries(Object.getOwnPropertyDescriptors(Original.prototype))
      .filter(([k]) => k !== member)
      .map(([k, d]) => [k, d.value]),
  );
  return { ...proto, [message]: Reshaped };
}
