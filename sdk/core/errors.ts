/**
 * One error hierarchy for the whole client. Every failure the sdk raises is a `ComputeError`;
 * failures the API answered are `ApiError`s with one subclass per status, built by `ApiError.from`.
 * Messages name the method, the path and the API's `{field, reason}` entries, never a credential.
 */
import type { ErrorEntry } from "./schema";

/** Base class of every error the sdk raises. */
export class ComputeError extends Error {
  override name = "ComputeError";
}

/** Request details carried by every error that concerns one HTTP exchange. */
export interface RequestInfo {
  method: string;
  /** Path relative to the base URL, with the query string (no host, no credentials). */
  path: string;
}

function describeErrors(errors: ErrorEntry[]): string {
  return errors.map((e) => (e.field ? `${e.field}: ${e.reason}` : e.reason)).join("; ");
}

/** The API answered with an error status. */
export class ApiError extends ComputeError {
  override name = "ApiError";
  readonly status: number;
  readonly errors: ErrorEntry[];
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;

  constructor(status: number, errors: ErrorEntry[], request: RequestInfo, headers: Record<string, string> = {}) {
    super(`${status} ${request.method} ${request.path}: ${describeErrors(errors) || "no error details"}`);
    this.status = status;
    this.errors = errors;
    this.method = request.method;
    this.path = request.path;
    this.headers = headers;
  }

  /** The entries naming a field, for callers that map them back to their own inputs. */
  fieldErrors(): Array<Required<ErrorEntry>> {
    return this.errors.filter((e): e is Required<ErrorEntry> => typeof e.field === "string");
  }

  /** True when any entry's reason contains `text` (case-insensitive). */
  hasReason(text: string): boolean {
    const needle = text.toLowerCase();
    return this.errors.some((e) => e.reason.toLowerCase().includes(needle));
  }

  /** Builds the subclass that matches the status. */
  static from(status: number, errors: ErrorEntry[], request: RequestInfo, headers: Record<string, string> = {}): ApiError {
    const Class = ERROR_CLASSES[status as keyof typeof ERROR_CLASSES] ?? (status >= 500 ? InternalServerError : ApiError);
    return new Class(status, errors, request, headers);
  }
}

/** A subclass of `ApiError` for one status: only its name differs, so `instanceof` tells the statuses apart. */
function statusError<const N extends string>(name: N) {
  return {
    [name]: class extends ApiError {
      override name = name;
    },
  }[name]!;
}

/** 429: rate limit exceeded; retried after `Retry-After`. */
export class RateLimitError extends ApiError {
  override name = "RateLimitError";
  /** Seconds the API asked us to wait (`Retry-After`), when it said. */
  get retryAfterSeconds(): number | undefined {
    const raw = this.headers["retry-after"];
    const n = raw === undefined ? NaN : Number(raw);
    return Number.isFinite(n) ? n : undefined;
  }
}
/** 503: temporarily unavailable; retried unless the API is in maintenance. */
export class ServiceUnavailableError extends ApiError {
  override name = "ServiceUnavailableError";
  /** During platform maintenance the API sends `X-Maintenance-Mode`; such a 503 is not retried. */
  get maintenance(): boolean {
    return "x-maintenance-mode" in this.headers;
  }
}

/** The class of each status; a 5xx without a class of its own is an `InternalServerError`. */
const ERROR_CLASSES = {
  400: statusError("BadRequestError"),
  401: statusError("AuthenticationError"),
  403: statusError("PermissionDeniedError"),
  404: statusError("NotFoundError"),
  405: statusError("MethodNotAllowedError"),
  408: statusError("RequestTimeoutError"),
  429: RateLimitError,
  500: statusError("InternalServerError"),
  501: statusError("NotImplementedError"),
  503: ServiceUnavailableError,
} satisfies Record<number, new (...args: ConstructorParameters<typeof ApiError>) => ApiError>;

export const {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  405: MethodNotAllowedError,
  408: RequestTimeoutError,
  500: InternalServerError,
  501: NotImplementedError,
} = ERROR_CLASSES;
/** 400: validation failure, bad filter, or a busy resource (see `hasReason("busy")`). */
export type BadRequestError = ApiError;
/** 401: missing, invalid or expired token, or a token without the endpoint's scope. */
export type AuthenticationError = ApiError;
/** 403: authenticated but not permitted (restricted user without the grant). */
export type PermissionDeniedError = ApiError;
/** 404: unknown id or path. */
export type NotFoundError = ApiError;
/** 405: the path does not support the method. */
export type MethodNotAllowedError = ApiError;
/** 408: the server gave up waiting for the request; retried by the policy. */
export type RequestTimeoutError = ApiError;
/** 500, and any 5xx without a class of its own (502, 504, …). */
export type InternalServerError = ApiError;
/** 501: not implemented (the emulator answers this for endpoints it lacks). */
export type NotImplementedError = ApiError;

/**
 * The connection failed. `sent` says whether the request may have reached the server: a refused
 * connection was not sent; a reset after the request was written is ambiguous.
 */
export class ConnectionError extends ComputeError {
  override name = "ConnectionError";
  readonly method: string;
  readonly path: string;
  readonly code: string | undefined;
  readonly sent: boolean;
  constructor(request: RequestInfo, code: string | undefined, sent: boolean, cause?: unknown) {
    super(`${request.method} ${request.path}: connection failed (${code ?? "unknown error"})`, { cause });
    this.method = request.method;
    this.path = request.path;
    this.code = code;
    this.sent = sent;
  }
}

/** No complete response within the per-request timeout. The request may have been processed. */
export class TimeoutError extends ComputeError {
  override name = "TimeoutError";
  readonly method: string;
  readonly path: string;
  constructor(request: RequestInfo, timeoutMs: number, cause?: unknown) {
    super(`${request.method} ${request.path}: no response within ${timeoutMs} ms`, { cause });
    this.method = request.method;
    this.path = request.path;
  }
}

/** The caller aborted the request through its `signal`. */
export class AbortError extends ComputeError {
  override name = "AbortError";
}

/** The request was refused locally, before sending, because it breaks the API's rules. */
export class ClientValidationError extends ComputeError {
  override name = "ClientValidationError";
  readonly errors: ErrorEntry[];
  constructor(what: string, errors: ErrorEntry[]) {
    super(`${what}: ${describeErrors(errors)}`);
    this.errors = errors;
  }
}

/** The API answered 2xx with a body that does not have the documented shape. */
export class ResponseValidationError extends ComputeError {
  override name = "ResponseValidationError";
  readonly errors: ErrorEntry[];
  constructor(request: RequestInfo, errors: ErrorEntry[]) {
    super(`${request.method} ${request.path}: unexpected response shape: ${describeErrors(errors)}`);
    this.errors = errors;
  }
}

/** A waiter gave up: the object reached a failure state, or the deadline passed. */
export class WaitError extends ComputeError {
  override name = "WaitError";
  /** `failed`: the object reached a failure state; `timeout`: the deadline passed. Unset when not told. */
  readonly kind: "failed" | "timeout" | undefined;
  /** The last polled value, when there was one. */
  readonly last: unknown;
  constructor(message: string, details: { kind?: "failed" | "timeout"; last?: unknown; cause?: unknown } = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = details.kind;
    this.last = details.last;
  }
}

/** True for a 404 `ApiError` (read after delete, drift detection). */
export function isNotFound(error: unknown): error is NotFoundError {
  return error instanceof ApiError && error.status === 404;
}

/** True for an `ApiError`, optionally of one status. */
export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}
