/**
 * The log port's door side: lines of a resource on the resource's own row of `pulumi up`, for
 * every door that serves requests in a process the engine started (the dynamic provider host,
 * through its patch `host/preload.ts`; the provider plugin, `plugin/main.ts`).
 *
 * The engine's `Log` call takes the URN of the resource a line is about and an `ephemeral` flag,
 * which makes the line a status of that resource's row that is not kept once the step ends. A door
 * receives the engine's address as its first argument, and every request it serves carries the
 * resource's URN. So the door's service is wrapped (`withRowLog`): each request is served inside an
 * async context that knows its URN, and the process's row log (the engine's log port,
 * `engine/ports.ts`) sends a line to the engine for that URN. Without a door (tests, a program)
 * there is no row log, and the engine prints as before.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { ROW_LOG_SLOT, SERVING_SLOT, type RowLog } from "../engine/ports";

export type { RowLog };

/** How every notice of this package begins (`host/notice.ts`, `launch/quick-start.ts`; `pulumi-compute drift` passes them on). */
export const NOTICE_PREFIX = "pulumi-compute: ";

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
 * A door's provider service with every request served in the context of its URN, and the sink
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
  (globalThis as Record<symbol, RowLog>)[ROW_LOG_SLOT] = sink;
  (globalThis as Record<symbol, () => string | undefined>)[SERVING_SLOT] = () => serving.getStore();

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
