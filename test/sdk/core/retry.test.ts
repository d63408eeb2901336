/** The retry policy as a decision table: one row per condition, no I/O. */
import {
  AbortError,
  ApiError,
  ClientValidationError,
  ConnectionError,
  ResponseValidationError,
  TimeoutError,
} from "../../../sdk/core/errors";
import { backoffDelay, decideRetry, isIdempotentMethod, parseRetryAfter, DEFAULT_RETRY_POLICY } from "../../../sdk/core/retry";

const GET = { method: "GET", path: "/vpcs" };
const POST = { method: "POST", path: "/vpcs" };
const api = (status: number, reason = "x", headers: Record<string, string> = {}) => ApiError.from(status, [{ reason }], GET, headers);
const idem = { idempotent: true };
const nonIdem = { idempotent: false };
/** Deterministic jitter: always the top of the range. */
const top = { random: () => 0.999999 };

describe("decideRetry: decision table", () => {
  const table: Array<[string, unknown, { idempotent: boolean }, boolean]> = [
    ["429 GET", api(429, "Too many requests"), idem, true],
    ["429 POST (refused, safe)", api(429, "Too many requests"), nonIdem, true],
    ["503 GET", api(503, "Please try again later."), idem, true],
    ["503 POST (refused, safe)", api(503), nonIdem, true],
    ["503 with X-Maintenance-Mode", api(503, "maintenance", { "x-maintenance-mode": "1" }), idem, false],
    ["408 GET", api(408), idem, true],
    ["408 POST", api(408), nonIdem, true],
    ["400 Compute busy. (POST)", api(400, "Compute busy."), nonIdem, true],
    ["400 busy, other case", api(400, "Instance BUSY"), idem, true],
    ["400 validation error", api(400, "Label must be unique"), idem, false],
    ["401", api(401, "Invalid Token"), idem, false],
    ["403", api(403, "Unauthorized"), idem, false],
    ["404", api(404, "Not found"), idem, false],
    ["500 GET", api(500), idem, true],
    ["500 POST (may have been processed)", api(500), nonIdem, false],
    ["501 (not implemented: an answer)", api(501), idem, false],
    ["502 GET", api(502), idem, true],
    ["502 POST", api(502), nonIdem, false],
    ["504 PUT", api(504), idem, true],
    ["504 POST", api(504), nonIdem, false],
    ["refused GET", new ConnectionError(GET, "ECONNREFUSED", false), idem, true],
    ["refused POST (never sent)", new ConnectionError(POST, "ECONNREFUSED", false), nonIdem, true],
    ["DNS failure POST (never sent)", new ConnectionError(POST, "ENOTFOUND", false), nonIdem, true],
    ["reset after send GET", new ConnectionError(GET, "UND_ERR_SOCKET", true), idem, true],
    ["reset after send POST", new ConnectionError(POST, "UND_ERR_SOCKET", true), nonIdem, false],
    ["ECONNRESET POST", new ConnectionError(POST, "ECONNRESET", true), nonIdem, false],
    ["client closed", new ConnectionError(GET, "UND_ERR_CLOSED", false), idem, false],
    ["timeout GET", new TimeoutError(GET, 1000), idem, true],
    ["timeout POST", new TimeoutError(POST, 1000), nonIdem, false],
    ["abort", new AbortError("aborted"), idem, false],
    ["client validation", new ClientValidationError("body", [{ reason: "bad" }]), idem, false],
    ["response validation", new ResponseValidationError(GET, [{ reason: "bad" }]), idem, false],
    ["unknown error", new Error("boom"), idem, false],
  ];
  // Title first, then the expectation, so jest prints "503 GET → retry true" and not the error object.
  const rows = table.map(([name, outcome, context, expected]) => [name, expected, outcome, context] as const);
  test.each(rows)("%s → retry %s", (_name, expected, outcome, context) => {
    const decision = decideRetry(outcome, 1, context);
    expect(decision.retry).toBe(expected);
    expect(decision.reason).toEqual(expect.any(String));
    if (!expected) expect(decision.delayMs).toBe(0);
  });

  test("a refused POST says why it is not repeated when it was ambiguous", () => {
    const d = decideRetry(new ConnectionError(POST, "UND_ERR_SOCKET", true), 1, nonIdem);
    expect(d.reason).toMatch(/may have been processed/);
  });
});

