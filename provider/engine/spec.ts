/**
 * The declarative description of a provider resource. A resource file states its fields once —
 * which are inputs, how each goes on the wire, which force replacement, which are sets, how values
 * normalize, what the API defaults to — plus thin hooks that call the sdk; `engine.ts` derives
 * `check`, `diff`, the request bodies, the outputs and the Pulumi provider methods from it, and
 * `npm run generate` derives the program-facing classes (`provider/classes/resource-classes.ts`).
 */
import type { z } from "zod";
import type { ErrorEntry } from "../../sdk/core/schema";
import type { ProviderContext } from "./context";

/** Values keyed by the program's (camelCase) names: inputs, outputs, what state recorded. */
export type Values = Record<string, unknown>;
/** Inputs after check, camelCase. */
export type Inputs = Values;
/** Outputs in state, camelCase. */
export type Outputs = Values;
/** A request body as the engine builds it (wire names). */
export type Body = Record<string, unknown>;
/** The object as the API returns it (wire shape), possibly completed by the hooks. */
export type ApiObject = Record<string, unknown>;

/** One program input (camelCase), mirrored as an output of the same name. */
export interface InputField {
  /** Validation of a known value; usually the sdk request schema's field, so texts match the API. */
  schema: z.ZodType;
  /** For the generated docs (the reference pages of `docs/reference/`, TSDoc of the argument and the output). */
  description: string;
  required?: boolean;
  /**
   * The API's name for it: the snake_case of the key unless given; a dotted path for a field
   * nested in the body and the record (`rules.inbound`). Request bodies, outputs, and the names
   * in API errors and sdk rule failures all go through it.
   */
  wire?: string;
  /**
   * Which request bodies carry it: both (the default), only the create's, only the update's, or
   * none — a path parameter such as a parent id, or a value only the provider uses.
   */
  send?: "create" | "update" | "never";
  /**
   * The wire form of a value whose meaning needs more than renaming keys (keys are always renamed
   * to snake_case, at any depth, by the engine): a bare address becomes its /32, a field that
   * applies only to some record types is left out (`undefined`). `inputs` are all the inputs.
   */
  toWire?(value: unknown, inputs: Inputs): unknown;
  /** A change can only be made by replacing the object. */
  replaceOnChange?: boolean;
  /**
   * With `replaceOnChange`: the change is made in place instead when the program asks for it (an
   * instance rebuilt from its new image with `rebuildOnImageChange`). `news` are the program's
   * inputs, `olds` the recorded outputs. Pulumi's schema then does not mark the input as replacing
   * (the languages' SDKs would force a replacement), and the engine's diff decides. Default: never.
   */
  inPlaceWhen?(news: Values, olds: Values): boolean;
  /** Compared as a set: order and duplicates do not matter. */
  set?: boolean;
  /**
   * A list whose elements are told apart by a key (a record set's records): order does not
   * matter, elements with the same key are compared (after `normalize` of the list), and `diff`
   * names each added, removed or changed element by its position (`records[2]`). Gets both
   * normalized lists, so a key may depend on both; keys must be unique within each list.
   */
  elementKeys?(olds: unknown[], news: unknown[]): { olds: string[]; news: string[] };
  /**
   * Maps a value to its canonical form before comparing (trailing dots, CIDR spelling, …).
   * `recorded` is the object's recorded state (its outputs; `{}` when there is none), for
   * spellings that depend on another field: a DNS record's name relative to its zone, say.
   */
  normalize?(value: unknown, recorded: Outputs): unknown;
  /**
   * Outputs keep the program's (or state's) spelling when it means the same as the API's (equal
   * after `normalize`, as a set when `set`): `203.0.113.1` stays though the API says `…/32`.
   */
  keepSpelling?: boolean;
  /**
   * What the API uses when the input is absent. The engine compares an absent input as its
   * default, and an update that removes the input sends it; a create leaves the field out.
   */
  default?: unknown;
  /**
   * Absent, the program leaves it to others (a firewall's rule lists and devices, which
   * `FirewallRule` and `FirewallDevice` manage): a read that stands the outputs in for the
   * recorded inputs (the dynamic host's) leaves it out, so a refresh never records it as given.
   */
  othersWhenAbsent?: boolean;
  /** Never printed in check failures; the engine marks it secret in state. */
  secret?: boolean;
  /** Computed by the `derive` hook in check (an image file's hash), never set by the program. */
  derived?: boolean;
  /**
   * Its output is the API's form of the input, which only the API knows after a change (a record
   * set's records, with the ids of records not yet created): a previewed update that changes these
   * inputs shows it unknown, not the input's new value. See `RecomputedBy`.
   */
  recomputedBy?: RecomputedBy;
}

