/**
 * VLANs (spec "Networking: IP addresses, IPv6, VLANs", api-facts P2-5). A VLAN exists while a
 * configuration profile interface of purpose `vlan` names it; the API only lists them.
 */
import { z } from "zod";
import { Timestamp } from "../core/schema";
import type { HttpClient } from "../core/http";
import { Paginator, type ListOptions } from "../core/pagination";

/** A VLAN: its label, region, the instances attached to it, and when it appeared. */
export const Vlan = z.looseObject({
  label: z.string(),
  region: z.string(),
  computes: z.array(z.number().int()),
  created: Timestamp,
});
export type Vlan = z.infer<typeof Vlan>;

/** `/networking/vlans` (scope `computes:read_only`). */
export class Vlans {
  constructor(private readonly http: HttpClient) {}

  /** Iterates the account's VLANs. */
  list(options?: ListOptions): Paginator<Vlan> {
    return new Paginator(this.http, { path: "/networking/vlans", item: Vlan }, options);
  }

  /** Every VLAN, collected. */
  listAll(options?: ListOptions): Promise<Vlan[]> {
    return this.list(options).all();
  }
}
