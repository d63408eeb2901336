/**
 * VLANs (spec "Networking: IP addresses, IPv6, VLANs", api-facts P2-5). A VLAN exists while a
 * configuration profile interface of purpose `vlan` names it; the API only lists them.
 */
import { z } from "zod";
import { Timestamp, filterable } from "../core/schema";
import { endpoints, verbs } from "../core/endpoint";
import { resource } from "../core/resource";

/** A VLAN: its label, region, the instances attached to it, and when it appeared. */
export const Vlan = z.looseObject({
  label: filterable(z.string()),
  region: filterable(z.string()),
  computes: z.array(z.number().int()),
  created: Timestamp,
});
export type Vlan = z.infer<typeof Vlan>;

/** The `/networking/vlans` endpoint (scope `computes:read_only`). */
export const VLAN_ENDPOINTS = endpoints("networking.vlans", {
  list: {
    ...verbs({ service: "vlans", auth: "token", scopes: ["computes:read_only"] }).list,
    path: "/networking/vlans",
    summary: "VLANs of the account, derived from instances' vlan interfaces",
    response: Vlan,
  },
});

/** `/networking/vlans` (scope `computes:read_only`). */
export class Vlans extends resource(VLAN_ENDPOINTS) {}
