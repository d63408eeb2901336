/**
 * Who is calling and what they may do. Three layers, checked in this order (api-facts P7-1):
 * 1. the token must be known → else 401 `Invalid Token`;
 * 2. the token's OAuth scopes must cover the endpoint's → else 401 `Your OAuth token is not
 *    authorized to use this endpoint.`;
 * 3. a restricted user needs the grant → else 403 `Unauthorized`.
 */
import type { AccountState, EmulatorState, GrantPermission, ObjectGrant, TokenRecord, UserRecord } from "./state";
import { forbidden, invalidToken, notFound, scopeMissing } from "./errors";

export interface Principal {
  token: TokenRecord;
  account: AccountState;
  user: UserRecord;
}

/** Extracts the bearer token; `undefined` when the header is absent. Any other form is an invalid token. */
export function bearerToken(header: string | string[] | undefined): string | undefined | null {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? (header[0] ?? "") : header;
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(value);
  return match ? match[1]! : null;
}

/**
 * Resolves the Authorization header. `required` routes throw 401 when it is missing; public
 * routes accept no header but still refuse a header that carries an unknown token.
 */
export function authenticate(state: EmulatorState, header: string | string[] | undefined, required: boolean): Principal | undefined {
  const token = bearerToken(header);
  if (token === undefined) {
    if (required) throw invalidToken();
    return undefined;
  }
  const record = token === null ? undefined : state.tokens[token];
  if (!record) throw invalidToken();
  const account = state.accounts[record.account];
  const user = account?.users[record.username];
  if (!account || !user) throw invalidToken();
  return { token: record, account, user };
}

/** The token record a header names, if it names a known one; never throws (for response headers). */
export function knownToken(state: EmulatorState, header: string | string[] | undefined): TokenRecord | undefined {
  const token = bearerToken(header);
  return typeof token === "string" ? state.tokens[token] : undefined;
}

/** `vpc:read_write` → `["vpc", "read_write"]`; the OAS typo `ips:read` means read_only. */
function splitScope(scope: string): [string, string] {
  const [area = "", level = ""] = scope.split(":");
  return [area, level === "read" ? "read_only" : level];
}

/** True when the token's scopes cover one required scope; read_write (or `area:*`) covers read_only. */
export function scopeSatisfied(granted: "*" | string[], required: string): boolean {
  if (granted === "*") return true;
  const [area, level] = splitScope(required);
  return granted.some((scope) => {
    const [grantedArea, grantedLevel] = splitScope(scope);
    if (scope === "*") return true;
    if (grantedArea !== area) return false;
    if (grantedLevel === "*" || grantedLevel === "read_write") return true;
    return grantedLevel === level;
  });
}

/** Endpoints that list two scopes need both (spec "Authentication"). */
export function checkScopes(principal: Principal, required: readonly string[]): void {
  if (!required.every((scope) => scopeSatisfied(principal.token.scopes, scope))) throw scopeMissing();
}

/**
 * `X-OAuth-Scopes`: the presented token's scopes, `*` for all, else separated by spaces as OAuth
 * scope lists are (linodego fixture `ExampleGetImage_missing.yaml`: `account:read_write
 * databases:read_write …`).
 */
export function grantedScopesHeader(token: TokenRecord): string {
  return token.scopes === "*" ? "*" : token.scopes.join(" ");
}

/** `X-Accepted-OAuth-Scopes`: what the endpoint needs, `*` when no specific scope is listed. */
export function acceptedScopesHeader(required: readonly string[]): string {
  return required.length === 0 ? "*" : required.join(",");
}

/**
 * Grants are named by the services (`ServiceModule.grants`): a global grant such as `add_vpc`, an
 * object kind such as `vpc` (the key of its grant list on a user).
 */
export function checkGlobalGrant(principal: Principal, grant: string): void {
  if (principal.user.restricted && !principal.user.grants.global[grant]) throw forbidden();
}

/** A user's grants on objects of one kind (none when the kind is absent). */
export function objectGrants(user: UserRecord, kind: string): ObjectGrant[] {
  return kind === "global" ? [] : ((user.grants[kind] as ObjectGrant[] | undefined) ?? []);
}

export function objectPermission(user: UserRecord, kind: string, id: number): GrantPermission | undefined {
  if (!user.restricted) return "read_write";
  return objectGrants(user, kind).find((g) => g.id === id)?.permissions;
}

/**
 * Requires `level` on one object. A missing object is 404 whoever asks (existence is checked by
 * the caller through `exists`), so a restricted user learns nothing more than 404/403 would tell.
 */
export function checkObjectGrant(principal: Principal, kind: string, id: number, level: GrantPermission, exists: boolean): void {
  if (!exists) throw notFound();
  const permission = objectPermission(principal.user, kind, id);
  if (permission === undefined) throw forbidden();
  if (level === "read_write" && permission !== "read_write") throw forbidden();
}

/** Whether the user may see an object at all (restricted users see only granted objects in lists). */
export function canSee(user: UserRecord, kind: string, id: number): boolean {
  return objectPermission(user, kind, id) !== undefined;
}

/** After a restricted user creates an object, they get read_write on it (as the platform does). */
export function grantCreator(user: UserRecord, kind: string, id: number): void {
  if (!user.restricted) return;
  user.grants[kind] = objectGrants(user, kind)
    .filter((g) => g.id !== id)
    .concat({ id, permissions: "read_write" });
}
