/**
 * An emulated account for an end-to-end test file, as jest hooks: an emulator and a client started
 * before the file's tests; after them, every stack made with `stack()` destroyed (the newest
 * first, so a stack that reads another's objects goes before it) and its folders removed, then
 * the client and the emulator closed. One preamble for the files that used to repeat it.
 *
 * Its stacks are ephemeral unless a test says otherwise: the provider's waits jump the emulator's
 * clock, and the state is written once per operation (`TestStackOptions.ephemeral`).
 */
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { createTestStack, type TestStack, type TestStackOptions } from "./engine";

export interface EmulatedAccount {
  readonly emulator: RunningEmulator;
  readonly client: ComputeClient;
  /** A stack on this account's emulator (its URL and token), destroyed after the file's tests. */
  stack(options: Omit<TestStackOptions, "apiUrl" | "token">): Promise<TestStack>;
}

export function useEmulatedAccount(options: Omit<EmulatorOptions, "port"> = {}): EmulatedAccount {
  let running: { emulator: RunningEmulator; client: ComputeClient } | undefined;
  const stacks: TestStack[] = [];
  beforeAll(async () => {
    const emulator = await startEmulator({ ...options, port: 0 });
    running = { emulator, client: new ComputeClient({ baseUrl: emulator.url, token: emulator.token }) };
  });
  afterAll(async () => {
    for (const s of stacks.reverse()) {
      await s.stack.destroy().catch(() => undefined);
      s.cleanup();
    }
    await running?.client.close();
    await running?.emulator.close();
  });
  const started = () => {
    if (!running) throw new Error("the emulated account runs inside a test file's tests only");
    return running;
  };
  return {
    get emulator() {
      return started().emulator;
    },
    get client() {
      return started().client;
    },
    async stack(stackOptions) {
      const { emulator } = started();
      const ephemeral = { checkpoints: false, clock: emulator.emulator.clock } as const;
      const s = await createTestStack({ ephemeral, ...stackOptions, apiUrl: emulator.url, token: emulator.token });
      stacks.push(s);
      return s;
    },
  };
}
