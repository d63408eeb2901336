/**
 * Writing a service's route table: the service's access presets once (its OAuth scopes for reading,
 * writing …), then one call per endpoint with its path, summary, details and handler.
 *
 *   const api = routeTable("vpcs", { read: [], write: ["vpc:read_write"] });
 *   const vpcGrant = objectGrant("vpc", "vpcId", findVpc);
 *   api.read.list("/vpcs", "VPC collection", { item: Vpc, filterable: VPC_FILTERABLE }, (ctx) => …);
 *   api.write.put("/vpcs/{vpcId}", "Update a VPC", { grant: vpcGrant.read_write, response: Vpc }, (ctx) => …);
 *
 * The result is plain `RouteSpec` data (`core/routes.ts`). A route without a `response` schema answers
 * the empty object: its handler returns nothing and the client receives `{}`.
 */
import type { z } from "zod";
import { Collection, Empty } from "../../sdk/core/schema";
import type { GrantRequirement, HttpMethod, RouteContext, RouteSpec } from "./routes";
import type { AccountState, GrantPermission } from "./state";

/** Who may call: `auth: "none"` needs no token (a sent one must be valid); the scopes the token needs (all of them). */
export interface Access {
  readonly auth?: "none" | "token";
  readonly scopes: readonly string[];
}

/** An endpoint's details beside its path and summary. */
export interface EndpointOptions {
  /** sdk schema of a successful answer (default: `Empty`, the handler returns nothing). */
  readonly response?: z.ZodType;
  readonly grant?: GrantRequirement;
}

/** A collection's details: its item schema and the fields `X-Filter` may use. */
export interface ListOptions {
  readonly item: z.ZodType;
  readonly filterable: readonly string[];
  readonly grant?: GrantRequirement;
}

type Handler = (ctx: RouteContext) => unknown;
type Items = (ctx: RouteContext) => readonly unknown[] | Promise<readonly unknown[]>;

/** Makes routes with one access preset. */
export interface RouteMaker {
  get(path: string, summary: string, options: EndpointOptions, handler: Handler): RouteSpec;
  post(path: string, summary: string, options: EndpointOptions, handler: Handler): RouteSpec;
  put(path: string, summary: string, options: EndpointOptions, handler: Handler): RouteSpec;
  delete(path: string, summary: string, options: EndpointOptions, handler: Handler): RouteSpec;
  /** `GET` of a collection: the handler's items, filtered and paged into the collection envelope. */
  list(path: string, summary: string, options: ListOptions, items: Items): RouteSpec;
}

const isScopes = (preset: readonly string[] | Access): preset is readonly string[] => Array.isArray(preset);

/** A service's route makers, one per access preset (a preset is its scopes, or `{auth, scopes}`). */
export function routeTable<Name extends string>(
  service: string,
  presets: Record<Name, readonly string[] | Access>,
): Record<Name, RouteMaker> {
  const makers = {} as Record<Name, RouteMaker>;
  for (const name in presets) {
    const preset = presets[name];
    makers[name] = routeMaker(service, isScopes(preset) ? { scopes: preset } : preset);
  }
  return makers;
}

function routeMaker(service: string, access: Access): RouteMaker {
  const base = { service, auth: access.auth ?? "token", scopes: access.scopes } as const;
  const endpoint = (method: HttpMethod) => (path: string, summary: string, options: EndpointOptions, handler: Handler): RouteSpec => {
    const response = options.response ?? Empty;
    return {
      ...base,
      method,
      path,
      summary,
      ...(options.grant ? { grant: options.grant } : {}),
      response,
      handler: options.response ? handler : async (ctx) => (await handler(ctx)) ?? {},
    };
  };
  return {
    get: endpoint("GET"),
    post: endpoint("POST"),
    put: endpoint("PUT"),
    delete: endpoint("DELETE"),
    list: (path, summary, options, items) => ({
      ...base,
      method: "GET",
      path,
      summary,
      ...(options.grant ? { grant: options.grant } : {}),
      filterable: options.filterable,
      response: Collection(options.item),
      handler: async (ctx) => ctx.collection(await items(ctx)),
    }),
  };
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
