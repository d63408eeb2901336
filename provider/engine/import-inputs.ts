/**
 * The inputs a generated resource writes, derived from the resource's spec alone: the record is
 * mapped to the program's names by the engine's own `toOutputs` (wire paths, computed fields,
 * camelCase), then each input is kept only when the program must say it — not secret, not
 * derived, not the API's default (compared as `diff` compares, after `normalize`), and not the
 * API's "not set" (`null`, or an empty value the input's schema refuses, such as a domain's
 * `description: ""`). A default the spec's rules still require is written after all (an SRV
 * record's `priority: 0`): the result passes the spec's `check`, and is exactly what `diff` will
 * find equal.
 *
 * `pulumi-compute import` writes a program with them; both doors answer Pulumi's own import of an
 * object by id (the `import` resource option, `pulumi import`) with them (`importRead`), and
 * refuse the import when the program's inputs differ from the object (`refuseImportChanges`).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ProviderContext } from "./context";
import { check } from "./check";
import type { DiffResult } from "./detailed-diff";
import { changedFields, sameValue } from "./diff";
import { readObject } from "./lifecycle";
import { holdings } from "./ownership";
import { servedResource } from "./ports";
import { isUnknown } from "./values";
import { toOutputs } from "./wire";
import { withoutProvider, type AnySpec, type ApiObject, type Values } from "./spec";

type CheckResult = pulumi.dynamic.CheckResult;

/** Drops `null`s from objects at any depth: the API's "not set" inside a value (a rule's `label: null`). */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([k, v]) => [k, withoutNulls(v)]),
    );
  }
  return value;
}

const isEmpty = (value: unknown) => value === "" || (Array.isArray(value) && value.length === 0);

/**
 * The inputs to write for one object, in the spec's order. `given` holds the values the record
 * does not carry (a parent's id), as a program would give them.
 */
export function programInputs(spec: AnySpec, record: ApiObject, given: Values): Values {
  const current = toOutputs(spec, record, given);
  const written = new Set<string>();
  const defaults = new Set<string>();
  for (const [key, field] of Object.entries(spec.inputs)) {
    const value = current[key];
    if (value === undefined || value === null || field.secret || field.derived) continue;
    if (field.default !== undefined && sameValue(field, value, field.default, current)) defaults.add(key);
    else if (field.default !== undefined || !isEmpty(value) || field.schema.safeParse(value).success) written.add(key);
  }
  const inputsOf = (keys: Set<string>) =>
    Object.fromEntries(Object.keys(spec.inputs).flatMap((key) => (keys.has(key) ? [[key, withoutNulls(current[key])]] : [])));
  // A rule may require an input whatever its value (an SRV record's priority, weight and port).
  const failures = check(spec, { ...inputsOf(written), ...given }).failures ?? [];
  for (const failure of failures) if (defaults.has(failure.property)) written.add(failure.property);
  return inputsOf(written);
}

/**
 * Whether a read is Pulumi's import of an object by id: nothing is recorded of it, neither outputs
 * (but a dynamic resource's provider line) nor inputs. A refresh always carries the outputs.
 */
export function isImportRead(props: Values | undefined, inputs: Values | undefined): boolean {
  return Object.keys(withoutProvider(props ?? {})).length === 0 && Object.keys(withoutProvider(inputs ?? {})).length === 0;
}

/**
 * The objects this process imported whose check or diff has not yet run, with their outputs: by
 * kind and URN (by id where the door does not say which resource it serves: then the diff alone
 * can find it).
 */
const importedKey = (spec: AnySpec, urn: string | undefined, id: string) => `${spec.name} ${urn ?? `#${id}`}`;
const imports = (ctx: ProviderContext) => ctx.shared("imports", () => new Map<string, { id: string; props: Values }>());

/**
 * An object read by id alone, with nothing recorded of it (Pulumi's import): its outputs, and the
 * inputs a program gives to manage it as it is, so the import's check and diff find nothing to
 * change. Undefined when there is no such object. The resource holds the object for the run (no
 * other resource's delete removes it), and its diff that follows refuses what the program changes.
 */
