/**
 * What one API call is made of, apart from the client that sends it: the request description
 * `HttpClient` takes, and the one method the paginator needs of a client. Kept apart from
 * `http.ts` so the paginator depends on this small surface, not on the client.
 */
import type { FormData as UndiciFormData } from "undici";
import type { z } from "zod";

/** Methods the API uses. */
export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE" | "PATCH" | "HEAD";

/** Query parameters; `undefined` values are left out. */
export type Query = Record<string, string | number | boolean | undefined>;

/** An `X-Filter` object (`{"+order_by": "created", "action": "vpc_create"}`), sent as JSON. */
export type Filter = Record<string, unknown>;

/** One API call. `path` is relative to the base URL; build it with the `path` tag. */
export interface RequestOptions<S extends z.ZodType = z.ZodType> {
  method: HttpMethod;
  path: string;
  query?: Query;
  body?: unknown;
  /** A multipart/form-data body instead of JSON (undici sets the boundary); re-sent as is on retries. */
  form?: UndiciFormData;
  /** Strict schema of the body: a failure raises `ClientValidationError` and nothing is sent. */
  bodySchema?: z.ZodType;
  headers?: Record<string, string>;
  filter?: Filter;
  /** Tolerant schema of a 2xx body: a failure raises `ResponseValidationError`. */
  responseSchema: S;
  /** May the request be repeated after an ambiguous failure? Default: by method (GET/PUT/DELETE/HEAD). */
  idempotent?: boolean;
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
}

/** Whatever can send a request: `HttpClient`, or a test double. */
export interface Requester {
  request<S extends z.ZodType>(options: RequestOptions<S>): Promise<z.output<S>>;
}
