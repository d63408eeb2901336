/**
 * The request pipeline of one client instance:
 *
 *   validate body (strict out) → build URL and headers → send with a per-request deadline →
 *   map failures to the error hierarchy → ask the retry policy → parse the response (tolerant in).
 *
 * Nothing here is global: the base URL, the token, the dispatcher and the clock-like hooks all
 * belong to the instance, so pointing a client at the emulator is one option and tests run with
 * a `MockAgent` and a zero-delay `sleep`.
 */
import { STATUS_CODES } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import type { Readable } from "node:stream";
import type { Dispatcher, FormData as UndiciFormData } from "undici";
import type { z } from "zod";
import { undici } from "./undici";
import {
  AbortError,
  ApiError,
  ClientValidationError,
  ComputeError,
  ConnectionError,
  ResponseValidationError,
  TimeoutError,
  type RequestInfo,
} from "./errors";
import { makeRedactor, redactEntries, redactHeaders, sanitizeCause, type Redactor } from "./redact";
import { decideRetry, isIdempotentMethod, type RetryPolicyOptions } from "./retry";
import { ErrorEnvelope, issuesToErrors, type CollectionPage, type ErrorEntry } from "./schema";
import { endpointPath, type AnyEndpoint, type EndpointBody, type EndpointItem, type EndpointResult, type PathParams } from "./endpoint";
import { Paginator } from "./pagination";
import { Pacer, isCollectionQuery, type PacedRequest } from "./pacing";
import { SDK_VERSION } from "../version";
import type { HttpMethod, Query, RequestOptions } from "./request";
import type {
  CallOptions,
  ClientOptions,
  EndpointListOptions,
  PaceEvent,
  RetryEvent,
  Sleep,
  StreamRequestOptions,
  StreamResponse,
} from "./options";
import { encodeFilter, normalizeBaseUrl, parseAbsoluteUrl, queryString } from "./wire";

export type { Filter, HttpMethod, Query, RequestOptions } from "./request";
export type * from "./options";
export { normalizeBaseUrl } from "./wire";

type RawResponse = StreamResponse;

/** Transport codes of a connection that was never established: the request did not leave. */
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);
/** undici's own deadlines: the request went out and no (complete) answer came. */
const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

const defaultSleep: Sleep = (ms, signal) => delay(ms, undefined, { signal });
/** undici's default headers and body timeouts: how long a streamed request may sit idle. */
const UNDICI_IDLE_TIMEOUT_MS = 300_000;

/** The transport and request pipeline shared by every resource class of one `ComputeClient`. */
export class HttpClient {
  private readonly base: string;
  private readonly token: string | undefined;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly timeoutMs: number;
  private readonly userAgent: string;
  private readonly retry: Partial<RetryPolicyOptions>;
  private readonly sleep: Sleep;
  private readonly onRetry: ((event: RetryEvent) => void) | undefined;
  private readonly onPace: ((event: PaceEvent) => void) | undefined;
  private readonly onCall: ((endpoint: AnyEndpoint) => void) | undefined;
  private readonly redact: Redactor;
  /** The client's pacer, when pacing is on. */
  readonly pacer: Pacer | undefined;
  private closed = false;

  constructor(options: ClientOptions) {
    this.base = normalizeBaseUrl(options.baseUrl);
    this.token = options.token;
    this.redact = makeRedactor(options.token);
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher ?? new (undici().Agent)();
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.userAgent = options.userAgent ?? `pulumi-compute/${SDK_VERSION}`;
    this.retry = options.retry ?? {};
    this.sleep = options.sleep ?? defaultSleep;
    this.onRetry = options.onRetry;
    this.onPace = options.onPace;
    this.onCall = options.onCall;
    this.pacer = options.pacing === true ? new Pacer() : options.pacing || undefined;
  }

  /** Sends one API call with validation, retries and response parsing; resolves the parsed body. */
  async request<S extends z.ZodType>(options: RequestOptions<S>): Promise<z.output<S>> {
    const method = options.method.toUpperCase() as HttpMethod;
    const relative = options.path + queryString(options.query);
    const info: RequestInfo = { method, path: this.redact(relative) };
    const body = options.form ?? this.validateBody(options, info);
    const headers = this.buildHeaders(options, typeof body === "string");
    const idempotent = options.idempotent ?? isIdempotentMethod(method);
    const paced: PacedRequest = { method, path: options.path, collection: method === "GET" && isCollectionQuery(options.query) };

    for (let attempt = 1; ; attempt++) {
      try {
        await this.pacer?.acquire(paced, options.signal, (waitMs) => this.notify(this.onPace, { method, path: info.path, waitMs }));
        const raw = await this.send(method, relative, headers, body, info, options).catch((error: unknown) => {
          this.pacer?.release(paced);
          throw error;
        });
        this.pacer?.observe(paced, raw.status, raw.headers);
        if (raw.status >= 400) throw this.toApiError(raw, info);
        return this.parseResponse(raw, options.responseSchema, info);
      } catch (error) {
        await this.backOff(error, attempt, idempotent, info, options.signal);
        if (options.signal?.aborted) throw new AbortError(`${info.method} ${info.path}: aborted`);
      }
    }
  }

