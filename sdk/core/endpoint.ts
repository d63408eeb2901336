/**
 * Endpoints declared once, as data. An `Endpoint` says everything the API's endpoint tables say
 * about one method + path: the spec-style path template (`/vpcs/{vpcId}/subnets/{vpcSubnetId}`),
 * the strict body schema (or a multipart body), the tolerant response schema (for a collection:
 * the item schema and `paginated: true`), extra query parameters, the OAuth scopes, whether a
 * token is needed, and a one-line summary.
 *
 * Everything else derives from the declaration: the resource classes' methods
 * (`HttpClient.call`, `HttpClient.paginate`), the list of every endpoint (`sdk/endpoints.ts`),
 * the fixture test, the coverage table, and the emulator's route table (a route references an
 * endpoint and adds its handler, grant and filter rules).
 */
import type { FormData } from "undici";
import type { z } from "zod";
import { Collection, Empty, type CollectionPage } from "./schema";
import { encodeSegment, type PathParam } from "./path";

/** The methods the API's endpoint tables use. */
export type EndpointMethod = "GET" | "POST" | "PUT" | "DELETE";

/** `"/vpcs/{vpcId}/subnets/{vpcSubnetId}"` → `"vpcId" | "vpcSubnetId"` (any name for a path not known literally). */
export type PathParamNames<P extends string> = string extends P
  ? string
  : P extends `${string}{${infer Name}}${infer Rest}`
    ? Name | PathParamNames<Rest>
    : never;

/** The values of a path template's parameters: `{ vpcId: 12 }`. Each is sent as one encoded segment. */
export type PathParams<P extends string> = { readonly [K in PathParamNames<P>]: PathParam };

/** A multipart/form-data body: the name of its file field (`file` for ticket attachments). */
export interface MultipartBody {
  readonly file: string;
}

/** What an endpoint declaration states; `endpoint()` turns it into an `Endpoint`. */
export interface EndpointDefinition {
  /** Stable name: the accessor path on `ComputeClient` (`vpcs.subnets.create`); `#via` marks a second path of one method. */
  readonly name: string;
  /** The area, named as the sdk file and the emulator service are (`vpcs`, `firewalls`, `ips`). */
  readonly service: string;
  readonly method: EndpointMethod;
  /** Below `/v4`, with `{name}` parameters as the spec and the emulator write them (`/vpcs/{vpcId}`). */
  readonly path: string;
  /** One line, for route listings and the coverage table. */
  readonly summary: string;
  /** `none`: no token needed (a sent token must still be valid); `token`: a valid token is required. */
  readonly auth: "none" | "token";
  /** OAuth scopes the endpoint needs, all of them; empty when the spec lists none (`-`). */
  readonly scopes: readonly string[];
  /** Strict schema of the JSON body: the sdk validates before sending, the emulator with the same schema. */
  readonly body?: z.ZodType;
  /**
   * Fields real clients send back in the body although the body schema has none of them: read-only
   * fields of an answer (a rule set's `version`) or the path's own id (`ticket_id`). The API ignores
   * them; the emulator drops them even in strict mode, where other unknown fields are refused.
   */
  readonly echoedFields?: readonly string[];
  /** A multipart/form-data body instead of JSON. */
  readonly multipart?: MultipartBody;
  /** Tolerant schema of the 2xx body; for a paginated endpoint, of one item. */
  readonly response: z.ZodType;
  /** A collection: answers the envelope `{data, page, pages, results}` of `response` items, takes `page`/`page_size`/`X-Filter`. */
  readonly paginated?: boolean;
  /** Query parameters besides the pagination ones (`skip_ipv6_rdns`). */
  readonly query?: z.ZodType;
  /** May it be repeated after an ambiguous failure? Default: by method (GET/PUT/DELETE yes, POST no). Never true for a create. */
  readonly idempotent?: boolean;
}

/** Zero or more endpoints, in nested objects (`VPC_ENDPOINTS.subnets.create`). */
export interface EndpointTree {
  readonly [key: string]: AnyEndpoint | EndpointTree;
}

