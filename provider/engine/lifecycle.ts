/**
 * The engine's create, read, update and delete: the spec's hooks wrapped with deadlines, create
 * exactly once, adoption (`adoptId`), settling waits, orphan protection, and what is recorded when
 * an operation fails part way.
 */
import type * as pulumi from "@pulumi/pulumi";
import { isNotFound } from "../../sdk/core/errors";
import { collectionKeyOf, invalidate } from "./collections";
import type { ProviderContext } from "./context";
import { changedFields, sameValue } from "./diff";
import { withIgnored } from "./ignore-changes";
import { GaveUpWaiting, PartialApplyError, ResourceInitError, explain, goneOnUpdate } from "./errors";
import { unsetKnown, unsetKnownMessage } from "./known";
import { UnresolvedCreateError, createExactlyOnce } from "./natural-key";
import { holdings } from "./ownership";
import {
  META_INPUTS,
  PROVIDER_KEY,
  deleteAdoptedChanged,
  releasedOnDelete,
  withoutProvider,
  type AnySpec,
  type ApiObject,
  type Inputs,
  type Outputs,
  type RecomputedBy,
  type Values,
} from "./spec";
import { UNKNOWN, formatDuration, isUnknown, parseDuration } from "./values";
import { createBody, equalsInputs, sentBy, toOutputs, updateBody } from "./wire";

