/** What an emulator in the test's process received, for tests that hold a step to sending no write. */
import type { RunningEmulator } from "../../emulator";

/** The writes (any method but GET) the emulator received after its first `mark` requests, as `METHOD path`. */
export const writesSince = (emulator: RunningEmulator, mark: number): string[] =>
  emulator.control
    .listRequests()
    .slice(mark)
    .filter((r) => r.method !== "GET")
    .map((r) => `${r.method} ${r.path}`);
