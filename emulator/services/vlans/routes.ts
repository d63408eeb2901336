/** `GET /networking/vlans` (scope `computes:read_only`, as recorded in `X-Accepted-OAuth-Scopes`). */
import { VLAN_ENDPOINTS } from "../../../sdk/resources/vlans";
import { route } from "../../core/route-table";
import type { RouteSpec } from "../../core/routes";
import { accountVlans } from "./render";

export const VLAN_FILTERABLE = ["label", "region"] as const;

export const vlanRoutes: RouteSpec[] = [
  route(VLAN_ENDPOINTS.list, { filterable: VLAN_FILTERABLE }, (ctx) => accountVlans(ctx.account, ctx.user)),
];
