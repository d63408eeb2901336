/**
 * The route table: every API endpoint the emulator serves is one `RouteSpec` that references the
 * sdk's declaration of it (`VPC_ENDPOINTS.subnets.create`: method, path, service, auth, scopes,
 * summary, body and response schemas, "is a paginated collection") and adds only what is the
 * emulator's own: the handler, the grant it checks, the fields `X-Filter` may use, and where the
 * emulator serves a second spelling of the path, that alias. The table stays introspectable —
 * `describeRoutes` lists it without the handlers — so coverage can be generated from it.
 * `registerApiRoutes` turns the table into fastify routes and adds, for every known path, a 405
 * for the methods it does not serve.
 *
 * Order of checks for each request (api-facts P7-1): fault injection (the network in front of
 * the API), token (401), OAuth scopes (401), grants (403, or 404 for a missing object), then the
 * handler (400 validation, 404 unknown ids, …).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import type { AnyEndpoint, EndpointItem, EndpointMethod, EndpointResult } from "../../sdk/core/endpoint";
import type { CollectionPage } from "../../sdk/core/schema";
import { issuesToErrors } from "../../sdk/core/schema";
import type { AccountState, GrantPermission, UserRecord } from "./state";
import type { EmulatorRuntime, NamedActor } from "./runtime";
import { type Principal, acceptedScopesHeader, authenticate, bearerToken, checkGlobalGrant, checkObjectGrant, checkScopes } from "./auth";
import { ApiFailure, REASONS, errorBody, found, notFound } from "./errors";
import { applyFilter, compileFilter } from "./filter";
import { paginate, parsePageRequest } from "./pagination";
import { applyFaultAfter, applyFaultBefore, pickFault } from "./fault-responder";
import { parseBody } from "./unknown-fields";

/** The API's base path segment; all API routes live below it. */
export const API_PREFIX = "/v4";
/**
 * The API's beta base: the OpenAPI description of 4.174 lists `/v4beta` beside `/v4` as servers
 * of the same resources, and clients (the API's own TypeScript client) build many requests on it.
 */
export const BETA_PREFIX = "/v4beta";

/** A request URL on the beta base, served as the same URL on `/v4` (routes, state, auth, headers, faults); any other unchanged. */
export function onApiBase(url: string): string {
  return url === BETA_PREFIX || url.startsWith(`${BETA_PREFIX}/`) || url.startsWith(`${BETA_PREFIX}?`)
    ? API_PREFIX + url.slice(BETA_PREFIX.length)
    : url;
}

export type HttpMethod = EndpointMethod;
const ALL_METHODS: readonly string[] = ["GET", "POST", "PUT", "DELETE", "PATCH"];

/** A grant restricted users need (names and kinds are the services': `ServiceModule.grants`). */
export type GrantRequirement =
  | { kind: "global"; grant: string }
  | {
      kind: "object";
      object: string;
      /** Path parameter holding the object's id. */
      param: string;
      level: GrantPermission;
      /** Whether the object exists in the caller's account (a missing one is 404, not 403). */
      exists: (account: AccountState, id: number) => boolean;
    };

/** A second spelling of an endpoint's path that the emulator serves too (`/images/{imageKind}/{imageNumber}`). */
export interface RouteAlias {
  /** Below `/v4`, with `{name}` parameters. */
  readonly path: string;
  /** What the alias adds to the endpoint's summary in route listings (` (id with an unencoded slash)`). */
  readonly note: string;
}

/**
 * What a handler gives: for a paginated endpoint its items, which the table filters (`X-Filter` on
 * `filterable`) and pages (`page`, `page_size`) into the collection envelope; else the answer, or
 * nothing when the endpoint answers `{}` (`Empty`).
 */
export type RouteAnswer<E extends AnyEndpoint> = E extends { readonly paginated: true }
  ? readonly EndpointItem<E>[]
  : Record<never, never> extends EndpointResult<E>
    ? EndpointResult<E> | void
    : EndpointResult<E>;

/** One endpoint the emulator serves: the sdk's declaration, and what the emulator adds to it. */
export interface RouteSpec<E extends AnyEndpoint = AnyEndpoint> {
  /** The sdk's declaration: method, path, service, auth, scopes, summary, body, response schema, paginated. */
  readonly endpoint: E;
  /** Set when the route serves a second spelling of the endpoint's path. */
  readonly alias?: RouteAlias;
  readonly grant?: GrantRequirement;
  /** For a paginated endpoint: the fields `X-Filter` may use. */
  readonly filterable?: readonly string[];
  /**
   * The answer (a `RouteAnswer<E>`, which `route()` checks at compile time); every successful one is
   * checked against `endpoint.responseSchema` at run time, a mismatch being an emulator bug (500).
   */
  handler(ctx: RouteContext<E>): unknown;
}

/** The path a route serves below `/v4`: its alias, else its endpoint's. */
export function routePath(route: RouteSpec): string {
  return route.alias?.path ?? route.endpoint.path;
}

