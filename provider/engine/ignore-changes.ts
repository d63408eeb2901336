/**
 * Pulumi's `ignoreChanges` resource option, read the way the engine applies it: property paths
 * (`label`, `tags[0]`, `inbound[*].ports`, `*`) whose value the program leaves to someone else.
 * Pulumi copies the recorded inputs over the program's at those paths, and sends the paths with
 * each diff and update (`DiffRequest.ignoreChanges`), leaving the provider to drop them from its
 * diff: this engine's diff compares the outputs (the object as last read) with the program, and an
 * update records the object the API answers, so a value changed by hand reaches the outputs and
 * only the paths tell it apart from drift. `withIgnored` puts the recorded value at each path
 * before the diff, an update or its preview compares or sends anything, so a difference there is
 * never set back; drift (`managed-drift.ts`) reports it as ignored, not as drift to restore.
 */
import type { AnySpec, Inputs, Outputs } from "./spec";

/** One step of a property path: an object key, an array index, or `*` (every key or element). */
type Segment = string | number;

const WILDCARD = "*";

/**
 * The steps of a Pulumi property path (`a.b[0]["c.d"][*]`); undefined when it is not one, so
 * a path the engine would refuse is never read as ignoring something.
 */
export function parsePropertyPath(path: string): Segment[] | undefined {
  const segments: Segment[] = [];
  let rest = path;
  let first = true;
  while (rest.length > 0) {
    const match = first
      ? /^(?:([^.[\]]+)|\[(\d+|\*)\]|\["((?:[^"\\]|\\.)*)"\])/.exec(rest)
      : /^(?:\.([^.[\]]+)|\[(\d+|\*)\]|\["((?:[^"\\]|\\.)*)"\])/.exec(rest);
    if (!match) return undefined;
    const [whole, name, index, quoted] = match;
    if (name !== undefined) segments.push(name);
    else if (index !== undefined) segments.push(index === WILDCARD ? WILDCARD : Number(index));
    else segments.push(JSON.parse(`"${quoted}"`) as string);
    rest = rest.slice(whole.length);
    first = false;
  }
  return segments.length > 0 ? segments : undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `value` with what `recorded` holds at `path` instead: what the engine keeps when it ignores that path. */
function recordedAt(value: unknown, recorded: unknown, path: Segment[]): unknown {
  if (path.length === 0) return recorded;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const keys = head === WILDCARD ? value.map((_, i) => i) : typeof head === "number" ? [head] : [];
    const out = [...value];
    for (const i of keys) {
      if (i < out.length) out[i] = recordedAt(out[i], Array.isArray(recorded) ? recorded[i] : undefined, rest);
    }
    return out;
  }
  if (isObject(value)) {
    const keys = head === WILDCARD ? Object.keys(value) : typeof head === "string" ? [head] : [];
    const out: Record<string, unknown> = { ...value };
    for (const key of keys) {
      const kept = recordedAt(out[key], isObject(recorded) ? recorded[key] : undefined, rest);
      if (kept === undefined) delete out[key];
      else out[key] = kept;
    }
    return out;
  }
  // A path into a value that does not have it (a scalar, null): what was recorded there stands.
  return rest.length === 0 ? recorded : value;
}

/**
 * `value` of the input `field` with what `recorded` holds at every path of `ignoreChanges` under
 * it: `recorded` itself when a path names the whole field (`label`, `*`), else `value` with the
 * recorded parts put back (`tags[0]`, `inbound[*].ports`). A path Pulumi would refuse ignores nothing.
 */
export function keptIgnored(field: string, value: unknown, recorded: unknown, ignoreChanges: readonly string[]): unknown {
  return pathsUnder(field, ignoreChanges).reduce<unknown>((kept, p) => recordedAt(kept, recorded, p), value);
}

/** The paths of `ignoreChanges` into the input `field`, each without its first step (`[]`: the whole field). */
function pathsUnder(field: string, ignoreChanges: readonly string[]): Segment[][] {
  return ignoreChanges
    .map(parsePropertyPath)
    .filter((p): p is Segment[] => p !== undefined && (p[0] === field || p[0] === WILDCARD))
    .map((p) => p.slice(1));
}

/**
 * The program's inputs with the recorded outputs at every path `ignoreChanges` names: what the
 * diff compares, an update sends and its preview records. An input the program does not manage
 * (absent, no default) stays absent.
 */
export function withIgnored(spec: AnySpec, olds: Outputs, news: Inputs, ignoreChanges: readonly string[]): Inputs {
  if (ignoreChanges.length === 0) return news;
  const out: Inputs = { ...news };
  for (const [key, field] of Object.entries(spec.inputs)) {
    const desired = news[key] ?? field.default;
    if (desired === undefined || pathsUnder(key, ignoreChanges).length === 0) continue;
    const kept = keptIgnored(key, desired, olds[key] ?? field.default, ignoreChanges);
    if (kept === undefined) delete out[key];
    else out[key] = kept;
  }
  return out;
}
