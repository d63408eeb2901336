/**
 * Client-side pacing on a fake clock: the seed buckets (documented limits) bound the first burst;
 * the server's `X-RateLimit-*` answers take over; an exhausted window waits for its reset and the
 * next window lets `limit` requests go, not everything that waited; a 429 empties the window until
 * `Retry-After`; a server that sends no rate-limit headers is not paced.
 */
import { Pacer, operationTemplate, type PacedRequest, type RateLimits } from "../../../sdk/core/pacing";

/** A pacer on a fake clock: `sleep` advances the clock at once, so waits are measured, not slept. */
function fakePacer(limits?: RateLimits) {
  let now = 1_000_000;
  const slept: number[] = [];
  const pacer = new Pacer({
    limits,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  });
  return { pacer, slept, now: () => now, advance: (ms: number) => (now += ms) };
}

const post: PacedRequest = { method: "POST", path: "/domains/7/records", collection: false };
const headers = (limit: number, remaining: number, resetAt: number) => ({
  "x-ratelimit-limit": String(limit),
  "x-ratelimit-remaining": String(remaining),
  "x-ratelimit-reset": String(Math.ceil(resetAt / 1000)),
});

test("operations are keyed by method and path template", () => {
  expect(operationTemplate("/domains/12/records/34?page=2")).toBe("/domains/{}/records/{}");
  expect(operationTemplate("/images/private/15")).toBe("/images/private/{}");
});

test("before the server speaks, the documented limits bound a burst (seeded buckets)", async () => {
  const { pacer, slept } = fakePacer({
    general: { limit: 800, windowMs: 120_000 },
    operation: { limit: 3, windowMs: 3_000 },
    collection: { limit: 200, windowMs: 60_000 },
    dedicated: {},
  });
  for (let i = 0; i < 3; i++) await pacer.acquire(post);
  expect(slept).toEqual([]);
  await pacer.acquire(post); // the fourth waits for a token: 1 s at 3 per 3 s
  expect(slept).toEqual([1000]);
  expect(pacer.stats).toMatchObject({ waited: 1, waitedMs: 1000 });
});

test("the server's window takes over: at zero remaining, requests wait for the reset; the next window lets `limit` go", async () => {
  const { pacer, slept, now } = fakePacer();
  await pacer.acquire(post);
  const resetAt = now() + 5_000;
  pacer.observe(post, 200, headers(2, 2, resetAt)); // the server: 2 left until resetAt
  await pacer.acquire(post);
  await pacer.acquire(post);
  expect(slept).toEqual([]);
  await pacer.acquire(post); // the window is spent: wait until it resets
  expect(now()).toBeGreaterThanOrEqual(Math.ceil(resetAt / 1000) * 1000);
  const waits = slept.length;
  await pacer.acquire(post); // the new window allows 2 (its reset is learnt from its first answer)
  expect(slept).toHaveLength(waits);
  await pacer.acquire(post); // not everything that waited goes at once: the third of the window waits
  expect(slept.length).toBeGreaterThan(waits);
});