/** The table without handlers, for coverage reports and `GET /__emulator/routes`. */
export interface RouteDescription {
  method: HttpMethod;
  path: string;
  service: string;
  auth: "none" | "token";
  scopes: string[];
  grant: string | null;
  filterable: string[] | null;
  summary: string;
}

export function describeRoutes(routes: readonly RouteSpec[]): RouteDescription[] {
  return routes.map(({ endpoint, alias, grant, filterable }) => ({
    method: endpoint.method,
    path: `${API_PREFIX}${alias?.path ?? endpoint.path}`,
    service: endpoint.service,
    auth: endpoint.auth,
    scopes: [...endpoint.scopes],
    grant: grant === undefined ? null : grant.kind === "global" ? grant.grant : `${grant.object}:${grant.level}`,
    filterable: filterable ? [...filterable] : null,
    summary: endpoint.summary + (alias?.note ?? ""),
  }));
}

/** The body a handler reads: the output of the endpoint's body schema. */
export type RouteBody<E extends AnyEndpoint> = E extends { readonly body: infer B extends z.ZodType } ? z.output<B> : unknown;

/** Per-request view handed to handlers. */
export class RouteContext<E extends AnyEndpoint = AnyEndpoint> {
  constructor(
    readonly runtime: EmulatorRuntime,
    /** The route being served (its endpoint is `E`). */
    readonly route: RouteSpec,
    readonly request: FastifyRequest,
    readonly principal: Principal | undefined,
  ) {}

  /** The sdk's declaration of the endpoint being served. */
  get endpoint(): E {
    return this.route.endpoint as E;
  }

  /** The caller's account; only routes with `auth: "token"` (or a sent token) have one. */
  get account(): AccountState {
    if (!this.principal) throw new Error(`${this.describe()} needs a principal; its endpoint declares auth: "none"`);
    return this.principal.account;
  }

  get user(): UserRecord {
    if (!this.principal) throw new Error(`${this.describe()} needs a principal; its endpoint declares auth: "none"`);
    return this.principal.user;
  }

  /** The caller acting on its account: what operations take to change state and record events. */
  get actor(): NamedActor {
    return { runtime: this.runtime, account: this.account, username: this.user.username };
  }

  /** Emulated now as an API timestamp. */
  now(): string {
    return this.runtime.clock.timestamp();
  }

  param(name: string): string {
    const value = (this.request.params as Record<string, string | undefined>)[name];
    if (value === undefined) throw new Error(`route ${routePath(this.route)} has no parameter ${name}`);
    return value;
  }

  /** An integer path id; anything else names no object, so it is 404 like an unknown id. */
  intParam(name: string): number {
    return parseIdParam(this.param(name));
  }

  /** The object of the caller's account that a path id names (`find` looks it up), or 404. */
  lookup<T>(param: string, find: (account: AccountState, id: number) => T | undefined): T {
    return found(find(this.account, this.intParam(param)));
  }

  /** The JSON body validated with the endpoint's body schema (the sdk's); failures become the API's 400 entries. */
  body(): RouteBody<E> {
    const schema = this.endpoint.body;
    if (!schema) throw new Error(`${this.describe()} reads a body its endpoint does not declare`);
    // A POST without a body is validated as `{}` so the answer is "label is required", not a type error.
    const policy = { strict: this.runtime.strict, echoes: this.endpoint.echoedFields ?? [] };
    const parsed = parseBody(schema, this.request.body ?? {}, policy);
    if (!parsed.success) throw new ApiFailure(400, issuesToErrors(parsed.error));
    return parsed.data as RouteBody<E>;
  }

  /** Filters (X-Filter) and pages (page, page_size) already-rendered items into the collection envelope. */
  collection<T>(items: readonly T[]): CollectionPage<T> {
    const query = this.request.query as Record<string, string | string[] | undefined>;
    const page = parsePageRequest(query);
    const filter = compileFilter(this.request.headers["x-filter"], this.route.filterable ?? []);
    return paginate(applyFilter(items, filter), page);
  }

  private describe(): string {
    return `${this.endpoint.method} ${routePath(this.route)}`;
  }
}

export function parseIdParam(text: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(text)) throw notFound();
  return Number(text);
}

/** `/vpcs/{vpcId}` → `/v4/vpcs/:vpcId`. */
export function toFastifyPath(path: string): string {
  return API_PREFIX + path.replace(/\{([A-Za-z0-9_]+)\}/g, ":$1");
}

function checkGrant(ctx: RouteContext, principal: Principal, grant: GrantRequirement): void {
  if (grant.kind === "global") return checkGlobalGrant(principal, grant.grant);
  const id = ctx.intParam(grant.param);
  checkObjectGrant(principal, grant.object, id, grant.level, grant.exists(principal.account, id));
}