/**
 * Which in-place updates recompute an output, so a preview of the update shows it unknown: any
 * update that sends the object a changed field (a last-modified time; an input sent `never` is
 * applied by other requests, or by none), or one that changes one of the named inputs (a DNS record's
 * fully qualified name, when its `name` changes). An output without it keeps its recorded value in
 * the preview of an update (or the input's new value, for an input's own output): `preview` then
 * plans no change in the resources that read it, as `up` makes none.
 */
export type RecomputedBy = "any update" | readonly string[];

/** An output-only attribute computed by the API. */
export interface OutputField {
  /** The record's name for it, as for inputs (`wire`). */
  wire?: string;
  secret?: boolean;
  description: string;
  /** The updates that recompute it (see `RecomputedBy`); default: none, it keeps its recorded value. */
  recomputedBy?: RecomputedBy;
  /**
   * What is always set once a create has finished (after the `settle` hook's wait): `true` for the
   * whole value, or the camelCase keys of an object value that are (a database's `hosts` lists
   * `["primary"]`, written `as const`). The generated output type drops their `null`, and the engine
   * holds them to it (`engine/known.ts`). Default: nothing is promised.
   */
  known?: KnownAfterCreate;
  /** When the output (or a part of it not `known`) is null, in words the reference prints after "Null". */
  nullWhen?: string;
  /**
   * What an update that recomputes it (`recomputedBy`) will record, when the new inputs already say
   * it (an address the program names); `undefined` when only the API will know, and the preview
   * shows it unknown. Pure: `previewUpdate` calls it with the new inputs and the recorded outputs.
   */
  previewed?(inputs: Values, recorded: Outputs): unknown;
}

/** See `OutputField.known`. */
export type KnownAfterCreate = true | readonly string[];

export type Fields = Record<string, InputField>;
export type OutputFields = Record<string, OutputField>;

export interface Timeouts {
  create: number;
  update: number;
  delete: number;
}

/** A failure found by a cross-field rule. */
export interface Failure {
  property: string;
  reason: string;
}

type RequiredKeys<F> = { [K in keyof F]: F[K] extends { required: true } ? K : never }[keyof F];
type SchemaInput<F> = F extends { schema: infer Z extends z.ZodType } ? z.input<Z> : never;

/** Inputs after check, as the hooks see them: each field in the spelling its schema accepts. */
export type InputsOf<F extends Fields> = { [K in RequiredKeys<F>]: SchemaInput<F[K]> } & {
  [K in Exclude<keyof F, RequiredKeys<F>>]?: SchemaInput<F[K]>;
};

/** The input keys of a spec's fields. */
export type InputKey<F extends Fields> = keyof F & string;

/**
 * Outputs that are not the record's value at the field's wire path: computed from the record and
 * from what the program gave (in a read: what state recorded; checked where used, since an older
 * version may have written it). A parent's id the record does not name, an engine id kept in the
 * program's spelling, a capability flag. `C` maps each computed output to its type.
 */
export type Computed<Api, C> = { [K in keyof C]: (record: Api, given: Values) => C[K] };

/** What every hook gets: the API client (through the context) and the operation's deadline. */
export interface Call {
  ctx: ProviderContext;
  signal: AbortSignal;
}

/** The update body of the given inputs (by name), changed or not: each one's value, or its default when absent. */
export type BodyOf<Update> = (keys: readonly string[]) => Partial<Update>;

/**
 * The calls a resource makes. `Api` is the record the hooks return (the sdk's response type,
 * completed where a resource reads more than one answer), `Create` and `Update` the sdk's request
 * bodies, which the engine builds from the field declarations and hands over; hooks add only
 * what is truly theirs (path parameters, a second request, a wait).
 */
