/**
 * Pulumi's detailed diff, derived from the spec: for every changed input, the property paths
 * that change and whether each one updates or replaces. The elements of a set or keyed list that
 * differ are named by their position (`tags[2]`): an added one where the program's list has it, a
 * removed one where state has it, and one position that both an addition and a removal name is an
 * update of that position. Pulumi looks each path up in the lists, so `preview --diff` prints the
 * values themselves (`+ [2]: "prod"`) and the Automation API's events carry the same paths
 * (`detailedDiff`); a key (`tags["prod"]`) would read as a map's key with an unknown value. Any
 * other object or list names the paths inside it that differ (`interfaces[1].ipv4`), a scalar its
 * field.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { InputField, Outputs } from "./spec";
import { canonicalJson, isRecord, isUnknown } from "./values";

/** How one property path changes, as Pulumi's `PropertyDiff.Kind` names it. */
export type DiffKind = "add" | "add-replace" | "delete" | "delete-replace" | "update" | "update-replace";

/** Property path → how it changes. `inputDiff: false`: the old value is the recorded output. */
export type DetailedDiff = Record<string, { kind: DiffKind; inputDiff: boolean }>;

/**
 * Pulumi's diff result, with what the dynamic provider interface does not declare: the changed
 * top-level inputs (`diffs`) and the property paths that change (`detailedDiff`).
 */
export type DiffResult = pulumi.dynamic.DiffResult & { diffs: string[]; detailedDiff: DetailedDiff };

/** Every kind, in the order of Pulumi's `PropertyDiff.Kind`. */
export const DIFF_KINDS: readonly DiffKind[] = ["add", "add-replace", "delete", "delete-replace", "update", "update-replace"];

/** A kind as the protocol's enum spells it: `update-replace` → `UPDATE_REPLACE`. */
export const protocolKind = (kind: DiffKind): string => kind.replace("-", "_").toUpperCase();

/** What of Pulumi's `DiffResponse` a detailed diff is written into (the host's copy of the protocol, or the plugin's). */
export interface DiffResponseMessage {
  setDiffsList(keys: string[]): unknown;
  setHasdetaileddiff(has: boolean): unknown;
  getDetaileddiffMap(): { set(path: string, value: unknown): unknown };
}
/** The protocol's `PropertyDiff` message and its `Kind` enum. */
export interface PropertyDiffMessages {
  PropertyDiff: new () => { setKind(kind: number): { setInputdiff(input: boolean): unknown } };
  kinds: Record<string, number>;
}

/** Writes a result's changed keys and detailed diff into a `DiffResponse`, as both doors answer the engine. */
export function writeDetailedDiff(response: DiffResponseMessage, result: DiffResult, { PropertyDiff, kinds }: PropertyDiffMessages): void {
  response.setDiffsList(result.diffs);
  response.setHasdetaileddiff(true);
  const map = response.getDetaileddiffMap();
  for (const [path, { kind, inputDiff }] of Object.entries(result.detailedDiff)) {
    map.set(path, new PropertyDiff().setKind(kinds[protocolKind(kind)]!).setInputdiff(inputDiff));
  }
}

/** One element of a keyed list that differs: present only in `news` (add), only in `olds` (delete), or in both. */
export interface ElementChange {
  key: string;
  kind: "add" | "delete" | "update";
  /** The element's index in the recorded list (update, delete). */
  oldIndex?: number;
  /** The element's index in the desired list (add, update). */
  newIndex?: number;
}

/** `records[2]`: a property path naming an element of a list by its position. */
export const elementPath = (field: string, index: number): string => `${field}[${index}]`;

const normalized = (field: InputField, value: unknown, recorded: Outputs): unknown =>
  value === undefined || value === null || !field.normalize ? value : field.normalize(value, recorded);

/**
 * The elements of a keyed list (`elementKeys`) that differ between the recorded value and the
 * desired one, after normalization; in the order of the desired list, deletions last. Both
 * `diff` (to name them) and a resource's update (to apply them one by one) use it.
 */
export function keyedChanges(field: InputField, olds: unknown, news: unknown, recorded: Outputs): ElementChange[] {
  const before = normalized(field, olds, recorded);
  const after = normalized(field, news, recorded);
  const oldList = Array.isArray(before) ? before : [];
  const newList = Array.isArray(after) ? after : [];
  const keys = field.elementKeys!(oldList, newList);
  const oldIndex = new Map(keys.olds.map((k, i) => [k, i]));
  const changes: ElementChange[] = [];
  keys.news.forEach((key, newIndex) => {
    const i = oldIndex.get(key);
    if (i === undefined) changes.push({ key, kind: "add", newIndex });
    else if (canonicalJson(oldList[i]) !== canonicalJson(newList[newIndex])) changes.push({ key, kind: "update", oldIndex: i, newIndex });
  });
  const wanted = new Set(keys.news);
  keys.olds.forEach((key, i) => {
    if (!wanted.has(key)) changes.push({ key, kind: "delete", oldIndex: i });
  });
  return changes;
}