describe("decideRetry: delays", () => {
  test("429 waits Retry-After seconds exactly", () => {
    expect(decideRetry(api(429, "x", { "retry-after": "3" }), 1, idem)).toEqual({
      retry: true,
      delayMs: 3000,
      reason: expect.stringMatching(/Retry-After/),
    });
  });

  test("Retry-After as an HTTP date is relative to the injected clock", () => {
    const now = Date.parse("2024-01-01T00:00:00Z");
    const d = decideRetry(api(429, "x", { "retry-after": "Mon, 01 Jan 2024 00:00:05 GMT" }), 1, idem, { now: () => now });
    expect(d.delayMs).toBe(5000);
  });

  test("a Retry-After beyond the cap is not waited for", () => {
    const d = decideRetry(api(429, "x", { "retry-after": "61" }), 1, idem);
    expect(d.retry).toBe(false);
    expect(d.reason).toMatch(/cap/);
    expect(decideRetry(api(429, "x", { "retry-after": "120" }), 1, idem, { maxRetryAfterMs: 200_000 }).delayMs).toBe(120_000);
  });

  test("429 without Retry-After (or unreadable) falls back to backoff", () => {
    expect(decideRetry(api(429), 1, idem, top).delayMs).toBe(249);
    expect(decideRetry(api(429, "x", { "retry-after": "soon" }), 2, idem, top).delayMs).toBe(499);
  });

  test("503 ignores Retry-After (it is the rate-limit window on this API) and backs off", () => {
    expect(decideRetry(api(503, "x", { "retry-after": "70" }), 1, idem, top)).toMatchObject({ retry: true, delayMs: 249 });
  });

  test("maxRetries is respected (default 5, configurable)", () => {
    expect(decideRetry(api(503), 5, idem).retry).toBe(true);
    expect(decideRetry(api(503), 6, idem)).toMatchObject({ retry: false, reason: expect.stringMatching(/gave up after 5 retries/) });
    expect(decideRetry(api(503), 2, idem, { maxRetries: 1 }).retry).toBe(false);
    expect(decideRetry(api(503), 1, idem, { maxRetries: 0 }).retry).toBe(false);
  });

  test("full jitter stays within [0, min(cap, base·2^(n−1)))", () => {
    let seed = 42;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let attempt = 1; attempt <= 10; attempt++) {
      const ceiling = Math.min(8000, 250 * 2 ** (attempt - 1));
      for (let i = 0; i < 200; i++) {
        const d = decideRetry(api(503), attempt, idem, { random, maxRetries: 20 }).delayMs;
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThan(ceiling);
      }
    }
    expect(backoffDelay(1, { ...DEFAULT_RETRY_POLICY, random: () => 0 })).toBe(0);
    expect(backoffDelay(30, { ...DEFAULT_RETRY_POLICY, random: () => 0.999999 })).toBe(7999);
  });
});

describe("helpers", () => {
  test("parseRetryAfter", () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter("")).toBeUndefined();
    expect(parseRetryAfter("0")).toBe(0);
    expect(parseRetryAfter("1.5")).toBe(1500);
    expect(parseRetryAfter("Mon, 01 Jan 2024 00:00:00 GMT", () => Date.parse("2024-01-02T00:00:00Z"))).toBe(0);
  });

  test("idempotent methods", () => {
    expect(["GET", "put", "DELETE", "HEAD"].every(isIdempotentMethod)).toBe(true);
    expect(["POST", "PATCH"].some(isIdempotentMethod)).toBe(false);
  });
});
