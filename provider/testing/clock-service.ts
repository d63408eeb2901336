/**
 * The clock service of an emulated stack: the provider process the engine starts (another process)
 * waits on the clock of the emulator in the test's process through it (`engine/time.ts`
 * `jumpingTime`). A wait asked for here is a wait of `emulatedTime` on that clock, from when it
 * arrives: it moves the clock forward to the wait's end instead of sleeping, the earliest pending
 * wait first, so waits pending together overlap (waits that arrive one after the other can move
 * the clock a little further than real time would: the API is then only further along). A wait
 * whose caller goes away is dropped. Loopback only, on a free port; it keeps no process alive.
 */
import type { Clock } from "../../emulator/core/clock";
import { emulatedTime } from "./emulated-time";
import { answerJson, readJson, serveLoopback, type LoopbackService } from "./loopback";

/** The longest single wait the service takes: a day of the API's time (no wait of the engine's is longer). */
const LONGEST_WAIT_MS = 24 * 60 * 60 * 1000;

/** Its `url` is for `PULUMI_COMPUTE_EMULATED_CLOCK`. */
export type ClockService = LoopbackService;

export function startClockService(clock: Clock): Promise<ClockService> {
  const time = emulatedTime(clock);
  return serveLoopback((request, response) => {
    if (request.method !== "POST" || request.url !== "/sleep") return answerJson(response, 404, { error: "POST /sleep {ms} only" });
    void readJson(request).then((body) => {
      const ms = (body as { ms?: unknown } | undefined)?.ms;
      if (typeof ms !== "number" || !(ms >= 0) || ms > LONGEST_WAIT_MS)
        return answerJson(response, 400, { error: `ms must be a number of milliseconds from 0 to ${LONGEST_WAIT_MS}` });
      const gone = new AbortController();
      response.once("close", () => gone.abort());
      time.sleep(ms, gone.signal).then(
        () => answerJson(response, 200, { now: clock.nowMs() }),
        () => undefined, // the caller went away
      );
    });
  });
}
