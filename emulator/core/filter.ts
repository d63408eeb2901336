/**
 * The `X-Filter` header (api-facts "Collection envelope"): a JSON object whose keys are field
 * names (plain equality, or an object of operators) or the combinators `+and` / `+or` (arrays of
 * filters), plus `+order_by` / `+order` for sorting. A value given for a list field (`tags`) matches
 * an item whose list holds it. Fields may be dotted (`entity.id`) or nested
 * objects (`{"entity": {"id": 1}}`). Only the route's filterable fields may be used; anything
 * else is 400 `Cannot filter on <field>` with field `X-Filter`.
 */
import { FILTER_FIELD, REASONS, badRequest } from "./errors";

const COMPARATORS = ["+gt", "+gte", "+lt", "+lte", "+neq", "+contains"] as const;
type Comparator = (typeof COMPARATORS)[number];

type Predicate = (item: unknown) => boolean;

export interface CompiledFilter {
  matches: Predicate;
  order?: { field: string; direction: "asc" | "desc" };
}

const fail = (reason: string) => badRequest(reason, FILTER_FIELD);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads a dotted path from an item. */
export function readField(item: unknown, path: string): unknown {
  let current: unknown = item;
  for (const part of path.split(".")) {
    if (!isPlainObject(current)) return undefined;
    current = current[part];
  }
  return current;
}

/** Equality the way a JSON filter means it: `28254` and `"28254"` name the same id. */
function looselyEqual(actual: unknown, expected: unknown): boolean {
  if (actual === expected) return true;
  if ((typeof actual === "number" && typeof expected === "string") || (typeof actual === "string" && typeof expected === "number")) {
    return String(actual) === String(expected);
  }
  return false;
}

function compare(actual: unknown, expected: unknown): number | undefined {
  if (typeof actual === "number" && typeof expected === "number") return actual - expected;
  if (typeof actual === "string" && typeof expected === "string") return actual < expected ? -1 : actual > expected ? 1 : 0;
  if (typeof actual === "number" && typeof expected === "string" && expected.trim() !== "" && Number.isFinite(Number(expected))) {
    return actual - Number(expected);
  }
  return undefined;
}

function comparatorPredicate(field: string, operator: Comparator, expected: unknown): Predicate {
  if (expected !== null && typeof expected === "object") throw fail(REASONS.filterBadValue(field));
  return (item) => {
    const actual = readField(item, field);
    switch (operator) {
      case "+neq":
        return !looselyEqual(actual, expected);
      case "+contains":
        if (Array.isArray(actual)) return actual.some((v) => looselyEqual(v, expected));
        return typeof actual === "string" && actual.includes(String(expected));
      default: {
        const c = compare(actual, expected);
        if (c === undefined) return false;
        return operator === "+gt" ? c > 0 : operator === "+gte" ? c >= 0 : operator === "+lt" ? c < 0 : c <= 0;
      }
    }
  };
}

class FilterCompiler {
  constructor(private readonly filterable: ReadonlySet<string>) {}

  private checkField(field: string): void {
    if (!this.filterable.has(field)) throw fail(REASONS.cannotFilterOn(field));
  }

  /** Compiles one filter object (the top level or an element of `+and`/`+or`). */
  compileObject(filter: Record<string, unknown>, prefix = "", topLevel = false): Predicate {
    const parts: Predicate[] = [];
    for (const [key, value] of Object.entries(filter)) {
      if (key === "+order_by" || key === "+order") {
        if (!topLevel) throw fail(REASONS.filterBadOperator(key));
        continue; // handled by compile()
      }
      if (key === "+and" || key === "+or") {
        if (!Array.isArray(value) || value.some((v) => !isPlainObject(v))) throw fail(REASONS.filterBadValue(key));
        const subs = (value as Record<string, unknown>[]).map((v) => this.compileObject(v, prefix));
        parts.push(key === "+and" ? (item) => subs.every((p) => p(item)) : (item) => subs.some((p) => p(item)));
        continue;
      }
      if (key.startsWith("+")) throw fail(REASONS.filterBadOperator(key));
      parts.push(this.compileField(prefix + key, value));
    }
    return (item) => parts.every((p) => p(item));
  }

  private compileField(field: string, value: unknown): Predicate {
    if (isPlainObject(value)) {
      const keys = Object.keys(value);
      const operators = keys.filter((k) => k.startsWith("+"));
      if (operators.length === 0) return this.compileObject(value, `${field}.`); // nested field path
      if (operators.length !== keys.length) throw fail(REASONS.filterBadValue(field));
      this.checkField(field);
      const preds = operators.map((op) => {
        if (!(COMPARATORS as readonly string[]).includes(op)) throw fail(REASONS.filterBadOperator(op));
        return comparatorPredicate(field, op as Comparator, value[op]);
      });
      return (item) => preds.every((p) => p(item));
    }
    this.checkField(field);
    if (Array.isArray(value)) throw fail(REASONS.filterBadValue(field));
    // A list field (tags) matches when it holds the value: `{"tags": "web"}` lists what is tagged web.
    return (item) => {
      const actual = readField(item, field);
      return Array.isArray(actual) ? actual.some((v) => looselyEqual(v, value)) : looselyEqual(actual, value);
    };
  }
}

/**
 * Parses and compiles the header; `undefined` header means "no filter". Throws the API's 400s
 * for malformed JSON, non-objects, unknown operators and unfilterable fields.
 */
export function compileFilter(header: string | string[] | undefined, filterable: readonly string[]): CompiledFilter | undefined {
  if (header === undefined) return undefined;
  const text = Array.isArray(header) ? header.join(",") : header;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw fail(REASONS.filterInvalidJson);
  }
  if (!isPlainObject(parsed)) throw fail(REASONS.filterInvalidJson);
  const compiler = new FilterCompiler(new Set(filterable));
  const matches = compiler.compileObject(parsed, "", true);
  const orderBy = parsed["+order_by"];
  const order = parsed["+order"];
  if (order !== undefined && order !== "asc" && order !== "desc") throw fail(REASONS.filterBadOrder);
  if (orderBy === undefined) return { matches };
  if (typeof orderBy !== "string") throw fail(REASONS.filterBadValue("+order_by"));
  if (!filterable.includes(orderBy)) throw fail(REASONS.cannotFilterOn(orderBy));
  return { matches, order: { field: orderBy, direction: order === "desc" ? "desc" : "asc" } };
}

/** Applies a compiled filter; sorting is stable so equal keys keep the collection's own order. */
export function applyFilter<T>(items: readonly T[], filter: CompiledFilter | undefined): T[] {
  if (!filter) return [...items];
  const kept = items.filter((item) => filter.matches(item));
  if (!filter.order) return kept;
  const { field, direction } = filter.order;
  const sign = direction === "desc" ? -1 : 1;
  return kept
    .map((item, index) => ({ item, index }))
    .sort((a, b) => {
      const c = compare(readField(a.item, field), readField(b.item, field)) ?? 0;
      return c !== 0 ? c * sign : a.index - b.index;
    })
    .map((x) => x.item);
}
