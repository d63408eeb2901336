/**
 * What the engine needs from the house around it, handed in through its context
 * (`ProviderContext`): where a resource's lines go, which resource is being served, the stacks of
 * the backend, and who hears each API call. The engine defines these ports and never fills them:
 * the serving layer (`provider/serve/`) does, for every door alike.
 *
 * The log port a context is given by default is the process's (`PROCESS_LOG`): slots under global
 * symbols rather than a module's state, because the code that fills them (the preloaded change to
 * Pulumi's dynamic provider host) and the engine that reads them may be two copies of this package
 * in one process. `explain`, which has no context at hand, names the resource being served from it.
 */
import type { AnyEndpoint } from "../../sdk/core/endpoint";
import type { ProgramLanguage } from "./alias-text";

/** Sends one line for the resource being served: a status of its row (`ephemeral`) or a kept line; false when it cannot. */
export type RowLog = (message: string, ephemeral: boolean) => boolean;

/** The slot of the process's `RowLog`, filled while a door serves requests (`serve/row-log.ts`). */
export const ROW_LOG_SLOT = Symbol.for("pulumi-compute.row-log");
/** The slot of the process's "URN being served" lookup, filled with the `RowLog`. */
export const SERVING_SLOT = Symbol.for("pulumi-compute.serving");

const slots = globalThis as Record<symbol, unknown>;

/** The row log installed in this process, if any. */
export function rowLog(): RowLog | undefined {
  return slots[ROW_LOG_SLOT] as RowLog | undefined;
}

/** The URN of the resource whose request is being served, where the door knows it. */
export function servedUrn(): string | undefined {
  return (slots[SERVING_SLOT] as (() => string | undefined) | undefined)?.() || undefined;
}

/** Where a served resource's lines go, and which resource is being served. */
export interface LogPort {
  /** Sends one line to the row of the resource being served (a status when `ephemeral`); false when there is none. */
  row(message: string, ephemeral: boolean): boolean;
  /** The URN of the resource whose request is being served, where the door knows it. */
  urn(): string | undefined;
}

/** The process's log port: the slots a door fills while it serves. */
export const PROCESS_LOG: LogPort = { row: (message, ephemeral) => rowLog()?.(message, ephemeral) ?? false, urn: servedUrn };

/** The program's name of the resource whose request is being served (`app-net` of its URN), where the door knows it. */
export function servedResource(log: LogPort = PROCESS_LOG): string | undefined {
  const urn = log.urn();
  return urn?.slice(urn.lastIndexOf("::") + 2) || undefined;
}

/** A resource as a stack's checkpoint records it (the fields the owner lookup reads). */
export interface StateEntry {
  urn: string;
  type: string;
  id?: string;
  /** The URN of its parent (the stack's own resource for one at the top level). */
  parent?: string;
}

/** The backend's stacks as the engine reads them to say who holds an object (`ownership.ts`). */
export interface BackendReader {
  /** The URL of the run's backend, when it can be found. */
  url(): string | undefined;
  /** The stacks it holds (`organization/<project>/<stack>`); undefined for a backend that cannot be read. */
  stacks(url: string): Promise<string[] | undefined>;
  /** The resources of one stack's last checkpoint. */
  resources(url: string, stack: string): Promise<StateEntry[] | undefined>;
}

/** The ports a context is given; each one absent is a house without it (no backend, no call log; the process's log port). */
export interface ContextPorts {
  /** Where the lines of `progress` and `status` go, and which resource is served; the process's (`PROCESS_LOG`) when absent. */
  log?: LogPort;
  backend?: BackendReader;
  /** The `onCall` of each client the context builds (made when the client is). */
  onCall?: () => ((endpoint: AnyEndpoint) => void) | undefined;
  /** The language of the program served, which messages write their advice in; TypeScript when absent. */
  language?: () => ProgramLanguage;
}
