/**
 * The headers of every API answer, by status class, as the real API sends them (api-facts P7-1,
 * P8-1; linodego's recordings `ExampleGetImage_missing.yaml`, `ExampleListImages_badfilter.yaml`):
 * `Content-Type: application/json` exactly — clients compare it with their `Accept` (linodego's
 * `coupleAPIErrors`) — the token's and the endpoint's OAuth scopes, and the rate-limit headers with
 * `Retry-After`. Each case asserts the whole set of header names, not only that some are present.
 */
import { REASONS } from "../../../emulator";
import { DEFAULT_RATE_LIMITS } from "../../../emulator/core/rate-limit";
import { BAD_GATEWAY_HTML } from "../../../emulator/core/fault-responder";
import { type ApiResponse, type TestEmulator, expectError, startTestEmulator, vpcBody } from "../helpers";

let emu: TestEmulator;
beforeEach(async () => {
  emu = await startTestEmulator({ timeScale: 0 });
});
afterEach(() => emu.close());

/** Headers of the HTTP connection itself, which say nothing about the API. */
const TRANSPORT = new Set(["date", "connection", "keep-alive", "content-length", "transfer-encoding"]);
const RATE_LIMIT = ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "retry-after"];
/** What every answer from the API carries. */
const ALWAYS = ["content-type", "x-spec-version", "vary", ...RATE_LIMIT];

function apiHeaders(r: ApiResponse): Record<string, string> {
  return Object.fromEntries(Object.entries(r.headers).filter(([name]) => !TRANSPORT.has(name)));
}

function expectHeaderNames(r: ApiResponse, names: string[]): void {
  expect(Object.keys(apiHeaders(r)).sort()).toEqual([...new Set(names)].sort());
}

function expectRateLimit(r: ApiResponse, limit: number, remaining: number): void {
  expect(r.headers["x-ratelimit-limit"]).toBe(String(limit));
  expect(r.headers["x-ratelimit-remaining"]).toBe(String(remaining));
  expect(Number(r.headers["x-ratelimit-reset"])).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
  expect(Number(r.headers["retry-after"])).toBeGreaterThanOrEqual(1);
}

describe("2xx", () => {
  test("a collection: JSON without a charset, both scope headers, the collection window", async () => {
    const r = await emu.get("/vpcs");
    expect(r.status).toBe(200);
    expectHeaderNames(r, [...ALWAYS, "x-oauth-scopes", "x-accepted-oauth-scopes"]);
    expect(apiHeaders(r)).toMatchObject({
      "content-type": "application/json",
      "x-spec-version": "4.174.0",
      vary: "Authorization, X-Filter",
      "x-oauth-scopes": "*",
      "x-accepted-oauth-scopes": "*",
    });
    expectRateLimit(r, DEFAULT_RATE_LIMITS.collection.limit, DEFAULT_RATE_LIMITS.collection.limit - 1);
  });

  test("a create with a scoped token: the token's scopes separated by spaces, the endpoint's scope", async () => {
    const { token } = emu.control.createToken({ scopes: ["vpc:read_write", "domains:read_only"] });
    const r = await emu.post("/vpcs", vpcBody("headers"), { token });
    expect(r.status).toBe(200);
    expectHeaderNames(r, [...ALWAYS, "x-oauth-scopes", "x-accepted-oauth-scopes"]);
    expect(apiHeaders(r)).toMatchObject({
      "content-type": "application/json",
      "x-oauth-scopes": "vpc:read_write domains:read_only",
      "x-accepted-oauth-scopes": "vpc:read_write",
    });
    expectRateLimit(r, DEFAULT_RATE_LIMITS.operation.limit, DEFAULT_RATE_LIMITS.operation.limit - 1);
  });

  test("a public endpoint without a token: no token scopes", async () => {
    const r = await emu.get("/regions", { token: null });
    expect(r.status).toBe(200);
    expectHeaderNames(r, [...ALWAYS, "x-accepted-oauth-scopes"]);
    expect(r.headers["content-type"]).toBe("application/json");
  });
});