  /**
   * After a failed attempt: rethrows what the retry policy does not retry, else reports the retry
   * (`onRetry`) and waits its delay; an abort during the wait is an `AbortError`.
   */
  private async backOff(error: unknown, attempt: number, idempotent: boolean, info: RequestInfo, signal?: AbortSignal): Promise<void> {
    const decision = decideRetry(error, attempt, { idempotent }, this.retry);
    if (!decision.retry) throw error;
    this.notify(this.onRetry, { attempt, delayMs: decision.delayMs, reason: decision.reason, method: info.method, path: info.path });
    try {
      await this.sleep(decision.delayMs, signal);
    } catch (cause) {
      if (!signal?.aborted) throw cause;
      throw new AbortError(`${info.method} ${info.path}: aborted while waiting to retry`, { cause: sanitizeCause(cause, this.redact) });
    }
  }

  /**
   * Calls a declared endpoint: its method, its path with `params` encoded, `body` validated with
   * its body schema (or sent as multipart), the answer parsed with its response schema (page 1 of
   * a paginated endpoint; iterate with `paginate`), retried as its `idempotent` flag or its method
   * allows. Only `signal` is read from `options`; `request()` takes everything else.
   */
  call<E extends AnyEndpoint>(
    endpoint: E,
    params: PathParams<E["path"]>,
    body: EndpointBody<E>,
    options: CallOptions = {},
  ): Promise<EndpointResult<E>> {
    const form = endpoint.multipart ? (body as unknown as UndiciFormData) : undefined;
    this.notify(this.onCall, endpoint);
    return this.request({
      method: endpoint.method,
      path: endpointPath(endpoint, params),
      body: form ? undefined : body,
      form,
      bodySchema: endpoint.body,
      responseSchema: endpoint.responseSchema,
      idempotent: endpoint.idempotent,
      signal: options.signal,
    }) as Promise<EndpointResult<E>>;
  }

  /** Lists a paginated endpoint: a lazy `Paginator` over its items (see `core/pagination.ts`). */
  paginate<E extends AnyEndpoint & { readonly paginated: true }>(
    endpoint: E,
    params: PathParams<E["path"]>,
    options: EndpointListOptions<E> = {},
  ): Paginator<EndpointItem<E>> {
    const { query, ...listOptions } = options;
    this.notify(this.onCall, endpoint);
    const spec = {
      path: endpointPath(endpoint, params),
      item: endpoint.response as z.ZodType<EndpointItem<E>>,
      page: endpoint.responseSchema as unknown as z.ZodType<CollectionPage<EndpointItem<E>>>,
      query: query as Query | undefined,
    };
    return new Paginator(this, spec, listOptions);
  }

  /**
   * Streams a body to an absolute URL outside the API (an image's pre-signed upload URL) through
   * this client's connection pool, retry policy and error hierarchy. It sends no token — the URL
   * carries its own signature, which is why errors name the URL without its query string — and
   * no JSON. There is no overall deadline (a large upload takes as long as it takes): undici's
   * idle timeouts and `signal` bound it. A PUT is retried like any idempotent request.
   */
  async sendStream(options: StreamRequestOptions): Promise<StreamResponse> {
    const url = parseAbsoluteUrl(options.url);
    const info: RequestInfo = { method: options.method, path: this.redact(url.origin + url.pathname) };
    const headers = {
      "user-agent": this.userAgent,
      "content-type": options.contentType,
      "content-length": String(options.contentLength),
    };
    for (let attempt = 1; ; attempt++) {
      try {
        const raw = await this.sendStreamOnce(url, headers, info, options);
        if (raw.status >= 400) throw this.toApiError(raw, info);
        return raw;
      } catch (error) {
        await this.backOff(error, attempt, options.method === "PUT", info, options.signal);
      }
    }
  }

  private async sendStreamOnce(
    url: URL,
    headers: Record<string, string>,
    info: RequestInfo,
    options: StreamRequestOptions,
  ): Promise<RawResponse> {
    if (options.signal?.aborted) throw new AbortError(`${info.method} ${info.path}: aborted before sending`);
    const body = options.open();
    try {
      // undici sends async iterables as well (chunk by chunk, waiting for the socket's `drain`
      // whenever a write fills its buffer); its type declarations list only streams and buffers.
      const response = await undici().request(url, {
        dispatcher: this.dispatcher,
        method: options.method,
        headers,
        body: body as Readable,
        signal: options.signal,
      });
      const text = await response.body.text();
      return { status: response.statusCode, headers: flattenHeaders(response.headers), text };
    } catch (error) {
      throw this.sendFailure(error, info, options.signal, UNDICI_IDLE_TIMEOUT_MS);
    } finally {
      // A failed attempt may leave its source open (an unread file); never leak it.
      closeBody(body);
    }
  }