async function handleApiRequest(
  runtime: EmulatorRuntime,
  route: RouteSpec,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<unknown> {
  // What the endpoint accepts is known before anything can fail, so refusals carry it too.
  reply.header("X-Accepted-OAuth-Scopes", acceptedScopesHeader(route.endpoint.scopes));
  const allowed = countRequest(runtime, request, reply, route.endpoint.method, routePath(route), route.endpoint.paginated === true);
  const fault = pickFault(runtime, request);
  if (fault && (await applyFaultBefore(runtime, fault, request, reply))) return reply;
  if (!allowed) return tooManyRequests(reply);
  let result: unknown;
  try {
    result = await processApiRequest(runtime, route, request);
  } catch (error) {
    // A `reset-after` cuts the connection whatever the outcome, failures included.
    if (fault && applyFaultAfter(runtime, fault, request, reply)) return reply;
    throw error;
  }
  if (fault && applyFaultAfter(runtime, fault, request, reply)) return reply;
  return reply.code(200).send(result);
}

/**
 * Authentication, authorization, the handler and the response check; returns the body to send. A
 * paginated endpoint's items are filtered and paged here; a handler that returns nothing answers `{}`.
 */
async function processApiRequest(runtime: EmulatorRuntime, route: RouteSpec, request: FastifyRequest): Promise<unknown> {
  const { endpoint } = route;
  const principal = authenticate(runtime.state, request.headers.authorization, endpoint.auth === "token");
  if (principal) checkScopes(principal, endpoint.scopes);
  const ctx = new RouteContext(runtime, route, request, principal);
  if (route.grant && principal) checkGrant(ctx, principal, route.grant);

  const answer: unknown = await route.handler(ctx);
  const result = endpoint.paginated ? ctx.collection(answer as readonly unknown[]) : (answer ?? {});
  const checked = endpoint.responseSchema.safeParse(result);
  if (!checked.success) {
    const problems = issuesToErrors(checked.error).map((e) => `${e.field ?? "(root)"}: ${e.reason}`);
    throw new ApiFailure(500, REASONS.responseShape(problems.join("; ")));
  }
  if (endpoint.method !== "GET") runtime.persist();
  return result;
}

/**
 * Counts a request against the rate limits and puts the `X-RateLimit-*` and `Retry-After` headers
 * on its answer (api-facts P8-1: on every response). Returns false when it must be refused.
 */
function countRequest(
  runtime: EmulatorRuntime,
  request: FastifyRequest,
  reply: FastifyReply,
  method: string,
  path: string,
  collection: boolean,
) {
  const decision = runtime.rateLimiter.check({
    method,
    routePath: path,
    caller: bearerToken(request.headers.authorization) ?? request.socket.remoteAddress ?? "anonymous",
    collection,
  });
  reply.headers(decision.headers);
  return decision.allowed;
}

function tooManyRequests(reply: FastifyReply): FastifyReply {
  return reply.code(429).send(errorBody([{ reason: REASONS.tooManyRequests }]));
}

/** Answers 404 `Not found` for any unknown path, with faults and rate limits applied to API paths. */
export async function handleUnknownPath(runtime: EmulatorRuntime, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  if (isApiPath(request.url)) {
    // Unknown paths share one operation window: they name no endpoint.
    const allowed = countRequest(runtime, request, reply, request.method, "(unknown path)", false);
    const fault = pickFault(runtime, request);
    if (fault && (await applyFaultBefore(runtime, fault, request, reply))) return reply;
    if (!allowed) return tooManyRequests(reply);
  }
  return reply.code(404).send(errorBody([{ reason: REASONS.notFound }]));
}

export function isApiPath(url: string): boolean {
  return url === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url.startsWith(`${API_PREFIX}?`);
}

/** Registers the table and the 405 answers for known paths with unsupported methods. */
export function registerApiRoutes(app: FastifyInstance, routes: readonly RouteSpec[], runtime: EmulatorRuntime): void {
  const methodsByPath = new Map<string, Set<string>>();
  for (const route of routes) {
    const { method } = route.endpoint;
    const url = toFastifyPath(routePath(route));
    const methods = methodsByPath.get(url) ?? new Set<string>();
    if (methods.has(method)) throw new Error(`duplicate route ${method} ${routePath(route)}`);
    methods.add(method);
    methodsByPath.set(url, methods);
    app.route({ method, url, handler: (request, reply) => handleApiRequest(runtime, route, request, reply) });
  }
  for (const [url, methods] of methodsByPath) {
    const unsupported = ALL_METHODS.filter((m) => !methods.has(m));
    if (unsupported.length === 0) continue;
    const allow = [...methods].join(", ");
    app.route({
      method: unsupported,
      url,
      handler: async (request, reply) => {
        const allowed = countRequest(runtime, request, reply, request.method, url, false);
        const fault = pickFault(runtime, request);
        if (fault && (await applyFaultBefore(runtime, fault, request, reply))) return reply;
        if (!allowed) return tooManyRequests(reply);
        return reply
          .code(405)
          .header("Allow", allow)
          .send(errorBody([{ reason: REASONS.methodNotAllowed }]));
      },
    });
  }
}
