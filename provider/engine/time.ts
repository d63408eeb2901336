/**
 * The time a provider waits in: the pauses between polls of a status, the backoff of a lookup, the
 * confirming reads of a shared write, and the deadline of each operation. In the provider process
 * it is real time. A stand-in for the API whose clock is its own (`pulumi-compute/testing`'s mocks,
 * an emulator in the same process) gives the engine a time whose pauses move that clock instead of
 * waiting, so a database that provisions for 20 minutes of the API's time is active after a few
 * dozen polls and no real waiting, and every wait still sees the statuses it would have seen.
 */
import { setTimeout as delay } from "node:timers/promises";
import type { Sleep } from "../../sdk/core/http";

export interface ProviderTime {
  /** Now, epoch ms: what waits measure their elapsed time with. */
  now(): number;
  /** Waits `ms` (rejects when `signal` aborts first). */
  sleep: Sleep;
  /** A signal that aborts once `ms` have passed: an operation's deadline. */
  deadline(ms: number): AbortSignal;
}

/** Real time: the provider process's, and every caller's that gives none. */
export const REAL_TIME: ProviderTime = {
  now: () => Date.now(),
  sleep: (ms, signal) => delay(ms, undefined, { signal }),
  deadline: (ms) => AbortSignal.timeout(ms),
};
