/**
 * Client-side pacing: requests wait for rate-limit budget instead of running into 429s.
 *
 * The API limits each token per window (api-facts P8-1): about 800 requests per 2 minutes in all,
 * 400 per minute per operation, 200 per minute per paginated collection, and tighter ones for a few
 * operations (image list 20/min, ticket open 2/min). Every response says where the tightest window
 * that applied to it stands: `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`
 * (epoch seconds). A `Pacer` keeps, per operation (method and path template):
 *
 * - until the operation's first answer, token buckets seeded from the documented limits (the
 *   general one shared by every operation), so the first burst of a large `up` never exceeds them;
 * - from then on, the server's own window: the budget it reported, less this client's requests
 *   still in flight (the server may not have counted them yet) and those sent since; at zero,
 *   requests wait until the window resets. A 429 empties the window until `Retry-After`.
 *
 * Several clients on one token (CI runners side by side) share every window. An answer that
 * reports less budget than this client's own count tells how many requests the others sent in the
 * meantime; the pacer keeps that many back at the end of a window (its `reserve`), because that is
 * about how many of theirs are on the way, and a request sent into them would be refused.
 *
 * A server that sends no `X-RateLimit-*` headers enforces no limit a client can see (the emulator
 * with rate limits off, say): the operation is then not paced. Waiting requests are woken when an
 * answer brings news, and never hold a slot while they wait. Nothing here sleeps for real in
 * tests: the clock and the timer are injectable.
 */
import { setTimeout as delay } from "node:timers/promises";
import { AbortError } from "./errors";

/** A limit: `limit` requests per `windowMs`. */
export interface RateWindow {
  limit: number;
  windowMs: number;
}

/** The documented limits (api-facts P8-1), the seed of a pacer's buckets. */
export const DOCUMENTED_RATE_LIMITS = {
  general: { limit: 800, windowMs: 120_000 },
  operation: { limit: 400, windowMs: 60_000 },
  collection: { limit: 200, windowMs: 60_000 },
  /** Dedicated limits of single operations, by `METHOD /path/template`. */
  dedicated: {
    "GET /images": { limit: 20, windowMs: 60_000 },
    "POST /support/tickets": { limit: 2, windowMs: 60_000 },
  } as Record<string, RateWindow>,
};

export type RateLimits = typeof DOCUMENTED_RATE_LIMITS;

export interface PacerOptions {
  limits?: RateLimits;
  /** Epoch milliseconds. */
  now?: () => number;
  /** Waits `ms` (or until `signal` aborts). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** What a request is, for pacing: its operation key and whether it lists a paginated collection. */
export interface PacedRequest {
  method: string;
  /** The path actually requested (ids are folded into a template). */
  path: string;
  collection: boolean;
}

/** A token bucket: `limit` tokens, refilled continuously over `windowMs`. Stricter than a fixed window. */
class Bucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly window: RateWindow,
    now: number,
  ) {
    this.tokens = window.limit;
    this.at = now;
  }

  /** Milliseconds until a token is available (0: now). */
  wait(now: number): number {
    this.refill(now);
    return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) * this.window.windowMs) / this.window.limit);
  }

  take(now: number): void {
    this.refill(now);
    this.tokens -= 1;
  }

  private refill(now: number): void {
    this.tokens = Math.min(this.window.limit, this.tokens + ((now - this.at) * this.window.limit) / this.window.windowMs);
    this.at = now;
  }
}

/** The server's window of one operation, as its last answers described it. */
interface ServerWindow {
  /** The window's size (`X-RateLimit-Limit`): what the next window allows. */
  limit: number;
  /** Requests left in the window, less those sent since the answer that said so. */
  remaining: number;
  /** When the window resets (epoch ms). */
  resetAt: number;
  /** A window no answer has described yet (see `nextWindow`). */
  provisional?: boolean;
}

/** How long a window no answer has described lasts before the pacer assumes the next one. */
const PROVISIONAL_WINDOW_MS = 1_000;

/** The shortest span over which the others' requests are summed, however fast the round trip. */
const MIN_ROUND_TRIP_MS = 50;

