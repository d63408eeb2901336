/**
 * `ComputeClient`: the entry point. An instance owns its transport and options; nothing is
 * global, so two clients (say, one for the real API and one for the emulator) never interfere.
 *
 * Each area's module (its endpoints and zod schemas) is loaded the first time the area is used:
 * a provider process serving one resource kind, or a program that declares a few, loads the
 * areas it touches and not the whole API (building every schema cost each process tens of ms).
 */
import type { z } from "zod";
import { HttpClient, type CallOptions, type ClientOptions, type RequestOptions } from "./core/http";
import type { AnyEndpoint, EndpointBody, EndpointResult, PathParams } from "./core/endpoint";
import { Paginator, type ListOptions, type ListSpec } from "./core/pagination";
import type { Computes } from "./resources/computes";
import type { Domains } from "./resources/domains";
import type { Databases } from "./resources/databases";
import type { Events } from "./resources/events";
import type { Firewalls } from "./resources/firewalls";
import type { Images } from "./resources/images";
import type { Ips, Ipv6 } from "./resources/ips";
import type { Regions } from "./resources/regions";
import type { Tickets } from "./resources/support";
import type { Vlans } from "./resources/vlans";
import type { Vpcs } from "./resources/vpcs";

/** The `/account` area. */
export interface AccountResources {
  readonly events: Events;
}

/** The `/networking` area. */
export interface NetworkingResources {
  readonly firewalls: Firewalls;
  readonly ips: Ips;
  readonly ipv6: Ipv6;
  readonly vlans: Vlans;
}

/** The `/support` area. */
export interface SupportResources {
  readonly tickets: Tickets;
}

/** Each area's resource class, exported by `resources/<module>` under its name capitalized (`vpcs` → `Vpcs`). */
interface Areas {
  regions: Regions;
  computes: Computes;
  vpcs: Vpcs;
  databases: Databases;
  domains: Domains;
  images: Images;
  events: Events;
  tickets: Tickets;
  firewalls: Firewalls;
  ips: Ips;
  ipv6: Ipv6;
  vlans: Vlans;
}
type AreaName = keyof Areas;

/** The areas whose module is not named as they are. */
const AREA_MODULES: Partial<Record<AreaName, string>> = { tickets: "support", ipv6: "ips" };

/** Loads an area's module (on first use, see above) and makes its resource object. */
function makeArea<K extends AreaName>(name: K, http: HttpClient): Areas[K] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use; the types come from the imports above
  const module = require(`./resources/${AREA_MODULES[name] ?? name}`) as Record<string, new (http: HttpClient) => Areas[K]>;
  return new module[name[0]!.toUpperCase() + name.slice(1)]!(http);
}

/** Defines each area on `target` as a getter that makes it (`make`) on first use. */
function lazyAreas<O extends object>(target: O, names: AreaName[], enumerable: boolean, make: (name: AreaName) => unknown): O {
  for (const name of names) Object.defineProperty(target, name, { enumerable, get: () => make(name) });
  return target;
}

/** Typed client of the compute cloud API v4. Call `close()` when done. */
export class ComputeClient {
  /** Compute instances (`computes.instances`, with their configuration profiles, interfaces and addresses) and plans (`computes.types`). */
  declare readonly computes: Computes;
  /** Managed Databases: engines, MySQL and PostgreSQL instances, backups, credentials, SSL. */
  declare readonly databases: Databases;
  declare readonly domains: Domains;
  /** Private images (captured or uploaded) and public distribution images. */
  declare readonly images: Images;
  declare readonly regions: Regions;
  declare readonly vpcs: Vpcs;
  readonly account: AccountResources;
  readonly support: SupportResources;
  readonly networking: NetworkingResources;
  private readonly http: HttpClient;
  private readonly areas = new Map<AreaName, unknown>();

  constructor(options: ClientOptions) {
    this.http = new HttpClient(options);
    lazyAreas(this, ["computes", "databases", "domains", "images", "regions", "vpcs"], false, (name) => this.area(name));
    this.account = this.namespace(["events"]);
    this.support = this.namespace(["tickets"]);
    this.networking = this.namespace(["firewalls", "ips", "ipv6", "vlans"]);
  }

  /** One area's resource object, made (and its module loaded) on first use. */
  private area<K extends AreaName>(name: K): Areas[K] {
    let area = this.areas.get(name);
    if (area === undefined) {
      area = makeArea(name, this.http);
      this.areas.set(name, area);
    }
    return area as Areas[K];
  }

  /** A frozen group of areas (`client.networking`), each made on first use. */
  private namespace<T>(names: AreaName[]): T {
    return Object.freeze(lazyAreas({}, names, true, (name) => this.area(name))) as T;
  }

  /** A raw call through the same pipeline (validation, retries, error mapping, parsing). */
  request<S extends z.ZodType>(options: RequestOptions<S>): Promise<z.output<S>> {
    return this.http.request(options);
  }

  /** A call of any declared endpoint (`client.call(VPC_ENDPOINTS.get, { vpcId: 12 }, undefined)`), through the same pipeline. */
  call<E extends AnyEndpoint>(
    endpoint: E,
    params: PathParams<E["path"]>,
    body: EndpointBody<E>,
    options?: CallOptions,
  ): Promise<EndpointResult<E>> {
    return this.http.call(endpoint, params, body, options);
  }

  /** A raw paginated listing of any collection endpoint. */
  paginate<T>(spec: ListSpec<T>, options?: ListOptions): Paginator<T> {
    return new Paginator(this.http, spec, options);
  }

  /** Releases the connection pool the client created (a caller-supplied dispatcher stays open). */
  close(): Promise<void> {
    return this.http.close();
  }
}
