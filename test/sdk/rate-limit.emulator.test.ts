/**
 * A burst through the sdk against the emulator with rate limiting on: every 429 is retried
 * after the Retry-After the emulator sent, and no request is lost.
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";

let emulator: RunningEmulator;
afterAll(() => emulator.close());

test("a burst of ticket opens past the limit completes, each 429 retried after Retry-After", async () => {
  // 2 per emulated minute; at 60x a window lasts one real second.
  emulator = await startEmulator({ port: 0, timeScale: 60, rateLimits: true });
  const waits: number[] = [];
  const client = new ComputeClient({
    baseUrl: emulator.url,
    token: emulator.token,
    onRetry: (r) => waits.push(r.delayMs),
  });
  try {
    const burst = Array.from({ length: 6 }, (_, i) => client.support.tickets.open({ summary: `burst ${i}`, description: "rate limited" }));
    const tickets = await Promise.all(burst);
    expect(new Set(tickets.map((t) => t.id)).size).toBe(6);
    const listed = await client.support.tickets.listAll();
    expect(listed.map((t) => t.summary).sort()).toEqual(["burst 0", "burst 1", "burst 2", "burst 3", "burst 4", "burst 5"]);

    const opens = emulator.control.listRequests().filter((r) => r.method === "POST");
    const refused = opens.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(waits).toHaveLength(refused.length); // every 429 was retried
    expect(waits.every((ms) => ms === 1000)).toBe(true); // after the Retry-After the emulator sent
    expect(opens.filter((r) => r.status === 200)).toHaveLength(6); // and none was lost or doubled
  } finally {
    await client.close();
  }
});
