/**
 * What the one emulator fixture test (`test/emulator/fixtures.test.ts`) reads from each area: how
 * to obtain the emulator's counterpart of a recorded exchange. Every service with recordings has a
 * `replays.ts` beside its tests (`test/emulator/services/<name>/replays.ts`), the core's envelopes
 * have theirs (`test/emulator/core/replays.ts`); the fixture test imports them all.
 */
import type { AnyEndpoint } from "../../sdk/core/endpoint";
import type { EmulatorOptions } from "../../emulator";
import type { Fixture } from "../support/fixtures";
import type { ApiResponse, TestEmulator } from "./helpers";

/** Sends the call behind a recording (after whatever setup it needs) and returns the emulator's answer. */
export type Replay = (fixture: Fixture) => Promise<ApiResponse>;

/** A replay with what it needs said about it. */
export interface ReplayEntry {
  replay: Replay;
  /** Shape differences the recording is known to have (`$.prefix: not in the recording`), each explained where listed. */
  documented?: readonly string[];
  /**
   * The endpoint the replay's last request goes to when it is not the recording's own (a recording of
   * an endpoint outside the sdk, or an envelope the emulator reproduces on another endpoint), and why.
   */
  elsewhere?: { endpoint: AnyEndpoint; why: string };
}

/** One area's replays. */
export interface ReplayModule {
  /** The service folder (`vpcs`), or `core` for the envelopes every endpoint shares. */
  name: string;
  /** The emulator the replays need (default: `startTestEmulator()`'s). */
  options?: EmulatorOptions;
  /** The replays by fixture name (`vpc.create.json`, `unrecorded/ipv6_pool.list.json`), on a running emulator. */
  replays(emu: TestEmulator): Record<string, Replay | ReplayEntry>;
  /**
   * How an answer is compared with its recording; default `expectMatchesRecording` (same status,
   * exactly the recorded error body, the same keys apart from the entry's documented differences).
   */
  compare?(name: string, response: ApiResponse, fixture: Fixture, documented: readonly string[]): void;
  /** Checks of recorded values beyond the shape, as named tests on a running emulator. */
  details?(emu: TestEmulator): Record<string, () => Promise<void>>;
}

/** Declares an area's replays (keeps the literal types). */
export function replayModule(module: ReplayModule): ReplayModule {
  return module;
}
