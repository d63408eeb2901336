/**
 * The declarative description of a provider resource. A resource file states its fields once —
 * which are inputs, which force replacement, which are sets, how values normalize, what the API
 * defaults to — plus thin create/read/update/delete hooks; `engine.ts` derives `check`, `diff`
 * and the Pulumi provider methods from it.
 */
import type { z } from "zod";
import type { ProviderContext } from "./context";

/** One user input (camelCase), mirrored as an output of the same name. */
export interface InputField {
  /** The API's name for it, when not the snake_case of the key. */
  wire?: string;
  /** Validation of a known value; usually the sdk request schema's field, so texts match the API. */
  schema: z.ZodType;
  required?: boolean;
  /** A change can only be made by replacing the object. */
  replaceOnChange?: boolean;
  /** Compared as a set: order and duplicates do not matter. */
  set?: boolean;
  /**
   * Maps a value to its canonical form before comparing (trailing dots, CIDR spelling, …).
   * `recorded` is the object's recorded state (its outputs; `{}` when there is none), for
   * spellings that depend on another field: a DNS record's name relative to its zone, say.
   */
  normalize?: (value: unknown, recorded: Outputs) => unknown;
  /** What the API uses when the input is absent; removing the input then resets the field. */
  default?: unknown;
  /** Never printed in check failures; the engine marks it secret in state. */
  secret?: boolean;
  /** Computed by the `derive` hook in check (an image file's hash), never set by the program. */
  derived?: boolean;
  /** For the generated reference docs. */
  description: string;
}

/** An output-only attribute computed by the API. */
export interface OutputField {
  wire?: string;
  secret?: boolean;
  description: string;
}

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

/** The object as the API returns it (wire shape). */
export type ApiObject = Record<string, unknown>;
/** Inputs after check, camelCase. */
export type Inputs = Record<string, unknown>;
/** Outputs in state, camelCase. */
export type Outputs = Record<string, unknown>;

export interface Hooks {
  /** POSTs the object; returns the API's record. */
  create(ctx: ProviderContext, inputs: Inputs, signal: AbortSignal): Promise<ApiObject>;
  /** GETs the object; `undefined` when it is gone. `state` holds the last outputs (for parent ids). */
  read(ctx: ProviderContext, id: string, state: Outputs, signal: AbortSignal): Promise<ApiObject | undefined>;
  /** Applies the changed in-place fields; returns the fresh record. */
  update(ctx: ProviderContext, id: string, olds: Outputs, news: Inputs, changed: string[], signal: AbortSignal): Promise<ApiObject>;
  /** DELETEs the object. A 404 is treated as success by the engine. */
  delete(ctx: ProviderContext, id: string, state: Outputs, signal: AbortSignal): Promise<void>;
  /**
   * Looks the object up by its natural key. Called after an ambiguous create failure (the API has
   * no idempotency keys), so a create that did land is adopted instead of orphaned or duplicated.
   */
  find?(ctx: ProviderContext, inputs: Inputs, signal: AbortSignal): Promise<ApiObject | undefined>;
  /**
   * Waits until the object is usable (a status such as `active`), reporting progress, and returns
   * the settled record. Runs after create and after every update. If it fails after the API
   * accepted a create, the object is still recorded in state (with the error), never orphaned.
   */
  settle?(ctx: ProviderContext, object: ApiObject, inputs: Inputs, signal: AbortSignal): Promise<ApiObject>;
  /** Outputs the API record does not carry directly (a parent id, say). */
  extraOutputs?(object: ApiObject, inputs: Inputs): Outputs;
  /**
   * Completes inputs that passed `check` with values derived from local state — the content hash
   * of a file to upload — so `diff` compares them like any input (and a change can replace).
   * `olds` are the inputs the previous check recorded, usable as a cache (a hash need not be
   * recomputed while the file's size and modification time are unchanged). Returns the values to
   * add, or failures naming the input (a missing file), reported at preview like any other.
   */
  derive?(olds: Inputs, news: Inputs): Promise<{ inputs?: Inputs; failures?: Failure[] }>;
}

export interface ResourceSpec {
  /** Type name; the Pulumi type token is `pulumi-nodejs:dynamic/compute:<name>`. */
  name: string;
  /** What the API calls one of these, for messages ("VPC", "subnet"). */
  noun: string;
  description: string;
  inputs: Record<string, InputField>;
  outputs: Record<string, OutputField>;
  /** Default operation timeouts in milliseconds; the `timeouts` input overrides them. Reads use `update`'s. */
  timeouts: Timeouts;
  /** Inputs whose unchanged value would collide when the replacement is created first (unique labels). */
  uniqueInputs?: string[];
  /** Other reasons a replacement must delete the old object first (an overlapping range, say). */
  deleteFirst?(olds: Outputs, news: Inputs): boolean;
  /**
   * Output fields whose recorded value means the object can never become usable again (a
   * database whose provisioning ended `failed`): `diff` then replaces it, naming these fields,
   * even when no input changed. Default: none.
   */
  replaceBroken?(olds: Outputs): string[];
  /** Cross-field rules, run on known values only. */
  validate?(inputs: Inputs): Failure[];
  /**
   * `validate` copes with preview's unknown values itself (it skips the rules that need them), so
   * the engine runs it even when some inputs are unknown: a DNS record whose domain is created in
   * the same program is still checked at the first preview. Default false.
   */
  validatesUnknowns?: boolean;
  hooks: Hooks;
}

/** Inputs every resource accepts besides its own fields. */
export const META_INPUTS = ["adoptId", "timeouts"] as const;
