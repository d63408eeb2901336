/**
 * `ComputeClient`: the entry point. An instance owns its transport and options; nothing is
 * global, so two clients (say, one for the real API and one for the emulator) never interfere.
 */
import type { z } from "zod";
import { HttpClient, type ClientOptions, type RequestOptions } from "./core/http";
import { Paginator, type ListOptions, type ListSpec } from "./core/pagination";
import { Events } from "./resources/events";
import { Regions } from "./resources/regions";
import { Tickets } from "./resources/support";
import { Vpcs } from "./resources/vpcs";

/** The `/account` area. */
export interface AccountResources {
  readonly events: Events;
}

/** The `/support` area. */
export interface SupportResources {
  readonly tickets: Tickets;
}

/** Typed client of the compute cloud API v4. Call `close()` when done. */
export class ComputeClient {
  readonly regions: Regions;
  readonly vpcs: Vpcs;
  readonly account: AccountResources;
  readonly support: SupportResources;
  private readonly http: HttpClient;

  constructor(options: ClientOptions) {
    this.http = new HttpClient(options);
    this.regions = new Regions(this.http);
    this.vpcs = new Vpcs(this.http);
    this.account = Object.freeze({ events: new Events(this.http) });
    this.support = Object.freeze({ tickets: new Tickets(this.http) });
  }

  /** A raw call through the same pipeline (validation, retries, error mapping, parsing). */
  request<S extends z.ZodType>(options: RequestOptions<S>): Promise<z.output<S>> {
    return this.http.request(options);
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