export interface Hooks<In, Api, Create, Update> {
  /** POSTs the object; returns the API's record. */
  create(call: Call & { body: Create; inputs: In; bodyOf: BodyOf<Update> }): Promise<Api>;
  /** GETs the object; `undefined` when it is gone. `state` holds the last outputs (for parent ids). */
  read(call: Call & { id: string; state: Values }): Promise<Api | undefined>;
  /**
   * Applies the changed in-place fields (`body`: their wire form); returns the fresh record.
   * Absent when every input replaces: then a retry of a failed create only reads.
   */
  update?(
    call: Call & { id: string; body: Update; olds: Values; news: In; changed: Array<keyof In & string>; bodyOf: BodyOf<Update> },
  ): Promise<Api>;
  /** DELETEs the object. A 404 is treated as success by the engine. */
  delete(call: Call & { id: string; state: Values }): Promise<unknown>;
  /**
   * Waits until the object is usable (a status such as `active`), reporting progress, and returns
   * the settled record. Runs after create and after every update. If it fails after the API
   * accepted a create, the object is still recorded in state (with the error), never orphaned.
   */
  settle?(call: Call & { record: Api; inputs: In; bodyOf: BodyOf<Update> }): Promise<Api>;
  /**
   * Completes inputs that passed `check` with values derived from local state — the content hash
   * of a file to upload — so `diff` compares them like any input (and a change can replace).
   * `olds` are the inputs the previous check recorded, usable as a cache (a hash need not be
   * recomputed while the file's size and modification time are unchanged). Returns the values to
   * add, or failures naming the input (a missing file), reported at preview like any other.
   */
  derive?(olds: Values, news: Values): Promise<{ inputs?: Values; failures?: Failure[] }>;
}

/**
 * Reads served by a listing of the object's collection: during a refresh, the records of one domain
 * are read with one listing of the domain's records (pages of 500) instead of one GET each. The
 * engine coalesces the reads of one collection that arrive together (`sdk/core/coalesce.ts`); a
 * read alone, or of an object the listing lacks, is the `read` hook's own GET, so a 404 still
 * means gone. Creates, updates and deletes invalidate the collection's listing.
 */
export interface Listing<Api> {
  /** The collection an object belongs to, from its recorded state or its inputs (its domain's id); `undefined`: read alone. */
  collection(values: Values): string | undefined;
  /** Every object of the collection, each as the `read` hook returns it. */
  list(call: Call & { collection: string }): Promise<Api[]>;
}

/**
 * A resource: its fields and hooks. `F`, `O` and `C` are the literal types of `inputs`, `outputs`
 * and `computed` (the generated classes read their outputs' types from them); `Api`, `Create` and
 * `Update` the sdk's types the hooks work with; `In` the inputs the hooks see — all of them,
 * unless hooks shared by several resources declare the ones they use.
 */
export interface ResourceSpec<
  F extends Fields = Fields,
  O extends OutputFields = OutputFields,
  C extends { [K in keyof F | keyof O]?: unknown } = Record<never, never>,
  Api = ApiObject,
  Create = Body,
  Update = Body,
  In = InputsOf<F>,
