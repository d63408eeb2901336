/**
 * Lines of a resource on the resource's own row of `pulumi up`, inside the provider process only.
 *
 * Pulumi's dynamic provider host passes a provider's stdout to the engine as diagnostics of the
 * stack, so every progress line used to land on the `pulumi:pulumi:Stack` row and come back under
 * Diagnostics at the end. The engine offers more to every provider process: its `Log` call takes
 * the URN of the resource a line is about and an `ephemeral` flag, which makes the line a status
 * of that resource's row that is not kept once the step ends. The host receives the engine's
 * address as its first argument, and every request it serves carries the resource's URN.
 *
 * So, when the preload (`preload.ts`) wraps the host's provider service, each request is served
 * inside an async context that knows its URN, and a process-wide sink (`rowLog`) sends a line to
 * the engine for that URN. The sink is a global, not a module export, because the preloaded host
 * change and the provider code the host loads may be two copies of this package. Without the
 * host (tests, a program, another host) there is no sink, and callers print as before.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { HostModules } from "./modules";

/** Sends one line for the resource being served: a status of its row (`ephemeral`) or a kept line; false when it cannot. */
export type RowLog = (message: string, ephemeral: boolean) => boolean;

const SINK = Symbol.for("pulumi-compute.row-log");
const SERVING = Symbol.for("pulumi-compute.serving");

/** The sink installed in this process by the host change, if any. */
export function rowLog(): RowLog | undefined {
  return (globalThis as Record<symbol, RowLog | undefined>)[SINK];
}

/** The URN of the resource whose request is being served, where the host change knows it. */
export function servedUrn(): string | undefined {
  return (globalThis as Record<symbol, (() => string | undefined) | undefined>)[SERVING]?.() || undefined;
}

/** The program's name of the resource whose request is being served (`app-net` of its URN), where the host change knows it. */
export function servedResource(): string | undefined {
  const urn = servedUrn();
  return urn?.slice(urn.lastIndexOf("::") + 2) || undefined;
}

type Callback = (error: unknown, response?: unknown, ...rest: unknown[]) => void;
type Method = (call: { request: { getUrn?: () => string } }, callback: Callback) => unknown;

/** What of the host's modules the engine's `Log` needs. */
export interface EngineModules {
  client: new (address: string, credentials: unknown) => { log(request: unknown, callback: (error: unknown) => void): unknown };
  logRequest: new () => LogRequestMessage;
  insecure: () => unknown;
  /** `LogSeverity.INFO` and `LogSeverity.WARNING`. */
  info: number;
  warning: number;
}
interface LogRequestMessage {
  setSeverity(severity: number): unknown;
  setMessage(message: string): unknown;
  setUrn(urn: string): unknown;
  setEphemeral(ephemeral: boolean): unknown;
}

/** The engine's `Log` as the host's protocol has it, each part possibly missing (see `unloggable`). */
export function engineModules(engine: HostModules["engine"]): Partial<EngineModules> | undefined {
  if (!engine) return undefined;
  const severity = engine.proto.LogSeverity as unknown as Record<string, unknown> | undefined;
  return {
    client: engine.grpc.EngineClient as EngineModules["client"],
    logRequest: engine.proto.LogRequest as unknown as EngineModules["logRequest"],
    insecure: engine.insecure,
    info: severity?.INFO as number,
    warning: severity?.WARNING as number,
  };
}

/** Why the engine's `Log` cannot be used, or undefined when it can. */
export function unloggable(modules: Partial<EngineModules> | undefined, engineAddress: string | undefined): string | undefined {
  if (!engineAddress) return "the host has no engine address";
  if (!modules || typeof modules.client !== "function" || typeof modules.insecure !== "function")
    return "the protocol has no Engine client";
  for (const severity of ["info", "warning"] as const) {
    if (typeof modules[severity] !== "number") return `the protocol has no LogSeverity.${severity.toUpperCase()}`;
  }
  for (const setter of ["setSeverity", "setMessage", "setUrn", "setEphemeral"] as const) {
    if (typeof (modules.logRequest?.prototype as Partial<LogRequestMessage> | undefined)?.[setter] !== "function")
      return `the protocol has no LogRequest.${setter}`;
  }
  return undefined;
}

/** The requests whose URN names the row a line goes on (each carries the resource's URN). */
export const REQUESTS_WITH_URN = ["CheckRequest", "DiffRequest", "CreateRequest", "ReadRequest", "UpdateRequest", "DeleteRequest"].map(
  (message) => [message, "getUrn"] as const,
);

/** Sends a line to the engine's `Log`: about `urn` (the stack's diagnostics when empty), as a status when `ephemeral`. */
export type EngineLog = (severity: "info" | "warning", message: string, urn: string, ephemeral: boolean) => void;

/** The engine's `Log` at `engineAddress`; a line the engine refuses is printed instead, so it is never lost. */
export function engineLog(modules: EngineModules, engineAddress: string): EngineLog {
  const engine = new modules.client(engineAddress, modules.insecure());
  return (severity, message, urn, ephemeral) => {
    const request = new modules.logRequest();
    request.setSeverity(modules[severity]);
    request.setMessage(message);
    request.setUrn(urn);
    request.setEphemeral(ephemeral);
    engine.log(request, (error) => {
      if (error) (severity === "info" ? console.log : console.error)(message);
    });
  };
}

/**
 * The host's provider service with every request served in the context of its URN, and the sink
 * installed that sends a line for that URN to the engine. `onServe` hears each URN served.
 */
export function withRowLog(log: EngineLog, host: object, onServe?: (urn: string) => void): object {
  const serving = new AsyncLocalStorage<string>();
  const sink: RowLog = (message, ephemeral) => {
    const urn = serving.getStore();
    if (!urn) return false;
    log("info", message, urn, ephemeral);
    return true;
  };
  (globalThis as Record<symbol, RowLog>)[SINK] = sink;
  (globalThis as Record<symbol, () => string | undefined>)[SERVING] = () => serving.getStore();

  // Every method runs on the host itself (its `configure` keeps the config on `this`), and the
  // resource's requests in the context of their URN.
  return new Proxy(host, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== "function") return value;
      const method = value as Method;
      return (call: Parameters<Method>[0], callback: Callback) => {
        const urn = typeof call?.request?.getUrn === "function" ? call.request.getUrn() : "";
        if (!urn) return method.call(target, call, callback);
        onServe?.(urn);
        return serving.run(urn, () => method.call(target, call, callback));
      };
    },
  });
}
