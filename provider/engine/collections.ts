/**
 * The collections of coalesced reads (`Listing` in `spec.ts`, `sdk/core/coalesce.ts`): the key of
 * an object's collection, and the invalidation after a write, shared by the engine's create,
 * update and delete, the natural-key lookups and the hooks that list a collection themselves.
 */
import type { ProviderContext } from "./context";
import type { AnySpec, Values } from "./spec";

/** The key of collection `collection` of resource type `name` (`DomainRecord 1900000`). */
export const collectionKeyOf = (name: string, collection: string): string => `${name} ${collection}`;

/** The key of an object's collection, when the spec has listings and the object a collection. */
export function collectionKey(spec: AnySpec, values: Values): string | undefined {
  const collection = spec.listing?.collection(values);
  return collection === undefined ? undefined : collectionKeyOf(spec.name, collection);
}

/** A write to an object's collection (or one that may have happened): later reads and lookups list it again. */
export function invalidate(spec: AnySpec, ctx: ProviderContext, values: Values): void {
  const key = collectionKey(spec, values);
  try {
    if (key !== undefined) ctx.reads().invalidate(key);
  } catch {
    // No credentials: nothing was written, and nothing read.
  }
}

/** Something may have changed an object's collection unseen (a create whose answer was lost): every later read and lookup lists it again. */
export function forget(spec: AnySpec, ctx: ProviderContext, values: Values): void {
  const key = collectionKey(spec, values);
  if (key !== undefined) ctx.reads().forget(key);
}
