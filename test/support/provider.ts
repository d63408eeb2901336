/**
 * For tests that call provider methods directly: an emulator on a random port, an sdk client for
 * it, and the provider registry configured with its URL and token through `configure`, the way the
 * engine configures a provider process from stack config.
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { provider } from "../../provider/registry";

/** Stack config as `configure` sees it; tests may change entries (a missing token, say). */
export type TestConfig = Record<string, string | undefined>;

export async function startProviderHarness(config: TestConfig = {}): Promise<{ emulator: RunningEmulator; client: ComputeClient }> {
  const emulator = await startEmulator({ port: 0 });
  const client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  config["compute:token"] = emulator.token;
  config["compute:apiUrl"] = emulator.url;
  // The emulator counts rate-limit windows it does not enforce; provider tests make bursts of
  // hundreds of requests and test what the provider does, not its pacing (tested on its own).
  config["compute:pacing"] ??= "off";
  // One configure serves every kind: the registry keeps one context per provider process.
  await provider("Vpc").configure!({ config: { get: (key: string) => config[key], require: (key: string) => config[key]! } });
  return { emulator, client };
}
