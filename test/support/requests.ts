/** What an emulator in the test's process received, for tests that hold a step to sending no write. */
import { setTimeout as delay } from "node:timers/promises";
import type { RunningEmulator } from "../../emulator";

/** The writes (any method but GET) the emulator received after its first `mark` requests, as `METHOD path`. */
export const writesSince = (emulator: RunningEmulator, mark: number): string[] =>
  emulator.control
    .listRequests()
    .slice(mark)
    .filter((r) => r.method !== "GET")
    .map((r) => `${r.method} ${r.path}`);

/**
 * Waits until the emulator has answered every request it received, at most `withinMs`: requests a
 * latency fault held are carried out when their hold ends, whether or not their caller (a killed
 * run) is still there to read the answer. A test that waited a fixed time for them goes on as soon
 * as they are carried out.
 */
export async function heldRequestsDone(emulator: RunningEmulator, withinMs: number): Promise<void> {
  const until = Date.now() + withinMs;
  while (emulator.control.listRequests().some((r) => r.status === null) && Date.now() < until) await delay(25);
}
