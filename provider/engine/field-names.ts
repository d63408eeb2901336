/**
 * Failure reasons in the program's words. The sdk's texts (shared with the emulator and the API)
 * name fields as the API spells them: `ttl_sec`, `engine`, `type`, `rules.inbound[3].ports`. A
 * spec knows each input's wire name, and its schemas know the nested keys, so the engine can say
 * `ttlSec`, `engineId`, `entityType` and `inbound[3].ports` instead — for every resource at once.
 */
import type { z } from "zod";
import { wireSchemaOf } from "./schemas";
import type { AnySpec, InputField, OutputField } from "./spec";
import { toCamel, toSnake } from "./values";

/** A field's wire name (or dotted path): its declared `wire`, else the snake_case of its key. */
export function wirePath(key: string, field: InputField | OutputField): string {
  return field.wire ?? toSnake(key);
}

/** How a spec's wire names read in the program: `ttl_sec` → `ttlSec`, `engine` → `engineId`. */
export interface ProgramNames {
  /** Wire names and dotted paths of the spec's fields, and the snake_case keys nested in their values. */
  renames: Map<string, string>;
  /** snake_case words that are values the API accepts (`semi_synch`), never names: left as they are. */
  values: Set<string>;
}

const SNAKE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;

/** The renames of one spec, from its field declarations and its schemas. */
export function programNames(spec: AnySpec): ProgramNames {
  const renames = new Map<string, string>();
  const values = new Set<string>();
  const nested = new Set<string>();
  const fields: Array<[string, InputField | OutputField]> = [...Object.entries(spec.inputs), ...Object.entries(spec.outputs)];
  for (const [key, field] of fields) {
    const wire = wirePath(key, field);
    if (wire !== key) renames.set(wire, key);
    // `rules.inbound_policy` is also spoken of as `inbound_policy`.
    const last = wire.split(".").pop()!;
    if (last !== wire && last !== key && !renames.has(last)) renames.set(last, key);
    if ("schema" in field) collectKeys(field.schema, nested, values, new Set());
  }
  for (const key of nested) if (SNAKE.test(key) && !renames.has(key)) renames.set(key, toCamel(key));
  return { renames, values };
}

/** The object keys and the accepted literal values reachable in a zod schema. */
function collectKeys(schema: z.ZodType, keys: Set<string>, values: Set<string>, seen: Set<unknown>): void {
  if (seen.has(schema)) return;
  seen.add(schema);
  const walk = (inner: unknown) => inner && collectKeys(inner as z.ZodType, keys, values, seen);
  walk(wireSchemaOf(schema));
  // zod 4 keeps each schema's definition under `_zod.def`; only the shapes that hold others matter.
  const def = (schema as unknown as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
  if (!def) return;
  switch (def.type) {
    case "object":
      for (const [key, value] of Object.entries(def.shape as Record<string, unknown>)) {
        keys.add(key);
        walk(value);
      }
      break;
    case "array":
      walk(def.element);
      break;
    case "union":
      for (const option of def.options as unknown[]) walk(option);
      break;
    case "intersection":
      walk(def.left);
      walk(def.right);
      break;
    case "pipe":
      walk(def.in);
      walk(def.out);
      break;
    case "record":
      walk(def.valueType);
      break;
    case "enum":
      for (const value of Object.values(def.entries as Record<string, unknown>)) if (typeof value === "string") values.add(value);
      break;
    case "literal":
      for (const value of def.values as unknown[]) if (typeof value === "string") values.add(value);
      break;
    default:
      // optional, nullable, default, readonly, catch, …: one inner schema.
      walk(def.innerType);
  }
}

/**
 * A reason (or a path) with the spec's wire names replaced by the program's. A dotted path or a
 * snake_case name is a name wherever it stands; a plain word (`type`, `engine`) only where a
 * reason names its subject — at the start — so `The type of a record` stays English.
 */
export function programText(names: ProgramNames, text: string): string {
  let out = dataFunctionText(text);
  const byLength = [...names.renames].sort(([a], [b]) => b.length - a.length);
  for (const [wire, name] of byLength) {
    if (names.values.has(wire)) continue;
    const escaped = wire.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const pattern = wire.includes(".") || wire.includes("_") ? `(?<![\\w])${escaped}(?![\\w])` : `^${escaped}(?=$|[\\s.[=:,])`;
    out = out.replace(new RegExp(pattern, "g"), name);
  }
  return out;
}

/**
 * The data function a Pulumi program calls for what an API listing answers, so that an API reason
 * that cites the listing (`see GET /databases/engines`) points the program to it instead. Every
 * listing a resource kind reads (a paginated GET without path parameters in its spec's `endpoints`)
 * is here, and every entry names an exported data function (`test/checks/kind-lists.test.ts`).
 */
export const DATA_FUNCTIONS: Readonly<Record<string, string>> = {
  "/databases/engines": "getDatabaseEngines()",
  "/databases/instances": "getDatabases()",
  "/databases/mysql/instances": 'getDatabases({ engine: "mysql" })',
  "/databases/postgresql/instances": 'getDatabases({ engine: "postgresql" })',
  "/regions": "getRegions()",
  "/regions/availability": "getRegionAvailability()",
  "/networking/ips": "getIps()",
  "/networking/ipv6/pools": "getIpv6Pools()",
  "/networking/ipv6/ranges": "getIpv6Ranges()",
  "/networking/firewalls": "getFirewalls()",
  "/domains": "getDomains()",
  "/images": "getImages()",
  "/vpcs": "getVpcs()",
  "/compute/instances": "getInstances()",
  "/vpcs/ips": "getVpcIps()",
};

/** `see GET /databases/engines` → `see getDatabaseEngines()`; a listing with no data function keeps its path. */
export function dataFunctionText(text: string): string {
  return text.replace(/\bGET (\/[\w/-]+)/g, (whole, path: string) => DATA_FUNCTIONS[path] ?? whole);
}

/** The longest a value may print in a failure before it is cut. */
export const EXCERPT_LENGTH = 100;

/** A value as a failure may show it: its JSON, cut to a short excerpt when long (with the item count of a list). */
export function excerpt(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  if (json.length <= EXCERPT_LENGTH) return json;
  const count = Array.isArray(value) ? ` (${value.length} items)` : "";
  return `${json.slice(0, EXCERPT_LENGTH - 20)}…${count}`;
}
