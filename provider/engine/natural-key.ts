/**
 * Creating exactly once without idempotency keys. The API cannot tell a client whether a create
 * whose answer was lost (a reset after sending, a 5xx, a timeout) made the object, so the engine
 * finds out by looking, with the resource's natural key (`NaturalKey` in `spec.ts`):
 *
 * 1. before the create, list the objects with the key — an exclusive key that is taken fails
 *    right away, naming the object and the `adoptId` to set (the API would refuse the create, or
 *    DNS would get a twin);
 * 2. after an ambiguous failure, list them again, retrying the lookup until the create's deadline:
 *    one new object is the request's and is adopted; none means the request did not land and it
 *    is sent again; several cannot be told apart and fail, naming them and the `adoptId` to set.
 *
 * Refusals that certainly did not act (429, 503, a refused connection) never get here: the sdk
 * repeats those for any method. The same loop (`sendExactlyOnce`) sends an action on an object
 * whose answer was lost, found out by reading the object (`actions.ts`).
 */
import { ApiError, ConnectionError, TimeoutError } from "../../sdk/core/errors";
import { backoffDelay, decideRetry } from "../../sdk/core/retry";
import { forget } from "./collections";
import type { ProviderContext } from "./context";
import { aliasText, sameOldParent, type ProgramLanguage } from "./alias-text";
import { aliasOf, holderOf, holdings, type Holder, type MovedResource } from "./ownership";
import type { AnySpec, ApiObject, Failure, Inputs } from "./spec";
import { canonicalJson, isUnknown } from "./values";

/** How many times one request (a create, an action) is sent when each attempt failed ambiguously and did not land. */
export const MAX_CREATE_ATTEMPTS = 5;
/** Backoff of the engine's own lookup retries (each lookup is already retried by the sdk). */
const LOOKUP_BACKOFF = { baseDelayMs: 500, maxDelayMs: 5_000, random: Math.random };

/**
 * A create that could not be resolved safely. It says what was found and what to do, and names
 * its own deadline when that was the reason, so the engine passes it on unchanged.
 */
export class UnresolvedCreateError extends Error {
  override name = "UnresolvedCreateError";
}

/** True when a failed request may still have acted: sent and unanswered, or a server-side failure. */
export function isAmbiguous(error: unknown): boolean {
  if (error instanceof ConnectionError) return error.sent;
  if (error instanceof TimeoutError) return true;
  return error instanceof ApiError && error.status >= 500 && error.status !== 501 && error.status !== 503;
}

/**
 * The loop of every request whose answer may be lost, since the API has no idempotency keys (a
 * create here, an action on an object in `actions.ts`): sends it; after an ambiguous failure
 * (`isAmbiguous`) asks `landed` what the request did: its result when it acted, `undefined` when it
 * did not, and then it is sent again, up to `MAX_CREATE_ATTEMPTS` sends. Any other failure, and
 * the last send's, is thrown as it is; `landed` throws when it cannot tell.
 */
export async function sendExactlyOnce<T>(send: () => Promise<T>, landed: (failure: unknown) => Promise<T | undefined>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let failure: unknown;
    try {
      return await send();
    } catch (error) {
      if (!isAmbiguous(error) || attempt >= MAX_CREATE_ATTEMPTS) throw error;
      failure = error;
    }
    const result = await landed(failure);
    if (result !== undefined) return result;
  }
}

/** One create inside a resource (a record of a set, a device of a firewall), for `postExactlyOnce`. */
export interface InnerCreate<T> {
  /** What is created, for messages: `records["www A"]`, `firewall 7: compute 12`. */
  what: string;
  /** Sends the request. */
  post: () => Promise<T>;
  /** After an ambiguous failure: the objects the request could have made (matching it, and not there before it). */
  made: () => Promise<T[]>;
  idOf: (object: T) => string | number;
  progress: (line: string) => void;
}

/**
 * The exactly-once loop of `createExactlyOnce` for creates inside a resource, whose lookup is a
 * plain listing of the parent: after an ambiguous failure, one object made is the request's and
 * is kept; none means the request did not land, and it is sent again (up to
 * `MAX_CREATE_ATTEMPTS` sends); several cannot be told apart, and the create fails naming them.
 */
