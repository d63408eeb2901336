/**
 * The `path` template tag: every interpolated value is percent-encoded as ONE path segment, so an
 * image id such as `private/12` becomes `private%2F12` and a value can never add a segment, a
 * query string or a `..` that the URL parser would resolve away.
 */
import { ClientValidationError } from "./errors";

/** A value that may stand for one path segment. */
export type PathParam = string | number;

/**
 * Builds a request path from a template, encoding each interpolated value with
 * `encodeURIComponent`: ``path`/vpcs/${vpcId}/subnets` ``.
 * Throws `ClientValidationError` for an empty, `.` or `..` segment or a non-finite number.
 */
export function path(strings: TemplateStringsArray, ...values: PathParam[]): string {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += encodeSegment(value) + strings[i + 1]!;
  });
  return out;
}

/** Encodes one path segment (exported for callers that assemble paths by hand). */
export function encodeSegment(value: PathParam): string {
  const ok =
    (typeof value === "number" && Number.isFinite(value)) || (typeof value === "string" && value !== "" && value !== "." && value !== "..");
  if (!ok) {
    throw new ClientValidationError("path parameter", [
      { reason: `Invalid path parameter ${JSON.stringify(value) ?? String(value)}: must be a non-empty id` },
    ]);
  }
  return encodeURIComponent(String(value));
}
