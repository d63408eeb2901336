/**
 * The one engine every resource shares: it turns a `AnySpec` into the methods of a Pulumi
 * dynamic provider. `check` validates inputs with the spec's schemas (the sdk's, so texts match
 * the API) and lets preview's unknown values through; `diff` compares managed fields only, after
 * normalization, and never looks at `__provider`; the wire mapping goes both ways — request
 * bodies from the inputs' declarations (wire names, which body, wire form, defaults), outputs from
 * the record, and API errors and sdk rule failures back to the program's input names;
 * create/read/update/delete wrap the hooks with deadlines, adoption, orphan protection.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, isNotFound } from "../../sdk/core/errors";
import { formatPath } from "../../sdk/core/schema";
import { PROVIDER_KEY } from "../shim";
import { collectionKeyOf, invalidate } from "./collections";
import { CONFIG_TOKEN, type ProviderContext } from "./context";
import { fieldDiff, keyedChanges, type DetailedDiff, type DiffResult } from "./detailed-diff";
import { forHost } from "../host/diff";
import { servedResource, servedUrn } from "../host/row-log";
import { dataFunctionText, excerpt, programNames, programText, wirePath } from "./names";
import { leastScopes, scopeRefusal } from "./oauth-scopes";
import { unsetKnown, unsetKnownMessage } from "./known";
import { UnresolvedCreateError, adoptClash, createExactlyOnce, keyClash } from "./natural-key";
import { holdings } from "./ownership";
import {
  META_INPUTS,
  type AnySpec,
  type ApiObject,
  type Body,
  type Failure,
  type Fields,
  type InputField,
  type Inputs,
  type OutputField,
  type Outputs,
  type RecomputedBy,
  type Values,
} from "./spec";
import {
  UNKNOWN,
  camelizeDeep,
  canonicalJson,
  formatDuration,
  isUnknown,
  parseDuration,
  setAt,
  snakeDeep,
  toCamel,
  toSnake,
  valueAt,
} from "./values";

type DynamicProvider = Required<Pick<pulumi.dynamic.ResourceProvider, "check" | "diff" | "create" | "update" | "delete">> & {
  /** `inputs`: the recorded inputs, where the door has them (the plugin's ReadRequest); else the outputs stand in. */
  read(id: string, props?: Outputs, inputs?: Inputs): Promise<pulumi.dynamic.ReadResult>;
};

/** Builds the provider methods of one resource type. */
export function makeProvider(spec: AnySpec, context: () => ProviderContext): DynamicProvider {
  return {
    check: async (olds, news) => checkAndDerive(spec, olds ?? {}, news, context),
    diff: async (id, olds, news) => {
      spec.declare?.({ ctx: context(), id, inputs: withoutProvider(news) });
      return forHost(diff(spec, olds, news));
    },
    create: async (inputs) => {
      const created = await create(spec, context(), inputs);
      spec.declare?.({ ctx: context(), id: created.id, inputs: withoutProvider(inputs) });
      return created;
    },
    read: (id, props, inputs?: Inputs) => read(spec, context(), id, props ?? {}, inputs),
    update: async (id, olds, news) => {
      const updated = await update(spec, context(), id, olds, news);
      spec.declare?.({ ctx: context(), id, inputs: withoutProvider(news) });
      return updated;
    },
    delete: (id, props) => remove(spec, context(), id, props),
  };
}

// ---------------------------------------------------------------------------------------------
// check

