/** Small helpers shared by resource files. */
import { z } from "zod";
import { isNotFound } from "../../sdk/core/errors";
import { MissingCredentialsError, type ProviderContext } from "../engine/context";
import type { Call, Failure, Listing, NaturalKey, Values } from "../engine/spec";

export const MINUTE = 60_000;

/** Pulumi ids are strings; the API's are integers. Checked: anything else is an error. */
export function apiId(id: unknown): number {
  const n = typeof id === "number" ? id : typeof id === "string" ? Number(id) : NaN;
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${JSON.stringify(id)} is not a valid id`);
  return n;
}

/**
 * A reference to another object by integer id. Programs usually pass another resource's `id`,
 * which Pulumi makes a string, so both spellings are accepted and compare equal.
 */
export function idReference(field: string) {
  return z.union([z.number().int().positive(), z.string().regex(/^[1-9][0-9]*$/)], {
    error: () => `${field} must be the integer id of an existing object`,
  });
}

/** Normalizes an id reference for comparison. */
export const normalizeId = (value: unknown): unknown => (typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value);

/** An optional id as outputs record it: a number, whichever spelling the program (or state) has. */
export const optionalId = (value: unknown): number | undefined => (value === undefined || value === null ? undefined : apiId(value));

/**
 * The declaration of an id-reference input: both spellings accepted and compared equal, sent as
 * the integer the API wants.
 */
export const idField = (field: string) => ({ schema: idReference(field), normalize: normalizeId, toWire: normalizeId });

/**
 * The input naming the parent an object lives under (a record's domain, a rule's firewall): an id
 * reference that goes in the request's path, never in a body, and that no update can change.
 * `onChange` says in the reference what a new parent does (`"replaces the record"`).
 */
export const parentIdField = (field: string, parent: string, onChange: string) => ({
  ...idField(field),
  send: "never" as const,
  required: true as const,
  replaceOnChange: true as const,
  description: `Id of the ${parent}. Changing it ${onChange}.`,
});

/**
 * The description of a resource that owns one entry of a list others also write
 * (`engine/shared-writes.ts`): the `entry`, how it is `keyed` within the list if it is, and what
 * the `others` are, which the resource leaves as they are.
 */
export const sharedEntryDescription = (entry: string, keyed: string | undefined, others: string): string =>
  `One ${entry} that other stacks or people may also change${keyed ? `, keyed by ${keyed}` : ""}; the other ${others} are left exactly as they are.`;

/**
 * The `computed` output of a parent id the API's record does not name: the id the program gave
 * (or state recorded), kept as a number so reads can find the object again.
 */
export const givenParentId =
  (field: string) =>
  (_record: unknown, given: Values): number =>
    apiId(given[field]);

/**
 * Preview's check of a region against the API's list (`GET /regions`, read once per process): it
 * must be a region, and offer `capability` when one is given, as the create will require. Reads
 * only, and only for a region new to the object (an existing one keeps its region).
 */
export function regionOnOffer(capability?: string) {
  return async ({ ctx, inputs, olds, signal }: Call & { inputs: Values; olds: Values }): Promise<Failure[]> => {
    const region = inputs.region;
    if (typeof region !== "string" || olds.region === region) return [];
    const regions = await ctx.memo("regions", () => ctx.client().regions.listAll({ signal }));
    const found = regions.find((r) => r.id === region);
    if (!found) return [{ property: "region", reason: `region ${region} is not one of the API's regions; getRegions lists them` }];
    if (capability !== undefined && !found.capabilities.includes(capability)) {
      const lister = `getRegions({ capability: ${JSON.stringify(capability)} })`;
      return [{ property: "region", reason: `region ${region} does not offer ${capability}; ${lister} lists the regions that do` }];
    }
    return [];
  };
}

/**
 * The `created` and `updated` outputs every API record carries. `updatedNullable`: the sdk's record
 * allows a null `updated` (the spec's; older objects and automatic images have none), which the
 * reference then says.
 */
export const timestamps = (noun: string, { updatedNullable = false } = {}) => ({
  created: { description: `When the ${noun} was created (UTC).` },
  updated: {
    description: `When the ${noun} was last updated (UTC).`,
    recomputedBy: "any update" as const,
    ...(updatedNullable && {
      nullWhen: `Null when the API has never stamped the ${noun} (the spec allows it for older objects); every recorded create answers one.`,
    }),
  },
});

/**
 * The natural key of an object whose label is unique among the account's objects of its kind
 * (VPCs, firewalls, databases): exclusive, looked up at check once the label is known, and found
 * with one listing filtered by the label (the filter narrows; the exact comparison decides).
 */
export function uniqueLabel<Api extends { label: string }>(
  listAll: (ctx: ProviderContext, filter: { label: string }, signal: AbortSignal) => Promise<Api[]>,
): NaturalKey<{ label: string }, Api> {
  return {
    describe: (inputs) => `label ${JSON.stringify(inputs.label)}`,
    exclusive: true,
    inputs: ["label"],
    find: async ({ ctx, inputs, signal }) => (await listAll(ctx, { label: inputs.label }, signal)).filter((o) => o.label === inputs.label),
  };
}

/**
 * A parent as check sees it (a rule's firewall, an entry's database), read once per process under
 * `key`: `"gone"` when the API has none, `undefined` without credentials (a unit test's check: only
 * the program's declarations count).
 */
export async function parentAtCheck<T>(ctx: ProviderContext, key: string, read: () => Promise<T>): Promise<T | "gone" | undefined> {
  try {
    return await ctx.memo(key, read);
  } catch (error) {
    if (error instanceof MissingCredentialsError) return undefined;
    if (isNotFound(error)) return "gone";
    throw error;
  }
}

/** A string from state or inputs, when it is one. */
export const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/**
 * Reads coalesced into listings of the parent's objects (`Listing`): the objects of one parent —
 * a domain's records, a VPC's subnets, a firewall's devices — named by the parent id input `key`
 * (recorded as a number in state), read together during a refresh with one listing of the parent's
 * collection. `list` returns each object as the `read` hook does.
 */
export function byParent<Api>(
  key: string,
  list: (ctx: ProviderContext, parentId: number, signal: AbortSignal) => Promise<Api[]>,
): Listing<Api> {
  return {
    collection: (values) => (values[key] === undefined || values[key] === null ? undefined : String(apiId(values[key]))),
    list: ({ ctx, collection, signal }) => list(ctx, Number(collection), signal),
  };
}
