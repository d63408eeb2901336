/**
 * The engine's diff: managed input fields only, compared after normalization (sets as sets, keyed
 * lists element by element), never `__provider`, nor what the resource's `ignoreChanges` names;
 * which changes replace, in which order, and the detailed diff both doors answer.
 */
import { fieldDiff, keyedChanges, type DetailedDiff, type DiffResult } from "./detailed-diff";
import { withIgnored } from "./ignore-changes";
import { unsetKnown } from "./known";
import { deleteAdoptedChanged, type AnySpec, type InputField, type Inputs, type Outputs } from "./spec";
import { canonicalJson, isUnknown } from "./values";

export interface FieldChanges {
  changed: string[];
  replaces: string[];
}

/** Managed input fields whose desired value differs from the recorded one. */
export function changedFields(spec: AnySpec, olds: Outputs, news: Inputs): FieldChanges {
  const changed: string[] = [];
  const replaces: string[] = [];
  for (const [key, field] of Object.entries(spec.inputs)) {
    const desired = news[key] ?? field.default;
    if (desired === undefined) continue; // not managed by this program
    if (isUnknown(desired) || !sameValue(field, olds[key] ?? field.default, desired, olds)) {
      changed.push(key);
      if (field.replaceOnChange && !field.inPlaceWhen?.(news, olds)) replaces.push(key);
    }
  }
  return { changed, replaces };
}

/**
 * The diff of the recorded outputs `olds` and the program's inputs `news`. `ignoreChanges`, the
 * paths a door's request names (Pulumi's `DiffRequest.ignoreChanges`), differ from nothing: the
 * outputs record what the API answered, a value set by hand at such a path included, which the
 * program's input there (the engine's copy of the recorded input) would otherwise set back.
 */
export function diff(spec: AnySpec, olds: Outputs, given: Inputs, ignoreChanges: readonly string[] = []): DiffResult {
  const news = withIgnored(spec, olds, given, ignoreChanges);
  const { changed, replaces: changedReplaces } = changedFields(spec, olds, news);
  // A broken object (see `replaceBroken`) is replaced even when nothing changed.
  const broken = spec.replaceBroken?.(olds) ?? [];
  const replaces = [...changedReplaces, ...broken];
  // A recorded object that lacks an output known once created (refreshed before it settled) is
  // updated, which settles it: no program reads it unset (`engine/known.ts`). A broken one is replaced anyway.
  const unsettled = broken.length > 0 ? [] : [...new Set(unsetKnown(spec, olds).map((path) => path.split(".")[0]!))];
  // A replacement is created before the old object is deleted, unless an unchanged unique input
  // (a label the API wants unique) would collide; then the old one goes first. Said whether or not
  // the spec replaces: Pulumi also replaces for `replaceOnChanges`, in the order this answer gives
  // (a twin created first would be refused, its label taken). `--replace` asks no diff: there only
  // the `deleteBeforeReplace` option orders it.
  const collides = (spec.uniqueInputs ?? []).some((k) => !changed.includes(k)) || (spec.deleteFirst?.(olds, news) ?? false);
  const detailedDiff: DetailedDiff = {};
  for (const key of changed) {
    const field = spec.inputs[key]!;
    Object.assign(
      detailedDiff,
      fieldDiff(key, field, olds[key] ?? field.default, news[key] ?? field.default, olds, replaces.includes(key)),
    );
  }
  // A broken output field replaces, though no input names it.
  for (const key of broken) detailedDiff[key] ??= { kind: "update-replace", inputDiff: false };
  for (const key of unsettled) detailedDiff[key] ??= { kind: "update", inputDiff: false };
  // Whether a delete deletes an adopted object is recorded by an update that sends nothing (`lifecycle.ts`).
  const meta = deleteAdoptedChanged(olds, news) ? ["deleteAdopted"] : [];
  for (const key of meta) detailedDiff[key] = { kind: "update", inputDiff: true };
  return {
    changes: changed.length > 0 || broken.length > 0 || unsettled.length > 0 || meta.length > 0,
    replaces,
    deleteBeforeReplace: collides,
    diffs: [...new Set([...changed, ...broken, ...unsettled, ...meta])],
    detailedDiff,
  };
}

/** Whether two values of a field are the same after normalization; `recorded` is the state normalizers may consult. */
export function sameValue(field: InputField, a: unknown, b: unknown, recorded: Outputs = {}): boolean {
  const normalize = (v: unknown) => (v === undefined || v === null ? v : field.normalize ? field.normalize(v, recorded) : v);
  // A keyed list is the same when no element differs, whatever their order.
  if (field.elementKeys && Array.isArray(a) && Array.isArray(b) && !isUnknown(b)) return keyedChanges(field, a, b, recorded).length === 0;
  let x = normalize(a);
  let y = normalize(b);
  if (field.set && Array.isArray(x) && Array.isArray(y)) {
    x = [...new Set(x.map(canonicalJson))].sort();
    y = [...new Set(y.map(canonicalJson))].sort();
  }
  return canonicalJson(x ?? null) === canonicalJson(y ?? null);
}