/** `olds`: the inputs the object was last checked with (`{}` for a new object). */
export function check(spec: AnySpec, news: Inputs, olds: Inputs = {}): pulumi.dynamic.CheckResult {
  const failures: Failure[] = [];
  const inputs = withoutProvider(news);

  // Named as the program wrote them (`ttl_sec` here is the program's own word, not the API's).
  const strangers: Failure[] = [];
  for (const key of Object.keys(inputs)) {
    if (!(key in spec.inputs) && !(META_INPUTS as readonly string[]).includes(key)) {
      strangers.push({ property: key, reason: `${key} is not an input of ${spec.name}; valid inputs: ${inputNames(spec).join(", ")}` });
    }
  }
  for (const [key, field] of Object.entries(spec.inputs)) {
    const value = inputs[key];
    if (value === undefined || value === null) {
      if (field.required) failures.push({ property: key, reason: `${key} is required` });
      continue;
    }
    if (isUnknown(value)) continue; // preview: validated once known
    const parsed = field.schema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) failures.push(fieldFailure(key, issue.path, issue.message));
    }
  }
  failures.push(...checkMeta(inputs));
  if (failures.length + strangers.length === 0 && (spec.validatesUnknowns || !Object.values(inputs).some(isUnknown))) {
    failures.push(...(spec.validate?.(inputs, withoutProvider(olds)) ?? []), ...ruleFailures(spec, inputs));
  }
  if (failures.length + strangers.length === 0) return { inputs: news };
  return { inputs: news, failures: [...inProgramWords(spec, inputs, strangers, false), ...inProgramWords(spec, inputs, failures)] };
}

/**
 * Failures as the person running the program reads them: wire names in the reasons put in the
 * program's words (`ttl_sec` → `ttlSec`, `engine` → `engineId`, `see GET /regions` → `see
 * getRegions()`). The engine prints the value of a
 * top-level property next to it; a secret must not be printed and a long value (30 firewall rules)
 * would bury the reason, so those name the field in the reason instead, a long value as a short
 * excerpt.
 */
function inProgramWords(spec: AnySpec, inputs: Inputs, failures: Failure[], rename = true): Failure[] {
  const names = programNames(spec);
  const words = (text: string) => (rename ? programText(names, text) : dataFunctionText(text));
  return failures.map(({ property, reason }) => {
    const text = words(reason);
    const field = spec.inputs[property];
    const value = inputs[property];
    if (field?.secret) return { property: "", reason: `${property}: ${text}` };
    if (property && value !== undefined && excerpt(value) !== JSON.stringify(value)) {
      return { property: "", reason: `${property} ${excerpt(value)}: ${text}` };
    }
    return { property: words(property), reason: text };
  });
}

/**
 * The sdk's cross-field rules (`wireRules`) on the inputs under their wire names. Unknown values
 * count as not given, and a failure about a field whose value is unknown is dropped (it will be
 * checked once known). Failures name the program's input.
 */
function ruleFailures(spec: AnySpec, inputs: Inputs): Failure[] {
  if (!spec.wireRules) return [];
  const wire: Values = {};
  const unknown = new Set<string>();
  for (const [key, value] of Object.entries(inputs)) {
    const name = key in spec.inputs ? wirePath(key, spec.inputs[key]!) : toSnake(key);
    if (isUnknown(value)) unknown.add(name);
    else wire[name] = value;
  }
  return spec
    .wireRules(wire)
    .filter((e) => e.field === undefined || !unknown.has(e.field))
    .map((e) => ({ property: e.field ? inputName(spec, e.field) : "", reason: e.reason }));
}

/**
 * `check`, then the spec's `derive` hook on inputs that passed it (see `Hooks.derive`), then its
 * `declare` and `checkShared` (what needs the API or the program's other resources), which get
 * the process's context when the provider has one.
 */
export async function checkAndDerive(
  spec: AnySpec,
  olds: Inputs,
  news: Inputs,
  context?: () => ProviderContext,
): Promise<pulumi.dynamic.CheckResult> {
  const checked = await checkOwn(spec, olds, news);
  if (checked.failures?.length || !context) return checked;
  const ctx = context();
  const inputs = withoutProvider(checked.inputs ?? news);
  const prior = withoutProvider(olds);
  spec.declare?.({ ctx, inputs });
  // What the program adopts is held by it in this run: no other resource's delete removes it.
  if (inputs.adoptId !== undefined && !isUnknown(inputs.adoptId)) holdings(ctx).hold(spec, String(inputs.adoptId), servedResource());
  const signal = () => ctx.time.deadline(timeoutFor(spec, inputs, "update"));
  const failures =
    spec.checkShared && !Object.values(inputs).some(isUnknown)
      ? await spec.checkShared({ ctx, inputs, olds: prior, signal: signal() })
      : [];
  if (failures.length === 0) failures.push(...(await ownershipFailures(spec, ctx, prior, inputs, signal)));
  return failures.length === 0 ? checked : { inputs: checked.inputs, failures: inProgramWords(spec, inputs, failures) };
}