export async function importRead(
  spec: AnySpec,
  ctx: ProviderContext,
  id: string,
): Promise<{ id: string; props: Values; inputs: Values } | undefined> {
  const record = await readObject(spec, ctx, id, {}).catch((error: unknown) => {
    // A resource under a parent (a subnet, a DNS record) is read with its parent's id, which an import does not carry.
    throw new Error(
      `the ${spec.noun} ${id} cannot be imported by its id alone (${error instanceof Error ? error.message : String(error)}); ` +
        `adopt it with \`adoptId: ${idLiteral(id)}\` in the program instead`,
      { cause: error },
    );
  });
  if (!record) return undefined;
  holdings(ctx).hold(spec, id, servedResource(ctx.log));
  const props = toOutputs(spec, record, {});
  imports(ctx).set(importedKey(spec, ctx.log.urn(), id), { id, props });
  return { id, props, inputs: programInputs(spec, record, {}) };
}

/** An id as a program writes it: a number bare, anything else quoted. */
const idLiteral = (id: string) => (/^\d+$/.test(id) ? id : JSON.stringify(id));

/** A value as a refusal shows it: short JSON, or a mark for a secret or a long value. */
function shown(value: unknown, secret: boolean | undefined): string {
  if (secret) return "a secret";
  if (value === undefined || value === null) return "none";
  const text = JSON.stringify(value);
  return text.length <= 60 ? text : `${text.slice(0, 57)}…`;
}

/** The inputs that differ from the object just imported: each with the object's value, in the program's words. */
function importDifferences(spec: AnySpec, id: string, olds: Values, differing: string[]): { property: string; reason: string }[] {
  return differing.map((key) => ({
    property: key,
    reason:
      `the \`import\` option takes the ${spec.noun} ${id} as it is, and it has ${shown(olds[key], spec.inputs[key]!.secret)}` +
      `${changeReplaces(spec, key) ? " (a change would replace it)" : ""}: give the object's value (and change it in a later up), ` +
      `or adopt it with \`adoptId: ${idLiteral(id)}\` instead of \`import\`, which brings the object to the program's values at the next up`,
  }));
}

const changeReplaces = (spec: AnySpec, key: string) => spec.inputs[key]?.replaceOnChange === true;

/**
 * Pulumi's import takes an object as it is: when the program's inputs differ from the object just
 * imported, the import is refused, at preview as at `up`, naming the resource, each differing input
 * with the object's value, and the two ways on. Pulumi's own engine would import, then update in
 * place; Pulumi documents the import as failing instead, and so it does here, through both doors.
 *
 * The engine checks the program's inputs right after the import's read: `importCheck` refuses
 * there, as check failures on the fields (where the door says which resource it serves). Where it
 * cannot tell, the diff that follows refuses (`refuseImportChanges`). Any other resource passes.
 * An input still unknown at preview is left to `up`.
 */
export function importCheck(spec: AnySpec, ctx: ProviderContext, checked: CheckResult): CheckResult {
  const urn = ctx.log.urn();
  if (urn === undefined || checked.failures?.length) return checked;
  const key = importedKey(spec, urn, "");
  const imported = imports(ctx).get(key);
  if (!imported) return checked;
  imports(ctx).delete(key);
  const inputs = withoutProvider((checked.inputs ?? {}) as Values);
  const differing = changedFields(spec, imported.props, inputs).changed.filter((k) => !isUnknown(inputs[k]));
  return differing.length === 0 ? checked : { ...checked, failures: importDifferences(spec, imported.id, imported.props, differing) };
}

/** The diff's refusal of an import whose check could not tell which resource it served (see `importCheck`). */
export function refuseImportChanges(spec: AnySpec, ctx: ProviderContext, id: string, olds: Values, result: DiffResult): void {
  if (!imports(ctx).delete(importedKey(spec, ctx.log.urn(), id))) return;
  // Only the program's inputs: an output the engine settles by an update (`engine/known.ts`) is no difference of the program's.
  const differing = result.diffs.filter((key) => spec.inputs[key] !== undefined);
  if (differing.length === 0) return;
  const name = servedResource(ctx.log);
  const fields = importDifferences(spec, id, olds, differing).map((f) => `${f.property}: ${f.reason}`);
  throw new Error(`${spec.name} ${name ? JSON.stringify(name) : id}: ${fields.join("; ")}`);
}
