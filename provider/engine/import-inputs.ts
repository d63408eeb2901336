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
 * `pulumi-compute import` writes a program with them; the provider plugin answers Pulumi's own
 * import of an object by id with them (`importRead`).
 */
import type { ProviderContext } from "./context";
import { check } from "./check";
import { sameValue } from "./diff";
import { readObject } from "./lifecycle";
import { toOutputs } from "./wire";
import type { AnySpec, ApiObject, Values } from "./spec";

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
 * An object read by id alone, with nothing recorded of it (Pulumi's import): its outputs, and the
 * inputs a program gives to manage it as it is, so the import's check and diff find nothing to
 * change. Undefined when there is no such object.
 */
export async function importRead(
  spec: AnySpec,
  ctx: ProviderContext,
  id: string,
): Promise<{ id: string; props: Values; inputs: Values } | undefined> {
  const record = await readObject(spec, ctx, id, {});
  if (!record) return undefined;
  return { id, props: toOutputs(spec, record, {}), inputs: programInputs(spec, record, {}) };
}
