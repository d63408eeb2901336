/** `GET /networking/vlans` (scope `computes:read_only`, as recorded in `X-Accepted-OAuth-Scopes`). */
import { Collection } from "../../../sdk/core/schema";
import { Vlan } from "../../../sdk/resources/vlans";
import type { RouteSpec } from "../../core/routes";
import { accountVlans } from "./render";

export const VLAN_FILTERABLE = ["label", "region"] as const;

export const vlanRoutes: RouteSpec[] = [
  {
    service: "vlans",
    auth: "token",
    scopes: ["computes:read_only"],
    method: "GET",
    path: "/networking/vlans",
    summary: "VLANs of the account, derived from instances' vlan interfaces",
    filterable: VLAN_FILTERABLE,
    response: Collection(Vlan),
    handler: (ctx) => ctx.collection(accountVlans(ctx.account, ctx.user)),
  },
];
