/**
 * The modules of Pulumi's dynamic provider host that the changes in `host/` use, resolved from
 * the host's own file, so they are the very instances the host uses (its copy of the protocol,
 * of gRPC and of protobuf's `Struct`). Nothing here is trusted to be shaped as expected: each
 * change checks the members it uses (`preview.ts`, `diff-response.ts`, `engine-log.ts`) and steps aside,
 * saying why (`notice.ts`), when one is missing.
 */
import { createRequire } from "node:module";
import { HOST_ENTRY } from "./entry";

/** A protocol module: message classes by name, each with the accessors of its fields. */
export type ProtoModule = Record<string, ProtoMessage | undefined>;
/** A message class of the protocol; its static members hold enums (`DiffResponse.DiffChanges`). */
export type ProtoMessage = (new () => Record<string, unknown>) & { prototype: Record<string, unknown> } & Record<string, unknown>;

export interface HostModules {
  /** `@pulumi/pulumi`'s version, as its package.json says (for the notice). */
  version: string | undefined;
  /** gRPC's `Server`, whose `addService` receives the host's provider service. */
  server: { prototype: { addService(service: unknown, implementation: object): void } } | undefined;
  /** The provider service's definition, as the host adds it. */
  service: unknown;
  /** `proto/provider_pb`. */
  proto: ProtoModule;
  /** protobuf's `Struct` (`fromJavaScript`; instances have `toJavaScript`). */
  struct: { fromJavaScript?: unknown; prototype?: { toJavaScript?: unknown } } | undefined;
  /** `proto/engine_pb` and `proto/engine_grpc_pb`, for the engine's `Log`; undefined when absent. */
  engine: { proto: ProtoModule; grpc: Record<string, unknown>; insecure: (() => unknown) | undefined } | undefined;
}

/** Loads `id` from the host's folder; undefined when it is not there. */
function optional<T>(hostRequire: NodeJS.Require, id: string): T | undefined {
  try {
    return hostRequire(id) as T;
  } catch {
    return undefined;
  }
}

/**
 * The host's modules, from the host's file. Throws only when the protocol module itself is missing
 * (nothing of the host can be changed then); a missing member of any module is left for the checks.
 */
export function hostModules(hostFile: string): HostModules {
  const hostRequire = createRequire(hostFile);
  const proto = hostRequire("../../proto/provider_pb") as ProtoModule;
  const grpc = optional<{ Server?: HostModules["server"]; credentials?: { createInsecure?: () => unknown } }>(hostRequire, "@grpc/grpc-js");
  const engineProto = optional<ProtoModule>(hostRequire, "../../proto/engine_pb");
  const engineGrpc = optional<Record<string, unknown>>(hostRequire, "../../proto/engine_grpc_pb");
  const createInsecure = grpc?.credentials?.createInsecure;
  return {
    version: optional<{ version?: string }>(hostRequire, "../../package.json")?.version,
    server: grpc?.Server,
    service: optional<{ ResourceProviderService?: unknown }>(hostRequire, "../../proto/provider_grpc_pb")?.ResourceProviderService,
    proto,
    struct: optional<{ Struct?: HostModules["struct"] }>(hostRequire, "google-protobuf/google/protobuf/struct_pb")?.Struct,
    engine:
      engineProto && engineGrpc
        ? { proto: engineProto, grpc: engineGrpc, insecure: typeof createInsecure === "function" ? () => createInsecure() : undefined }
        : undefined,
  };
}

/** `Message.member` is a function of the message's instances (a getter or setter of the protocol). */
export function hasMethod(proto: ProtoModule, message: string, member: string): boolean {
  return typeof proto[message]?.prototype?.[member] === "function";
}

/** The first `Message.member` of `needs` that the protocol lacks, as the notice names it; undefined when it has them all. */
export function missingMethod(proto: ProtoModule, needs: ReadonlyArray<readonly [string, string]>): string | undefined {
  const missing = needs.find(([message, member]) => !hasMethod(proto, message, member));
  return missing && `the protocol has no ${missing[0]}.${missing[1]}`;
}

/** Why protobuf's `Struct` of the host cannot carry values both ways, or undefined when it can. */
export function structUnusable(modules: HostModules): string | undefined {
  const struct = modules.struct;
  if (typeof struct?.fromJavaScript !== "function" || typeof struct.prototype?.toJavaScript !== "function")
    return "protobuf's Struct has no fromJavaScript/toJavaScript";
  return undefined;
}

/** A change's decision in this process: whether it patched the host, and why not when it could not. */
export interface HostDecision {
  patched: boolean;
  /** Why not, when this is the host and its protocol lacks something. */
  reason?: string;
}

/**
 * Decides a change under a launcher that did not preload this package, once per process: when this
 * process runs the host, `install` patches it from the host's own protocol; anywhere else nothing
 * is patched. `decided` is the decision made already, if any; `decide` records one. Returns why the
 * change is off, if it is.
 */
export function decideInHost(
  decided: HostDecision | undefined,
  decide: (decision: HostDecision) => HostDecision,
  install: (proto: ProtoModule) => string | undefined,
): string | undefined {
  if (decided) return decided.reason;
  const main = require.main;
  if (!main || !HOST_ENTRY.test(main.filename)) return decide({ patched: false }).reason;
  try {
    return install(hostModules(main.filename).proto);
  } catch (error) {
    return decide({ patched: false, reason: `the host's protocol could not be loaded (${String(error)})` }).reason;
  }
}
