/**
 * Fault injection: rules that make matching API requests fail the way the real API and the
 * network in front of it fail (api-facts P7-1, P8-1), so clients' retry and recovery paths can
 * be tested. A rule matches on path (glob, or a regex when it starts with `^`) and optionally
 * method; it fires with probability `rate` (from a seedable PRNG), with `skip` only once that
 * many matching requests have gone through untouched (to hit the second lookup, not the first),
 * and with `count` only for the next N matches. The first rule that fires wins. Fire counts are kept per rule.
 */
import { Prng } from "./prng";

export const FAULT_KINDS = ["429", "500", "502", "503", "503-maintenance", "latency", "reset", "reset-after"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRuleInput {
  id?: string;
  /** `/v4/vpcs*` (glob: `*` matches anything, `/` included), or a regex string starting with `^`. */
  pathPattern: string;
  method?: string;
  kind: FaultKind;
  /** Probability 0..1 that a matching request is hit (default 1). */
  rate?: number;
  /** Fire only for the next N hits, then the rule goes quiet (default: unlimited). */
  count?: number;
  /** Let the first N matching requests through untouched before the rule may fire (default 0). */
  skip?: number;
  latencyMs?: number;
  retryAfterSeconds?: number;
}

export interface FaultRule {
  id: string;
  pathPattern: string;
  method: string | null;
  kind: FaultKind;
  rate: number;
  count: number | null;
  skip: number;
  latencyMs: number | null;
  retryAfterSeconds: number | null;
}

export interface FaultRuleStatus extends FaultRule {
  /** How many requests this rule has hit. */
  fired: number;
  /** Hits left for a count-limited rule; null when unlimited. */
  remaining: number | null;
}

interface ActiveRule {
  rule: FaultRule;
  matcher: RegExp;
  fired: number;
  /** Matching requests let through because of `skip`. */
  skipped: number;
}

function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*");
  return new RegExp(`^${escaped}$`);
}

export function compilePathPattern(pattern: string): RegExp {
  return pattern.startsWith("^") ? new RegExp(pattern) : globToRegExp(pattern);
}

export class FaultInjector {
  private rules: ActiveRule[] = [];
  private nextId = 1;
  private readonly prng: Prng;

  constructor(seed: number) {
    this.prng = new Prng(seed);
  }

  reseed(seed: number): void {
    this.prng.reseed(seed);
  }

  add(input: FaultRuleInput): FaultRuleStatus {
    const rule: FaultRule = {
      id: input.id ?? `fault-${this.nextId++}`,
      pathPattern: input.pathPattern,
      method: input.method ? input.method.toUpperCase() : null,
      kind: input.kind,
      rate: input.rate ?? 1,
      count: input.count ?? null,
      skip: input.skip ?? 0,
      latencyMs: input.latencyMs ?? null,
      retryAfterSeconds: input.retryAfterSeconds ?? null,
    };
    const matcher = compilePathPattern(rule.pathPattern); // throws on a bad regex before anything is stored
    this.rules = this.rules.filter((r) => r.rule.id !== rule.id);
    const active = { rule, matcher, fired: 0, skipped: 0 };
    this.rules.push(active);
    return FaultInjector.status(active);
  }

  remove(id: string): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((r) => r.rule.id !== id);
    return this.rules.length < before;
  }

  clear(): void {
    this.rules = [];
  }

  list(): FaultRuleStatus[] {
    return this.rules.map(FaultInjector.status);
  }

  private static status(active: ActiveRule): FaultRuleStatus {
    const remaining = active.rule.count === null ? null : Math.max(0, active.rule.count - active.fired);
    return { ...active.rule, fired: active.fired, remaining };
  }

  /** Decides which fault, if any, hits this request, and counts it. */
  pick(method: string, path: string): FaultRule | undefined {
    for (const active of this.rules) {
      const { rule } = active;
      if (rule.method !== null && rule.method !== method.toUpperCase()) continue;
      if (!active.matcher.test(path)) continue;
      if (rule.count !== null && active.fired >= rule.count) continue;
      if (active.skipped < rule.skip) {
        active.skipped++;
        continue;
      }
      // Roll only for partial rates, so adding a rate-1 rule does not shift other rules' sequences.
      if (rule.rate < 1 && this.prng.next() >= rule.rate) continue;
      active.fired++;
      return rule;
    }
    return undefined;
  }
}
