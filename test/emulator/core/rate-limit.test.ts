/** Rate limits (api-facts P8-1): headers on every response; 429 past a limit when enforced; windows on the clock. */
import { REASONS } from "../../../emulator";
import { Clock } from "../../../emulator/core/clock";
import { DEFAULT_RATE_LIMITS, RateLimiter, SWEEP_EVERY } from "../../../emulator/core/rate-limit";
import { type TestEmulator, onlyError, startTestEmulator } from "../helpers";

let emu: TestEmulator;
afterEach(() => emu?.close());

test("not enforced by default: every request is counted in the headers, none is refused", async () => {
  emu = await startTestEmulator({ timeScale: 0 });
  const remaining: string[] = [];
  for (let i = 0; i < 3; i += 1) {
    const res = await emu.post("/support/tickets", { summary: "s", description: "d" });
    expect(res.status).toBe(200);
    expect(res.headers["x-ratelimit-limit"]).toBe(String(DEFAULT_RATE_LIMITS.ticketOpen.limit));
    remaining.push(res.headers["x-ratelimit-remaining"]!);
  }
  expect(remaining).toEqual(["1", "0", "0"]);
  expect(await emu.ctl("GET", "/rate-limits")).toMatchObject({ body: { enabled: false, limits: null } });
});

test("the documented ticket-open limit: 2 per minute, then 429 with Retry-After, reset when the window passes", async () => {
  emu = await startTestEmulator({ rateLimits: true, timeScale: 0 });
  const open = () => emu.post("/support/tickets", { summary: "s", description: "d" });
  const first = await open();
  expect(first.status).toBe(200);
  expect(first.headers).toMatchObject({ "x-ratelimit-limit": "2", "x-ratelimit-remaining": "1", "retry-after": "60" });
  expect(Number(first.headers["x-ratelimit-reset"])).toBeGreaterThan(Date.now() / 1000);
  expect((await open()).status).toBe(200);
  const refused = await open();
  expect(refused.status).toBe(429);
  expect(onlyError(refused)).toEqual({ reason: REASONS.tooManyRequests });
  expect(refused.headers).toMatchObject({ "x-ratelimit-limit": "2", "x-ratelimit-remaining": "0", "retry-after": "60" });
  // Other operations have their own, larger windows.
  expect((await emu.get("/support/tickets")).headers["x-ratelimit-limit"]).toBe(String(DEFAULT_RATE_LIMITS.collection.limit));

  emu.control.setClock({ advanceMs: 60_000 });
  expect((await open()).status).toBe(200);
});

test("limits are counted per token", async () => {
  emu = await startTestEmulator({ rateLimits: { operation: { limit: 1, windowMs: 60_000 } }, timeScale: 0 });
  const other = emu.control.createToken({}).token;
  expect((await emu.get("/vpcs/1")).status).toBe(404);
  expect((await emu.get("/vpcs/1")).status).toBe(429);
  expect((await emu.get("/vpcs/1", { token: other })).status).toBe(404);
});

test("the control API switches limits on, shrinks them and switches them off", async () => {
  emu = await startTestEmulator();
  const set = await emu.ctl("POST", "/rate-limits", { enabled: true, limits: { general: { limit: 1, windowMs: 60_000 } } });
  expect(set.body).toMatchObject({ enabled: true, limits: { general: { limit: 1, windowMs: 60_000 } } });
  expect((await emu.get("/regions")).status).toBe(200);
  expect((await emu.get("/regions")).status).toBe(429);
  await emu.ctl("POST", "/rate-limits", { enabled: false });
  expect((await emu.get("/regions")).status).toBe(200);
});

test("windows of callers that have gone are swept out: a caller per request leaves a bounded number behind", () => {
  const clock = new Clock({ tickMs: 0, scale: 0 });
  const large = { limit: 100_000, windowMs: 60_000 };
  const limiter = new RateLimiter(clock, { general: { ...large, windowMs: 120_000 }, operation: large, collection: large });
  const callFrom = (caller: string) => limiter.check({ method: "GET", routePath: "/vpcs", caller, collection: true });
  try {
    // A new caller every request (a token per CI run, an address per client): three windows each.
    for (let i = 0; i < SWEEP_EVERY - 1; i++) callFrom(`token-${i}`);
    expect(limiter.trackedWindows).toBe(3 * (SWEEP_EVERY - 1));
    // Once the longest window (2 minutes) has passed, the next sweep forgets them all.
    clock.advance(120_000);
    callFrom("late");
    expect(limiter.trackedWindows).toBe(3);
    // Live windows survive the next sweep with their counts.
    for (let i = 0; i < SWEEP_EVERY; i++) callFrom("late");
    expect(limiter.trackedWindows).toBe(3);
    expect(callFrom("late").headers["X-RateLimit-Remaining"]).toBe(String(100_000 - SWEEP_EVERY - 2));
  } finally {
    clock.dispose();
  }
});
