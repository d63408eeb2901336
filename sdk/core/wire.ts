/**
 * What a request puts on the wire besides its body: the base URL checked once, an upload's
 * absolute URL, the query string and the `X-Filter` header.
 */
import { ClientValidationError } from "./errors";
import type { Filter, Query } from "./request";

/** An absolute http(s) URL for `sendStream`; anything else is refused before sending. */
export function parseAbsoluteUrl(text: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new ClientValidationError("upload URL", [{ reason: "the upload URL must be an absolute http(s) URL" }]);
  }
  return url;
}

/** Validates the base URL and drops trailing slashes, so `base + "/vpcs"` is always right. */
export function normalizeBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ClientValidationError("client options", [{ field: "baseUrl", reason: "baseUrl must be an absolute http(s) URL" }]);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ClientValidationError("client options", [{ field: "baseUrl", reason: "baseUrl must use http or https" }]);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new ClientValidationError("client options", [
      { field: "baseUrl", reason: "baseUrl must not carry a query, a fragment or credentials (use the token option)" },
    ]);
  }
  return url.href.replace(/\/+$/, "");
}

export function queryString(query: Query | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.append(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** Strict out: the filter must be a plain JSON object. */
export function encodeFilter(filter: Filter): string {
  if (typeof filter !== "object" || filter === null || Array.isArray(filter)) {
    throw new ClientValidationError("X-Filter", [{ field: "X-Filter", reason: "X-Filter must be a JSON object" }]);
  }
  return JSON.stringify(filter);
}
