/**
 * The row log in Pulumi's dynamic provider host: where the host's protocol has the engine's `Log`
 * (`engineModules`), and which of its requests carry the URN that names a resource's row. The
 * wrapping itself is the serving layer's (`serve/row-log.ts`), shared with the provider plugin.
 */
import type { EngineModules } from "../serve/row-log";
import type { HostModules } from "./modules";

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

/** The requests whose URN names the row a line goes on (each carries the resource's URN). */
export const REQUESTS_WITH_URN = ["CheckRequest", "DiffRequest", "CreateRequest", "ReadRequest", "UpdateRequest", "DeleteRequest"].map(
  (message) => [message, "getUrn"] as const,
);
