/** `GET /networking/vlans` (scope `computes:read_only`, as recorded in `X-Accepted-OAuth-Scopes`). */
import { filterableFields } from "../../../sdk/core/schema";
import { VLAN_ENDPOINTS, Vlan } from "../../../sdk/resources/vlans";
import { route } from "../../core/route-table";
import type { RouteSpec } from "../../core/routes";
import { accountVlans } from "./render";

export const VLAN_FILTERABLE = filterableFields(Vlan);

export const vlanRoutes: RouteSpec[] = [
  route(VLAN_ENDPOINTS.list, { filterable: VLAN_FILTERABLE }, (ctx) => accountVlans(ctx.account, ctx.user)),
];
