/**
 * The one retry policy of the sdk, written as a table (`RETRY_RULES`) plus a pure decision
 * function (`decideRetry`). The request pipeline only asks "retry, and after how long?"; it never
 * decides on its own. Delays are returned, not slept, so tests check them at zero cost.
 *
 * The dividing line is whether the failed request may have changed something on the server. The
 * API has no idempotency keys, so a POST that may have been processed (reset after sending,
 * timeout, a 500/502/504 from a server or gateway that may have acted on it) is never sent again:
 * callers look the object up by its natural key instead (the provider's engine does, see
 * `provider/engine/natural-key.ts`). Refusals (429, 503, 408, "busy", refused connection) are
 * safe to repeat for every method.
 */
import { ApiError, ConnectionError, TimeoutError } from "./errors";

/** Tunables of the policy. Every client takes a `Partial` of this and fills in the defaults. */
export interface RetryPolicyOptions {
  /** Retries after the first attempt (so at most `maxRetries + 1` attempts). */
  maxRetries: number;
  /** First backoff ceiling; doubles per retry ("full jitter": the delay is uniform in [0, ceiling)). */
  baseDelayMs: number;
  /** Upper bound of the backoff ceiling. */
  maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the call fails with the 429 instead. */
  maxRetryAfterMs: number;
  /** Random source in [0, 1), injectable so jitter is testable. */
  random: () => number;
  /** Clock (epoch ms) for `Retry-After` given as an HTTP date. */
  now: () => number;
}

/** Defaults: 5 retries, full-jitter backoff from 250 ms up to 8 s, `Retry-After` waited up to 60 s. */
export const DEFAULT_RETRY_POLICY: RetryPolicyOptions = {
  maxRetries: 5,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  random: Math.random,
  now: Date.now,
};

/** What `decideRetry` concludes. `reason` is for humans (the `onRetry` hook, logs). */
export interface RetryDecision {
  retry: boolean;
  delayMs: number;
  reason: string;
}

/** One row of the policy. */
export interface RetryRule {
  /** Short description, reported as the retry reason. */
  reason: string;
  matches: (outcome: unknown) => boolean;
  /** True when the server certainly did not act on the request, so any method may be repeated. */
  anyMethod: boolean;
  /** Wait the server's `Retry-After` when it sent one (else backoff). */
  honourRetryAfter?: boolean;
}

const status = (outcome: unknown, ...codes: number[]) => outcome instanceof ApiError && codes.includes(outcome.status);

/** Transport codes for a client that was closed on purpose: repeating cannot help. */
const CLOSED_CODES = new Set(["UND_ERR_CLOSED", "UND_ERR_DESTROYED"]);

/**
 * The policy table, first match wins. `Retry-After` is honoured for 429 only: the API sends the
 * header on every response as the rate-limit window reset, so on a 503 it says nothing about the
 * outage.
 */
export const RETRY_RULES: readonly RetryRule[] = [
  { reason: "rate limited (429)", matches: (o) => status(o, 429), anyMethod: true, honourRetryAfter: true },
  {
    reason: "service unavailable (503)",
    // During platform maintenance the API answers 503 with X-Maintenance-Mode: waiting is futile.
    matches: (o) => status(o, 503) && !("x-maintenance-mode" in (o as ApiError).headers),
    anyMethod: true,
  },
  { reason: "request timeout (408)", matches: (o) => status(o, 408), anyMethod: true },
  { reason: "busy (400)", matches: (o) => status(o, 400) && (o as ApiError).errors.some((e) => /busy/i.test(e.reason)), anyMethod: true },
  {
    // The server (or a gateway in front of it) failed while handling the request: it may have
    // acted. 501 is an answer, not a failure: repeating cannot help.
    reason: "server error (5xx)",
    matches: (o) => o instanceof ApiError && o.status >= 500 && o.status !== 501 && o.status !== 503,
    anyMethod: false,
  },
  {
    reason: "connection not established",
    matches: (o) => o instanceof ConnectionError && !o.sent && !CLOSED_CODES.has(o.code ?? ""),
    anyMethod: true,
  },
  {
    reason: "connection failed after sending",
    matches: (o) => o instanceof ConnectionError && o.sent && !CLOSED_CODES.has(o.code ?? ""),
    anyMethod: false,
  },
  { reason: "no response in time", matches: (o) => o instanceof TimeoutError, anyMethod: false },
];

/**
 * Decides whether to retry after a failed attempt.
 * @param outcome the error the attempt raised (an `ApiError`, `ConnectionError`, `TimeoutError`, …)
 * @param attempt 1-based number of the attempt that just failed
 * @param context `idempotent`: whether repeating the request is harmless (GET/PUT/DELETE by default)
 * @param options policy tunables (defaults: `DEFAULT_RETRY_POLICY`)
 */
export function decideRetry(
  outcome: unknown,
  attempt: number,
  context: { idempotent: boolean },
  options: Partial<RetryPolicyOptions> = {},
): RetryDecision {
  const policy = { ...DEFAULT_RETRY_POLICY, ...options };
  const rule = RETRY_RULES.find((r) => r.matches(outcome));
  if (!rule) return { retry: false, delayMs: 0, reason: "not retryable" };
  if (!rule.anyMethod && !context.idempotent) {
    return { retry: false, delayMs: 0, reason: `${rule.reason}: not repeated, the non-idempotent request may have been processed` };
  }
  if (attempt > policy.maxRetries) {
    return { retry: false, delayMs: 0, reason: `${rule.reason}: gave up after ${policy.maxRetries} retries` };
  }
  if (rule.honourRetryAfter && outcome instanceof ApiError) {
    const waitMs = parseRetryAfter(outcome.headers["retry-after"], policy.now);
    if (waitMs !== undefined) {
      if (waitMs > policy.maxRetryAfterMs) {
        return {
          retry: false,
          delayMs: 0,
          reason: `${rule.reason}: Retry-After ${waitMs} ms exceeds the ${policy.maxRetryAfterMs} ms cap`,
        };
      }
      return { retry: true, delayMs: waitMs, reason: `${rule.reason}: Retry-After` };
    }
  }
  return { retry: true, delayMs: backoffDelay(attempt, policy), reason: rule.reason };
}

/** Full-jitter exponential backoff: uniform in [0, min(maxDelayMs, baseDelayMs · 2^(attempt−1))). */
export function backoffDelay(attempt: number, policy: Pick<RetryPolicyOptions, "baseDelayMs" | "maxDelayMs" | "random">): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(policy.random() * ceiling);
}

/** `Retry-After` as delta-seconds or an HTTP date → milliseconds (undefined when absent or unreadable). */
export function parseRetryAfter(value: string | undefined, now: () => number = Date.now): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now());
}

/** Methods that may be repeated without changing the outcome (RFC 9110 §9.2.2). */
export function isIdempotentMethod(method: string): boolean {
  return ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"].includes(method.toUpperCase());
}
