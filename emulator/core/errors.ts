/**
 * Errors the emulator answers with. Handlers throw an `ApiFailure`; one fastify error handler
 * turns it (and anything else) into the API's envelope `{"errors":[{"reason","field"?}]}`.
 * Every reason text the emulator writes itself lives here, exported, so tests import the same
 * strings instead of retyping them. Resource-specific texts stay with their sdk schemas
 * (`VPC_REASONS`), since the sdk validates with them too.
 */
import type { ErrorEntry } from "../../sdk/core/schema";

/** Reason texts (api-facts P7-2 where recorded; emulator wording where the API's is unknown). */
export const REASONS = {
  notFound: "Not found",
  invalidToken: "Invalid Token",
  oauthScope: "Your OAuth token is not authorized to use this endpoint.",
  unauthorized: "Unauthorized",
  methodNotAllowed: "Method Not Allowed",
  malformedJson: "Request body is not valid JSON",
  tooManyRequests: "Too many requests",
  internalError: "Internal Server Error",
  serviceUnavailable: "Service temporarily unavailable. Please try again later.",
  maintenance: "The API is undergoing maintenance. Please try again later.",
  pageInvalid: "page must be an integer of at least 1",
  pageSizeInvalid: "page_size must be an integer between 25 and 500",
  filterInvalidJson: "X-Filter must be a JSON object",
  /** `Cannot filter on foo` (fixtures/error.400.bad_filter.json). */
  cannotFilterOn: (field: string) => `Cannot filter on ${field}`,
  filterBadOperator: (operator: string) => `Unknown filter operator ${operator}`,
  filterBadOrder: "+order must be asc or desc",
  filterBadValue: (field: string) => `Invalid filter value for ${field}`,
  /** A response failed its own sdk schema: an emulator bug, never expected in a test run. */
  responseShape: (detail: string) => `Emulator produced an invalid response: ${detail}`,
} as const;

/** The header that names the filter in `{"field": "X-Filter"}` entries. */
export const FILTER_FIELD = "X-Filter";

/** A failure a handler (or the routing machinery) raises; rendered as the error envelope. */
export class ApiFailure extends Error {
  readonly status: number;
  readonly entries: ErrorEntry[];
  readonly headers: Record<string, string>;

  constructor(status: number, entries: ErrorEntry[] | string, headers: Record<string, string> = {}) {
    const list = typeof entries === "string" ? [{ reason: entries }] : entries;
    super(`${status}: ${list.map((e) => (e.field ? `${e.field}: ${e.reason}` : e.reason)).join("; ")}`);
    this.status = status;
    this.entries = list;
    this.headers = headers;
  }
}

/** One entry; `field` is left out entirely when there is none (never null, never ""). */
export function entry(reason: string, field?: string): ErrorEntry {
  return field ? { reason, field } : { reason };
}

export const badRequest = (reason: string, field?: string) => new ApiFailure(400, [entry(reason, field)]);
export const notFound = () => new ApiFailure(404, REASONS.notFound);
export const invalidToken = () => new ApiFailure(401, REASONS.invalidToken);
export const scopeMissing = () => new ApiFailure(401, REASONS.oauthScope);
export const forbidden = () => new ApiFailure(403, REASONS.unauthorized);

/** Throws a 400 with all collected entries, if any; lets rules report several problems at once. */
export function throwIfAny(entries: ErrorEntry[]): void {
  if (entries.length > 0) throw new ApiFailure(400, entries);
}

/** The error envelope body. */
export function errorBody(entries: ErrorEntry[]): { errors: ErrorEntry[] } {
  return { errors: entries.map((e) => entry(e.reason, e.field)) };
}

/** The value, or a 404 `Not found` when there is none. */
export function found<T>(value: T | undefined): T {
  if (value === undefined) throw notFound();
  return value;
}
