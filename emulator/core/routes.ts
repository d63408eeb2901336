/**
 * The route table: every API endpoint the emulator serves is one declarative `RouteSpec`
 * (method, spec-style path, auth, scopes, grant, filterable fields, response schema, handler).
 * The table stays introspectable — `describeRoutes` lists it without the handlers — so coverage
 * can be generated from it. `registerApiRoutes` turns the table into fastify routes and adds,
 * for every known path, a 405 for the methods it does not serve.
 *
 * Order of checks for each request (api-facts P7-1): fault injection (the network in front of
 * the API), token (401), OAuth scopes (401), grants (403, or 404 for a missing object), then the
 * handler (400 validation, 404 unknown ids, …).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import type { CollectionPage } from "../../sdk/core/schema";
import { issuesToErrors } from "../../sdk/core/schema";
import type { AccountState, GrantPermission, UserRecord } from "./state";
import type { EmulatorRuntime, NamedActor } from "./runtime";
import {
  type Principal,
  acceptedScopesHeader,
  authenticate,
  bearerToken,
  checkGlobalGrant,
  checkObjectGrant,
  checkScopes,
  grantedScopesHeader,
} from "./auth";
import { ApiFailure, REASONS, errorBody, found, notFound } from "./errors";
import { applyFilter, compileFilter } from "./filter";
import { paginate, parsePageRequest } from "./pagination";
import { applyFaultAfter, applyFaultBefore, pickFault } from "./fault-responder";

/** The API's base path segment; all API routes live below it. */
export const API_PREFIX = "/v4";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";
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

export interface RouteSpec {
  method: HttpMethod;
  /** Path below `/v4`, with `{name}` parameters as the spec writes them (`/vpcs/{vpcId}`). */
  path: string;
  /** The service folder that implements it (`vpcs`, `regions`, …). */
  service: string;
  /** `none`: no token needed (a token that is sent must still be valid); `token`: a valid token is required. */
  auth: "none" | "token";
  /** OAuth scopes the endpoint needs (all of them); empty = no scope listed (`-` in the spec). */
  scopes: readonly string[];
  grant?: GrantRequirement;
  /** For collections: fields `X-Filter` may use. */
  filterable?: readonly string[];
  /** sdk schema every successful response must satisfy; a mismatch is an emulator bug (500). */
  response?: z.ZodType;
  summary: string;
  handler: (ctx: RouteContext) => unknown;
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
  return routes.map((r) => ({
    method: r.method,
    path: `${API_PREFIX}${r.path}`,
    service: r.service,
    auth: r.auth,
    scopes: [...r.scopes],
    grant: r.grant === undefined ? null : r.grant.kind === "global" ? r.grant.grant : `${r.grant.object}:${r.grant.level}`,
    filterable: r.filterable ? [...r.filterable] : null,
    summary: r.summary,
  }));
}

/** Per-request view handed to handlers. */
export class RouteContext {
  constructor(
    readonly runtime: EmulatorRuntime,
    readonly route: RouteSpec,
    readonly request: FastifyRequest,
    readonly principal: Principal | undefined,
  ) {}

  /** The caller's account; only routes with `auth: "token"` (or a sent token) have one. */
  get account(): AccountState {
    if (!this.principal) throw new Error(`${this.route.method} ${this.route.path} needs a principal; declare auth: "token"`);
    return this.principal.account;
  }

