/** Small helpers shared by resource files. */
import { z } from "zod";

export const MINUTE = 60_000;

/** Pulumi ids are strings; the API's are integers. */
export function apiId(id: string | number): number {
  const n = typeof id === "number" ? id : Number(id);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${JSON.stringify(id)} is not a valid id`);
  return n;
}

/**
 * A reference to another object by integer id. Programs usually pass another resource's `id`,
 * which Pulumi makes a string, so both spellings are accepted and compare equal.
 */
export function idReference(field: string) {
  return z.union(
    [z.number().int().positive(), z.string().regex(/^[1-9][0-9]*$/)],
    { error: () => `${field} must be the integer id of an existing object` },
  );
}

/** Normalizes an id reference for comparison. */
export const normalizeId = (value: unknown): unknown => (typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value);
