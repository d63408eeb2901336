/**
 * `pulumi-resource-compute --mocks`: the plugin serving an emulated account of its own, for the
 * unit tests of programs in other languages. Python's and Go's mocks (`pulumi_compute.testing`,
 * the Go SDK's `compute/testing`) start the plugin this way and send each of the package's
 * resources through its Check and Create, and each data function through its Invoke, so a test
 * sees what an `up` records — ids in the API's form, `hosts.primary`, `port`, the API's refusals —
 * from the same engine as every other door. The account is `computeMocks`'s: the emulator in
 * this process, seeded with the demo environment, on a clock that only the provider's waits move
 * (`testing/emulated-time.ts`), so a database is ready without waiting in real time.
 */
import { CONFIG_API_URL, CONFIG_PACING, CONFIG_TOKEN } from "../engine/context";
import type { ProviderTime } from "../engine/time";
import { emulatedTime } from "../testing/emulated-time";
import { demoEnvironment, LocalApi } from "../testing/local-api";

/** The configuration and clock of the emulated account the plugin serves. */
export interface MockedAccount {
  config: Record<string, string>;
  time: ProviderTime;
  close(): Promise<void>;
}

export async function mockedAccount(): Promise<MockedAccount> {
  const api = await LocalApi.start({ timeScale: 0, seed: demoEnvironment });
  return {
    config: { [CONFIG_API_URL]: api.url, [CONFIG_TOKEN]: api.token, [CONFIG_PACING]: "off" },
    time: emulatedTime(api.emulator.clock),
    close: () => api.close(),
  };
}
