/** The request pipeline against an undici MockAgent: headers, URLs, errors, timeouts, retries. */
import { z } from "zod";
import { ComputeClient } from "../../../sdk/client";
import {
  AbortError,
  ApiError,
  BadRequestError,
  ClientValidationError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  ResponseValidationError,
  ServiceUnavailableError,
  TimeoutError,
} from "../../../sdk/core/errors";
import { normalizeBaseUrl } from "../../../sdk/core/http";
import { path } from "../../../sdk/core/path";
import { Empty } from "../../../sdk/core/schema";
import { Vpc } from "../../../sdk/resources/vpcs";
import { SDK_VERSION } from "../../../sdk/version";
import { BASE_URL, JSON_HEADERS, TOKEN, harness, netError, sample } from "../helpers";

const Anything = z.looseObject({});

describe("request headers and URLs", () => {
  test("sends Authorization, User-Agent and Accept; Content-Type only with a body; X-Filter as JSON", async () => {
    const h = harness();
    h.pool.intercept({ path: "/v4/vpcs/1", method: "GET" }).reply(200, sample.vpc(1), JSON_HEADERS);
    h.pool.intercept({ path: "/v4/vpcs/1", method: "PUT" }).reply(200, sample.vpc(1), JSON_HEADERS);
    h.pool.intercept({ path: "/v4/account/events", method: "GET" }).reply(200, {}, JSON_HEADERS);

    await h.client.vpcs.get(1);
    await h.client.vpcs.update(1, { label: "new-label" });
    await h.client.request({
      method: "GET",
      path: "/account/events",
      filter: { "+order_by": "created", action: "vpc_create" },
      responseSchema: Anything,
    });

    const [get, put, filtered] = h.calls();
    expect(get!.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      "user-agent": `pulumi-compute/${SDK_VERSION}`,
      accept: "application/json",
    });
    expect(get!.headers["content-type"]).toBeUndefined();
    expect(get!.headers["x-filter"]).toBeUndefined();
    expect(put!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(put!.body as string)).toEqual({ label: "new-label" });
    expect(JSON.parse(filtered!.headers["x-filter"]!)).toEqual({ "+order_by": "created", action: "vpc_create" });
  });

  test("SDK_VERSION matches package.json", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    expect(SDK_VERSION).toBe(require("../../../package.json").version);
  });

  test("custom User-Agent; no Authorization without a token", async () => {
    const h = harness({ token: undefined, userAgent: "my-tool/2" });
    h.pool.intercept({ path: "/v4/regions/us-east", method: "GET" }).reply(200, sample.region(), JSON_HEADERS);
    await h.client.regions.get("us-east");
    const [call] = h.calls();
    expect(call!.headers["user-agent"]).toBe("my-tool/2");
    expect(call!.headers.authorization).toBeUndefined();
  });

  test("base URL joining tolerates trailing slashes and keeps the /v4 segment", async () => {
    for (const baseUrl of [BASE_URL, `${BASE_URL}/`, `${BASE_URL}//`]) {
      const h = harness({ baseUrl });
      h.pool.intercept({ path: "/v4/vpcs/5", method: "GET" }).reply(200, sample.vpc(5), JSON_HEADERS);
      await h.client.vpcs.get(5);
      expect(h.calls()[0]!.path).toBe("/v4/vpcs/5");
    }
    expect(normalizeBaseUrl("http://127.0.0.1:4010/v4/")).toBe("http://127.0.0.1:4010/v4");
  });

  test("a bad base URL is refused at construction", () => {
    expect(() => new ComputeClient({ baseUrl: "not a url" })).toThrow(ClientValidationError);
    expect(() => new ComputeClient({ baseUrl: "ftp://x/v4" })).toThrow(/http or https/);
    expect(() => new ComputeClient({ baseUrl: "http://user:pw@x/v4" })).toThrow(/credentials/);
  });

  test("path tag encodes each value as one segment; query parameters are appended", async () => {
    expect(path`/images/${"private/12"}`).toBe("/images/private%2F12");
    expect(path`/networking/ipv6/ranges/${"1234::5678"}`).toBe("/networking/ipv6/ranges/1234%3A%3A5678");
    expect(path`/vpcs/${"1?x=1#y"}/subnets`).toBe("/vpcs/1%3Fx%3D1%23y/subnets");
    expect(() => path`/vpcs/${".."}`).toThrow(ClientValidationError);
    expect(() => path`/vpcs/${""}`).toThrow(ClientValidationError);
    expect(() => path`/vpcs/${Number.NaN}`).toThrow(ClientValidationError);

    const h = harness();
    h.pool.intercept({ path: (p) => p.startsWith("/v4/images/private%2F12"), method: "GET" }).reply(200, {}, JSON_HEADERS);
    await h.client.request({
      method: "GET",
      path: path`/images/${"private/12"}`,
      query: { a: 1, b: undefined, c: "x y" },
      responseSchema: Anything,
    });
    const [call] = h.calls();
    expect(call!.path).toBe("/v4/images/private%2F12");
    expect(call!.searchParams).toEqual({ a: "1", c: "x y" });
  });

  test("a filter that is not an object is refused before sending", async () => {
    const h = harness();
    await expect(
      h.client.request({ method: "GET", path: "/vpcs", filter: [] as unknown as Record<string, unknown>, responseSchema: Anything }),
    ).rejects.toThrow(ClientValidationError);
    expect(h.calls()).toHaveLength(0);
  });
});