interface Operation {
  /** Seed buckets, used until the server has spoken about this operation. */
  seeds: Bucket[];
  /** `undefined`: not heard yet; `null`: the server sends no rate-limit headers (not paced). */
  server: ServerWindow | null | undefined;
  /** Send times of this client's requests not yet answered, oldest first. */
  sent: number[];
  /** This client's round trip for the operation, smoothed (ms; 0 until the first answer). */
  roundTripMs: number;
  /** Requests of other clients, as this client's answers revealed them: `[when, how many]`. */
  others: Array<[number, number]>;
  /**
   * Left unused at the end of a window: the others' requests revealed within the last round trip,
   * as of the latest answer (about as many as they have on the way).
   */
  reserve: number;
}

/** Counts of what pacing did, for reports and tests. */
export interface PacerStats {
  /** Requests that had to wait for budget. */
  waited: number;
  /** Milliseconds spent waiting, summed over requests. */
  waitedMs: number;
  /** 429 answers seen. */
  refused: number;
  /** Requests of other clients on the same token that answers revealed, in all. */
  othersSeen: number;
  /** The largest reserve kept back for them at the end of a window. */
  largestReserve: number;
}

/** `/domains/12/records/34?page=2` → `/domains/{}/records/{}`: one key per operation. */
export function operationTemplate(path: string): string {
  return path.split("?")[0]!.replace(/\/\d+(?=\/|$)/g, "/{}");
}

export class Pacer {
  private readonly limits: RateLimits;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly general: Bucket;
  /** Whether any answer carried rate-limit headers: until then, and while so, the general seed applies. */
  private serverSpeaks: boolean | undefined;
  private readonly operations = new Map<string, Operation>();
  private wake: { promise: Promise<void>; resolve: () => void };
  readonly stats: PacerStats = { waited: 0, waitedMs: 0, refused: 0, othersSeen: 0, largestReserve: 0 };