export function postExactlyOnce<T>(create: InnerCreate<T>): Promise<T> {
  return sendExactlyOnce(create.post, async (failure) => {
    const made = await create.made();
    const cause = describeFailure(failure);
    if (made.length > 1) {
      const ids = made.map(create.idOf).join(", ");
      throw new UnresolvedCreateError(
        `${create.what}: the create request failed (${cause}) and ${made.length} matching objects appeared meanwhile (ids ${ids}); which one it made cannot be told`,
      );
    }
    if (made.length === 1) {
      create.progress(`${create.what}: the create request failed (${cause}) but had created it (id ${create.idOf(made[0]!)}); kept`);
      return made[0]!;
    }
    create.progress(`${create.what}: the create request failed (${cause}) and it did not land; sending it again`);
    return undefined;
  });
}

/**
 * Runs `post` (the create hook) so that it makes exactly one object, or fails saying which
 * objects exist and how to recover. Without a natural key it just runs `post`. `equalsInputs`
 * tells whether a taken key's object is exactly what the inputs declare (then most likely made by
 * an interrupted run, and the error names `pulumi-compute recover` first).
 */
export async function createExactlyOnce(
  spec: AnySpec,
  ctx: ProviderContext,
  inputs: Inputs,
  signal: AbortSignal,
  post: () => Promise<ApiObject>,
  equalsInputs: (object: ApiObject) => boolean = () => false,
): Promise<ApiObject> {
  const key = spec.naturalKey;
  if (!key || key.resolvedByCreate) return post();
  const what = `${spec.noun} with ${key.describe(inputs)}`;
  const before = await lookup(spec, ctx, inputs, signal, undefined);
  if (key.exclusive && before.length > 0) throw new UnresolvedCreateError(takenMessage(spec, what, before, before.some(equalsInputs)));
  const known = new Set(before.map(idOf));
  return sendExactlyOnce(post, async (failure) => {
    // The request may have created the object: the lookup must not be served by a listing from before it.
    forget(spec, ctx, inputs);
    const fresh = (await lookup(spec, ctx, inputs, signal, failure)).filter((o) => !known.has(idOf(o)));
    const cause = describeFailure(failure);
    if (fresh.length > 1) throw new UnresolvedCreateError(severalMessage(spec, what, cause, fresh));
    const [found] = fresh;
    if (found && (key.adoptable?.(found) ?? true)) {
      ctx.progress(`${spec.noun} ${idOf(found)}: the create request failed (${cause}) but had created it; adopted`);
      return found;
    }
    if (found) {
      ctx.progress(
        `${spec.noun} ${idOf(found)}: the create request failed (${cause}) after creating it unusable; deleting it and creating again`,
      );
      await spec.hooks.delete({ ctx, signal, id: idOf(found), state: {} });
    } else {
      ctx.progress(`${spec.noun} create failed (${cause}) and no new ${what} exists: it did not land; sending it again`);
    }
    return undefined;
  });
}

/**
 * A key that is taken, found by `check` (a read, which a preview may send): the failure names the
 * field, the object's id, and what to do — by who manages that object (`holderOf`): this stack
 * under another name (a rename or a move: `aliases`, or `pulumi state rename`), another stack
 * (never `adoptId`: a value per stack, or a lookup), or nobody (made by hand: `adoptId`). Runs for
 * keys that declare their `inputs`, once those are known, as the key's `atCheck` says: for a key
 * that differs from the recorded one (`"taken"`), or only for a resource without recorded inputs
 * (a create: `"on create"`, and `"renamed"`, which refuses only an object this stack holds under
 * another name). Never for a resource that adopts (`adoptId`).
 */
export async function keyClash(
  spec: AnySpec,
  ctx: ProviderContext,
  olds: Inputs,
  inputs: Inputs,
  urn: string | undefined,
  signal: AbortSignal,
  equalsInputs: (object: ApiObject) => boolean = () => false,
): Promise<Failure[]> {
  const key = spec.naturalKey;
  if (!key?.inputs || inputs.adoptId !== undefined) return [];
  const when = key.atCheck ?? "taken";
  const fields = key.inputs;
  if (fields.some((f) => inputs[f] === undefined || isUnknown(inputs[f]))) return [];
  const keyOf = (values: Inputs) => canonicalJson(fields.map((f) => values[f] ?? null));
  const run = holdings(ctx);
  if (fields.every((f) => olds[f] !== undefined)) {
    run.exists(spec, urn, keyOf(olds));
    if (when !== "taken") return []; // an update, or a replacement whose create `up` checks again without olds
  }
  if (keyOf(olds) === keyOf(inputs) || run.isOwn(spec, urn, keyOf(inputs))) return [];
  // The create in `up` looks again right before it posts: between the two, a run may be killed
  // or another runner may take the key, and `recover` and the messages rely on that lookup.
  const found = await lookup(spec, ctx, inputs, signal, undefined);
  if (found.length === 0) return [];
  const id = idOf(found[0]!);
  const holder = await holderOf(spec, ctx, id, urn);
  if (holder.where === "this resource") return []; // a replacement's own object: `diff` has it deleted first
  if (when === "renamed" && holder.where !== "this stack") return []; // the create takes it over, as its kind allows
  const field = fields[fields.length - 1]!;
  const equal = found.some(equalsInputs);
  return [{ property: field, reason: clashMessage(spec, key.describe(inputs), field, id, holder, urn, equal, ctx.language) }];
}

