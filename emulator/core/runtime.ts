/**
 * What route handlers and models may use of the running emulator. Kept as an interface so the
 * services depend on this small surface, not on the composition root (`emulator/emulator.ts`).
 */
import type { Clock } from "./clock";
import type { EmulatorState, IdKind } from "./state";
import type { FaultInjector } from "./faults";
import type { RequestLog } from "./request-log";
import type { RateLimiter } from "./rate-limit";

export interface EmulatorRuntime {
  readonly state: EmulatorState;
  readonly clock: Clock;
  readonly faults: FaultInjector;
  readonly requestLog: RequestLog;
  /** Present while rate limiting is on (api-facts P8-1); off by default. */
  readonly rateLimiter?: RateLimiter | undefined;
  /** TCP port on which `POST /domains/import` reaches remote nameservers (53 when unset). */
  readonly zoneTransferPort?: number | undefined;
  /** Next id of an object type (global counters, like the platform's). */
  nextId(kind: IdKind): number;
  /** Writes the state file, when one is configured. Called after every mutation. */
  persist(): void;
}
