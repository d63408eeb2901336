/**
 * Resource classes derived from an area's endpoint table (the Stainless model: declare the endpoint,
 * derive the method). Each endpoint of a table is a method of the same name taking the path's
 * parameters in order, then the body when the endpoint has one, then the call's options:
 * `VPC_ENDPOINTS.subnets.update` (`PUT /vpcs/{vpcId}/subnets/{vpcSubnetId}`) is
 * `client.vpcs.subnets.update(vpcId, subnetId, body, options?)`. A collection answers a `Paginator`
 * and its `list` gets a `listAll`; an answer of `{}` resolves `undefined`; a nested table is a
 * sub-resource. What is special about an endpoint (an upload, a multipart form, a waiter, a second
 * path) is a method of a class that extends the derived one.
 */
import type { CallOptions, HttpClient } from "./http";
import type { ListOptions, Paginator } from "./pagination";
import type { PathParam } from "./path";
import { Empty } from "./schema";
import { isEndpoint, type AnyEndpoint, type EndpointBody, type EndpointItem, type EndpointResult, type EndpointTree } from "./endpoint";

/** `"/vpcs/{vpcId}/subnets/{vpcSubnetId}"` → `[PathParam, PathParam]`: the values a method takes first, in the path's order. */
export type PathArgs<P extends string> = P extends `${string}{${string}}${infer Rest}` ? [PathParam, ...PathArgs<Rest>] : [];

/** What a call resolves: nothing for an answer of `{}`, else the parsed answer. */
type Answer<E extends AnyEndpoint> = [typeof Empty] extends [E["response"]] ? void : EndpointResult<E>;

/** The method an endpoint derives: `(...path values, body?, options?)`. */
export type EndpointMethodOf<E extends AnyEndpoint> = E extends { readonly paginated: true }
  ? (...args: [...PathArgs<E["path"]>, options?: ListOptions]) => Paginator<EndpointItem<E>>
  : [EndpointBody<E>] extends [undefined]
    ? (...args: [...PathArgs<E["path"]>, options?: CallOptions]) => Promise<Answer<E>>
    : (...args: [...PathArgs<E["path"]>, body: EndpointBody<E>, options?: CallOptions]) => Promise<Answer<E>>;

/** A table's `listAll`, when its `list` is a collection: every item, collected. */
type ListAll<T> = T extends { readonly list: infer L extends AnyEndpoint & { readonly paginated: true } }
  ? {
      /** Every item of the collection `list` iterates, collected. */
      readonly listAll: (...args: [...PathArgs<L["path"]>, options?: ListOptions]) => Promise<EndpointItem<L>[]>;
    }
  : unknown;

/** A second path of one method (`#via` in its name) is no method of its own. */
type MethodKey<T, K extends keyof T> = T[K] extends AnyEndpoint ? (T[K]["name"] extends `${string}#${string}` ? never : K) : K;

/** The methods and sub-resources a table derives. */
export type Derived<T> = {
  readonly [K in keyof T as MethodKey<T, K>]: T[K] extends AnyEndpoint ? EndpointMethodOf<T[K]> : Derived<T[K]>;
} & ListAll<T>;

/** What every derived resource holds: the client's pipeline and the table it calls. */
export abstract class Resource<T extends EndpointTree = EndpointTree> {
  constructor(
    protected readonly http: HttpClient,
    protected readonly endpoints: T,
  ) {}
}

/** The class a table derives; `new (resource(TABLE))(http)` calls `TABLE`, `new …(http, other)` a table of the same shape. */
export type ResourceClass<T extends EndpointTree> = new (http: HttpClient, endpoints?: T) => Resource<T> & Derived<T>;

const derived = new WeakMap<EndpointTree, ResourceClass<EndpointTree>>();

/** What a class with hooks changes in what its table derives. */
export interface ResourceHooks<S, O> {
  /** Nested tables served by a class with hooks of its own (`{ ips: VpcIps }`). */
  readonly sub?: S;
  /** Endpoints whose method, or nested tables whose resource, the class writes itself (a second path to choose, a multipart form). */
  readonly own?: readonly O[];
}

/** The resource class of an endpoint table, less the methods and sub-resources its hooks provide. */
export function resource<
  T extends EndpointTree,
  S extends { [K in keyof T]?: new (http: HttpClient) => object } = object,
  O extends keyof T | "listAll" = never,
>(
  table: T,
  hooks: ResourceHooks<S, O> = {},
): new (
  http: HttpClient,
  endpoints?: T,
) => Resource<T> & Omit<Derived<T>, keyof S | O> & { readonly [K in keyof S]: InstanceType<NonNullable<S[K]>> } {
  const plain = !hooks.sub && !hooks.own;
  const cached = plain ? derived.get(table) : undefined;
  if (cached) return cached as never;
  const made = class extends Resource<T> {
    constructor(http: HttpClient, endpoints: T = table) {
      super(http, endpoints);
      for (const [key, node] of Object.entries(endpoints)) {
        if (isEndpoint(node) || hooks.own?.includes(key as O)) continue;
        const Sub = (hooks.sub?.[key] as ResourceClass<EndpointTree> | undefined) ?? resource(node);
        Object.defineProperty(this, key, { value: new Sub(http, node), enumerable: true });
      }
    }
  };
  for (const [key, node] of Object.entries(table)) {
    if (!isEndpoint(node) || node.name.includes("#")) continue;
    if (!hooks.own?.includes(key as O)) define(made.prototype, key, methodOf(key, node));
    if (key === "list" && node.paginated && !hooks.own?.includes("listAll" as O)) {
      define(made.prototype, "listAll", function (this: { list(...args: unknown[]): Paginator<unknown> }, ...args: unknown[]) {
        return this.list(...args).all();
      });
    }
  }
  if (plain) derived.set(table, made as never);
  return made as never;
}

function define(prototype: object, key: string, value: (...args: never[]) => unknown): void {
  Object.defineProperty(prototype, key, { value, writable: true, configurable: true });
}

/** One endpoint's method; it calls the endpoint of its key in the instance's table. */
function methodOf(key: string, declared: AnyEndpoint) {
  const count = declared.params.length;
  const takesBody = declared.body !== undefined || declared.multipart !== undefined;
  const pathOf = (args: unknown[]) => Object.fromEntries(declared.params.map((name, i) => [name, args[i]]));
  const own = (self: Resource): AnyEndpoint => (self as unknown as { endpoints: Record<string, AnyEndpoint> }).endpoints[key]!;
  const http = (self: Resource): HttpClient => (self as unknown as { http: HttpClient }).http;
  if (declared.paginated) {
    return function (this: Resource, ...args: unknown[]) {
      return http(this).paginate(own(this) as never, pathOf(args) as never, args[count] as ListOptions | undefined);
    };
  }
  const empty = declared.response === Empty;
  return async function (this: Resource, ...args: unknown[]) {
    const body = takesBody ? args[count] : undefined;
    const options = (args[takesBody ? count + 1 : count] ?? {}) as CallOptions;
    const answer: unknown = await http(this).call(own(this) as never, pathOf(args) as never, body as never, options);
    return empty ? undefined : answer;
  };
}