/** Where the guide on renames, moves, stacks and adoption lives, for messages. */
export const REFACTORING_GUIDE = "node_modules/pulumi-compute/docs/guides/refactoring.md";

/**
 * What to do about a taken key, by who holds the object. `equal`: the object is exactly what the
 * inputs declare, as a create of an interrupted run leaves it, which `recover` hands to the stack.
 */
export function clashMessage(
  spec: AnySpec,
  key: string,
  field: string,
  id: string,
  holder: Holder,
  urn: string | undefined,
  equal = false,
  language: ProgramLanguage = "nodejs",
): string {
  const taken = `${key} is taken by ${spec.noun} ${id}`;
  const name = urn?.slice(urn.lastIndexOf("::") + 2);
  const perStack =
    "give each stack its own value (`${pulumi.getStack()}` in it), or read that object with a data function instead of declaring it";
  const byHand =
    `if it was made by hand, set adoptId: ${adoptIdText(id)} on this resource to manage it, then \`pulumi up\`: an adopted ${spec.noun} ` +
    "is released, not deleted, when this resource is deleted or its stack destroyed, unless the resource also sets deleteAdopted: true";
  const guide = `(${REFACTORING_GUIDE})`;
  const interrupted = equal
    ? "It equals this resource's inputs: if an earlier run was interrupted, run `npx pulumi-compute recover` (it hands the objects " +
      "that run created to the stack), then `pulumi up` again. Otherwise, "
    : "";
  switch (holder.where) {
    case "this resource":
      return `${taken}, which this resource manages: replace it with deleteBeforeReplace: true in its options, or change its ${field} in the same change ${guide}.`;
    case "this stack":
      return `${taken}, which this stack manages as resource "${holder.resource}". ${keepMoved(spec, holder, urn, name, language)} Otherwise change this resource's ${field} ${guide}.`;
    case "another stack":
      return (
        `${taken}, which stack "${holder.stack}" manages as resource "${holder.resource}". Do not set adoptId to it: two stacks would ` +
        `manage one ${spec.noun}, and the destroy of the one that made it would delete it under the other. Instead ${perStack} ${guide}.`
      );
    case "no stack":
      return (
        `${taken}, which no stack of this backend manages. The provider reads only this backend's stacks: a stack of another backend ` +
        "(a colleague's `pulumi login --local`, another team's bucket) may manage it, and then must not be adopted: " +
        `${perStack}. ${interrupted}${interrupted ? byHand : cap(byHand)}. Or change this resource's ${field} ${guide}.`
      );
    case "unknown":
      return (
        `${taken} (who manages it is not known: ${holder.why}). If this stack manages it under another name (a rename, or a move into ` +
        `or out of a component), add aliases with its old name to this resource's options, or run \`pulumi state rename\`; if another ` +
        `stack manages it, never set adoptId: ${perStack}. ${interrupted}${interrupted ? "only" : "Only"} ${byHand} ${guide}.`
      );
  }
}

/**
 * What keeps an object this stack manages under another name: the alias (in a form that holds in
 * every stack) or `pulumi state rename` for a rename; for a move, also every other resource that
 * may have moved with it, since the preview stops at the first resource it refuses.
 */
function keepMoved(
  spec: AnySpec,
  holder: Extract<Holder, { where: "this stack" }>,
  urn: string | undefined,
  name: string | undefined,
  language: ProgramLanguage,
): string {
  const alias = holder.alias ?? aliasOf(holder.urn, urn);
  const text = aliasText(alias, language);
  const renamed = !("urn" in alias) && alias.parent === undefined;
  const stateRename = renamed && name !== undefined ? ` (or run \`pulumi state rename '${holder.urn}' ${name}\`)` : "";
  const keeps = `the ${spec.noun} stays and the next preview plans no create and no delete`;
  if (renamed) return `If this resource is "${holder.resource}" renamed, add ${text} to this resource's options${stateRename}: ${keeps}.`;
  const moved = `If this resource is "${holder.resource}" moved into or out of a component, add ${text} to this resource's options: ${keeps}.`;
  const others = holder.alongside ?? [];
  if (others.length === 0) return moved;
  // The same old parent needs no second spelling.
  const form = (m: MovedResource) => (sameOldParent(alias, m.alias) ? "" : `: ${aliasText(m.alias, language)}`);
  const listed = others.map((m) => `"${m.resource}" (${m.kind})${form(m)}`).join(", ");
  return (
    `${moved} The preview stops at the first resource it refuses, so here are the others: each resource of this stack that was ` +
    `beside "${holder.resource}" and is not yet seen in this run needs the same alias if it moved too: ${listed}. ` +
    "With them all, one preview shows the move."
  );
}

