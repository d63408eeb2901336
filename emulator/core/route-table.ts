/**
 * Writing a service's route table: one `route(endpoint, …)` per sdk endpoint it serves, with only
 * what is the emulator's own — the grant it checks, the fields `X-Filter` may use, the handler.
 *
 *   const vpcGrant = objectGrant("vpc", "vpcId", findVpc);
 *   route(VPC_ENDPOINTS.list, { filterable: VPC_FILTERABLE }, (ctx) => visibleVpcs(ctx.account, ctx.user).map(…));
 *   route(VPC_ENDPOINTS.update, { grant: vpcGrant.read_write }, (ctx) => renderVpc(…, updateVpc(ctx.actor, vpcOf(ctx), ctx.body())));
 *
 * Method, path, service, auth, scopes, summary, body and response schemas and "is a paginated
 * collection" are the endpoint's (`sdk/core/endpoint.ts`), written nowhere else. A handler is typed
 * by its endpoint: `ctx.body()` is the body schema's output, `ctx.param` takes the path's parameter
 * names, and the answer is the response type — the items for a paginated endpoint (the table filters
 * and pages them), nothing for an endpoint that answers `{}`. The result is plain `RouteSpec` data
 * (`core/routes.ts`).
 */
import type { AnyEndpoint } from "../../sdk/core/endpoint";
import type { GrantRequirement, RouteAlias, RouteAnswer, RouteContext, RouteSpec } from "./routes";
import type { AccountState, GrantPermission } from "./state";

/** What a route adds to its endpoint: a grant, and for a paginated endpoint the fields `X-Filter` may use. */
export type RouteDetails<E extends AnyEndpoint> = { readonly grant?: GrantRequirement } & (E extends { readonly paginated: true }
  ? { readonly filterable: readonly string[] }
  : { readonly filterable?: never });

/** A handler as it is written: its answer typed by its endpoint. */
type Handler<E extends AnyEndpoint> = (ctx: RouteContext<E>) => RouteAnswer<E> | Promise<RouteAnswer<E>>;

/** A route of an endpoint that needs nothing but its handler (no grant; not a paginated collection). */
export function route<E extends AnyEndpoint>(
  endpoint: E,
  handler: E extends { readonly paginated: true } ? never : Handler<E>,
): RouteSpec<E>;
/** A route with a grant, or a paginated endpoint's route with its filterable fields. */
export function route<E extends AnyEndpoint>(endpoint: E, details: RouteDetails<E>, handler: Handler<E>): RouteSpec<E>;
export function route<E extends AnyEndpoint>(
  endpoint: E,
  detailsOrHandler: RouteDetails<E> | Handler<E>,
  maybeHandler?: Handler<E>,
): RouteSpec<E> {
  const details: { grant?: GrantRequirement; filterable?: readonly string[] } =
    typeof detailsOrHandler === "function" ? {} : detailsOrHandler;
  const handler = typeof detailsOrHandler === "function" ? detailsOrHandler : maybeHandler!;
  const { grant, filterable } = details;
  if ((filterable !== undefined) !== (endpoint.paginated === true)) {
    throw new Error(`${endpoint.name}: filterable fields go with a paginated endpoint, and a paginated endpoint needs them`);
  }
  return {
    endpoint,
    ...(grant ? { grant } : {}),
    ...(filterable ? { filterable } : {}),
    handler,
  };
}

/** The same route under a second spelling of its path (the API serves both). */
export function aliasOf<E extends AnyEndpoint>(spec: RouteSpec<E>, alias: RouteAlias): RouteSpec<E> {
  return { ...spec, alias };
}

/** A global grant a restricted user needs (`add_vpc`, …). */
export function globalGrant(grant: string): GrantRequirement {
  return { kind: "global", grant };
}

/**
 * The grants on an object a path parameter names, at each level: a restricted user needs the grant
 * of that `kind`; a missing object is 404 whoever asks (`find` says whether it exists).
 */
export function objectGrant(
  kind: string,
  param: string,
  find: (account: AccountState, id: number) => unknown,
): Record<GrantPermission, GrantRequirement> {
  const exists = (account: AccountState, id: number) => find(account, id) !== undefined;
  const at = (level: GrantPermission): GrantRequirement => ({ kind: "object", object: kind, param, level, exists });
  return { read_only: at("read_only"), read_write: at("read_write") };
}
