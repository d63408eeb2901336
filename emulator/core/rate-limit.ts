/**
 * Rate limits (api-facts P8-1). Every request counts against each window that applies to it, and
 * the tightest window decides the `X-RateLimit-*` and `Retry-After` headers, which the API sends on
 * every response (recorded on 200s, errors and 429s alike). Refusing is optional, off unless asked
 * for (`enforcing`): then a request over any limit is answered 429 `Too many requests`. Windows are fixed
 * and measured on the emulator's clock, so a time scale shortens them; `Retry-After` and
 * `X-RateLimit-Reset` speak real seconds, because real clients wait on them. A window is kept per
 * caller (token or address) and operation; windows that have ended are swept out every
 * `SWEEP_EVERY` requests, so callers that come and go (a token per CI run) leave nothing behind.
 */
import type { Clock } from "./clock";

export type RateLimitRuleName = "general" | "operation" | "collection" | "imageList" | "ticketOpen";

export interface RateLimitWindow {
  limit: number;
  windowMs: number;
}

/** The documented limits: 800 per 2 minutes per user; 400/min per operation; 200/min per paginated collection; image list 20/min; ticket open 2/min. */
export const DEFAULT_RATE_LIMITS: Record<RateLimitRuleName, RateLimitWindow> = {
  general: { limit: 800, windowMs: 120_000 },
  operation: { limit: 400, windowMs: 60_000 },
  collection: { limit: 200, windowMs: 60_000 },
  imageList: { limit: 20, windowMs: 60_000 },
  ticketOpen: { limit: 2, windowMs: 60_000 },
};

export interface RateLimitedRequest {
  method: string;
  /** The route's spec path (`/vpcs/{vpcId}`). */
  routePath: string;
  /** Who is counted: the token, or the client address for calls without one. */
  caller: string;
  /** A GET of a paginated collection. */
  collection: boolean;
}

export interface RateLimitDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

function rulesFor(request: RateLimitedRequest): RateLimitRuleName[] {
  const rules: RateLimitRuleName[] = ["general", "operation"];
  if (request.collection) rules.push("collection");
  if (request.method === "GET" && request.routePath === "/images") rules.push("imageList");
  if (request.method === "POST" && request.routePath === "/support/tickets") rules.push("ticketOpen");
  return rules;
}

interface Window {
  startMs: number;
  /** When the window ends (its rule's length at the time it opened). */
  endMs: number;
  count: number;
}

/** How many requests pass between two sweeps of ended windows. */
export const SWEEP_EVERY = 1024;

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private checksSinceSweep = 0;
  private limits: Record<RateLimitRuleName, RateLimitWindow>;

  constructor(
    private readonly clock: Clock,
    overrides: Partial<Record<RateLimitRuleName, RateLimitWindow>> = {},
    /** Whether a request over a limit is refused (429); counted and reported in headers either way. */
    public enforcing = false,
  ) {
    this.limits = { ...DEFAULT_RATE_LIMITS, ...overrides };
  }

  /** Replaces some limits (tests use small windows) and forgets every count. */
  configure(overrides: Partial<Record<RateLimitRuleName, RateLimitWindow>>): Record<RateLimitRuleName, RateLimitWindow> {
    this.limits = { ...this.limits, ...overrides };
    this.windows.clear();
    return { ...this.limits };
  }

  current(): Record<RateLimitRuleName, RateLimitWindow> {
    return { ...this.limits };
  }

  reset(): void {
    this.windows.clear();
  }

  /** How many caller/operation windows are kept right now. */
  get trackedWindows(): number {
    return this.windows.size;
  }

  /** Forgets the windows that have ended: the next request of their caller opens a fresh one anyway. */
  private sweep(now: number): void {
    this.checksSinceSweep = 0;
    for (const [key, window] of this.windows) if (now >= window.endMs) this.windows.delete(key);
  }

  /** Counts the request in each applicable window and decides (`allowed` is false only when enforcing). */
  check(request: RateLimitedRequest): RateLimitDecision {
    const now = this.clock.nowMs();
    if (++this.checksSinceSweep >= SWEEP_EVERY) this.sweep(now);
    let tightest: { rule: RateLimitWindow; window: Window } | undefined;
    let exceeded: { rule: RateLimitWindow; window: Window } | undefined;
    for (const name of rulesFor(request)) {
      const rule = this.limits[name];
      const key = name === "general" ? `${name}|${request.caller}` : `${name}|${request.caller}|${request.method} ${request.routePath}`;
      let window = this.windows.get(key);
      if (!window || now >= window.startMs + rule.windowMs) {
        window = { startMs: now, endMs: now + rule.windowMs, count: 0 };
        this.windows.set(key, window);
      }
      window.count += 1;
      const entry = { rule, window };
      if (window.count > rule.limit && (!exceeded || this.resetAt(entry) > this.resetAt(exceeded))) exceeded = entry;
      if (!tightest || rule.limit - window.count < tightest.rule.limit - tightest.window.count) tightest = entry;
    }
    const shown = exceeded ?? tightest!;
    // A frozen clock (scale 0) only moves by hand; speak emulated time then.
    const scale = this.clock.scale > 0 ? this.clock.scale : 1;
    const realMsLeft = Math.max(0, this.resetAt(shown) - now) / scale;
    const retryAfter = Math.max(1, Math.ceil(realMsLeft / 1000));
    return {
      allowed: exceeded === undefined || !this.enforcing,
      headers: {
        "X-RateLimit-Limit": String(shown.rule.limit),
        "X-RateLimit-Remaining": String(Math.max(0, shown.rule.limit - shown.window.count)),
        "X-RateLimit-Reset": String(Math.ceil((Date.now() + realMsLeft) / 1000)),
        "Retry-After": String(retryAfter),
      },
    };
  }

  private resetAt(entry: { rule: RateLimitWindow; window: Window }): number {
    return entry.window.startMs + entry.rule.windowMs;
  }
}
