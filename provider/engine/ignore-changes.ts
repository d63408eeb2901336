/**
 * Pulumi's `ignoreChanges` resource option, read the way the engine applies it: property paths
 * (`label`, `tags[0]`, `rules.inbound[*].ports`, `*`) whose value the program leaves to someone
 * else. `up` copies the recorded value over the program's at those paths, so a difference there
 * is never set back: drift reports it as ignored, not as drift to restore.
 */
import { sameValue } from "./diff";
import type { InputField, Outputs } from "./spec";

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

/** `cloud` with the value at `path` taken from `state` instead: what the engine keeps when it ignores that path. */
function withRecorded(cloud: unknown, state: unknown, path: Segment[]): unknown {
  if (path.length === 0) return state;
  const [head, ...rest] = path;
  if (Array.isArray(cloud)) {
    const keys = head === WILDCARD ? cloud.map((_, i) => i) : typeof head === "number" ? [head] : [];
    const out = [...cloud];
    for (const i of keys) {
      if (i < out.length) out[i] = withRecorded(out[i], Array.isArray(state) ? state[i] : undefined, rest);
    }
    return out;
  }
  if (isObject(cloud)) {
    const keys = head === WILDCARD ? Object.keys(cloud) : typeof head === "string" ? [head] : [];
    const out: Record<string, unknown> = { ...cloud };
    for (const key of keys) {
      const recorded = isObject(state) ? state[key] : undefined;
      const kept = withRecorded(out[key], recorded, rest);
      if (kept === undefined) delete out[key];
      else out[key] = kept;
    }
    return out;
  }
  // A path into a value the cloud does not have (a scalar, null): what state had there stands.
  return rest.length === 0 ? state : cloud;
}

/**
 * Whether the difference in `field` between `state` and `cloud` lies wholly under paths that
 * `ignoreChanges` names: the whole field (`label`, `*`), or parts of it (`tags[0]`), in which case
 * the field is ignored only when putting state's values back at those parts leaves no difference.
 */
export function ignoredChange(
  field: string,
  input: InputField,
  state: unknown,
  cloud: unknown,
  ignoreChanges: readonly string[],
  recorded: Outputs = {},
): boolean {
  const paths = ignoreChanges
    .map(parsePropertyPath)
    .filter((p): p is Segment[] => p !== undefined && (p[0] === field || p[0] === WILDCARD));
  if (paths.some((p) => p.length === 1)) return true;
  if (paths.length === 0) return false;
  const kept = paths.reduce<unknown>((value, p) => withRecorded(value, state, p.slice(1)), cloud);
  return sameValue(input, state, kept, recorded);
}
