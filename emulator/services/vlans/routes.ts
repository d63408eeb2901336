/** `GET /networking/vlans` (scope `computes:read_only`, as recorded in `X-Accepted-OAuth-Scopes`). */
import { Vlan } from "../../../sdk/resources/vlans";
import { routeTable } from "../../core/route-table";
import type { RouteSpec } from "../../core/routes";
import { accountVlans } from "./render";

export const VLAN_FILTERABLE = ["label", "region"] as const;

const api = routeTable("vlans", { read: ["computes:read_only"] });
const vlanList = { item: Vlan, filterable: VLAN_FILTERABLE };

export const vlanRoutes: RouteSpec[] = [
  api.read.list("/networking/vlans", "VLANs of the account, derived from instances' vlan interfaces", vlanList, (ctx) =>
    accountVlans(ctx.account, ctx.user),
  ),
];
