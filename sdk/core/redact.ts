/**
 * Credential redaction. The token is known to the client instance only; everything the sdk puts
 * into an error (messages, API error entries, response headers, the transport's own error as
 * `cause`) passes through a redactor first, because servers and libraries echo requests back
 * (undici's MockNotMatchedError, for one, prints the request headers).
 */
import type { ErrorEntry } from "./schema";

/** What a redacted secret is replaced with. */
export const REDACTED = "[REDACTED]";

/** Replaces every occurrence of the secrets in a text. */
export type Redactor = (text: string) => string;

/**
 * Builds a redactor for a token. Very short secrets are ignored: replacing every `a` in a message
 * would destroy it without protecting anything.
 */
export function makeRedactor(...secrets: Array<string | undefined>): Redactor {
  const active = secrets.filter((s): s is string => typeof s === "string" && s.length >= 4);
  if (active.length === 0) return (text) => text;
  return (text) => active.reduce((acc, secret) => acc.split(secret).join(REDACTED), text);
}

/** Redacts the `reason` and `field` of API error entries. */
export function redactEntries(entries: ErrorEntry[], redact: Redactor): ErrorEntry[] {
  return entries.map((entry) => {
    const out: ErrorEntry = { ...entry, reason: redact(entry.reason) };
    if (entry.field !== undefined) out.field = redact(entry.field);
    return out;
  });
}

/** Redacts header values (a server may echo the Authorization header back). */
export function redactHeaders(headers: Record<string, string>, redact: Redactor): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, redact(v)]));
}

/**
 * A safe stand-in for a transport error kept as `cause`: same name, code and (redacted) message,
 * none of the original's other properties (which may hold request options and headers).
 */
export function sanitizeCause(error: unknown, redact: Redactor): Error | undefined {
  if (error === undefined || error === null) return undefined;
  const source = error as { name?: unknown; message?: unknown; code?: unknown };
  const copy = new Error(redact(typeof source.message === "string" ? source.message : String(error)));
  copy.name = typeof source.name === "string" ? source.name : "Error";
  if (typeof source.code === "string") (copy as Error & { code?: string }).code = source.code;
  // The original stack names only sdk and undici frames, but its first line repeats the message.
  copy.stack = `${copy.name}: ${copy.message}`;
  return copy;
}
