/**
 * The provider's time (`engine/time.ts`) on the clock of an emulator in the same process, for the
 * mocks: the emulator's clock stands still unless the provider waits, and a wait moves it forward
 * by exactly the time waited instead of sleeping. The provider and the API then agree on time as
 * they would at real speed — a database provisions for its 15–30 minutes, polled at the engine's
 * own intervals, and every status along the way is seen — but nothing waits in real time. An
 * operation's deadline passes when the waits add up to it, so a stuck wait fails as it would, at
 * once.
 */
import type { Clock } from "../../emulator/core/clock";
import type { ProviderTime } from "../engine/time";

/** A wait or a deadline not reached yet: it ends once the clock reaches `at`. */
interface Pending {
  at: number;
  end(): void;
}

/**
 * Waits end one at a time, the earliest first, each on a turn of the event loop of its own (as
 * timers fire), the clock moved to its end; requests in flight go on between turns. Waits asked
 * for together therefore overlap: three of 1, 5 and 15 seconds end 15 seconds later, not 21.
 */
export function emulatedTime(clock: Clock): ProviderTime {
  const waits: Pending[] = [];
  const deadlines: Pending[] = [];
  let turning = false;
  const passDeadlines = () => {
    const now = clock.nowMs();
    for (const d of deadlines.filter((d) => d.at <= now)) {
      deadlines.splice(deadlines.indexOf(d), 1);
      d.end();
    }
  };
  const turn = () => {
    turning = false;
    const next = waits.sort((a, b) => a.at - b.at).shift();
    if (!next) return;
    // Read once: a scaled emulator's clock runs between two readings, and could pass the wait's end.
    const now = clock.nowMs();
    if (next.at > now) clock.advance(next.at - now);
    passDeadlines();
    next.end();
    schedule();
  };
  const schedule = () => {
    if (turning || waits.length === 0) return;
    turning = true;
    setImmediate(turn);
  };
  return {
    now: () => clock.nowMs(),
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const onAbort = () => {
          const index = waits.indexOf(wait);
          if (index >= 0) waits.splice(index, 1);
          reject(signal!.reason);
        };
        const wait: Pending = {
          at: clock.nowMs() + Math.max(0, ms),
          end: () => {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          },
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        waits.push(wait);
        schedule();
      }),
    deadline: (ms) => {
      const controller = new AbortController();
      deadlines.push({
        at: clock.nowMs() + ms,
        end: () => controller.abort(new DOMException("The operation's deadline passed", "TimeoutError")),
      });
      return controller.signal;
    },
  };
}