test("a 429 empties the window until Retry-After", async () => {
  const { pacer, now } = fakePacer();
  await pacer.acquire(post);
  const start = now();
  pacer.observe(post, 429, { "retry-after": "3", "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(Math.ceil(start / 1000) + 3) });
  await pacer.acquire(post);
  expect(now() - start).toBeGreaterThanOrEqual(3000);
  expect(pacer.stats.refused).toBe(1);
});

test("a server that sends no rate-limit headers is not paced", async () => {
  const { pacer, slept } = fakePacer({
    general: { limit: 1, windowMs: 60_000 },
    operation: { limit: 1, windowMs: 60_000 },
    collection: { limit: 1, windowMs: 60_000 },
    dedicated: {},
  });
  await pacer.acquire(post);
  pacer.observe(post, 200, {});
  for (let i = 0; i < 10; i++) await pacer.acquire(post);
  expect(slept).toEqual([]);
});

test("a waiting request is woken when an answer brings news, and gives up when its signal aborts", async () => {
  let now = 0;
  const pacer = new Pacer({
    now: () => now,
    sleep: (_ms, signal) => new Promise((_, reject) => signal?.addEventListener("abort", reject)),
  });
  await pacer.acquire(post);
  pacer.observe(post, 200, headers(1, 0, 10_000));
  let done = false;
  const waiting = pacer.acquire(post).then(() => (done = true));
  await new Promise((r) => setImmediate(r));
  expect(done).toBe(false);
  now = 11_000;
  pacer.observe(post, 200, {}); // news: this server does not limit after all
  await waiting;
  expect(done).toBe(true);

  pacer.observe(post, 200, headers(1, 0, 20_000));
  const cancel = new AbortController();
  const aborted = pacer.acquire(post, cancel.signal).catch((e: Error) => e);
  cancel.abort();
  expect(String(await aborted)).toMatch(/aborted while waiting for rate-limit budget/);
});

test("this client's requests still in flight count against a window the server just described", async () => {
  const { pacer, slept, now } = fakePacer();
  for (let i = 0; i < 5; i++) await pacer.acquire(post); // five on the way
  const resetAt = now() + 60_000;
  // The first answer: the server counted one of them and says 5 are left. The four others are
  // on the way and will be counted, so 1 is left for new requests, not 5.
  pacer.observe(post, 200, headers(400, 5, resetAt));
  await pacer.acquire(post);
  expect(slept).toEqual([]);
  await pacer.acquire(post);
  expect(slept).toHaveLength(1);
  expect(now()).toBeGreaterThanOrEqual(Math.ceil(resetAt / 1000) * 1000);
});

test("a request that ended without an answer is no longer counted as on the way", async () => {
  const { pacer, slept, now } = fakePacer();
  await pacer.acquire(post);
  await pacer.acquire(post);
  pacer.release(post); // the second one's connection was reset
  pacer.observe(post, 200, headers(400, 3, now() + 60_000));
  for (let i = 0; i < 3; i++) await pacer.acquire(post);
  expect(slept).toEqual([]);
});

test("requests other clients send on the same token are kept back at the end of a window", async () => {
  const { pacer, slept, now, advance } = fakePacer();
  const resetAt = now() + 60_000;
  await pacer.acquire(post);
  advance(100); // a round trip of 100 ms
  pacer.observe(post, 200, headers(400, 40, resetAt));
  // Each of this client's next answers shows 3 more requests than it sent: another runner's.
  let server = 40;
  for (let i = 0; i < 4; i++) {
    await pacer.acquire(post);
    advance(100);
    server -= 1 + 3;
    pacer.observe(post, 200, headers(400, server, resetAt));
  }
  expect(server).toBe(24);
  expect(pacer.stats.othersSeen).toBe(12);
  // Within the last round trip the others sent 3: those are on their way, so the last 3 of the
  // window are theirs. This client sends until 3 are left, then waits for the reset.
  const before = slept.length;
  for (let i = 0; i < 21; i++) await pacer.acquire(post);
  expect(slept).toHaveLength(before);
  await pacer.acquire(post);
  expect(slept).toHaveLength(before + 1);
  expect(now()).toBeGreaterThanOrEqual(Math.ceil(resetAt / 1000) * 1000);
  expect(pacer.stats.largestReserve).toBe(3);
});

test("alone on a token, a client keeps nothing back: it uses the whole window", async () => {
  const { pacer, slept, now, advance } = fakePacer();
  const resetAt = now() + 60_000;
  await pacer.acquire(post);
  advance(100);
  pacer.observe(post, 200, headers(400, 10, resetAt));
  for (let i = 0; i < 10; i++) {
    await pacer.acquire(post);
    advance(10);
    pacer.observe(post, 200, headers(400, 9 - i, resetAt));
  }
  expect(slept).toEqual([]);
  expect(pacer.stats).toMatchObject({ othersSeen: 0, largestReserve: 0 });
});

test("a request held back is told once, with the wait expected (the client's onPace); one sent at once is not", async () => {
  const { pacer } = fakePacer({
    general: { limit: 800, windowMs: 120_000 },
    operation: { limit: 1, windowMs: 2_000 },
    collection: { limit: 200, windowMs: 60_000 },
    dedicated: {},
  });
  const held: number[] = [];
  await pacer.acquire(post, undefined, (ms) => held.push(ms));
  expect(held).toEqual([]);
  await pacer.acquire(post, undefined, (ms) => held.push(ms));
  expect(held).toEqual([2000]);
});