/** Set elements that only one side holds, each at its position in that side's list (as the program or state spells it). */
function setChanges(field: InputField, olds: unknown[], news: unknown[], recorded: Outputs): ElementChange[] {
  // Each element on its own: a set's normalization may sort the list and drop duplicates.
  const text = (v: unknown) => {
    const one = normalized(field, [v], recorded);
    const value = Array.isArray(one) ? one[0] : v;
    return typeof value === "string" ? value : canonicalJson(value);
  };
  const before = olds.map(text);
  const after = news.map(text);
  // Each element that only one side has, at its first position there (a duplicate is no change).
  const only = (list: string[], other: string[]) => {
    const others = new Set(other);
    const seen = new Set<string>();
    const found: Array<{ key: string; index: number }> = [];
    list.forEach((key, index) => {
      if (!others.has(key) && !seen.has(key)) found.push({ key, index });
      seen.add(key);
    });
    return found;
  };
  return [
    ...only(after, before).map(({ key, index }) => ({ key, kind: "add" as const, newIndex: index })),
    ...only(before, after).map(({ key, index }) => ({ key, kind: "delete" as const, oldIndex: index })),
  ];
}

/** Element changes as positions: an addition where the new list has it, a removal where the old one did; both at one position: an update. */
function positions(changes: ElementChange[]): Map<number, "add" | "delete" | "update"> {
  const at = new Map<number, "add" | "delete" | "update">();
  const mark = (index: number, kind: "add" | "delete") => at.set(index, at.has(index) && at.get(index) !== kind ? "update" : kind);
  for (const change of changes) {
    if (change.kind === "add") mark(change.newIndex!, "add");
    else if (change.kind === "delete") mark(change.oldIndex!, "delete");
    else if (change.oldIndex === change.newIndex) at.set(change.newIndex!, "update");
    else {
      // A changed element that also moved: its old position lost it, its new one has it.
      mark(change.oldIndex!, "delete");
      mark(change.newIndex!, "add");
    }
  }
  return at;
}

/**
 * The detailed diff of one changed field. `olds` is the recorded output (or its default), `news`
 * the desired input (or its default); `replace` marks every path as replacing.
 */
export function fieldDiff(key: string, field: InputField, olds: unknown, news: unknown, recorded: Outputs, replace: boolean): DetailedDiff {
  const kind = (k: "add" | "delete" | "update"): { kind: DiffKind; inputDiff: boolean } => ({
    kind: replace ? `${k}-replace` : k,
    inputDiff: false,
  });
  const known = Array.isArray(olds) && Array.isArray(news) && !isUnknown(news) && !news.some(isUnknown);
  const elements =
    known && field.elementKeys
      ? keyedChanges(field, olds, news, recorded)
      : known && field.set
        ? setChanges(field, olds, news, recorded)
        : undefined;
  // Any other structured value names the paths inside it that differ after normalization.
  const inner = !elements && !isUnknown(news) ? innerPaths(key, normalized(field, olds, recorded), normalized(field, news, recorded)) : [];
  if (inner.length > 0) return Object.fromEntries(inner.map(([path, k]) => [path, kind(k)]));
  // A list that only changed order or spelling (or an unknown) still names the field itself.
  if (!elements || elements.length === 0) {
    return { [key]: kind(olds === undefined || olds === null ? "add" : news === undefined || news === null ? "delete" : "update") };
  }
  return Object.fromEntries([...positions(elements)].sort(([a], [b]) => a - b).map(([index, k]) => [elementPath(key, index), kind(k)]));
}

/** `interfaces[1].ipv4`, `updates["day-of-week"]`: a key after a path, quoted when not a plain name. */
const keyPath = (path: string, key: string): string =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;

/**
 * The paths inside an object or a list (by key, by position) whose normalized values differ, each
 * with how it changes; `[]` for a scalar. Pulumi prints only these, so an element whose other
 * fields differ only in spelling (an id the program gives as text and state holds as a number)
 * does not read as changed in `preview --diff`.
 */
function innerPaths(path: string, before: unknown, after: unknown): Array<[string, "add" | "delete" | "update"]> {
  const found: Array<[string, "add" | "delete" | "update"]> = [];
  const walk = (at: string, a: unknown, b: unknown, top: boolean): void => {
    if (isRecord(a) && isRecord(b)) {
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) walk(keyPath(at, key), a[key], b[key], false);
    } else if (Array.isArray(a) && Array.isArray(b)) {
      for (let i = 0; i < Math.max(a.length, b.length); i++) walk(elementPath(at, i), a[i], b[i], false);
    } else if (!top && canonicalJson(a ?? null) !== canonicalJson(b ?? null)) {
      found.push([at, a === undefined || a === null ? "add" : b === undefined || b === null ? "delete" : "update"]);
    }
  };
  walk(path, before, after, true);
  return found;
}