describe("client-side validation (strict out)", () => {
  test("an invalid body raises ClientValidationError with API-style entries and sends nothing", async () => {
    const h = harness();
    const error = await h.client.vpcs.create({ label: "bad label!", region: "us-east", extra: 1 } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientValidationError);
    expect((error as ClientValidationError).errors).toEqual(
      expect.arrayContaining([
        { field: "label", reason: "Label must include only ASCII letters, numbers, and dashes" },
        { reason: "Unknown field: extra" },
      ]),
    );
    const subnetError = await h.client.vpcs.subnets.create(1, { label: "ok", ipv4: "10.0.0.1/24" }).catch((e: unknown) => e);
    expect((subnetError as ClientValidationError).errors).toEqual([
      { field: "ipv4", reason: "Subnet IPv4 range must be in canonical CIDR form (10.0.0.0/24, not 10.0.0.1/24)" },
    ]);
    expect(h.calls()).toHaveLength(0);
  });
});

describe("error responses", () => {
  test("the error envelope becomes the matching ApiError subclass with method, path, errors and lower-cased headers", async () => {
    const h = harness();
    h.pool
      .intercept({ path: "/v4/vpcs/9", method: "GET" })
      .reply(404, { errors: [{ reason: "Not found" }] }, { headers: { "Content-Type": "application/json", "X-Spec-Version": "4.174.0" } });
    h.pool
      .intercept({ path: "/v4/vpcs", method: "POST" })
      .reply(400, { errors: [{ reason: "Label must be unique among your VPCs", field: "label" }] }, JSON_HEADERS);

    const notFound = (await h.client.vpcs.get(9).catch((e: unknown) => e)) as NotFoundError;
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect(notFound).toMatchObject({ status: 404, method: "GET", path: "/vpcs/9", errors: [{ reason: "Not found" }] });
    expect(notFound.headers["x-spec-version"]).toBe("4.174.0");
    expect(notFound.message).toBe("404 GET /vpcs/9: Not found");

    const bad = (await h.client.vpcs.create({ label: "dup", region: "us-east" }).catch((e: unknown) => e)) as BadRequestError;
    expect(bad).toBeInstanceOf(BadRequestError);
    expect(bad.fieldErrors()).toEqual([{ field: "label", reason: "Label must be unique among your VPCs" }]);
    expect(h.retries).toHaveLength(0);
  });

  test("a non-JSON 502 page becomes one generic entry", async () => {
    const h = harness({ retry: { maxRetries: 0 } });
    h.pool
      .intercept({ path: "/v4/vpcs/1", method: "GET" })
      .reply(502, "<html><body>502 Bad Gateway</body></html>", { headers: { "content-type": "text/html" } });
    const error = (await h.client.vpcs.get(1).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 502, errors: [{ reason: "Bad Gateway" }] });
  });

  test("a JSON body that is not the envelope also gets the generic entry", async () => {
    const h = harness({ retry: { maxRetries: 0 } });
    h.pool.intercept({ path: "/v4/vpcs/1", method: "DELETE" }).reply(500, { message: "oops" }, JSON_HEADERS);
    const error = (await h.client.vpcs.delete(1).catch((e: unknown) => e)) as ApiError;
    expect(error.errors).toEqual([{ reason: "Internal Server Error" }]);
  });

  test("a 2xx body of the wrong shape raises ResponseValidationError naming the field", async () => {
    const h = harness();
    h.pool.intercept({ path: "/v4/vpcs/1", method: "GET" }).reply(200, { ...sample.vpc(1), id: "one" }, JSON_HEADERS);
    h.pool.intercept({ path: "/v4/vpcs/2", method: "GET" }).reply(200, "not json", JSON_HEADERS);
    const shape = (await h.client.vpcs.get(1).catch((e: unknown) => e)) as ResponseValidationError;
    expect(shape).toBeInstanceOf(ResponseValidationError);
    expect(shape.errors).toEqual([expect.objectContaining({ field: "id" })]);
    await expect(h.client.vpcs.get(2)).rejects.toThrow(/not JSON/);
  });

  test("unknown response keys pass (tolerant in)", async () => {
    const h = harness();
    h.pool.intercept({ path: "/v4/vpcs/1", method: "GET" }).reply(200, { ...sample.vpc(1), brand_new: true }, JSON_HEADERS);
    const vpc = await h.client.vpcs.get(1);
    expect(Vpc.parse(vpc)).toMatchObject({ id: 1, brand_new: true });
  });
});