  /** Closes the dispatcher if this client created it; a caller-supplied dispatcher is left open. */
  async close(): Promise<void> {
    if (!this.ownsDispatcher || this.closed) return;
    this.closed = true;
    await this.dispatcher.close();
  }

  private validateBody(options: RequestOptions, info: RequestInfo): string | undefined {
    if (options.body === undefined) return undefined;
    let value: unknown = options.body;
    if (options.bodySchema) {
      const parsed = options.bodySchema.safeParse(value);
      if (!parsed.success) {
        throw new ClientValidationError(
          `${info.method} ${info.path} request body`,
          redactEntries(issuesToErrors(parsed.error), this.redact),
        );
      }
      value = parsed.data;
    }
    return JSON.stringify(value);
  }

  private buildHeaders(options: RequestOptions, hasBody: boolean): Record<string, string> {
    const headers: Record<string, string> = { accept: "application/json", "user-agent": this.userAgent };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (hasBody) headers["content-type"] = "application/json";
    if (options.filter !== undefined) headers["x-filter"] = encodeFilter(options.filter);
    for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
    return headers;
  }

  /** One attempt. Every failure leaves as a `ComputeError` subclass, with a redacted cause. */
  private async send(
    method: HttpMethod,
    relative: string,
    headers: Record<string, string>,
    body: string | UndiciFormData | undefined,
    info: RequestInfo,
    options: RequestOptions,
  ): Promise<RawResponse> {
    if (options.signal?.aborted) throw new AbortError(`${info.method} ${info.path}: aborted before sending`);
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    // Our own deadline spans headers AND body; undici's headersTimeout/bodyTimeout are per phase.
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
    try {
      const response = await undici().request(this.base + relative, { dispatcher: this.dispatcher, method, headers, body, signal });
      const text = await response.body.text();
      return { status: response.statusCode, headers: flattenHeaders(response.headers), text };
    } catch (error) {
      throw this.sendFailure(error, info, options.signal, timeoutMs, deadline.signal.aborted);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * What an attempt that got no answer raises, with its cause redacted: an `AbortError` when the
   * caller aborted, a `TimeoutError` when the deadline passed (`timedOut`, or undici's own timeout
   * codes) after `timeoutMs`, else a `ConnectionError` that says whether the request may have left.
   */
  private sendFailure(
    error: unknown,
    info: RequestInfo,
    signal: AbortSignal | undefined,
    timeoutMs: number,
    timedOut = false,
  ): ComputeError {
    const cause = sanitizeCause(error, this.redact);
    if (signal?.aborted) return new AbortError(`${info.method} ${info.path}: aborted`, { cause });
    const code = errorCode(error);
    if (timedOut || TIMEOUT_CODES.has(code ?? "")) return new TimeoutError(info, timeoutMs, cause);
    return new ConnectionError(info, code, !NOT_SENT_CODES.has(code ?? ""), cause);
  }

  /** Builds the `ApiError` of a ≥400 answer; tolerates bodies that are not the JSON envelope. */
  private toApiError(raw: RawResponse, info: RequestInfo): ApiError {
    let entries: ErrorEntry[] | undefined;
    try {
      const parsed = ErrorEnvelope.safeParse(JSON.parse(raw.text));
      if (parsed.success && parsed.data.errors.length > 0) entries = parsed.data.errors;
    } catch {
      // Not JSON (a gateway's HTML page): fall through to the generic entry.
    }
    entries ??= [{ reason: STATUS_CODES[raw.status] ?? `HTTP ${raw.status}` }];
    return ApiError.from(raw.status, redactEntries(entries, this.redact), info, redactHeaders(raw.headers, this.redact));
  }

  private parseResponse<S extends z.ZodType>(raw: RawResponse, schema: S, info: RequestInfo): z.output<S> {
    let json: unknown;
    try {
      // Deletes and actions answer `{}`; an empty body is read the same way.
      json = raw.text.trim() === "" ? {} : JSON.parse(raw.text);
    } catch {
      throw new ResponseValidationError(info, [{ reason: `Response body is not JSON (status ${raw.status})` }]);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new ResponseValidationError(info, redactEntries(issuesToErrors(parsed.error), this.redact));
    return parsed.data;
  }

  private notify<E>(observer: ((event: E) => void) | undefined, event: E): void {
    try {
      observer?.(event);
    } catch {
      // An observer must not change the outcome of the call.
    }
  }
}

function closeBody(body: Readable | AsyncIterable<Uint8Array>): void {
  if ("destroy" in body && typeof body.destroy === "function") body.destroy();
  else (body as AsyncGenerator<Uint8Array>).return?.(undefined)?.catch(() => undefined);
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/** The code of a transport error; Node reports a failed happy-eyeballs connect as an AggregateError. */
function errorCode(error: unknown): string | undefined {
  const e = error as { code?: unknown; errors?: Array<{ code?: unknown }>; cause?: { code?: unknown } } | undefined;
  const code = e?.code ?? e?.errors?.[0]?.code ?? e?.cause?.code;
  return typeof code === "string" ? code : undefined;
}