/** A unique key another object holds, or an adoptId of another stack's object (`natural-key.ts`), in the program's words. */
async function ownershipFailures(
  spec: AnySpec,
  ctx: ProviderContext,
  olds: Inputs,
  inputs: Inputs,
  signal: () => AbortSignal,
): Promise<Failure[]> {
  if (!spec.naturalKey) return [];
  const urn = servedUrn();
  try {
    const clash = await keyClash(spec, ctx, olds, inputs, urn, signal(), equalsInputs(spec, inputs));
    return [...clash, ...(await adoptClash(spec, ctx, olds, inputs, urn))];
  } catch (error) {
    // The lookup is the create's own (it runs again right before the POST): refused, it names what the create needs.
    throw explain(spec, "create", error);
  }
}

async function checkOwn(spec: AnySpec, olds: Inputs, news: Inputs): Promise<pulumi.dynamic.CheckResult> {
  const result = check(spec, news, olds);
  if (result.failures?.length || !spec.hooks.derive) return result;
  const derived = await spec.hooks.derive(withoutProvider(olds), withoutProvider(news));
  if (derived.failures?.length) return { inputs: news, failures: inProgramWords(spec, withoutProvider(news), derived.failures) };
  return { inputs: { ...news, ...derived.inputs } };
}

function fieldFailure(key: string, path: ReadonlyArray<PropertyKey>, message: string): Failure {
  // The engine prints the value of a top-level property only; a nested path is named in the reason.
  if (path.length > 0) return { property: "", reason: `${formatPath([key, ...path])}: ${message}` };
  return { property: key, reason: message };
}

function checkMeta(inputs: Inputs): Failure[] {
  const failures: Failure[] = [];
  const adoptId = inputs.adoptId;
  if (adoptId !== undefined && !isUnknown(adoptId)) {
    const valid =
      (typeof adoptId === "string" && /^\S+$/.test(adoptId)) || (typeof adoptId === "number" && Number.isInteger(adoptId) && adoptId > 0);
    if (!valid) failures.push({ property: "adoptId", reason: "adoptId must be the id of an existing object" });
  }
  const timeouts = inputs.timeouts;
  if (timeouts !== undefined && !isUnknown(timeouts)) {
    if (timeouts === null || typeof timeouts !== "object" || Array.isArray(timeouts)) {
      failures.push({ property: "timeouts", reason: 'timeouts must be an object such as { create: "10m" }' });
    } else {
      for (const [op, value] of Object.entries(timeouts)) {
        if (!["create", "update", "delete"].includes(op)) {
          failures.push({ property: "", reason: `timeouts.${op}: unknown operation; use create, update or delete` });
        } else if (parseDuration(value as string) === undefined) {
          failures.push({
            property: "",
            reason: `timeouts.${op}: ${JSON.stringify(value)} is not a duration such as "90s", "10m" or "1h"`,
          });
        }
      }
    }
  }
  return failures;
}

// ---------------------------------------------------------------------------------------------
// diff

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
      if (field.replaceOnChange) replaces.push(key);
    }
  }
  return { changed, replaces };
}

