/**
 * Body fields the endpoint does not know, as the API treats them. The real API ignores them: the
 * web console sends `ticket_id` again in a reply's body, and clients echo read-only fields of an
 * answer (a firewall rule set's `version` and `fingerprint`) in the next write. So by default the
 * emulator drops them and validates the rest.
 *
 * Strict mode (`strict: true`, `--strict`) refuses them with 400 `Unknown field: x`, which is how
 * this project's own tests catch a misspelt field in the sdk or the provider. Even strict mode
 * drops the top-level fields an endpoint declares as echoed (`echoedFields`): what real clients
 * send back without meaning it as input, like the ticket's id in a reply's body.
 */
import type { z } from "zod";

/** The environment variable that turns strict mode on where the `strict` option is not given. */
export const STRICT_ENV = "COMPUTE_EMULATOR_STRICT";

export interface UnknownFieldPolicy {
  /** Refuse unknown fields (except echoes) instead of dropping them. */
  strict: boolean;
  /** Top-level fields dropped even in strict mode (the endpoint's `echoedFields`). */
  echoes: readonly string[];
}

/** Unknown keys can sit at several depths; each pass removes those zod reported. */
const MAX_PASSES = 8;

/** Validates `input` with `schema`, dropping the unknown fields the policy lets through. */
export function parseBody<T>(schema: z.ZodType<T>, input: unknown, policy: UnknownFieldPolicy): z.ZodSafeParseResult<T> {
  let value = input;
  let parsed = schema.safeParse(value);
  for (let pass = 0; !parsed.success && pass < MAX_PASSES; pass++) {
    const droppable = parsed.error.issues.flatMap((issue) =>
      issue.code === "unrecognized_keys"
        ? issue.keys
            .filter((key) => !policy.strict || (issue.path.length === 0 && policy.echoes.includes(key)))
            .map((key) => [...issue.path, key])
        : [],
    );
    if (droppable.length === 0) break;
    value = withoutPaths(value, droppable);
    parsed = schema.safeParse(value);
  }
  return parsed;
}

/** A copy of a JSON value without the properties at `paths`. */
function withoutPaths(value: unknown, paths: ReadonlyArray<ReadonlyArray<PropertyKey>>): unknown {
  const copy = structuredClone(value);
  for (const path of paths) {
    let node: unknown = copy;
    for (const part of path.slice(0, -1))
      node = node && typeof node === "object" ? (node as Record<PropertyKey, unknown>)[part] : undefined;
    if (node && typeof node === "object") delete (node as Record<PropertyKey, unknown>)[path[path.length - 1]!];
  }
  return copy;
}
