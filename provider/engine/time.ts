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

/**
 * Set by `pulumi-compute/testing`'s `emulatedStack` for the processes the engine starts: the URL of
 * the clock service of the emulator in the test's process (`testing/clock-service.ts`). A provider
 * process that finds it waits on that emulator's clock instead of real time.
 */
export const EMULATED_CLOCK_ENV = "PULUMI_COMPUTE_EMULATED_CLOCK";

/** The time of this provider process: an emulated stack's clock when the environment names one, else real time. */
export function processTime(env: NodeJS.ProcessEnv = process.env): ProviderTime {
  const url = env[EMULATED_CLOCK_ENV];
  return url ? jumpingTime(url) : REAL_TIME;
}

/**
 * Waits on the clock of an emulator in another process: a pause asks its clock service to wait,
 * and the service moves the emulator's clock forward to the pause's end (`emulated-time.ts`)
 * instead of sleeping, so a database provisions in the API's 15–30 minutes, polled at the engine's
 * intervals, in a fraction of a second. This process's `now` is real time plus the pauses it has
 * jumped, so elapsed times and deadlines count what was waited; a deadline also passes in real
 * time, as the emulator's clock never runs slower than that.
 */
export function jumpingTime(url: string): ProviderTime {
  /** How far this process's time is ahead of real time: the jumps of its pauses. */
  let ahead = 0;
  const deadlines = new Set<{ at: number; controller: AbortController }>();
  const now = () => Date.now() + ahead;
  const passDeadlines = () => {
    for (const d of deadlines) {
      if (d.at > now()) continue;
      deadlines.delete(d);
      d.controller.abort(new DOMException("The operation's deadline passed", "TimeoutError"));
    }
  };
  const wait = async (ms: number, signal: AbortSignal | undefined) => {
    const response = await fetch(`${url}/sleep`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ms }),
      signal,
    }).catch((error: unknown) => {
      if (signal?.aborted) throw signal.reason;
      throw new Error(
        `pulumi-compute: the emulated stack's clock at ${url} does not answer (${String(error)}); is the test still running?`,
        {
          cause: error,
        },
      );
    });
    await response.text();
    if (!response.ok) throw new Error(`pulumi-compute: the emulated stack's clock at ${url} refused a wait (${response.status})`);
  };
  return {
    now,
    sleep: async function sleep(ms, signal): Promise<void> {
      signal?.throwIfAborted();
      // Read once: real time runs on between two readings, and the wait asked for must be `ms`.
      const start = now();
      const end = start + Math.max(0, ms);
      // A deadline that passes before the end ends this pause there, as it would in real time.
      const until = Math.min(end, ...[...deadlines].map((d) => d.at));
      await wait(Math.max(0, until - start), signal);
      // Overlapping pauses move this process's time once, to the latest end.
      ahead += Math.max(0, until - now());
      passDeadlines();
      if (until < end) return sleep(end - now(), signal);
    },
    deadline: (ms) => {
      const entry = { at: now() + ms, controller: new AbortController() };
      deadlines.add(entry);
      const real = AbortSignal.timeout(ms);
      real.addEventListener("abort", () => deadlines.delete(entry), { once: true });
      return AbortSignal.any([entry.controller.signal, real]);
    },
  };
}