  get user(): UserRecord {
    if (!this.principal) throw new Error(`${this.route.method} ${this.route.path} needs a principal; declare auth: "token"`);
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
    if (value === undefined) throw new Error(`route ${this.route.path} has no parameter ${name}`);
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

  /** Validates the JSON body with an sdk schema; failures become the API's 400 entries. */
  body<T extends z.ZodType>(schema: T): z.infer<T> {
    // A POST without a body is validated as `{}` so the answer is "label is required", not a type error.
    const parsed = schema.safeParse(this.request.body ?? {});
    if (!parsed.success) throw new ApiFailure(400, issuesToErrors(parsed.error));
    return parsed.data;
  }

  /** Filters (X-Filter) and pages (page, page_size) already-rendered items into the collection envelope. */
  collection<T>(items: readonly T[]): CollectionPage<T> {
    const query = this.request.query as Record<string, string | string[] | undefined>;
    const page = parsePageRequest(query);
    const filter = compileFilter(this.request.headers["x-filter"], this.route.filterable ?? []);
    return paginate(applyFilter(items, filter), page);
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

async function handleApiRequest(runtime: EmulatorRuntime, route: RouteSpec, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const fault = pickFault(runtime, request);
  if (fault && (await applyFaultBefore(runtime, fault, request, reply))) return reply;
  if (runtime.rateLimiter) {
    const decision = runtime.rateLimiter.check({
      method: route.method,
      routePath: route.path,
      caller: bearerToken(request.headers.authorization) ?? request.socket.remoteAddress ?? "anonymous",
      collection: route.method === "GET" && route.filterable !== undefined,
    });
    reply.headers(decision.headers);
    if (!decision.allowed) return reply.code(429).send(errorBody([{ reason: REASONS.tooManyRequests }]));
  }
  let result: unknown;
  try {
    result = await processApiRequest(runtime, route, request, reply);
  } catch (error) {
    // A `reset-after` cuts the connection whatever the outcome, failures included.
    if (fault && applyFaultAfter(runtime, fault, request, reply)) return reply;
    throw error;
  }
  if (fault && applyFaultAfter(runtime, fault, request, reply)) return reply;
  return reply.code(200).send(result);
}

/** Authentication, authorization, the handler and the response check; returns the body to send. */
async function processApiRequest(runtime: EmulatorRuntime, route: RouteSpec, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  reply.header("X-Accepted-OAuth-Scopes", acceptedScopesHeader(route.scopes));
  const principal = authenticate(runtime.state, request.headers.authorization, route.auth === "token");
  if (principal) {
    reply.header("X-OAuth-Scopes", grantedScopesHeader(principal.token));
    checkScopes(principal, route.scopes);
  }
  const ctx = new RouteContext(runtime, route, request, principal);
  if (route.grant && principal) checkGrant(ctx, principal, route.grant);

  const result = await route.handler(ctx);
  if (route.response) {
    const checked = route.response.safeParse(result);
    if (!checked.success) {
      throw new ApiFailure(500, REASONS.responseShape(issuesToErrors(checked.error).map((e) => `${e.field ?? "(root)"}: ${e.reason}`).join("; ")));
    }
  }
  if (route.method !== "GET") runtime.persist();
  return result;
}

/** Answers 404 `Not found` for any unknown path, with faults applied to API paths. */
export async function handleUnknownPath(runtime: EmulatorRuntime, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  if (isApiPath(request.url)) {
    const fault = pickFault(runtime, request);
    if (fault && (await applyFaultBefore(runtime, fault, request, reply))) return reply;
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
    const url = toFastifyPath(route.path);
    const methods = methodsByPath.get(url) ?? new Set<string>();
    if (methods.has(route.method)) throw new Error(`duplicate route ${route.method} ${route.path}`);
    methods.add(route.method);
    methodsByPath.set(url, methods);
    app.route({ method: route.method, url, handler: (request, reply) => handleApiRequest(runtime, route, request, reply) });
  }
  for (const [url, methods] of methodsByPath) {
    const unsupported = ALL_METHODS.filter((m) => !methods.has(m));
    if (unsupported.length === 0) continue;
    const allow = [...methods].join(", ");
    app.route({
      method: unsupported,
      url,
      handler: async (request, reply) => {
        const fault = pickFault(runtime, request);
        if (fault && (await applyFaultBefore(runtime, fault, request, reply))) return reply;
        return reply.code(405).header("Allow", allow).send(errorBody([{ reason: REASONS.methodNotAllowed }]));
      },
    });
  }
}
