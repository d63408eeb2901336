/**
 * What route handlers and services may use of the running emulator. Kept as an interface so the
 * services depend on this small surface, not on the composition root (`emulator/emulator.ts`).
 */
import type { Clock } from "./clock";
import type { AccountState, EmulatorState, IdCounter } from "./state";
import type { FaultInjector } from "./faults";
import type { RequestLog } from "./request-log";
import type { RateLimiter } from "./rate-limit";

export interface EmulatorRuntime {
  readonly state: EmulatorState;
  readonly clock: Clock;
  readonly faults: FaultInjector;
  readonly requestLog: RequestLog;
  /** Counts requests for the rate-limit headers; refuses past a limit only when enforcing (api-facts P8-1). */
  readonly rateLimiter: RateLimiter;
  /** Refuse unknown body fields instead of ignoring them as the API does (`core/unknown-fields.ts`). */
  readonly strict: boolean;
  /** TCP port on which `POST /domains/import` reaches remote nameservers (53 when unset). */
  readonly zoneTransferPort?: number | undefined;
  /** Next id of a counter (global, like the platform's ids). */
  nextId(counter: IdCounter): number;
  /** Writes the state file, when one is configured. Called after every mutation. */
  persist(): void;
  /** Aborted when the emulator closes: a request waiting in real time (a latency fault) ends then, unanswered. */
  readonly closing: AbortSignal;
}

/**
 * Who acts on an account, and the name its events carry: a route's caller (`ctx.actor`), the
 * provider's staff (control operations), or the platform's own automatic work (`username: null`).
 */
export interface Actor {
  readonly runtime: EmulatorRuntime;
  readonly account: AccountState;
  readonly username: string | null;
}

/** An actor with a name: a route's caller, or the provider's staff. */
export interface NamedActor extends Actor {
  readonly username: string;
}