describe("timeouts and aborts", () => {
  test("no answer within timeoutMs → TimeoutError (GET retried, POST not)", async () => {
    const h = harness({ timeoutMs: 30, retry: { maxRetries: 2 } });
    h.pool.intercept({ path: "/v4/vpcs/1", method: "GET" }).reply(200, sample.vpc(1), JSON_HEADERS).delay(500).times(3);
    const error = await h.client.vpcs.get(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toBe("GET /vpcs/1: no response within 30 ms");
    expect(h.retries.map((r) => r.reason)).toEqual(["no response in time", "no response in time"]);

    const p = harness({ timeoutMs: 30 });
    p.pool.intercept({ path: "/v4/vpcs", method: "POST" }).reply(200, sample.vpc(1), JSON_HEADERS).delay(500);
    await expect(p.client.vpcs.create({ label: "a", region: "us-east" })).rejects.toBeInstanceOf(TimeoutError);
    expect(p.retries).toHaveLength(0);
    expect(p.calls()).toHaveLength(1);
  });

  test("the per-call timeoutMs overrides the client's", async () => {
    const h = harness({ timeoutMs: 10_000, retry: { maxRetries: 0 } });
    h.pool.intercept({ path: "/v4/x", method: "GET" }).reply(200, {}, JSON_HEADERS).delay(500);
    await expect(h.client.request({ method: "GET", path: "/x", responseSchema: Anything, timeoutMs: 20 })).rejects.toBeInstanceOf(
      TimeoutError,
    );
  });

  test("aborting the signal → AbortError, never retried", async () => {
    const h = harness();
    h.pool.intercept({ path: "/v4/vpcs/1", method: "GET" }).reply(200, sample.vpc(1), JSON_HEADERS).delay(500);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    await expect(h.client.vpcs.get(1, { signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
    expect(h.retries).toHaveLength(0);
  });

  test("an already aborted signal sends nothing", async () => {
    const h = harness();
    await expect(h.client.vpcs.get(1, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortError);
    expect(h.calls()).toHaveLength(0);
  });

  test("aborting during the wait before a retry → AbortError", async () => {
    const controller = new AbortController();
    const h = harness({
      sleep: async () => {
        controller.abort();
        throw new Error("sleep interrupted");
      },
    });
    h.pool.intercept({ path: "/v4/vpcs/1", method: "GET" }).reply(503, { errors: [{ reason: "try later" }] }, JSON_HEADERS);
    await expect(h.client.vpcs.get(1, { signal: controller.signal })).rejects.toThrow(/aborted while waiting to retry/);
    expect(h.calls()).toHaveLength(1);
  });
});

describe("retries through the pipeline", () => {
  test("503 twice, then success: two retries reported with method, path and reason", async () => {
    const h = harness();
    h.pool
      .intercept({ path: "/v4/vpcs/1", method: "GET" })
      .reply(503, { errors: [{ reason: "not yet available" }] }, JSON_HEADERS)
      .times(2);
    h.pool.intercept({ path: "/v4/vpcs/1", method: "GET" }).reply(200, sample.vpc(1), JSON_HEADERS);
    await expect(h.client.vpcs.get(1)).resolves.toMatchObject({ id: 1 });
    expect(h.retries).toEqual([
      { attempt: 1, delayMs: expect.any(Number), reason: "service unavailable (503)", method: "GET", path: "/vpcs/1" },
      { attempt: 2, delayMs: expect.any(Number), reason: "service unavailable (503)", method: "GET", path: "/vpcs/1" },
    ]);
    expect(h.sleeps).toEqual(h.retries.map((r) => r.delayMs));
  });

  test("429 waits Retry-After through the injected sleep", async () => {
    const h = harness();
    h.pool
      .intercept({ path: "/v4/vpcs", method: "POST" })
      .reply(429, { errors: [{ reason: "Too many requests" }] }, { headers: { "retry-after": "2" } });
    h.pool.intercept({ path: "/v4/vpcs", method: "POST" }).reply(200, sample.vpc(3), JSON_HEADERS);
    await expect(h.client.vpcs.create({ label: "a", region: "us-east" })).resolves.toMatchObject({ id: 3 });
    expect(h.sleeps).toEqual([2000]);
  });

  test("a 429 whose Retry-After exceeds the cap fails at once as RateLimitError", async () => {
    const h = harness();
    h.pool
      .intercept({ path: "/v4/vpcs/1", method: "GET" })
      .reply(429, { errors: [{ reason: "Too many requests" }] }, { headers: { "retry-after": "3600" } });
    const error = (await h.client.vpcs.get(1).catch((e: unknown) => e)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterSeconds).toBe(3600);
    expect(h.calls()).toHaveLength(1);
  });

  test("503 with X-Maintenance-Mode is not retried", async () => {
    const h = harness();
    h.pool
      .intercept({ path: "/v4/vpcs/1", method: "GET" })
      .reply(503, { errors: [{ reason: "maintenance" }] }, { headers: { "x-maintenance-mode": "true" } });
    const error = (await h.client.vpcs.get(1).catch((e: unknown) => e)) as ServiceUnavailableError;
    expect(error.maintenance).toBe(true);
    expect(h.calls()).toHaveLength(1);
  });

  test("maxRetries bounds the attempts (1 + maxRetries)", async () => {
    const h = harness();
    h.pool
      .intercept({ path: "/v4/vpcs/1", method: "GET" })
      .reply(408, { errors: [{ reason: "Request Timeout" }] }, JSON_HEADERS)
      .persist();
    await expect(h.client.vpcs.get(1)).rejects.toBeInstanceOf(ApiError);
    expect(h.calls()).toHaveLength(6);
    expect(h.retries).toHaveLength(5);
  });

  test("the busy 400 is retried even for a POST", async () => {
    const h = harness();
    h.pool.intercept({ path: "/v4/vpcs/1/subnets", method: "POST" }).reply(400, { errors: [{ reason: "Compute busy." }] }, JSON_HEADERS);
    h.pool.intercept({ path: "/v4/vpcs/1/subnets", method: "POST" }).reply(200, sample.subnet(7), JSON_HEADERS);
    await expect(h.client.vpcs.subnets.create(1, { label: "sn", ipv4: "10.0.0.0/24" })).resolves.toMatchObject({ id: 7 });
    expect(h.retries[0]!.reason).toBe("busy (400)");
  });

  test("a POST reset after sending is NOT retried; a GET is", async () => {
    const h = harness();
    h.pool.intercept({ path: "/v4/vpcs", method: "POST" }).replyWithError(netError("UND_ERR_SOCKET", "other side closed"));
    const error = (await h.client.vpcs.create({ label: "a", region: "us-east" }).catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ sent: true, code: "UND_ERR_SOCKET", method: "POST", path: "/vpcs" });
    expect(h.calls()).toHaveLength(1);
    expect(h.retries).toHaveLength(0);

    h.pool.intercept({ path: "/v4/vpcs/1", method: "GET" }).replyWithError(netError("ECONNRESET"));
    h.pool.intercept({ path: "/v4/vpcs/1", method: "GET" }).reply(200, sample.vpc(1), JSON_HEADERS);
    await expect(h.client.vpcs.get(1)).resolves.toMatchObject({ id: 1 });
    expect(h.retries.map((r) => r.reason)).toEqual(["connection failed after sending"]);
  });

  test("a POST whose connection was refused (never sent) IS retried", async () => {
    const h = harness();
    h.pool.intercept({ path: "/v4/vpcs", method: "POST" }).replyWithError(netError("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:4010"));
    h.pool.intercept({ path: "/v4/vpcs", method: "POST" }).reply(200, sample.vpc(2), JSON_HEADERS);
    await expect(h.client.vpcs.create({ label: "a", region: "us-east" })).resolves.toMatchObject({ id: 2 });
    expect(h.retries.map((r) => r.reason)).toEqual(["connection not established"]);
  });

  test("a POST 502 is not retried, a PUT 502 is", async () => {
    const h = harness();
    h.pool.intercept({ path: "/v4/vpcs", method: "POST" }).reply(502, "Bad Gateway");
    await expect(h.client.vpcs.create({ label: "a", region: "us-east" })).rejects.toMatchObject({ status: 502 });
    h.pool.intercept({ path: "/v4/vpcs/1", method: "PUT" }).reply(504, "Gateway Timeout");
    h.pool.intercept({ path: "/v4/vpcs/1", method: "PUT" }).reply(200, sample.vpc(1), JSON_HEADERS);
    await expect(h.client.vpcs.update(1, { description: "d" })).resolves.toMatchObject({ id: 1 });
    expect(h.calls()).toHaveLength(3);
  });

  test("a 500 is retried for a GET and a DELETE, never for a POST", async () => {
    const h = harness();
    h.pool.intercept({ path: "/v4/vpcs/1", method: "GET" }).reply(500, { errors: [{ reason: "Internal server error" }] }, JSON_HEADERS);
    h.pool.intercept({ path: "/v4/vpcs/1", method: "GET" }).reply(200, sample.vpc(1), JSON_HEADERS);
    await expect(h.client.vpcs.get(1)).resolves.toMatchObject({ id: 1 });
    h.pool.intercept({ path: "/v4/vpcs/1", method: "DELETE" }).reply(500, { errors: [{ reason: "Internal server error" }] }, JSON_HEADERS);
    h.pool.intercept({ path: "/v4/vpcs/1", method: "DELETE" }).reply(200, {}, JSON_HEADERS);
    await expect(h.client.vpcs.delete(1)).resolves.toBeUndefined();
    h.pool.intercept({ path: "/v4/vpcs", method: "POST" }).reply(500, { errors: [{ reason: "Internal server error" }] }, JSON_HEADERS);
    await expect(h.client.vpcs.create({ label: "a", region: "us-east" })).rejects.toMatchObject({ status: 500 });
    expect(h.retries.map((r) => `${r.method} ${r.reason}`)).toEqual(["GET server error (5xx)", "DELETE server error (5xx)"]);
  });

  test("idempotent: true lets a POST action be repeated after an ambiguous failure", async () => {
    const h = harness();
    h.pool.intercept({ path: "/v4/account/events/5/read", method: "POST" }).replyWithError(netError("UND_ERR_SOCKET"));
    h.pool.intercept({ path: "/v4/account/events/5/read", method: "POST" }).reply(200, {}, JSON_HEADERS);
    await expect(h.client.account.events.markRead(5)).resolves.toBeUndefined();
    expect(h.calls()).toHaveLength(2);
  });
});

describe("observers", () => {
  test("onCall hears each declared endpoint called or listed, by name; an observer that throws changes nothing", async () => {
    const called: string[] = [];
    const h = harness({
      onCall: (endpoint) => {
        called.push(endpoint.name);
        throw new Error("an observer's own failure");
      },
    });
    h.pool.intercept({ path: "/v4/vpcs/1", method: "GET" }).reply(200, sample.vpc(1), JSON_HEADERS);
    h.pool.intercept({ path: "/v4/vpcs/1", method: "PUT" }).reply(200, sample.vpc(1), JSON_HEADERS);
    await h.client.vpcs.get(1);
    await h.client.vpcs.update(1, { label: "new-label" });
    expect(called).toEqual(["vpcs.get", "vpcs.update"]);
  });
});

describe("client lifecycle", () => {
  test("close() closes the dispatcher the client created; later calls fail without retrying", async () => {
    const retries: unknown[] = [];
    const client = new ComputeClient({ baseUrl: "http://127.0.0.1:9/v4", sleep: async () => {}, onRetry: (r) => void retries.push(r) });
    await client.close();
    await client.close(); // idempotent
    const error = (await client
      .request({ method: "GET", path: "/regions", responseSchema: Empty })
      .catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(["UND_ERR_CLOSED", "UND_ERR_DESTROYED"]).toContain(error.code);
    expect(retries).toHaveLength(0);
  });

  test("close() leaves a caller-supplied dispatcher open", async () => {
    const h = harness();
    await h.client.close();
    h.pool.intercept({ path: "/v4/regions/x", method: "GET" }).reply(200, sample.region("x"), JSON_HEADERS);
    await expect(h.client.regions.get("x")).resolves.toMatchObject({ id: "x" });
  });
});