  constructor(options: PacerOptions = {}) {
    this.limits = options.limits ?? DOCUMENTED_RATE_LIMITS;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms, signal) => delay(ms, undefined, { signal }));
    this.general = new Bucket(this.limits.general, this.now());
    this.wake = this.newWake();
  }

  /**
   * Waits until `request` may be sent, and counts it; `observe` (an answer) or `release` (none)
   * ends it. `onHold` hears once, with the expected wait, when the request is held back.
   */
  async acquire(request: PacedRequest, signal?: AbortSignal, onHold?: (waitMs: number) => void): Promise<void> {
    const operation = this.operation(request);
    let started: number | undefined;
    for (;;) {
      if (signal?.aborted) throw new AbortError(`${request.method} ${request.path}: aborted while waiting for rate-limit budget`);
      const now = this.now();
      const wait = this.waitFor(operation, now);
      if (wait <= 0) {
        this.take(operation, now);
        if (started !== undefined) {
          this.stats.waited += 1;
          this.stats.waitedMs += now - started;
        }
        return;
      }
      if (started === undefined) {
        started = now;
        onHold?.(wait);
      }
      // Woken early when an answer brings news (a new window, or a server that does not limit).
      const woken = this.wake.promise;
      const timer = new AbortController();
      const sleeping = this.sleep(wait, signal ? AbortSignal.any([signal, timer.signal]) : timer.signal).catch(() => undefined);
      await Promise.race([sleeping, woken]);
      timer.abort();
    }
  }

  /** A request `acquire` let go ended without an answer (a reset connection, a timeout). */
  release(request: PacedRequest): void {
    this.operation(request).sent.shift();
  }

  /** Learns from an answer's headers (lower-cased names) and status. */
  observe(request: PacedRequest, status: number, headers: Record<string, string>): void {
    const operation = this.operation(request);
    const now = this.now();
    this.answered(operation, now);
    const remaining = Number(headers["x-ratelimit-remaining"]);
    const reset = Number(headers["x-ratelimit-reset"]);
    const limit = Number(headers["x-ratelimit-limit"]);
    if (status === 429) {
      this.stats.refused += 1;
      const retryAfter = Number(headers["retry-after"]);
      const resetAt = Number.isFinite(retryAfter) ? now + retryAfter * 1000 : Number.isFinite(reset) ? reset * 1000 : now + 1000;
      operation.server = { limit: Number.isFinite(limit) ? limit : (operation.server?.limit ?? 1), remaining: 0, resetAt };
      this.serverSpeaks = true;
    } else if (headers["x-ratelimit-remaining"] !== undefined && Number.isFinite(remaining) && Number.isFinite(reset)) {
      this.serverSpeaks = true;
      const resetAt = reset * 1000;
      const known = operation.server;
      if (resetAt <= now) {
        // An answer about a window that is over: nothing to learn.
      } else if (!known || known.provisional || resetAt > known.resetAt + 500) {
        // A new window (or the first news about one): the server counted what it answered so far;
        // this client's requests still in flight may not be counted yet, so they are taken off.
        operation.server = { limit: Number.isFinite(limit) ? limit : remaining, remaining: remaining - operation.sent.length, resetAt };
      } else if (Math.abs(resetAt - known.resetAt) <= 500) {
        // Own requests are already taken off `known.remaining`: less on the server is others' doing.
        const others = known.remaining - remaining;
        if (others > 0) {
          operation.others.push([now, others]);
          this.stats.othersSeen += others;
        }
        known.remaining = Math.min(known.remaining, remaining);
      }
    } else if (status < 400) {
      // No rate-limit headers on a success: this server does not limit (visibly).
      operation.server = null;
      if (this.serverSpeaks === undefined) this.serverSpeaks = false;
    }
    this.updateReserve(operation, now);
    this.notify();
  }

  private waitFor(operation: Operation, now: number): number {
    const server = operation.server;
    if (server === null) return 0;
    if (server) {
      if (now >= server.resetAt) this.nextWindow(server, now);
      // A window no answer described yet has no news of the others: its reserve waits for one.
      const reserve = server.provisional ? 0 : Math.min(operation.reserve, server.limit / 2);
      return server.remaining > reserve ? 0 : server.resetAt - now + (server.provisional ? 0 : 50);
    }
    let wait = this.serverSpeaks === false ? 0 : this.general.wait(now);
    for (const bucket of operation.seeds) wait = Math.max(wait, bucket.wait(now));
    return wait;
  }

  private take(operation: Operation, now: number): void {
    const server = operation.server;
    if (server === null) return;
    operation.sent.push(now);
    if (server) {
      server.remaining -= 1;
      return;
    }
    if (this.serverSpeaks !== false) this.general.take(now);
    for (const bucket of operation.seeds) bucket.take(now);
  }

  /**
   * The window reset: the next one allows `limit` requests — not every request that waited, which
   * would all go at once — and its reset time is learnt from the first answer in it. Until then it
   * is provisional: if no answer comes within a second (requests that failed without one), the
   * pacer assumes another window rather than wait for news that may never come.
   */
  private nextWindow(server: ServerWindow, now: number): void {
    server.remaining = server.limit;
    server.resetAt = now + PROVISIONAL_WINDOW_MS;
    server.provisional = true;
  }

  private operation(request: PacedRequest): Operation {
    const key = `${request.method.toUpperCase()} ${operationTemplate(request.path)}`;
    let operation = this.operations.get(key);
    if (!operation) {
      const now = this.now();
      const seeds = [new Bucket(this.limits.operation, now)];
      if (request.collection) seeds.push(new Bucket(this.limits.collection, now));
      const dedicated = this.limits.dedicated[key];
      if (dedicated) seeds.push(new Bucket(dedicated, now));
      operation = { seeds, server: undefined, sent: [], roundTripMs: 0, others: [], reserve: 0 };
      this.operations.set(key, operation);
    }
    return operation;
  }

  /** One of this client's requests was answered: it is no longer in flight, and it timed a round trip. */
  private answered(operation: Operation, now: number): void {
    const sentAt = operation.sent.shift();
    if (sentAt === undefined) return;
    const trip = now - sentAt;
    operation.roundTripMs = operation.roundTripMs ? 0.8 * operation.roundTripMs + 0.2 * trip : trip;
  }

  /** The others' requests revealed within the last round trip: what they likely have on the way. */
  private updateReserve(operation: Operation, now: number): void {
    const since = now - Math.max(operation.roundTripMs, MIN_ROUND_TRIP_MS);
    while (operation.others.length && operation.others[0]![0] <= since) operation.others.shift();
    operation.reserve = operation.others.reduce((sum, [, count]) => sum + count, 0);
    this.stats.largestReserve = Math.max(this.stats.largestReserve, operation.reserve);
  }

  private newWake(): { promise: Promise<void>; resolve: () => void } {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    return { promise, resolve };
  }

  private notify(): void {
    const { resolve } = this.wake;
    this.wake = this.newWake();
    resolve();
  }
}

/** Whether a query lists a collection page (`page`/`page_size`): such GETs count against the collection limit too. */
export function isCollectionQuery(query: Record<string, unknown> | undefined): boolean {
  return query !== undefined && ("page" in query || "page_size" in query);
}
