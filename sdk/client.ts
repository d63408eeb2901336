/**
 * `ComputeClient`: the entry point. An instance owns its transport and options; nothing is
 * global, so two clients (say, one for the real API and one for the emulator) never interfere.
 */
import type { z } from "zod";
import { HttpClient, type CallOptions, type ClientOptions, type RequestOptions } from "./core/http";
import type { AnyEndpoint, EndpointBody, EndpointResult, PathParams } from "./core/endpoint";
import { Paginator, type ListOptions, type ListSpec } from "./core/pagination";
import { Domains } from "./resources/domains";
import { Databases } from "./resources/databases";
import { Events } from "./resources/events";
import { Firewalls } from "./resources/firewalls";
import { Images } from "./resources/images";
import { Ips, Ipv6 } from "./resources/ips";
import { Regions } from "./resources/regions";
import { Tickets } from "./resources/support";
import { Vlans } from "./resources/vlans";
import { Vpcs } from "./resources/vpcs";

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

/** Typed client of the compute cloud API v4. Call `close()` when done. */
export class ComputeClient {
  readonly regions: Regions;
  readonly vpcs: Vpcs;
  /** Managed Databases: engines, MySQL and PostgreSQL instances, backups, credentials, SSL. */
  readonly databases: Databases;
  readonly domains: Domains;
  /** Private images (captured or uploaded) and public distribution images. */
  readonly images: Images;
  readonly account: AccountResources;
  readonly support: SupportResources;
  readonly networking: NetworkingResources;
  private readonly http: HttpClient;

  constructor(options: ClientOptions) {
    this.http = new HttpClient(options);
    this.regions = new Regions(this.http);
    this.vpcs = new Vpcs(this.http);
    this.databases = new Databases(this.http);
    this.domains = new Domains(this.http);
    this.images = new Images(this.http);
    this.account = Object.freeze({ events: new Events(this.http) });
    this.support = Object.freeze({ tickets: new Tickets(this.http) });
    this.networking = Object.freeze({
      firewalls: new Firewalls(this.http),
      ips: new Ips(this.http),
      ipv6: new Ipv6(this.http),
      vlans: new Vlans(this.http),
    });
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