describe("4xx", () => {
  test("400 validation", async () => {
    const r = await emu.post("/vpcs", { label: "bad_label", region: "es-mad" });
    expect(r.status).toBe(400);
    expectHeaderNames(r, [...ALWAYS, "x-oauth-scopes", "x-accepted-oauth-scopes"]);
    expect(apiHeaders(r)).toMatchObject({ "content-type": "application/json", "x-accepted-oauth-scopes": "vpc:read_write" });
  });

  test("400 malformed JSON", async () => {
    const r = await emu.api("POST", "/vpcs", { rawBody: "{" });
    expectError(r, 400, REASONS.malformedJson);
    expect(r.headers["content-type"]).toBe("application/json");
    expect(r.headers["x-oauth-scopes"]).toBe("*");
  });

  test("401 unknown token: no token scopes, the endpoint's", async () => {
    const r = await emu.get("/vpcs", { token: "f".repeat(64) });
    expectError(r, 401, REASONS.invalidToken);
    expectHeaderNames(r, [...ALWAYS, "x-accepted-oauth-scopes"]);
    expect(r.headers["content-type"]).toBe("application/json");
  });

  test("401 missing scope: both scope headers say why", async () => {
    const { token } = emu.control.createToken({ scopes: ["vpc:read_only"] });
    const r = await emu.post("/vpcs", vpcBody("v"), { token });
    expectError(r, 401, REASONS.oauthScope);
    expectHeaderNames(r, [...ALWAYS, "x-oauth-scopes", "x-accepted-oauth-scopes"]);
    expect(apiHeaders(r)).toMatchObject({ "x-oauth-scopes": "vpc:read_only", "x-accepted-oauth-scopes": "vpc:read_write" });
  });

  test("403 restricted user without the grant", async () => {
    const { token } = emu.control.createToken({ restricted: true });
    const r = await emu.post("/vpcs", vpcBody("v"), { token });
    expectError(r, 403, REASONS.unauthorized);
    expectHeaderNames(r, [...ALWAYS, "x-oauth-scopes", "x-accepted-oauth-scopes"]);
    expect(r.headers["content-type"]).toBe("application/json");
  });

  test("404 unknown id, and unknown path (which names no endpoint, so no accepted scopes)", async () => {
    const missing = await emu.get("/vpcs/1");
    expectError(missing, 404, REASONS.notFound);
    expectHeaderNames(missing, [...ALWAYS, "x-oauth-scopes", "x-accepted-oauth-scopes"]);
    const unknown = await emu.get("/no/such/path");
    expectError(unknown, 404, REASONS.notFound);
    expectHeaderNames(unknown, [...ALWAYS, "x-oauth-scopes"]);
    expect(unknown.headers["content-type"]).toBe("application/json");
  });

  test("405 names the methods the path allows", async () => {
    const r = await emu.api("PATCH", "/vpcs");
    expectError(r, 405, REASONS.methodNotAllowed);
    expectHeaderNames(r, [...ALWAYS, "x-oauth-scopes", "allow"]);
    expect(apiHeaders(r)).toMatchObject({ "content-type": "application/json", allow: "GET, POST" });
  });
});

describe("429", () => {
  test("over an enforced limit: nothing remaining and Retry-After the window's reset", async () => {
    emu.control.setRateLimits({ enabled: true, limits: { operation: { limit: 1, windowMs: 60_000 } } });
    expect((await emu.get("/vpcs/1")).status).toBe(404);
    const r = await emu.get("/vpcs/1");
    expectError(r, 429, REASONS.tooManyRequests);
    expectHeaderNames(r, [...ALWAYS, "x-oauth-scopes", "x-accepted-oauth-scopes"]);
    expect(apiHeaders(r)).toMatchObject({
      "content-type": "application/json",
      "x-ratelimit-limit": "1",
      "x-ratelimit-remaining": "0",
      "retry-after": "60",
    });
  });

  test("an injected 429 says its own Retry-After", async () => {
    emu.control.addFault({ pathPattern: "/v4/vpcs", kind: "429", retryAfterSeconds: 3 });
    const r = await emu.get("/vpcs");
    expectError(r, 429, REASONS.tooManyRequests);
    expectHeaderNames(r, [...ALWAYS, "x-oauth-scopes", "x-accepted-oauth-scopes"]);
    expect(apiHeaders(r)).toMatchObject({ "content-type": "application/json", "retry-after": "3" });
  });
});

describe("5xx", () => {
  test("500 in the JSON envelope", async () => {
    emu.control.addFault({ pathPattern: "/v4/vpcs", kind: "500" });
    const r = await emu.get("/vpcs");
    expectError(r, 500, REASONS.internalError);
    expectHeaderNames(r, [...ALWAYS, "x-oauth-scopes", "x-accepted-oauth-scopes"]);
    expect(r.headers["content-type"]).toBe("application/json");
  });

  test("503 says Retry-After only when the rule names one; maintenance adds its header", async () => {
    emu.control.addFault({ pathPattern: "/v4/vpcs", kind: "503", count: 1 });
    const plain = await emu.get("/vpcs");
    expectError(plain, 503, REASONS.serviceUnavailable);
    expectHeaderNames(
      plain,
      [...ALWAYS, "x-oauth-scopes", "x-accepted-oauth-scopes"].filter((h) => h !== "retry-after"),
    );
    emu.control.addFault({ pathPattern: "/v4/vpcs", kind: "503-maintenance", retryAfterSeconds: 30, count: 1 });
    const maintenance = await emu.get("/vpcs");
    expectError(maintenance, 503, REASONS.maintenance);
    expectHeaderNames(maintenance, [...ALWAYS, "x-oauth-scopes", "x-accepted-oauth-scopes", "x-maintenance-mode"]);
    expect(apiHeaders(maintenance)).toMatchObject({ "content-type": "application/json", "retry-after": "30" });
  });

  test("502 from the gateway is exactly text/html, which clients recognise as such", async () => {
    emu.control.addFault({ pathPattern: "/v4/vpcs", kind: "502" });
    const r = await emu.get("/vpcs");
    expect(r.status).toBe(502);
    expect(r.text).toBe(BAD_GATEWAY_HTML);
    expect(r.headers["content-type"]).toBe("text/html");
  });
});
