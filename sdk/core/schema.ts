/**
 * Schema helpers shared by every layer: the API's envelopes, and the mapping from a zod
 * failure to the API's own `{field, reason}` error entries (so the sdk, the emulator and the
 * provider's `check` all report the same field and the same text).
 */
import { z } from "zod";

/** One entry of the API's error envelope. `field` is omitted when the error is not tied to an input. */
export const ErrorEntry = z.looseObject({
  reason: z.string(),
  field: z.string().optional(),
});
export type ErrorEntry = z.infer<typeof ErrorEntry>;

/** `{"errors": [{reason, field?}]}`, the body of every failing request. */
export const ErrorEnvelope = z.looseObject({ errors: z.array(ErrorEntry) });
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** The collection envelope: `{data, page, pages, results}`; `page` is 1-based. */
export function Collection<T extends z.ZodType>(item: T) {
  return z.looseObject({
    data: z.array(item),
    page: z.number().int(),
    pages: z.number().int(),
    results: z.number().int(),
  });
}
/** One page of a collection: its items and where it sits among the pages. */
export type CollectionPage<T> = { data: T[]; page: number; pages: number; results: number };

/** Successful deletes and actions answer `{}`. */
export const Empty = z.looseObject({});

/** Each field of a shape as `.nullable().optional()`: a body may leave it out, or clear it with `null`. */
export function clearable<S extends Record<string, z.ZodType>>(shape: S): { [K in keyof S]: z.ZodOptional<z.ZodNullable<S[K]>> } {
  return Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, field.nullable().optional()])) as never;
}

/** API timestamps: ISO 8601 without a zone (`2018-01-02T03:04:05`), UTC by convention. */
export const Timestamp = z.string().min(1);

/** The fields of response schemas marked `filterable`; a mark is on its own copy of the field's schema. */
const FILTERABLE = new WeakSet<z.ZodType>();

/**
 * Marks a field of a response schema that `X-Filter` may name, as the spec marks it
 * (`x-linode-filterable`): a collection's filterable fields are part of the API's contract, so
 * they are declared with the record, and the emulator reads them from it (`filterableFields`).
 * The mark goes on a copy, so a shared schema (`Timestamp`) stays unmarked elsewhere.
 */
export function filterable<T extends z.ZodType>(field: T): T {
  const marked = field.clone();
  FILTERABLE.add(marked);
  return marked;
}

/** `created` and `updated` of a record the API stamps at both (`updated` equals `created` until a change). */
export const STAMPS = { created: Timestamp, updated: Timestamp };

/** `created` and `updated` of a record whose `updated` is null until its first change. */
export const STAMPS_UPDATED_NULLABLE = { created: Timestamp, updated: Timestamp.nullable() };

/** The same, both fields filterable in a listing (VPCs, subnets, firewall devices). */
export const FILTERABLE_STAMPS = { created: filterable(Timestamp), updated: filterable(Timestamp.nullable()) };

/**
 * The fields of a record schema marked `filterable`, in the schema's order (a marked field made
 * optional or nullable since, as `.partial()` does, stays marked); those of a nested object by
 * their dotted path (`entity.id`), as `X-Filter` names them.
 */
export function filterableFields(record: z.ZodObject): string[] {
  return Object.entries(record.shape).flatMap(([key, field]: [string, z.ZodType]) => {
    let inner: z.ZodType = field;
    while (!FILTERABLE.has(inner) && (inner instanceof z.ZodNullable || inner instanceof z.ZodOptional))
      inner = inner.unwrap() as z.ZodType;
    if (FILTERABLE.has(inner)) return [key];
    return inner instanceof z.ZodObject ? filterableFields(inner).map((path) => `${key}.${path}`) : [];
  });
}

/**
 * Turns a zod error into API-style error entries. Paths are written the way the API writes them:
 * `label`, `subnets[0].ipv4`, `rules.inbound[2].ports`.
 */
export function issuesToErrors(error: z.ZodError): ErrorEntry[] {
  return error.issues.map((issue) => {
    const field = formatPath(issue.path);
    const reason =
      issue.code === "unrecognized_keys" ? `Unknown field${issue.keys.length > 1 ? "s" : ""}: ${issue.keys.join(", ")}` : issue.message;
    return field ? { field, reason } : { reason };
  });
}

/** `["subnets", 0, "ipv4"]` → `subnets[0].ipv4`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/**
 * The `error` of a required field: `missing` when the field is absent, `invalid` for any other
 * failure of the type (`z.enum(TYPES, missingOr(REASONS.typeRequired, REASONS.typeInvalid))`).
 */
export function missingOr(missing: string, invalid: string) {
  return { error: (issue: { input?: unknown }) => (issue.input === undefined ? missing : invalid) };
}

/**
 * A required string field whose "missing" message is the API's `<field> is required` (or the
 * area's own `missing` text). zod's default text ("Invalid input: expected string, received
 * undefined") says nothing useful.
 */
export function requiredString(field: string, missing = `${field} is required`) {
  return z.string(missingOr(missing, `${field} must be a string`));
}

/** The same for integers. */
export function requiredInt(field: string, missing = `${field} is required`) {
  return z.number(missingOr(missing, `${field} must be an integer`)).int(`${field} must be an integer`);
}

/** A string field whose wrong type reads `<field> must be a string` (or `… is required` when `required`). */
export function stringField(field: string, required = false) {
  return required ? requiredString(field) : z.string({ error: `${field} must be a string` });
}

/** A whole number in a range; every failure (wrong type, fraction, out of range) reads `reason`. */
export function intField(reason: string, min: number, max?: number) {
  const base = z
    .number({ error: () => reason })
    .int(reason)
    .min(min, reason);
  return max === undefined ? base : base.max(max, reason);
}