/** A declared endpoint: its definition plus what derives from it. */
export type Endpoint<D extends EndpointDefinition = EndpointDefinition> = D & {
  /** The path's parameter names, in order. */
  readonly params: readonly PathParamNames<D["path"]>[];
  /** The schema of the whole 2xx body: `Collection(response)` for a paginated endpoint, else `response`. */
  readonly responseSchema: z.ZodType<EndpointResult<D>>;
};

/** Any declared endpoint. */
export type AnyEndpoint = Endpoint<EndpointDefinition>;

/** The body a call takes: the body schema's input, a `FormData` for multipart, else `undefined`. */
export type EndpointBody<E extends EndpointDefinition> = E extends { readonly body: infer B extends z.ZodType }
  ? z.input<B>
  : E extends { readonly multipart: MultipartBody }
    ? FormData
    : undefined;

/** One item of a paginated endpoint, or the record of another. */
export type EndpointItem<E extends EndpointDefinition> = z.output<E["response"]>;

/** What one call resolves: a page of a paginated endpoint, else the parsed record. */
export type EndpointResult<E extends EndpointDefinition> = E extends { readonly paginated: true }
  ? CollectionPage<EndpointItem<E>>
  : EndpointItem<E>;

/** The extra query parameters a call may send. */
export type EndpointQuery<E extends EndpointDefinition> = E extends { readonly query: infer Q extends z.ZodType } ? z.input<Q> : never;

const PARAM = /\{([^}]+)\}/g;

/**
 * Declares an endpoint. Checks the declaration at load time (a path below `/`, unique parameter
 * names, bodies only on POST and PUT, collections only on GET) and derives `params` and
 * `responseSchema` once.
 */
export function endpoint<const D extends EndpointDefinition>(definition: D): Endpoint<D> {
  const where = `${definition.name} (${definition.method} ${definition.path})`;
  const params = [...definition.path.matchAll(PARAM)].map((m) => m[1]!);
  const problems = [
    !definition.path.startsWith("/") && "the path must start with /",
    new Set(params).size !== params.length && "a path parameter is named twice",
    (definition.body || definition.multipart) && !["POST", "PUT"].includes(definition.method) && "only POST and PUT take a body",
    definition.body && definition.multipart && "a body is JSON or multipart, not both",
    definition.paginated && definition.method !== "GET" && "only GET endpoints are paginated",
  ].filter(Boolean);
  if (problems.length > 0) throw new Error(`endpoint ${where}: ${problems.join("; ")}`);
  const responseSchema = definition.paginated ? Collection(definition.response) : definition.response;
  return Object.freeze({ ...definition, params, responseSchema }) as unknown as Endpoint<D>;
}

/** True for a value made by `endpoint()`. */
export function isEndpoint(value: unknown): value is AnyEndpoint {
  const e = value as Partial<AnyEndpoint> | null;
  return typeof e === "object" && e !== null && typeof e.name === "string" && typeof e.path === "string" && e.responseSchema !== undefined;
}

/** Every endpoint of a tree, depth first in declaration order. */
export function endpointsOf(tree: EndpointTree): AnyEndpoint[] {
  return Object.values(tree).flatMap((node) => (isEndpoint(node) ? [node] : endpointsOf(node as EndpointTree)));
}

/**
 * The request path of a call: each `{name}` replaced by its value, encoded as one segment
 * (`private/12` → `private%2F12`). Throws `ClientValidationError` for an empty, `.` or `..` value.
 */
export function endpointPath<E extends AnyEndpoint>(endpoint: E, params: PathParams<E["path"]>): string {
  const values = params as Readonly<Record<string, PathParam>>;
  return endpoint.path.replace(PARAM, (_whole, name: string) => encodeSegment(values[name]!));
}

