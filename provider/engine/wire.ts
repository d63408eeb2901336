/**
 * The engine's wire mapping, both ways: request bodies from the inputs' declarations (wire names,
 * which body, wire form, defaults), and outputs from the API's record.
 */
import { changedFields, sameValue } from "./diff";
import { wirePath } from "./field-names";
import {
  META_INPUTS,
  type AnySpec,
  type ApiObject,
  type Body,
  type Fields,
  type InputField,
  type Inputs,
  type OutputField,
  type Outputs,
  type Values,
} from "./spec";
import { camelizeDeep, setAt, snakeDeep, valueAt } from "./values";

export { wirePath };

/**
 * The request body of some inputs: each field sent with `op`, in its wire form (`toWire`, keys in
 * snake_case at any depth) under its wire path. With `defaults`, an absent input sends its default
 * (an update that removes an input resets the field); without, it is left out (a create lets the
 * API apply its own).
 */
export function wireBody(spec: AnySpec, inputs: Inputs, keys: readonly string[], op: "create" | "update", defaults: boolean): Body {
  return fieldsBody(spec.inputs, inputs, keys, op, defaults);
}

/** `wireBody` of any field declarations: the body of one element of a list of objects (a record of a record set), say. */
export function fieldsBody(fields: Fields, inputs: Inputs, keys: readonly string[], op: "create" | "update", defaults: boolean): Body {
  const body: Body = {};
  for (const key of keys) {
    const field = fields[key];
    if (!field || !sentBy(field, op)) continue;
    const value = inputs[key] ?? (defaults ? field.default : undefined);
    if (value === undefined) continue;
    const wire = field.toWire ? field.toWire(value, inputs) : value;
    if (wire !== undefined) setAt(body, wirePath(key, field), snakeDeep(wire));
  }
  return body;
}

/** Whether `op`'s request body carries the field (not derived, not sent `never` or by the other operation only). */
export const sentBy = (field: InputField, op: "create" | "update"): boolean =>
  !field.derived && field.send !== "never" && (field.send === undefined || field.send === op);

/** The create body: every input the program gave that a create sends. */
export const createBody = (spec: AnySpec, inputs: Inputs): Body => wireBody(spec, inputs, Object.keys(spec.inputs), "create", false);

/** The update body of `keys` (the changed inputs, usually): each one's value, or its default when removed. */
export const updateBody = (spec: AnySpec, inputs: Inputs, keys: readonly string[]): Body => wireBody(spec, inputs, keys, "update", true);

/**
 * Maps the API record to outputs: every input and output field, camelCase — the record's value at
 * the field's wire path, or the spec's `computed` value; an input with `keepSpelling` keeps the
 * given spelling when it means the same — plus the meta inputs. `given` holds the program's
 * inputs, or in a read the recorded outputs.
 */
export function toOutputs(spec: AnySpec, record: ApiObject, given: Values): Outputs {
  const outputs: Outputs = {};
  const fields: Array<[string, InputField | OutputField]> = [...Object.entries(spec.inputs), ...Object.entries(spec.outputs)];
  for (const [key, field] of fields) {
    const compute = spec.computed?.[key];
    let value = compute ? compute(record, given) : valueAt(record, wirePath(key, field));
    const kept = given[key];
    if ("keepSpelling" in field && field.keepSpelling && kept !== undefined && kept !== null && sameValue(field, value, kept)) value = kept;
    if (value !== undefined) outputs[key] = camelizeDeep(value);
  }
  for (const key of META_INPUTS) if (given[key] !== undefined) outputs[key] = given[key];
  return outputs;
}

/** Whether an object is exactly what the inputs declare (as an interrupted run's create leaves it). */
export const equalsInputs =
  (spec: AnySpec, inputs: Inputs) =>
  (object: ApiObject): boolean => {
    const { changed, replaces } = changedFields(spec, toOutputs(spec, object, inputs), inputs);
    return changed.length + replaces.length === 0;
  };