> {
  /** Type name; the Pulumi type tokens are `pulumi-nodejs:dynamic/compute:<name>` and `compute:index:<name>` (`type-tokens.ts`). */
  name: string;
  /** What the API calls one of these, for messages ("VPC", "subnet"). */
  noun: string;
  description: string;
  /** A short program using it, for the class's TSDoc. */
  example: string;
  /**
   * What `adoptId` holds when it is not the object's numeric id as the API gives it (ids the
   * provider composes): an example value as program text (`"12345:inbound:web"`) and the form in words, for the reference page.
   */
  adoptIdForm?: { example: string; what: string };
  inputs: F;
  outputs: O;
  computed?: Computed<Api, C>;
  /** Default operation timeouts in milliseconds; the `timeouts` input overrides them. Reads use `update`'s. */
  timeouts: Timeouts;
  /** The API endpoints its life uses, by name in the sdk's endpoint table; see `EndpointsUsed`. */
  endpoints: EndpointsUsed;
  /** Inputs whose unchanged value would collide when the replacement is created first (unique labels). */
  uniqueInputs?: Array<keyof F & string>;
  /**
   * What an in-place update does beside changing its fields (an instance rebooted so new
   * interfaces take effect), one sentence each: the engine's diff says them on the resource's row,
   * so the preview tells what `up` will do. `olds` are the recorded outputs, `changed` the inputs
   * that change. Must not call the API. Default: nothing to say.
   */
  updateEffects?(olds: Values, news: Values, changed: readonly string[]): string[];
  /** Other reasons a replacement must delete the old object first (an overlapping range, say). */
  deleteFirst?(olds: Values, news: Values): boolean;
  /**
   * Output fields whose recorded value means the object can never become usable again (a
   * database whose provisioning ended `failed`): `diff` then replaces it, naming these fields,
   * even when no input changed. Default: none.
   */
  replaceBroken?(olds: Values): string[];
  /**
   * Cross-field rules written for the program's names, run on known values only. `olds` are the
   * inputs the object was last checked with (`{}` when it is new), for rules that only apply to
   * a creation.
   */
  validate?(inputs: Values, olds: Values): Failure[];
  /**
   * The sdk's cross-field rules (wire names): the engine runs them on the inputs under their wire
   * names and reports each failure on the program's input. Values still unknown at preview count
   * as not given, and failures about them wait until they are known.
   */
  wireRules?(wire: Values): ErrorEntry[];
  /**
   * `validate` and `wireRules` cope with preview's unknown values themselves, so the engine runs
   * them even when some inputs are unknown: a DNS record whose domain is created in the same
   * program is still checked at the first preview. Default false.
   */
  validatesUnknowns?: boolean;
  /**
   * Outputs that a resource with these constructor arguments (values as the program gave them:
   * plain values or Outputs) never records, such as a DNS record's fields of other record types.
   * A key the program gives is never left out. The class registers without them and has them as
   * Outputs of `undefined` (`classes/resource.ts`, `unrecordedOutputs`): Pulumi makes four promises
   * for each property a resource registers. Meta inputs the program does not give are left out
   * for every resource. Default: no others.
   */
  unrecorded?(args: Values): readonly string[];
  /**
   * Tells the program's other resources what this one declares about a shared parent (see
   * `engine/declarations.ts`): called at check (`id` undefined), at diff and after create and
   * update, with the inputs. Must not call the API.
   */
  declare?(call: { ctx: ProviderContext; id?: string; inputs: Values }): void;
  /**
   * Checks that need the API or what the program's other resources declared (a limit counted
   * over a parent shared with other resources), run in check after every other check passed,
   * after `declare`. Failures are reported like the others, before any write. `olds` are the
   * inputs the object was last checked with (`{}` when it is new).
   */
  checkShared?(call: Call & { inputs: Values; olds: Values }): Promise<Failure[]>;
  /**
   * How an object this resource creates is found again; see `NaturalKey`. Not a source of `In`:
   * a shared key (`uniqueLabel`) reads fewer inputs than the hooks see.
   */
  naturalKey?: NaturalKey<NoInfer<In>, Api>;
  hooks: Hooks<In, Api, Create, Update>;
  /** Reads coalesced into listings of the object's collection (see `Listing`). */
  listing?: Listing<Api>;
}

/**
 * The endpoints (names in the sdk's endpoint table, `sdk/endpoints.ts`) a resource's life sends,
 * from which the least-privilege OAuth scopes of a stack derive (`provider/stack/least-scopes.ts`): `read`
 * is what `preview`, `refresh` and `drift` send (the check's lookups, reads, natural-key
 * listings), `write` what `up` and `destroy` send besides (creates, updates, deletes, and the
 * reads of their waits). A test holds every name to the table, and the scopes e2e runs a stack
 * with a token of exactly the derived scopes.
 */
export interface EndpointsUsed {
  read: readonly string[];
  write: readonly string[];
}

/**
 * The key a created object can be found by. The API has no idempotency keys, so a create whose
 * outcome is unknown (the connection reset after sending, a 5xx) can only be resolved by looking:
 * the engine lists the matches before the create, and after an ambiguous failure lists them again
 * (retrying the lookup until the create's deadline). A match that was not there before is the one
 * the request created and is adopted; no new match means the request did not land, and it is sent
 * again; more than one cannot be decided and fails naming them and the `adoptId` to set
 * (`engine/natural-key.ts`).
 */
