/**
 * Pulumi's detailed diff, derived from the spec: for every changed input, the property paths
 * that change and whether each one updates or replaces. Set elements are named by value
 * (`tags["prod"]`), keyed list elements by key (`records["www A"]`), any other field by its name.
 * `preview --diff` shows exactly these paths, and the Automation API's events carry them
 * (`detailedDiff`), so a program's author sees which record or rule goes back to which value.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { InputField, Outputs } from "./spec";
import { canonicalJson, isUnknown } from "./values";

/** How one property path changes, as Pulumi's `PropertyDiff.Kind` names it. */
export type DiffKind = "add" | "add-replace" | "delete" | "delete-replace" | "update" | "update-replace";

/** Property path → how it changes. `inputDiff: false`: the old value is the recorded output. */
export type DetailedDiff = Record<string, { kind: DiffKind; inputDiff: boolean }>;

/**
 * Pulumi's diff result, with what the dynamic provider interface does not declare: the changed
 * top-level inputs (`diffs`) and the property paths that change (`detailedDiff`).
 */
export type DiffResult = pulumi.dynamic.DiffResult & { diffs: string[]; detailedDiff: DetailedDiff };

/** One element of a keyed list that differs: present only in `news` (add), only in `olds` (delete), or in both. */
export interface ElementChange {
  key: string;
  kind: "add" | "delete" | "update";
  /** The element's index in the recorded list (update, delete). */
  oldIndex?: number;
  /** The element's index in the desired list (add, update). */
  newIndex?: number;
}

/** `records["www A"]`: a property path naming an element by key or value, quoted as Pulumi parses it. */
export const elementPath = (field: string, key: string): string => `${field}[${JSON.stringify(key)}]`;

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

/** Set elements (canonical text, or the string itself) that only one side holds. */
function setChanges(field: InputField, olds: unknown, news: unknown, recorded: Outputs): Array<{ key: string; kind: "add" | "delete" }> {
  const text = (v: unknown) => (typeof v === "string" ? v : canonicalJson(v));
  const elements = (value: unknown) => {
    const list = normalized(field, value, recorded);
    return new Set(Array.isArray(list) ? list.map(text) : []);
  };
  const before = elements(olds);
  const after = elements(news);
  return [
    ...[...after].filter((k) => !before.has(k)).map((key) => ({ key, kind: "add" as const })),
    ...[...before].filter((k) => !after.has(k)).map((key) => ({ key, kind: "delete" as const })),
  ];
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
  const known = Array.isArray(olds) && Array.isArray(news) && !isUnknown(news);
  const elements =
    known && field.elementKeys
      ? keyedChanges(field, olds, news, recorded)
      : known && field.set
        ? setChanges(field, olds, news, recorded)
        : undefined;
  // A list that only changed order or spelling (or an unknown) still names the field itself.
  if (!elements || elements.length === 0) {
    return { [key]: kind(olds === undefined || olds === null ? "add" : news === undefined || news === null ? "delete" : "update") };
  }
  return Object.fromEntries(elements.map((e) => [elementPath(key, e.key), kind(e.kind)]));
}
