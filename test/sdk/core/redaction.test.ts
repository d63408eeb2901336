/**
 * The token must not appear in any error the sdk raises, in any of its properties or causes, nor
 * in the onRetry payloads. Each case provokes one error kind in a way that would leak the token
 * if redaction were missing (a server echoing it, undici printing request headers, …).
 */
import { inspect } from "node:util";
import { z } from "zod";
import {
  AbortError,
  ApiError,
  ClientValidationError,
  ConnectionError,
  ResponseValidationError,
  TimeoutError,
} from "../../../sdk/core/errors";
import { path } from "../../../sdk/core/path";
import { REDACTED } from "../../../sdk/core/redact";
import { JSON_HEADERS, TOKEN, harness, netError } from "../helpers";

const Anything = z.looseObject({});

/** Every way an error can be turned into text or data. */
function renderings(error: unknown): string[] {
  const e = error as Error;
  return [
    String(e),
    e.message,
    e.stack ?? "",
    JSON.stringify(e),
    inspect(e, { depth: null, showHidden: true }),
    JSON.stringify(
      Object.getOwnPropertyNames(e).map((k) => (e as unknown as Record<string, unknown>)[k]),
      (_k, v) => (v instanceof Error ? inspect(v, { depth: null, showHidden: true }) : v),
    ),
  ];
}

function expectNoToken(error: unknown): void {
  for (const text of renderings(error)) expect(text).not.toContain(TOKEN);
}

describe("token redaction", () => {
  test("ApiError: a server echoing the token in a reason, a field and a header", async () => {
    const h = harness({ retry: { maxRetries: 1 } });
    h.pool
      .intercept({ path: "/v4/vpcs/1", method: "GET" })
      .reply(
        401,
        { errors: [{ reason: `Invalid Token ${TOKEN}`, field: `Bearer ${TOKEN}` }] },
        { headers: { "x-echo": `Bearer ${TOKEN}`, "content-type": "application/json" } },
      );
    const error = await h.client.vpcs.get(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).errors[0]!.reason).toBe(`Invalid Token ${REDACTED}`);
    expect((error as ApiError).headers["x-echo"]).toBe(`Bearer ${REDACTED}`);
    expectNoToken(error);
  });

  test("ConnectionError: undici's mock-not-matched error prints the request headers; the cause is sanitized", async () => {
    const h = harness({ retry: { maxRetries: 0 } });
    h.pool.intercept({ path: "/v4/vpcs/1", method: "GET", headers: { "x-required": "yes" } }).reply(200, {});
    const error = (await h.client.vpcs.get(1).catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.code).toBe("UND_MOCK_ERR_MOCK_NOT_MATCHED");
    expect(String((error.cause as Error).message)).toContain(REDACTED);
    expectNoToken(error);
  });

  test("ConnectionError from a transport error whose message carries the token", async () => {
    const h = harness();
    h.pool.intercept({ path: "/v4/vpcs", method: "POST" }).replyWithError(
      Object.assign(netError("UND_ERR_SOCKET", `closed; sent authorization: Bearer ${TOKEN}`), {
        headers: { authorization: `Bearer ${TOKEN}` },
      }),
    );
    const error = await h.client.vpcs.create({ label: "a", region: "r" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expectNoToken(error);
  });

  test("TimeoutError and AbortError", async () => {
    const h = harness({ timeoutMs: 10, retry: { maxRetries: 0 } });
    h.pool.intercept({ path: "/v4/vpcs/1", method: "GET" }).reply(200, {}).delay(300);
    const timeout = await h.client.vpcs.get(1).catch((e: unknown) => e);
    expect(timeout).toBeInstanceOf(TimeoutError);
    expectNoToken(timeout);

    const a = harness();
    a.pool.intercept({ path: "/v4/vpcs/1", method: "GET" }).reply(200, {}).delay(300);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error(`user gave up (${TOKEN})`)), 10);
    const aborted = await a.client.vpcs.get(1, { signal: controller.signal }).catch((e: unknown) => e);
    expect(aborted).toBeInstanceOf(AbortError);
    expectNoToken(aborted);
  });

  test("ClientValidationError naming an unknown field that is the token", async () => {
    const h = harness();
    const error = await h.client.vpcs.create({ label: "a", region: "r", [TOKEN]: 1 } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientValidationError);
    expect((error as ClientValidationError).errors).toEqual([{ reason: `Unknown field: ${REDACTED}` }]);
    expectNoToken(error);
  });

  test("ResponseValidationError naming a response key that is the token", async () => {
    const h = harness();
    h.pool.intercept({ path: "/v4/x", method: "GET" }).reply(200, { [TOKEN]: 1 }, JSON_HEADERS);
    const error = await h.client.request({ method: "GET", path: "/x", responseSchema: z.strictObject({}) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expectNoToken(error);
  });

  test("onRetry payloads and errors when the token ends up in a path", async () => {
    const h = harness({ retry: { maxRetries: 2 } });
    h.pool
      .intercept({ path: () => true, method: "GET" })
      .reply(503, { errors: [{ reason: "later" }] }, JSON_HEADERS)
      .persist();
    const error = await h.client
      .request({ method: "GET", path: path`/things/${TOKEN}`, responseSchema: Anything })
      .catch((e: unknown) => e);
    expect(h.retries).toHaveLength(2);
    expect(JSON.stringify(h.retries)).not.toContain(TOKEN);
    expect(h.retries[0]!.path).toBe(`/things/${REDACTED}`);
    expectNoToken(error);
  });
});
