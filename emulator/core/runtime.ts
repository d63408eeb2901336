/**
 * What route handlers and models may use of the running emulator. Kept as an interface so the
 * services depend on this small surface, not on the composition root (`emulator/emulator.ts`).
 */
import type { Clock } from "./clock";
import type { EmulatorState, IdKind } from "./state";
import type { FaultInjector } from "./faults";
import type { RequestLog } from "./request-log";

export interface EmulatorRuntime {
  readonly state: EmulatorState;
  readonly clock: Clock;
  readonly faults: FaultInjector;
  readonly requestLog: RequestLog;
  /** Next id of an object type (global counters, like the platform's). */
  nextId(kind: IdKind): number;
  /** Writes the state file, when one is configured. Called after every mutation. */
  persist(): void;
}
