/**
 * Generic status waiter. Resource-specific waiters (database `active`, image `available`, an
 * event `finished`) are a `poll` plus two predicates; the loop, the deadline, fail-fast and
 * progress reporting live here once. The clock and the delay are injectable so tests replay
 * recorded sequences of states instantly and deterministically.
 */
import { setTimeout as delay } from "node:timers/promises";
import { AbortError, WaitError, isNotFound } from "./errors";
import { decideRetry } from "./retry";
import type { CallOptions, Sleep } from "./http";

/** Options of `waitFor`: what to poll, when it is over or failed, and how long to try. */
export interface WaitOptions<T> {
  /**
   * Reads the current state (usually a `get`). The http layer already retried it; a failure it
   * would have retried further (a 5xx, a reset, a 429) costs one interval while the wait's own
   * deadline allows, any other failure propagates.
   */
  poll: (signal?: AbortSignal) => Promise<T>;
  /** True when the wait is over. */
  done: (value: T) => boolean;
  /** A message when the value is a terminal failure state (checked before `done`, so we fail fast). */
  failed?: (value: T) => string | undefined;
  /** Called with every polled value and the time elapsed since the start. */
  progress?: (value: T, elapsedMs: number) => void;
  /** Delay between polls; default 5 000 ms. */
  intervalMs?: number;
  /** First delay between polls (default `intervalMs`); each next one is 1.5× longer, up to `intervalMs`. */
  firstIntervalMs?: number;
  /** Overall deadline. */
  timeoutMs: number;
  /** What is awaited, for messages: "database 12 to become active". */
  what?: string;
  sleep?: Sleep;
  signal?: AbortSignal;
  /** Clock in ms; default `Date.now`. Tests advance a fake clock from their fake `sleep`. */
  now?: () => number;
}

const defaultSleep: Sleep = (ms, signal) => delay(ms, undefined, { signal });

/**
 * Polls until `done`, and resolves the final value. Rejects with `WaitError` (kind `failed`) as
 * soon as `failed` returns a message, with `WaitError` (kind `timeout`) once `timeoutMs` has
 * passed, and with `AbortError` when `signal` aborts.
 */
export async function waitFor<T>(options: WaitOptions<T>): Promise<T> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const interval = options.intervalMs ?? 5_000;
  const what = options.what ?? "the expected state";
  let next = Math.min(options.firstIntervalMs ?? interval, interval);
  /** The next delay, never past the deadline (the last poll happens right at it); polling backs off to `interval`. */
  const delayWithin = (remaining: number) => {
    const ms = Math.min(interval, remaining, next);
    next = Math.min(interval, Math.round(next * 1.5));
    return ms;
  };
  const start = now();
  for (;;) {
    if (options.signal?.aborted) throw new AbortError(`aborted while waiting for ${what}`);
    let value: T;
    try {
      value = await options.poll(options.signal);
    } catch (error) {
      const remaining = options.timeoutMs - (now() - start);
      if (!decideRetry(error, 1, { idempotent: true }).retry || remaining <= 0) throw error;
      await pause(sleep, delayWithin(remaining), what, options.signal);
      continue;
    }
    const elapsed = now() - start;
    options.progress?.(value, elapsed);
    const failure = options.failed?.(value);
    if (failure !== undefined) throw new WaitError(`gave up waiting for ${what}: ${failure}`, { kind: "failed", last: value });
    if (options.done(value)) return value;
    const remaining = options.timeoutMs - elapsed;
    if (remaining <= 0) {
      throw new WaitError(`timed out after ${options.timeoutMs} ms waiting for ${what}`, { kind: "timeout", last: value });
    }
    await pause(sleep, delayWithin(remaining), what, options.signal);
  }
}

async function pause(sleep: Sleep, ms: number, what: string, signal: AbortSignal | undefined): Promise<void> {
  try {
    await sleep(ms, signal);
  } catch (cause) {
    throw new AbortError(`aborted while waiting for ${what}`, { cause });
  }
}

/** What a record's status waiter (`images.waitForStatus`, `computes.instances.waitForStatus`) takes: `waitFor`'s pacing and clock. */
export interface RecordWaitOptions<T> extends CallOptions {
  /** The wait's deadline; each waiter states its default. */
  timeoutMs?: number;
  /** Longest delay between polls; each waiter states its default. */
  intervalMs?: number;
  /** Every polled state (`undefined` once the record is gone) and the time elapsed. */
  progress?: (record: T | undefined, elapsedMs: number) => void;
  sleep?: Sleep;
  now?: () => number;
}

/**
 * Waits on one record's status: polls `get`, reading a 404 as `undefined` (the record is gone, for
 * `failed` to name), with the caller's pacing, clock and signal over the waiter's defaults.
 */
export function waitForRecord<T>(
  get: (options: CallOptions) => Promise<T>,
  wait: Pick<WaitOptions<T | undefined>, "done" | "failed" | "what" | "intervalMs" | "firstIntervalMs" | "timeoutMs">,
  options: RecordWaitOptions<T>,
): Promise<T> {
  return waitFor<T | undefined>({
    ...wait,
    poll: (signal) =>
      get({ signal }).catch((error: unknown) => {
        if (isNotFound(error)) return undefined;
        throw error;
      }),
    progress: options.progress,
    intervalMs: options.intervalMs ?? wait.intervalMs,
    timeoutMs: options.timeoutMs ?? wait.timeoutMs,
    sleep: options.sleep,
    now: options.now,
    signal: options.signal,
  }) as Promise<T>;
}
