/**
 * The options of a client instance and of its calls (`ClientOptions`, `CallOptions`,
 * `EndpointListOptions`, a streamed upload's request and answer) and the payloads of its hooks.
 * Re-exported by `http.ts`, whose `HttpClient` reads them.
 */
import type { Readable } from "node:stream";
import type { Dispatcher } from "undici";
import type { RetryPolicyOptions } from "./retry";
import type { AnyEndpoint, EndpointQuery } from "./endpoint";
import type { ListOptions } from "./pagination";
import type { Pacer } from "./pacing";

/** Waits `ms`; rejects when `signal` aborts. Injected so tests run at zero delay. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Payload of the `onRetry` hook. Carries no headers and no body, hence no credential. */
export interface RetryEvent {
  /** 1-based number of the attempt that failed. */
  attempt: number;
  delayMs: number;
  reason: string;
  method: string;
  path: string;
}

/** Payload of the `onPace` hook: a request held back for rate-limit budget, and for about how long. */
export interface PaceEvent {
  method: string;
  path: string;
  /** How long the pacer expects to hold it (an answer with news may release it sooner). */
  waitMs: number;
}

/** Options of a client instance. Only `baseUrl` is required. */
export interface ClientOptions {
  /** API root including the version segment, e.g. `http://127.0.0.1:4010/v4` (a trailing slash is fine). */
  baseUrl: string;
  /** Personal access or OAuth token, sent as `Authorization: Bearer …`; redacted from every error. */
  token?: string;
  /** undici dispatcher (a `MockAgent` in tests). Default: a keep-alive `Agent` owned and closed by the client. */
  dispatcher?: Dispatcher;
  /** Deadline per attempt, covering response headers and body. Default 30 000 ms. */
  timeoutMs?: number;
  /** Default `pulumi-compute/<version>`. */
  userAgent?: string;
  /** Overrides of the retry policy tunables (`maxRetries`, `baseDelayMs`, …). */
  retry?: Partial<RetryPolicyOptions>;
  /** Delay function used between retries. Default: a real, abortable timer. */
  sleep?: Sleep;
  /** Called before each retry (after the decision, before the delay). Errors thrown by it are ignored. */
  onRetry?: (event: RetryEvent) => void;
  /**
   * Client-side pacing from the rate-limit headers, seeded from the documented limits
   * (`core/pacing.ts`): `true` for a pacer of this client's own, or a `Pacer` to share. Default off.
   */
  pacing?: boolean | Pacer;
  /** Called when pacing holds a request back for budget. Errors thrown by it are ignored. */
  onPace?: (event: PaceEvent) => void;
  /** Called with each declared endpoint the client calls or lists (which scopes a program needs). Errors thrown by it are ignored. */
  onCall?: (endpoint: AnyEndpoint) => void;
}

/** Options every resource method accepts. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** Options of `HttpClient.paginate`: the listing options and the endpoint's extra query parameters. */
export interface EndpointListOptions<E extends AnyEndpoint = AnyEndpoint> extends ListOptions {
  query?: EndpointQuery<E>;
}

/** A body streamed to an absolute URL outside the API (`HttpClient.sendStream`). */
export interface StreamRequestOptions {
  method: "PUT" | "POST";
  /** Absolute http(s) URL, such as a pre-signed upload URL. Its query string never appears in an error. */
  url: string;
  /**
   * Opens the body: a stream, or an async iterable of chunks (a chunk may reuse the memory of an
   * earlier one: the next is pulled only once the socket has taken the previous one, as long as
   * chunks are larger than the socket's buffer). Called once per attempt, so a retry re-reads its
   * source from the start.
   */
  open: () => Readable | AsyncIterable<Uint8Array>;
  /** Exact body length in bytes, sent as `Content-Length` (pre-signed URLs refuse chunked bodies). */
  contentLength: number;
  contentType: string;
  signal?: AbortSignal;
}

/** Status, lower-cased headers and body text of a 2xx answer to `sendStream`. */
export interface StreamResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}