export function diff(spec: AnySpec, olds: Outputs, news: Inputs): DiffResult {
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
  return {
    changes: changed.length > 0 || broken.length > 0 || unsettled.length > 0,
    replaces,
    deleteBeforeReplace: collides,
    diffs: [...new Set([...changed, ...broken, ...unsettled])],
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

// ---------------------------------------------------------------------------------------------
// the wire mapping: request bodies and outputs

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
const sentBy = (field: InputField, op: "create" | "update"): boolean =>
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

// ---------------------------------------------------------------------------------------------
// create / read / update / delete

function timeoutFor(spec: AnySpec, inputs: Inputs, op: "create" | "update" | "delete"): number {
  const given = (inputs.timeouts as Record<string, string> | undefined)?.[op];
  return (given !== undefined ? parseDuration(given) : undefined) ?? spec.timeouts[op];
}

/**
 * A hook that waited for the API to accept something until the deadline passed: its message is
 * the API's last refusal, which the deadline's error repeats so the person knows what it waited on.
 */
export class GaveUpWaiting extends Error {
  override name = "GaveUpWaiting";
}

/** Runs `work` under the operation's deadline, with an error that says which deadline passed. */
async function withDeadline<T>(
  spec: AnySpec,
  ctx: ProviderContext,
  op: string,
  ms: number,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const signal = ctx.time.deadline(ms);
  try {
    return await work(signal);
  } catch (error) {
    // An unresolved create already says what happened, the deadline included, and what to do.
    if (signal.aborted && !(error instanceof UnresolvedCreateError)) {
      const last = error instanceof GaveUpWaiting ? `; the last answer: ${error.message}` : "";
      throw new Error(`${spec.noun} ${op} did not finish within ${formatDuration(ms)} (raise timeouts.${op} to wait longer)${last}`, {
        cause: error,
      });
    }
    throw error;
  }
}

/**
 * A failure after the API accepted a create. Pulumi's dynamic provider host turns an error with an
 * `id` into ErrorResourceInitFailed: the engine keeps the object in state with this error instead
 * of forgetting it, and the next `up` retries by updating it.
 */
export class ResourceInitError extends Error {
  override name = "ResourceInitError";
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Outputs,
    readonly reasons: string[] = [message],
  ) {
    super(message);
  }
}

/**
 * Thrown by a hook that applies many changes (a record set's records) when some of them failed:
 * `record` is the object as the changes that did succeed left it. The engine records exactly that
 * in state (as a `ResourceInitError`, which Pulumi keeps with the error on create and on update),
 * so nothing applied is forgotten and the next `up` applies only what is left.
 */
export class PartialApplyError extends Error {
  override name = "PartialApplyError";
  constructor(
    message: string,
    readonly record: ApiObject,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** A `PartialApplyError` as Pulumi's init error, with the applied state as outputs (and the provider text). */
function partialState(spec: AnySpec, error: unknown, inputs: Inputs, raw: Inputs): unknown {
  // Also under a passed deadline's error, which keeps the hook's as its cause.
  const partial = error instanceof PartialApplyError ? error : (error as Error | undefined)?.cause;
  if (!(partial instanceof PartialApplyError)) return error;
  const properties = { ...toOutputs(spec, partial.record, inputs), [PROVIDER_KEY]: raw[PROVIDER_KEY] };
  return new ResourceInitError((error as Error).message, String(partial.record.id), properties);
}

async function create(spec: AnySpec, ctx: ProviderContext, raw: Inputs): Promise<pulumi.dynamic.CreateResult> {
  const inputs = withoutProvider(raw);
  try {
    return await createObject(spec, ctx, raw, inputs);
  } finally {
    invalidate(spec, ctx, inputs);
  }
}

async function createObject(spec: AnySpec, ctx: ProviderContext, raw: Inputs, inputs: Inputs): Promise<pulumi.dynamic.CreateResult> {
  const ms = timeoutFor(spec, inputs, "create");
  let accepted: ApiObject | undefined;
  const settled = await withDeadline(spec, ctx, "create", ms, async (signal) => {
    accepted = await createOrAdopt(spec, ctx, inputs, signal);
    return settle(spec, ctx, accepted, inputs, signal);
  }).catch(async (error: unknown) => {
    if (!accepted) throw partialState(spec, error, inputs, raw);
    // Recorded as it is now (a database whose provisioning ended `failed`, say), so the next
    // `diff` sees it; the create's answer is the fallback when it cannot be read.
    const current = spec.hooks.settle ? await readQuietly(spec, ctx, accepted, inputs) : accepted;
    // Recorded with the provider text, or later reads and deletes could not load the provider.
    const properties = { ...toOutputs(spec, current, inputs), [PROVIDER_KEY]: raw[PROVIDER_KEY] };
    const message = `${spec.noun} ${String(accepted.id)} was created but did not become ready: ${(error as Error).message}`;
    throw new ResourceInitError(message, String(accepted.id), properties);
  });
  const outs = toOutputs(spec, settled, inputs);
  keepKnown(spec, String(settled.id), outs, raw, "create");
  return { id: String(settled.id), outs };
}

/**
 * Holds a finished create or update to what the generated types promise (`engine/known.ts`): a
 * `known` output the API left unset fails it as an init error, recorded as it is, so the next `up`
 * settles it again instead of a program reading `null` where its type says it cannot be.
 */
function keepKnown(spec: AnySpec, id: string, outs: Outputs, raw: Inputs, op: "create" | "update"): void {
  const missing = unsetKnown(spec, outs);
  if (missing.length > 0)
    throw new ResourceInitError(unsetKnownMessage(spec, id, missing, op), id, { ...outs, [PROVIDER_KEY]: raw[PROVIDER_KEY] });
}

/** The `settle` hook, when the resource has one. */
function settle(spec: AnySpec, ctx: ProviderContext, record: ApiObject, inputs: Inputs, signal: AbortSignal): Promise<ApiObject> {
  if (!spec.hooks.settle) return Promise.resolve(record);
  return spec.hooks.settle({ ctx, signal, record, inputs, bodyOf: (keys) => updateBody(spec, inputs, keys) });
}

/** The `read` hook, under its API name. */
const readHook = (spec: AnySpec, ctx: ProviderContext, id: string, state: Values, signal: AbortSignal): Promise<ApiObject | undefined> =>
  spec.hooks.read({ ctx, signal, id, state });

/** A fresh read with its own short deadline (the operation's may have passed); the given object on any failure. */
async function readQuietly(spec: AnySpec, ctx: ProviderContext, object: ApiObject, inputs: Inputs): Promise<ApiObject> {
  try {
    const fresh = await readHook(spec, ctx, String(object.id), toOutputs(spec, object, inputs), ctx.time.deadline(30_000));
    return fresh ?? object;
  } catch {
    return object;
  }
}

async function createOrAdopt(spec: AnySpec, ctx: ProviderContext, inputs: Inputs, signal: AbortSignal): Promise<ApiObject> {
  if (inputs.adoptId !== undefined) return adopt(spec, ctx, inputs, signal);
  const body = createBody(spec, inputs);
  const post = () => spec.hooks.create({ ctx, signal, body, inputs, bodyOf: (keys) => updateBody(spec, inputs, keys) });
  // The API has no idempotency keys: a create whose answer was lost is resolved by its natural key.
  return createExactlyOnce(spec, ctx, inputs, signal, post, equalsInputs(spec, inputs)).catch((error: unknown) => {
    throw explain(spec, "create", error);
  });
}

/** Whether an object is exactly what the inputs declare (as an interrupted run's create leaves it). */
const equalsInputs =
  (spec: AnySpec, inputs: Inputs) =>
  (object: ApiObject): boolean => {
    const { changed, replaces } = changedFields(spec, toOutputs(spec, object, inputs), inputs);
    return changed.length + replaces.length === 0;
  };

/** `adoptId`: takes over an existing object and brings its in-place fields to the inputs. */
async function adopt(spec: AnySpec, ctx: ProviderContext, inputs: Inputs, signal: AbortSignal): Promise<ApiObject> {
  const id = String(inputs.adoptId);
  const existing = await readHook(spec, ctx, id, inputs, signal).catch((e) => {
    if (isNotFound(e)) return undefined;
    throw explain(spec, "read", e);
  });
  if (!existing) throw new Error(`adoptId ${id}: no such ${spec.noun}`);
  const current = toOutputs(spec, existing, inputs);
  const { changed, replaces } = changedFields(spec, current, inputs);
  if (replaces.length > 0) {
    const detail = replaces.map((k) => `${k} is ${JSON.stringify(current[k])}, the program says ${JSON.stringify(inputs[k])}`);
    throw new Error(`adoptId ${id}: the ${spec.noun} differs in fields that cannot change in place: ${detail.join("; ")}`);
  }
  if (changed.length === 0) return existing;
  return updateHook(spec, ctx, id, current, inputs, changed, signal);
}

/** The `update` hook with the body of the changed fields; without one (every input replaces) a read. */
async function updateHook(
  spec: AnySpec,
  ctx: ProviderContext,
  id: string,
  olds: Outputs,
  news: Inputs,
  changed: string[],
  signal: AbortSignal,
): Promise<ApiObject> {
  if (!spec.hooks.update) return present(spec, id, await readHook(spec, ctx, id, olds, signal));
  const body = updateBody(spec, news, changed);
  return spec.hooks.update({ ctx, signal, id, body, olds, news, changed, bodyOf: (keys) => updateBody(spec, news, keys) }).catch((e) => {
    throw explain(spec, "update", e);
  });
}

function present(spec: AnySpec, id: string, record: ApiObject | undefined): ApiObject {
  if (!record) throw new Error(`${spec.noun} ${id} no longer exists; run \`pulumi refresh\``);
  return record;
}

/** A refresh's read: coalesced with the reads of the same collection around it when the spec has listings (`Listing`). */
function coalescedRead(
  spec: AnySpec,
  ctx: ProviderContext,
  id: string,
  state: Values,
  signal: AbortSignal,
): Promise<ApiObject | undefined> {
  const listing = spec.listing;
  const collection = listing?.collection(state);
  if (!listing || collection === undefined) return readHook(spec, ctx, id, state, signal);
  const reader = {
    list: (listSignal: AbortSignal) => listing.list({ ctx, signal: listSignal, collection }),
    get: (getSignal?: AbortSignal) => readHook(spec, ctx, id, state, getSignal ?? signal),
    idOf: (item: ApiObject) => String(item.id),
  };
  return ctx.reads().read(collectionKeyOf(spec.name, collection), id, reader, signal);
}

/**
 * The object as the API has it now, read under the read deadline (coalesced with its collection's
 * reads where the spec has listings); `undefined` when it is gone. `state`: what was recorded of
 * it (`{}` when nothing was: an import by id).
 */
export async function readObject(spec: AnySpec, ctx: ProviderContext, id: string, state: Values): Promise<ApiObject | undefined> {
  try {
    return await withDeadline(spec, ctx, "read", timeoutFor(spec, state, "update"), (signal) =>
      coalescedRead(spec, ctx, id, state, signal),
    );
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw explain(spec, "read", error);
  }
}

async function read(
  spec: AnySpec,
  ctx: ProviderContext,
  id: string,
  props: Outputs,
  recorded?: Inputs,
): Promise<pulumi.dynamic.ReadResult> {
  const state = withoutProvider(props);
  const object = await readObject(spec, ctx, id, state);
  // No id tells the engine the object is gone: refresh drops it from state.
  if (!object) return {};
  const outs = toOutputs(spec, object, state);
  if (recorded !== undefined) return { id, props: outs, inputs: refreshedInputs(spec, outs, withoutProvider(recorded)) };
  // The dynamic host hands over the outputs only. Without drift in an input field, no inputs are
  // returned and the engine keeps the recorded ones as they are; with drift, the outputs' input
  // fields stand in for them (each in the API's spelling, which compares equal).
  const drifted = Object.entries(spec.inputs).some(
    ([key, field]) => state[key] !== undefined && outs[key] !== undefined && !sameValue(field, state[key], outs[key], outs),
  );
  return drifted ? { id, props: outs, inputs: refreshedInputs(spec, outs, inputsOf(spec, state)) } : { id, props: outs };
}

/**
 * The recorded inputs with each one the API now holds otherwise replaced by the API's value, as
 * Pulumi's `ReadResponse.inputs` intends: the engine keeps them as the resource's inputs, so
 * `ignoreChanges` keeps a value changed by hand after `refresh`, while `up` still restores every
 * other field (its diff compares the outputs with the program). An input the API holds the same
 * keeps its recorded spelling, so a refresh without drift changes nothing.
 */
export function refreshedInputs(spec: AnySpec, outs: Outputs, recorded: Inputs): Inputs {
  const inputs: Inputs = {};
  for (const [key, given] of Object.entries(recorded)) {
    const field = spec.inputs[key];
    const now = field ? outs[key] : undefined;
    inputs[key] = now === undefined || isUnknown(given) || sameValue(field!, given, now, outs) ? given : now;
  }
  return inputs;
}

/** The inputs as the outputs record them, where a door hands the read no inputs (the dynamic host): every input field and meta input. */
function inputsOf(spec: AnySpec, state: Outputs): Inputs {
  const inputs: Inputs = {};
  for (const key of [...Object.keys(spec.inputs), ...META_INPUTS]) if (state[key] !== undefined) inputs[key] = state[key];
  return inputs;
}

async function update(spec: AnySpec, ctx: ProviderContext, id: string, olds: Outputs, raw: Inputs): Promise<pulumi.dynamic.UpdateResult> {
  const news = withoutProvider(raw);
  try {
    return await updateObject(spec, ctx, id, olds, news, raw);
  } finally {
    invalidate(spec, ctx, olds);
  }
}

async function updateObject(
  spec: AnySpec,
  ctx: ProviderContext,
  id: string,
  olds: Outputs,
  news: Inputs,
  raw: Inputs,
): Promise<pulumi.dynamic.UpdateResult> {
  const { changed } = changedFields(spec, olds, news);
  const ms = timeoutFor(spec, news, "update");
  const object = await withDeadline(spec, ctx, "update", ms, async (signal) => {
    // Nothing to change, but Pulumi retries an object with init errors by updating it: settle it.
    const current =
      changed.length === 0
        ? present(spec, id, await readHook(spec, ctx, id, olds, signal))
        : await updateHook(spec, ctx, id, olds, news, changed, signal);
    return settle(spec, ctx, current, news, signal);
  }).catch((error: unknown) => {
    throw partialState(spec, error, news, raw);
  });
  // Always the full set of outputs: an update that returns none wipes them (pulumi#9982).
  const outs = toOutputs(spec, object, news);
  keepKnown(spec, id, outs, raw, "update");
  return { outs };
}

/**
 * The outputs an in-place update will record, as far as they are known before it runs: what state
 * recorded, each changed input's new value (unknown while the program's value is), and unknown
 * where the spec says the update recomputes an output (`recomputedBy`). Pure: it reads nothing and
 * sends nothing, so a preview can call it in place of `update`. An update with no changed input
 * (Pulumi's retry of an object with init errors) re-reads the object: every output it does not
 * take from the inputs is unknown then.
 */
export function previewUpdate(spec: AnySpec, olds: Outputs, raw: Inputs): Outputs {
  const news = withoutProvider(raw);
  const outs: Outputs = { ...withoutProvider(olds) };
  const { changed } = changedFields(spec, outs, news);
  // "any update": one that sends the object a change (moving an image's file alone sends nothing).
  const sends = changed.some((k) => sentBy(spec.inputs[k]!, "update"));
  const recomputed = (by: RecomputedBy | undefined) =>
    changed.length === 0 || (by === "any update" && sends) || (Array.isArray(by) && by.some((k) => changed.includes(k)));
  for (const key of changed) {
    const field = spec.inputs[key]!;
    outs[key] = field.recomputedBy && recomputed(field.recomputedBy) ? UNKNOWN : (news[key] ?? field.default);
  }
  for (const [key, field] of Object.entries(spec.outputs)) {
    if (recomputed(field.recomputedBy)) outs[key] = UNKNOWN;
    // What the check derived into the inputs (an image file's size and time) is what the update records.
    else if (news[key] !== undefined) outs[key] = news[key];
  }
  for (const key of META_INPUTS) {
    if (news[key] === undefined) delete outs[key];
    else outs[key] = news[key];
  }
  return outs;
}

async function remove(spec: AnySpec, ctx: ProviderContext, id: string, props: Outputs): Promise<void> {
  const state = withoutProvider(props);
  // Another resource of this run created or adopted the object (a rename followed by adoptId):
  // deleting it would take it from that resource. This one leaves state; the object stays.
  const holder = holdings(ctx).holder(spec, id);
  if (holder !== undefined) {
    const by = holder === "" ? "another resource of this program" : `resource "${holder}"`;
    ctx.progress(`${spec.noun} ${id} is managed by ${by} now: this resource is dropped from state only, and the ${spec.noun} stays`);
    return;
  }
  const ms = timeoutFor(spec, state, "delete");
  await withDeadline(spec, ctx, "delete", ms, async (signal) => {
    try {
      await spec.hooks.delete({ ctx, signal, id, state });
    } catch (error) {
      if (isNotFound(error)) return; // already gone: the goal is reached
      throw explain(spec, "delete", error);
    } finally {
      invalidate(spec, ctx, state);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// errors

/**
 * A refusal for want of an OAuth scope (401 with the API's scope headers): the scopes the endpoint
 * accepts (`X-Accepted-OAuth-Scopes`), the token's own (`X-OAuth-Scopes`), and what to do. Other
 * refusals (an invalid token, a restricted user's grant) keep the API's words.
 */
/** A 401 for want of a scope: for a write, the scopes this resource's life needs name what to get. */
function missingScope(spec: AnySpec, op: string, error: ApiError): string | undefined {
  if (!WRITE_OPS.has(op)) return scopeRefusal(error);
  const scopes = leastScopes([...spec.endpoints.read, ...spec.endpoints.write]);
  return scopeRefusal(error, { scopes, what: `this ${spec.noun} needs for up and destroy` });
}

/** `a VPC`, `an image`, `an IPv6 range`. */
const withArticle = (noun: string): string => `${/^[aeiouAEIOU]/.test(noun) ? "an" : "a"} ${noun}`;

/** Operations of `up` and `destroy` that write. */
const WRITE_OPS = new Set(["create", "update", "delete"]);

/**
 * A 403: the token's user is restricted and lacks a grant. The API does not say which; what the
 * operation needs is known: the account-wide grant to add one (a create), or read_write on the
 * object itself (an update or a delete).
 */
function missingGrant(spec: AnySpec, op: string, error: ApiError): string | undefined {
  if (error.status !== 403) return undefined;
  const grant = op === "create" ? `the account's grant to add ${withArticle(spec.noun)}` : `read_write access to this ${spec.noun}`;
  return (
    `the token's user may not do this (${error.errors.map((e) => e.reason).join("; ") || "forbidden"}). ` +
    `A restricted user needs ${grant}: an account administrator grants it in the user's permissions, ` +
    `or give the stack a token of a user who has it: \`pulumi config set --secret ${CONFIG_TOKEN} <token>\``
  );
}

/** Rewrites an API error so it names the program's input (`engineId`), not the wire field (`engine`). */
export function explain(spec: AnySpec, op: string, error: unknown): Error {
  if (!(error instanceof ApiError)) return error instanceof Error ? error : new Error(String(error));
  const resource = servedResource();
  const what = `the ${spec.noun} ${op}${resource === undefined ? "" : ` of resource ${JSON.stringify(resource)}`}`;
  const refusal = missingScope(spec, op, error) ?? missingGrant(spec, op, error);
  if (refusal)
    return new Error(`the API refused ${what}: ${refusal} (HTTP ${error.status} ${error.method} ${error.path})`, { cause: error });
  const names = programNames(spec);
  const details = error.errors.map((e) => {
    const reason = programText(names, e.reason);
    return e.field ? `${programText(names, inputName(spec, e.field))}: ${reason}` : reason;
  });
  const message = `the API refused the ${spec.noun} ${op}: ${details.join("; ") || "no details"} (HTTP ${error.status} ${error.method} ${error.path})`;
  return new Error(message, { cause: error });
}

/**
 * The input a wire field belongs to, with the rest of the path: `ttl_sec` → `ttlSec`,
 * `rules.inbound[0].ports` → `inbound[0].ports`, `engine` → `engineId`.
 */
export function inputName(spec: AnySpec, wireField: string): string {
  for (const [key, field] of Object.entries(spec.inputs)) {
    const wire = wirePath(key, field);
    const rest = wireField.slice(wire.length);
    if (wireField.startsWith(wire) && (rest === "" || rest.startsWith(".") || rest.startsWith("["))) return key + rest;
  }
  const [head = "", ...rest] = wireField.split(/(?=[.[])/);
  return toCamel(head) + rest.join("");
}

function withoutProvider<T extends Record<string, unknown>>(values: T): T {
  if (!(PROVIDER_KEY in values)) return values;
  const { [PROVIDER_KEY]: _, ...rest } = values;
  return rest as T;
}

function inputNames(spec: AnySpec): string[] {
  return [...Object.keys(spec.inputs), ...META_INPUTS];
}

export { UNKNOWN };
