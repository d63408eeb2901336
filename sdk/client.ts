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

/* eslint-disable @typescript-eslint/no-require-imports -- each area's module is loaded on first use (see above); its types come from the imports above */
const AREAS = {
  regions: (http: HttpClient): Regions => new (require("./resources/regions") as typeof import("./resources/regions")).Regions(http),
  vpcs: (http: HttpClient): Vpcs => new (require("./resources/vpcs") as typeof import("./resources/vpcs")).Vpcs(http),
  databases: (http: HttpClient): Databases =>
    new (require("./resources/databases") as typeof import("./resources/databases")).Databases(http),
  domains: (http: HttpClient): Domains => new (require("./resources/domains") as typeof import("./resources/domains")).Domains(http),
  images: (http: HttpClient): Images => new (require("./resources/images") as typeof import("./resources/images")).Images(http),
  events: (http: HttpClient): Events => new (require("./resources/events") as typeof import("./resources/events")).Events(http),
  tickets: (http: HttpClient): Tickets => new (require("./resources/support") as typeof import("./resources/support")).Tickets(http),
  firewalls: (http: HttpClient): Firewalls =>
    new (require("./resources/firewalls") as typeof import("./resources/firewalls")).Firewalls(http),
  ips: (http: HttpClient): Ips => new (require("./resources/ips") as typeof import("./resources/ips")).Ips(http),
  ipv6: (http: HttpClient): Ipv6 => new (require("./resources/ips") as typeof import("./resources/ips")).Ipv6(http),
  vlans: (http: HttpClient): Vlans => new (require("./resources/vlans") as typeof import("./resources/vlans")).Vlans(http),
};
/* eslint-enable @typescript-eslint/no-require-imports */

type AreaName = keyof typeof AREAS;

/** Typed client of the compute cloud API v4. Call `close()` when done. */
export class ComputeClient {
  /** Managed Databases: engines, MySQL and PostgreSQL instances, backups, credentials, SSL. */
  get databases(): Databases {
    return this.area("databases");
  }
  get domains(): Domains {
    return this.area("domains");
  }
  /** Private images (captured or uploaded) and public distribution images. */
  get images(): Images {
    return this.area("images");
  }
  get regions(): Regions {
    return this.area("regions");
  }
  get vpcs(): Vpcs {
    return this.area("vpcs");
  }
  readonly account: AccountResources;
  readonly support: SupportResources;
  readonly networking: NetworkingResources;
  private readonly http: HttpClient;
  private readonly areas = new Map<AreaName, unknown>();

  constructor(options: ClientOptions) {
    this.http = new HttpClient(options);
    this.account = this.namespace(["events"]);
    this.support = this.namespace(["tickets"]);
    this.networking = this.namespace(["firewalls", "ips", "ipv6", "vlans"]);
  }

  /** One area's resource object, made (and its module loaded) on first use. */
  private area<K extends AreaName>(name: K): ReturnType<(typeof AREAS)[K]> {
    let area = this.areas.get(name);
    if (area === undefined) {
      area = AREAS[name](this.http);
      this.areas.set(name, area);
    }
    return area as ReturnType<(typeof AREAS)[K]>;
  }

  /** A frozen group of areas (`client.networking`), each made on first use. */
  private namespace<T>(names: AreaName[]): T {
    const group = {};
    for (const name of names) Object.defineProperty(group, name, { enumerable: true, get: () => this.area(name) });
    return Object.freeze(group) as T;
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