export interface NaturalKey<In, Api> {
  /** The key in words, for messages: `label "app-net"`. */
  describe(inputs: In): string;
  /**
   * True when at most one object can have the key: the API refuses a second (unique labels,
   * domain names, one IPv6 range per address), or a second would mean nothing (an identical DNS
   * record). A match found before the create is then reported with its id and the `adoptId` to
   * set, instead of a create the API would refuse or a twin. False when keys repeat (image labels):
   * only a match that appeared during this create is taken as its result.
   */
  exclusive: boolean;
  /**
   * The inputs the key reads (`["vpcId", "label"]`). Given, `check` looks the key up once they are
   * all known, so a preview finds a taken key that `up` would hit, or a rename that would lose an
   * object, and says who holds it (`ownership.ts`); `atCheck` says when, and what is refused.
   */
  inputs?: readonly string[];
  /**
   * What `check` refuses when `inputs` are given (`keyClash` in `engine/natural-key.ts`):
   * - `"taken"` (the default): a key that is new or changes, held by any other object: the API
   *   refuses a second (labels, domain names);
   * - `"on create"`: the key of a resource without recorded inputs (a create; a rename or a move
   *   is one), held by any other object: a create of it fails, while an update may repeat a key
   *   (two resources may be edited into identical DNS records);
   * - `"renamed"`: the key of a create, held by another resource of this stack: the create takes
   *   over what is there (an address already in an allow list), so two stacks may hold it, but in
   *   one stack the old resource's delete would then remove what the new one holds.
   */
  atCheck?: "taken" | "on create" | "renamed";
  /**
   * True when the create hook itself makes exactly one (an entry of a document several writers
   * share reads the document before it writes and confirms the write by reading again,
   * `engine/shared-writes.ts`): the engine then looks the key up at check and in `recover` only,
   * never around the create.
   */
  resolvedByCreate?: boolean;
  /** Every object that has the key of these inputs (usually a filtered listing). */
  find(call: Call & { inputs: In }): Promise<Api[]>;
  /**
   * Whether a found object can be adopted. One that cannot (an uploaded image that never got its
   * data: only the create's answer carried its upload URL) is deleted and the create sent again.
   * Default: every object can.
   */
  adoptable?(record: Api): boolean;
}

/** Any resource spec, as the engine and the registry handle them (values moved, not looked into). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnySpec = ResourceSpec<Fields, OutputFields, Record<string, unknown>, any, any, any, any>;

/**
 * Declares a resource. The sdk types come first (`resourceSpec<Vpc, VpcCreateRequest,
 * VpcUpdateRequest>()`), the fields and hooks second, so the hooks are typed by both.
 */
export function resourceSpec<Api extends { id: string | number }, Create = Body, Update = Body>() {
  return <
    F extends Fields,
    O extends OutputFields,
    C extends { [K in keyof F | keyof O]?: unknown } = Record<never, never>,
    In = InputsOf<F>,
  >(
    spec: ResourceSpec<F, O, C, Api, Create, Update, In>,
  ): ResourceSpec<F, O, C, Api, Create, Update, In> => spec;
}

/**
 * The specs by kind, each loaded by its loader the first time it is read (then kept): the
 * registry (`provider/generated/spec-table.ts`) is built with it, so a process that serves or declares one kind
 * builds that kind's schemas, not every kind's. Enumerating it loads them all.
 */
export function specsLoadedOnUse<L extends Record<string, () => AnySpec>>(
  loaders: L,
): { readonly [K in keyof L]: ReturnType<L[K]> } & Readonly<Record<string, AnySpec>> {
  const specs = {};
  for (const [kind, load] of Object.entries(loaders)) {
    let spec: AnySpec | undefined;
    Object.defineProperty(specs, kind, { enumerable: true, get: () => (spec ??= load()) });
  }
  return Object.freeze(specs) as { readonly [K in keyof L]: ReturnType<L[K]> } & Readonly<Record<string, AnySpec>>;
}

/** The inputs and outputs a spec marks `secret`: encrypted in state and masked, through either door. */
export function secretKeys(spec: AnySpec): string[] {
  return Object.entries<{ secret?: boolean }>({ ...spec.inputs, ...spec.outputs })
    .filter(([, field]) => field.secret)
    .map(([key]) => key);
}

/**
 * The key under which a dynamic resource carries its provider's code (in inputs and outputs,
 * `classes/shim.ts`): never an input of the resource, and kept out of every comparison and request.
 */
export const PROVIDER_KEY = "__provider";

/** The values without the provider's code (`PROVIDER_KEY`). */
export function withoutProvider<T extends Record<string, unknown>>(values: T): T {
  if (!(PROVIDER_KEY in values)) return values;
  const { [PROVIDER_KEY]: _, ...rest } = values;
  return rest as T;
}

/** Inputs every resource accepts besides its own fields. */
export const META_INPUTS = ["adoptId", "deleteAdopted", "timeouts"] as const;

/**
 * Whether the recorded object was adopted (`adoptId`) and not made by this stack: its delete then
 * releases it (drops the resource from state, the object stays) unless the program set
 * `deleteAdopted: true` (`docs/design.md`, "Day two").
 */
export const releasedOnDelete = (state: Values): boolean => state.adoptId !== undefined && state.deleteAdopted !== true;

/** Whether the program changes what a delete of the recorded adopted object does (an update records it). */
export const deleteAdoptedChanged = (olds: Values, news: Values): boolean =>
  olds.adoptId !== undefined && (olds.deleteAdopted === true) !== (news.deleteAdopted === true);