const cap = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Refuses an `adoptId` of an object another stack of the project manages (two stacks owning one
 * object: the destroy of the one that made it deletes it under the other). An object this stack manages under another name may be
 * adopted: the run's holdings keep the other resource's delete from removing it (`ownership.ts`).
 */
export async function adoptClash(
  spec: AnySpec,
  ctx: ProviderContext,
  olds: Inputs,
  inputs: Inputs,
  urn: string | undefined,
): Promise<Failure[]> {
  const adoptId = inputs.adoptId;
  if (adoptId === undefined || isUnknown(adoptId) || canonicalJson(olds.adoptId ?? null) === canonicalJson(adoptId)) return [];
  const holder = await holderOf(spec, ctx, String(adoptId), urn);
  if (holder.where !== "another stack") return [];
  return [
    {
      property: "adoptId",
      reason:
        `${spec.noun} ${String(adoptId)} is managed by stack "${holder.stack}" as resource "${holder.resource}": two stacks must not manage ` +
        `one ${spec.noun} (the destroy of the one that made it would delete it under the other). Remove adoptId and give this stack its own ${spec.noun} ` +
        "(a value per stack: `${pulumi.getStack()}`), or read that one with a data function " +
        `(${REFACTORING_GUIDE}).`,
    },
  ];
}

/**
 * The objects that have the natural key of `inputs`: the lookup `createExactlyOnce` runs before a
 * create, retried the same way. `pulumi-compute recover` finds an interrupted create's object with it.
 */
export function findByNaturalKey(spec: AnySpec, ctx: ProviderContext, inputs: Inputs, signal: AbortSignal): Promise<ApiObject[]> {
  return lookup(spec, ctx, inputs, signal, undefined);
}

/** What became of a create the engine recorded as pending when its run was interrupted. */
export type PendingCreateOutcome =
  { outcome: "adopted"; id: string; reason: string } | { outcome: "cleared"; reason: string } | { outcome: "refused"; reason: string };

/**
 * Decides a pending create by the rules of `createExactlyOnce`: one object with the key that no
 * resource of the stack manages (`managed`) is the one the interrupted request made; none means it
 * never landed; several, an object that cannot be adopted, or a failing lookup are refused, named,
 * never guessed. A resource without a natural key has a create that takes over what it finds (a
 * record set claims identical records, reverse DNS is a PUT), so repeating it is safe: cleared.
 */
export async function resolvePendingCreate(
  spec: AnySpec,
  ctx: ProviderContext,
  inputs: Inputs,
  managed: ReadonlySet<string>,
  signal: AbortSignal,
): Promise<PendingCreateOutcome> {
  if (inputs.adoptId !== undefined) return { outcome: "adopted", id: String(inputs.adoptId), reason: "its adoptId" };
  const key = spec.naturalKey;
  if (!key) return { outcome: "cleared", reason: `a ${spec.name} create takes over what exists, so \`pulumi up\` repeats it safely` };
  const what = `${spec.noun} with ${key.describe(inputs)}`;
  let all: ApiObject[];
  try {
    all = await findByNaturalKey(spec, ctx, inputs, signal);
  } catch (error) {
    return { outcome: "refused", reason: `looking for ${article(what)} failed (${describeFailure(error)}); run recover again` };
  }
  const found = all.filter((o) => !managed.has(idOf(o)));
  if (found.length === 0) {
    const others = all.length > 0 ? ` but the one found (id ${all.map(idOf).join(", ")}) is managed by another resource of the stack` : "";
    return { outcome: "cleared", reason: `no ${what} exists${others}: the create never landed` };
  }
  const ids = found.map(idOf).join(", ");
  if (found.length > 1) {
    return {
      outcome: "refused",
      reason: `${found.length} objects (${what}) exist: ids ${ids}; set adoptId to the one to manage and delete the others`,
    };
  }
  if (!(key.adoptable?.(found[0]!) ?? true)) {
    return {
      outcome: "refused",
      reason: `${spec.noun} ${ids} (${what}) cannot be adopted (${spec.noun} left unusable by the interrupted create); delete it`,
    };
  }
  return { outcome: "adopted", id: idOf(found[0]!), reason: `${what}` };
}

