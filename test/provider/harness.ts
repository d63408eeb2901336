/**
 * The life every provider test file shares, as jest hooks: an emulator and a client started
 * before the file's tests (`test/support/provider.ts`, which also configures the registry),
 * closed after them, and reset — state, faults, request log — before each test.
 */
import type { RunningEmulator } from "../../emulator";
import type { ComputeClient } from "../../sdk/client";
import { startProviderHarness, type TestConfig } from "../support/provider";
import { forgetSessions } from "../../provider/registry";

export class ProviderHarness {
  /** The stack config `configure` saw; tests may change entries (a missing token, say). */
  readonly config: TestConfig = {};
  running: { emulator: RunningEmulator; client: ComputeClient } | undefined;

  get emulator(): RunningEmulator {
    return this.started().emulator;
  }

  get client(): ComputeClient {
    return this.started().client;
  }

  /** The writes the emulator was sent since the test began (its request log is reset before each), as `METHOD path`. */
  writes(): string[] {
    return this.emulator.control
      .listRequests()
      .filter((r) => r.method !== "GET")
      .map((r) => `${r.method} ${r.path}`);
  }

  private started() {
    if (!this.running) throw new Error("the provider harness runs inside a test file's tests only");
    return this.running;
  }
}

/** Starts the harness for this test file. `timeScale` speeds the emulator's clock (provisioning, captures). */
export function useProviderHarness(options: { timeScale?: number } = {}): ProviderHarness {
  const harness = new ProviderHarness();
  beforeAll(async () => {
    harness.running = await startProviderHarness(harness.config);
    if (options.timeScale !== undefined) harness.emulator.control.setClock({ scale: options.timeScale });
  });
  afterAll(async () => {
    await harness.running?.client.close();
    await harness.running?.emulator.close();
  });
  beforeEach(() => {
    harness.emulator.control.reset();
    forgetSessions(); // ids start again after a reset: nothing kept may outlive it
  });
  return harness;
}
