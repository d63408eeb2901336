/**
 * OAuth scopes as the sdk's endpoint table records them: the fewest that cover a set of endpoints,
 * and whether a token's scopes cover one. Shared by the least-privilege report (`../stack/least-scopes.ts`)
 * and the errors that name a missing scope (`engine.ts`).
 */
import type { AnyEndpoint } from "../../sdk/core/endpoint";
import type { ApiError } from "../../sdk/core/errors";
import { CONFIG_TOKEN, ENV_TOKEN } from "./context";

let byName: Map<string, AnyEndpoint> | undefined;

/**
 * The endpoint table by name, loaded on first use: it loads every sdk area, which a provider
 * process serving one kind does not otherwise need (an error names a scope from the answer alone).
 */
function endpointsByName(): Map<string, AnyEndpoint> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use; the type comes with it
  byName ??= new Map((require("../../sdk/endpoints") as typeof import("../../sdk/endpoints")).ENDPOINTS.map((e) => [e.name, e]));
  return byName;
}

/** The endpoint of a name in the sdk's table; throws naming it when there is none (a spec's mistake). */
export function endpointNamed(name: string): AnyEndpoint {
  const endpoint = endpointsByName().get(name);
  if (!endpoint) throw new Error(`no endpoint named ${name} in the sdk's endpoint table`);
  return endpoint;
}

/**
 * The fewest scopes that cover every endpoint named: every scope each needs, without a
 * `x:read_only` that a `x:read_write` already covers; sorted.
 */
export function leastScopes(names: Iterable<string>): string[] {
  const scopes = new Set<string>();
  for (const name of names) for (const scope of endpointNamed(name).scopes) scopes.add(scope.replace(/:read$/, ":read_only"));
  for (const scope of [...scopes]) {
    const [area] = scope.split(":");
    if (scope.endsWith(":read_only") && scopes.has(`${area}:read_write`)) scopes.delete(scope);
  }
  return [...scopes].sort();
}

/** Whether a token's scopes (`has`) cover `scope`: itself, `area:read_write` or `area:*` for a read, or `*`. */
export function scopeCovered(has: readonly string[], scope: string): boolean {
  const [area, level] = scope.split(":");
  return has.some((own) => own === "*" || own === scope || own === `${area}:*` || (level !== "read_write" && own === `${area}:read_write`));
}

/**
 * What a 401 for want of a scope says, from the answer's `X-Accepted-OAuth-Scopes` (what the call
 * needs) and `X-OAuth-Scopes` (what the token has); undefined for any other refusal. `life` names
 * what the caller is doing when a refused read is not all it needs (a create's natural-key lookup:
 * the resource's write scopes cover the read, and are what the token should get).
 */
export function scopeRefusal(error: ApiError, life?: { scopes: readonly string[]; what: string }): string | undefined {
  const accepted = error.headers["x-accepted-oauth-scopes"];
  const granted = error.headers["x-oauth-scopes"];
  if (error.status !== 401 || !accepted || accepted === "*" || granted === undefined) return undefined;
  const needed = accepted.split(/[\s,]+/).filter(Boolean);
  const has = granted.split(/[\s,]+/).filter(Boolean);
  const lacking = [...(life?.scopes ?? []), ...needed].filter((scope, i, all) => all.indexOf(scope) === i && !scopeCovered(has, scope));
  const covering = lacking.filter(
    (scope) => !(scope.endsWith(":read_only") && lacking.includes(scope.replace(/:read_only$/, ":read_write"))),
  );
  const want = (covering.length > 0 ? covering : needed).join(" and ");
  return (
    `the token lacks the OAuth scope ${want}${life ? `, which ${life.what}` : ""} ` +
    `(this call needs ${needed.join(" and ")}; the token has ${has.length > 0 ? has.join(", ") : "none"}). ` +
    `Give the stack a token that has it: \`pulumi config set --secret ${CONFIG_TOKEN} <token>\` (or ${ENV_TOKEN}); ` +
    "`pulumi-compute scopes` lists every scope the stack needs"
  );
}