/**
 * The key's matches. A lookup that fails with what the sdk would retry (it already did, to its
 * limit) is tried again with backoff until the operation's deadline; after an ambiguous create
 * (`after`), failing to look means not knowing, which is reported as such.
 */
async function lookup(spec: AnySpec, ctx: ProviderContext, inputs: Inputs, signal: AbortSignal, after: unknown): Promise<ApiObject[]> {
  const key = spec.naturalKey!;
  for (let attempt = 1; ; attempt++) {
    try {
      return await key.find({ ctx, signal, inputs });
    } catch (error) {
      const transient = decideRetry(error, 1, { idempotent: true }).retry;
      if (transient && !signal.aborted) {
        try {
          await ctx.time.sleep(backoffDelay(attempt, LOOKUP_BACKOFF), signal);
          continue;
        } catch {
          // the deadline passed while waiting: reported below
        }
      }
      if (after === undefined) throw error; // nothing was sent yet: the plain failure says it all
      throw new UnresolvedCreateError(unknownMessage(spec, `${spec.noun} with ${key.describe(inputs)}`, describeFailure(after), error));
    }
  }
}

const idOf = (object: ApiObject): string => String(object.id);

/** An id as the program writes it: a number when it is one. */
const adoptIdText = (id: string): string => (/^[1-9][0-9]*$/.test(id) ? id : JSON.stringify(id));

/**
 * What happened to a request, without its REST path (the message names what was sent, in the
 * program's words): shared by creates and actions (`actions.ts`) whose answer was lost.
 */
export function describeFailure(error: unknown): string {
  if (error instanceof ConnectionError) return `connection failed (${error.code ?? "unknown error"})`;
  if (error instanceof TimeoutError) return "no response in time";
  if (error instanceof ApiError)
    return `HTTP ${error.status}${error.errors.length > 0 ? `: ${error.errors.map((e) => e.reason).join("; ")}` : ""}`;
  return error instanceof Error ? error.message : String(error);
}

/** `a VPC`, `an IPv6 range`. */
const article = (noun: string): string => (/^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`);

function takenMessage(spec: AnySpec, what: string, found: ApiObject[], equal: boolean): string {
  const id = idOf(found[0]!);
  if (equal) {
    return (
      `${article(what)} already exists (id ${found.map(idOf).join(", ")}) and equals this resource's inputs: if an earlier run was interrupted, ` +
      "run `npx pulumi-compute recover` (it hands the objects that run created to the stack), then `pulumi up` again. " +
      `Otherwise, if it is the one this resource should manage, set adoptId: ${adoptIdText(id)} on the resource and run \`pulumi up\` again, ` +
      `or change the key or delete that ${spec.noun}.`
    );
  }
  return (
    `${article(what)} already exists (id ${found.map(idOf).join(", ")}). If it is the one this resource should manage ` +
    `(a run that lost the create's answer may have made it), set adoptId: ${adoptIdText(id)} on the resource and run \`pulumi up\` again; ` +
    `otherwise change the key or delete that ${spec.noun}. If this stack manages it under another name, use aliases instead; ` +
    `if another stack manages it, never adoptId (${REFACTORING_GUIDE}).`
  );
}

function severalMessage(spec: AnySpec, what: string, cause: string, found: ApiObject[]): string {
  const ids = found.map(idOf);
  return (
    `the ${spec.noun} create request failed (${cause}) and ${ids.length} new objects (${what}) appeared meanwhile: ids ${ids.join(", ")}; ` +
    `which one it made cannot be told. Set adoptId to the one to manage (adoptId: ${adoptIdText(ids[0]!)}), delete the others, ` +
    "and run `pulumi up` again."
  );
}

function unknownMessage(spec: AnySpec, what: string, cause: string, lookupError: unknown): string {
  const recovery = spec.naturalKey!.exclusive
    ? `Run \`pulumi up\` again: the ${spec.noun} is looked up before it is created, and if it exists the error names it and the adoptId to set.`
    : `If ${article(what)} exists now that nobody else made, set adoptId to its id (or delete it) and run \`pulumi up\` again.`;
  return (
    `the ${spec.noun} create request failed (${cause}) and looking for ${article(what)} failed until the deadline ` +
    `(${describeFailure(lookupError)}): whether it was created is unknown. ${recovery}`
  );
}