/** `POST /support/tickets/12/attachments`: the method and path with the values as given, for messages. */
export function describeCall<E extends AnyEndpoint>(endpoint: E, params: PathParams<E["path"]>): string {
  const values = params as Readonly<Record<string, PathParam>>;
  return `${endpoint.method} ${endpoint.path.replace(PARAM, (_whole, name: string) => String(values[name]))}`;
}

const patterns = new WeakMap<AnyEndpoint, RegExp>();

/**
 * The path parameters of a concrete path (`/vpcs/12/subnets/7?page=2`, query ignored) if it is
 * one of this endpoint's paths, decoded (`private%2F12` → `private/12`); else `undefined`.
 */
export function matchEndpointPath(endpoint: AnyEndpoint, concretePath: string): Record<string, string> | undefined {
  let pattern = patterns.get(endpoint);
  if (!pattern) {
    const source = endpoint.path
      .split(PARAM)
      .map((part, i) => (i % 2 === 1 ? "([^/]+)" : part.replace(/[.*+?^$()|[\]\\{}]/g, "\\$&")))
      .join("");
    pattern = new RegExp(`^${source}$`);
    patterns.set(endpoint, pattern);
  }
  const match = pattern.exec(concretePath.split("?")[0]!);
  if (!match) return undefined;
  return Object.fromEntries(endpoint.params.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
}

/** The accessor path on `ComputeClient` that serves an endpoint: its name without a `#via` suffix. */
export function endpointAccessor(endpoint: Pick<EndpointDefinition, "name">): string {
  return endpoint.name.split("#")[0]!;
}

/** An endpoint as an area's table states it: its definition without the name its place in the table gives it. */
export type EndpointDeclaration = Omit<EndpointDefinition, "name"> & {
  /** Only for a second path of one method (`vpcs.ips.listAccount#networking`): such an endpoint is not a method of its own. */
  readonly name?: string;
};

/** An area's table of declarations, nested as the client's accessors are (`subnets.create`). */
export interface DeclarationTree {
  readonly [key: string]: EndpointDeclaration | DeclarationTree;
}

/** The endpoints a table of declarations declares, in the table's shape. */
export type DeclaredEndpoints<T> = {
  readonly [K in keyof T]: T[K] extends EndpointDeclaration
    ? Endpoint<T[K] & { readonly name: T[K] extends { readonly name: infer N extends string } ? N : string }>
    : DeclaredEndpoints<T[K]>;
};

/**
 * Declares an area's endpoints: each one's name is the accessor its place in the table gives it
 * below `prefix` (`endpoints("vpcs", { subnets: { create } })` names `vpcs.subnets.create`).
 */
export function endpoints<const T extends DeclarationTree>(prefix: string, table: T): DeclaredEndpoints<T> {
  const declared = Object.entries(table).map(([key, node]) => {
    const name = `${prefix}.${key}`;
    if (typeof node.method !== "string") return [key, endpoints(name, node as DeclarationTree)];
    return [key, endpoint({ name, ...(node as EndpointDeclaration) })];
  });
  return Object.freeze(Object.fromEntries(declared)) as DeclaredEndpoints<T>;
}

/** Who may call an endpoint: its area, whether a token is needed, and the scopes it needs. */
export type Access = Pick<EndpointDefinition, "service" | "auth" | "scopes">;

/** The parts of a declaration one kind of call shares, for one access (`{ ...WRITE.delete, path, summary }`). */
export interface Verbs<A extends Access> {
  readonly get: A & { readonly method: "GET" };
  /** A collection: `response` is its item. */
  readonly list: A & { readonly method: "GET"; readonly paginated: true };
  readonly post: A & { readonly method: "POST" };
  /** A POST that answers `{}` (close a ticket, restore a backup). */
  readonly action: A & { readonly method: "POST"; readonly response: typeof Empty };
  readonly put: A & { readonly method: "PUT" };
  /** A delete answers `{}`. */
  readonly delete: A & { readonly method: "DELETE"; readonly response: typeof Empty };
}

/** The verbs of one access: `const WRITE = verbs({ service: "vpcs", auth: "token", scopes: ["vpc:read_write"] })`. */
export function verbs<const A extends Access>(access: A): Verbs<A> {
  return Object.freeze({
    get: { ...access, method: "GET" },
    list: { ...access, method: "GET", paginated: true },
    post: { ...access, method: "POST" },
    action: { ...access, method: "POST", response: Empty },
    put: { ...access, method: "PUT" },
    delete: { ...access, method: "DELETE", response: Empty },
  } as const);
}

/**
 * The accesses of an area whose spec table reads with `<scope>:read_only` and writes with
 * `<scope>:read_write`, both with a token: `const [READ, WRITE] = readWrite("domains", "domains")`.
 */
export function readWrite<const S extends string, const N extends string>(service: S, scope: N) {
  return [
    verbs({ service, auth: "token", scopes: [`${scope}:read_only`] as const }),
    verbs({ service, auth: "token", scopes: [`${scope}:read_write`] as const }),
  ] as const;
}

/** What `crud` declares, each verb when named: its summary (for a write, its summary and body schema). */
export interface CrudVerbs {
  readonly list?: string;
  readonly create?: readonly [summary: string, body: z.ZodType];
  readonly get?: string;
  readonly update?: readonly [summary: string, body: z.ZodType];
  readonly delete?: string;
}

type Summary<V> = V extends readonly [infer S, z.ZodType] ? S : V;
type Body<V> = V extends readonly [string, infer B] ? { readonly body: B } : unknown;
type CrudVerb<A extends Access, W extends Access, K, R extends z.ZodType> = K extends "list"
  ? Verbs<A>["list"] & { readonly response: R }
  : K extends "get"
    ? Verbs<A>["get"] & { readonly response: R }
    : K extends "create"
      ? Verbs<W>["post"] & { readonly response: R }
      : K extends "update"
        ? Verbs<W>["put"] & { readonly response: R }
        : Verbs<W>["delete"];

/** The declarations `crud` makes: the collection's verbs on `P`, the item's on `P/{I}`. */
export type CrudGroup<A extends Access, W extends Access, P extends string, I extends string, R extends z.ZodType, V extends CrudVerbs> = {
  readonly [K in keyof V]-?: { readonly path: K extends "list" | "create" ? P : `${P}/{${I}}`; readonly summary: Summary<V[K]> } & Body<
    V[K]
  > &
    CrudVerb<A, W, K, R>;
};

/**
 * A collection and its items, declared at once: `crud(READ, WRITE, "/vpcs", "vpcId", Vpc, { list: "VPC collection", … })`
 * declares `list` and `create` on `path`, `get`, `update` and `delete` on `path/{id}`, reads with
 * `read`'s access, writes with `write`'s, each answering `response` (a delete `{}`). Only the verbs
 * `named` names are declared (a summary; a write's summary and body schema), each an ordinary
 * declaration that `endpoints()` names by its place; other endpoints of the group are written beside
 * it (`{ ...crud(…), boot: … }`). The client reference page reads the call's arguments and the
 * verb's entry (`scripts/docs/client.ts`).
 */
export function crud<
  A extends Access,
  W extends Access,
  const P extends string,
  const I extends string,
  R extends z.ZodType,
  const V extends CrudVerbs,
>(read: Verbs<A>, write: Verbs<W>, path: P, id: I, response: R, named: V): CrudGroup<A, W, P, I, R, V> {
  const item = `${path}/{${id}}`;
  const withBody = (v: CrudVerbs["create"]) => (v ? { summary: v[0], body: v[1] } : undefined);
  const made = {
    list: named.list && { ...read.list, path, summary: named.list, response },
    create: named.create && { ...write.post, path, ...withBody(named.create), response },
    get: named.get && { ...read.get, path: item, summary: named.get, response },
    update: named.update && { ...write.put, path: item, ...withBody(named.update), response },
    delete: named.delete && { ...write.delete, path: item, summary: named.delete },
  };
  return Object.freeze(Object.fromEntries(Object.entries(made).filter(([, v]) => v !== undefined))) as never;
}
