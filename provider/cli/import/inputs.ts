/**
 * The inputs a generated resource writes, derived from the resource's spec alone: the record is
 * mapped to the program's names by the engine's own `toOutputs` (wire paths, computed fields,
 * camelCase), then each input is kept only when the program must say it — not secret, not
 * derived, not the API's default (compared as `diff` compares, after `normalize`), and not the
 * API's "not set" (`null`, or an empty value the input's schema refuses, such as a domain's
 * `description: ""`). What is written is therefore exactly what `diff` will find equal.
 */
import { sameValue, toOutputs } from "../../engine/engine";
import type { AnySpec, ApiObject, Values } from "../../engine/spec";

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
  const inputs: Values = {};
  for (const [key, field] of Object.entries(spec.inputs)) {
    const value = current[key];
    if (value === undefined || value === null || field.secret || field.derived) continue;
    if (field.default !== undefined && sameValue(field, value, field.default, current)) continue;
    if (field.default === undefined && isEmpty(value) && !field.schema.safeParse(value).success) continue;
    inputs[key] = withoutNulls(value);
  }
  return inputs;
}