export function timeoutFor(spec: AnySpec, inputs: Inputs, op: "create" | "update" | "delete"): number {
  const given = (inputs.timeouts as Record<string, string> | undefined)?.[op];
  return (given !== undefined ? parseDuration(given) : undefined) ?? spec.timeouts[op];
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

/** A `PartialApplyError` as Pulumi's init error, with the applied state as outputs (and the provider text). */
function partialState(spec: AnySpec, error: unknown, inputs: Inputs, raw: Inputs): unknown {
  // Also under a passed deadline's error, which keeps the hook's as its cause.
  const partial = error instanceof PartialApplyError ? error : (error as Error | undefined)?.cause;
  if (!(partial instanceof PartialApplyError)) return error;
  const properties = { ...toOutputs(spec, partial.record, inputs), [PROVIDER_KEY]: raw[PROVIDER_KEY] };
  return new ResourceInitError((error as Error).message, String(partial.record.id), properties);
}

export async function create(spec: AnySpec, ctx: ProviderContext, raw: Inputs): Promise<pulumi.dynamic.CreateResult> {
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
    throw isNotFound(e) ? goneOnUpdate(spec, id, e) : explain(spec, "update", e);
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

export async function read(
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

/**
 * The inputs as the outputs record them, where a door hands the read no inputs (the dynamic host):
 * every input field and meta input, but those whose absence leaves them to others
 * (`othersWhenAbsent`): the outputs hold them whether the program gave them or not, and a
 * firewall's rule lists recorded as given would refuse its `FirewallRule`s at the next check.
 */
function inputsOf(spec: AnySpec, state: Outputs): Inputs {
  const inputs: Inputs = {};
  const keys = [...Object.entries(spec.inputs).flatMap(([key, field]) => (field.othersWhenAbsent ? [] : [key])), ...META_INPUTS];
  for (const key of keys) if (state[key] !== undefined) inputs[key] = state[key];
  return inputs;
}

/**
 * An in-place update from the recorded outputs `olds` to the program's inputs `raw`, sending and
 * recording nothing of the paths `ignoreChanges` names (Pulumi's `UpdateRequest.ignoreChanges`):
 * there the recorded value stands (`withIgnored`), as in the diff that planned the update.
 */
export async function update(
  spec: AnySpec,
  ctx: ProviderContext,
  id: string,
  olds: Outputs,
  raw: Inputs,
  ignoreChanges: readonly string[] = [],
): Promise<pulumi.dynamic.UpdateResult> {
  const news = withIgnored(spec, olds, withoutProvider(raw), ignoreChanges);
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
  const recorded = withAdoption(olds, news);
  // Only whether an adopted object is deleted changed: nothing to send or read.
  if (changed.length === 0 && metaOnly(spec, olds, news)) return { outs: { ...recordedOutputs(olds), ...metaOf(recorded) } };
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
  const outs = toOutputs(spec, object, recorded);
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
export function previewUpdate(spec: AnySpec, olds: Outputs, raw: Inputs, ignoreChanges: readonly string[] = []): Outputs {
  const news = withIgnored(spec, olds, withoutProvider(raw), ignoreChanges);
  const outs: Outputs = { ...withoutProvider(olds) };
  const { changed } = changedFields(spec, outs, news);
  // "any update": one that sends the object a change (moving an image's file alone sends nothing).
  const sends = changed.some((k) => sentBy(spec.inputs[k]!, "update"));
  const recomputed = (by: RecomputedBy | undefined) =>
    (changed.length === 0 && !metaOnly(spec, outs, news)) ||
    (by === "any update" && sends) ||
    (Array.isArray(by) && by.some((k) => changed.includes(k)));
  for (const key of changed) {
    const field = spec.inputs[key]!;
    outs[key] = field.recomputedBy && recomputed(field.recomputedBy) ? UNKNOWN : (news[key] ?? field.default);
  }
  for (const [key, field] of Object.entries(spec.outputs)) {
    if (recomputed(field.recomputedBy)) {
      const said = field.previewed?.(news, outs);
      outs[key] = said === undefined || isUnknown(said) ? UNKNOWN : said;
    }
    // What the check derived into the inputs (an image file's size and time) is what the update records.
    else if (news[key] !== undefined) outs[key] = news[key];
  }
  const recorded = withAdoption(outs, news);
  for (const key of META_INPUTS) {
    if (recorded[key] === undefined) delete outs[key];
    else outs[key] = recorded[key];
  }
  return outs;
}

/**
 * The inputs whose meta inputs an update records: an adoption stays recorded when the program
 * drops its `adoptId` (the object was still not made by this stack, `releasedOnDelete`).
 */
function withAdoption(olds: Outputs, news: Inputs): Inputs {
  return news.adoptId === undefined && olds.adoptId !== undefined ? { ...news, adoptId: olds.adoptId } : news;
}

/** The meta inputs of `values` that are set. */
function metaOf(values: Values): Values {
  return Object.fromEntries(META_INPUTS.filter((k) => values[k] !== undefined).map((k) => [k, values[k]]));
}

/** The recorded outputs without the meta inputs (an update records the program's). */
function recordedOutputs(olds: Outputs): Outputs {
  const outs = { ...withoutProvider(olds) };
  for (const key of META_INPUTS) delete outs[key];
  return outs;
}

/** An update of an adopted object that changes only `deleteAdopted` (`diff` reports it), of a settled object. */
function metaOnly(spec: AnySpec, olds: Outputs, news: Inputs): boolean {
  return deleteAdoptedChanged(olds, news) && unsetKnown(spec, olds).length === 0;
}

export async function remove(spec: AnySpec, ctx: ProviderContext, id: string, props: Outputs): Promise<void> {
  const state = withoutProvider(props);
  // Another resource of this run created or adopted the object (a rename followed by adoptId):
  // deleting it would take it from that resource. This one leaves state; the object stays.
  const holder = holdings(ctx).holder(spec, id);
  if (holder !== undefined) {
    const by = holder === "" ? "another resource of this program" : `resource "${holder}"`;
    ctx.progress(`${spec.noun} ${id} is managed by ${by} now: this resource is dropped from state only, and the ${spec.noun} stays`);
    return;
  }
  // An adopted object was not made by this stack, and another stack (of a backend the provider
  // cannot read) may manage it: it is released unless the program asked for its delete.
  if (releasedOnDelete(state)) {
    ctx.progress(
      `${spec.noun} ${id} was adopted (adoptId), not created by this stack: released, the ${spec.noun} stays ` +
        "(deleteAdopted: true on the resource, recorded by a `pulumi up`, has a delete delete it)",
    );
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
