/** `/regions*`: no authorization is listed for these endpoints (spec "Regions"). */
import { REGION_ENDPOINTS } from "../../../sdk/resources/regions";
import { found } from "../../core/errors";
import { route } from "../../core/route-table";
import type { RouteSpec } from "../../core/routes";
import { REGION_CATALOG, findRegion } from "./catalog";
import { AVAILABILITY_PLANS, buildAvailabilityList } from "./availability";

export const REGION_FILTERABLE = ["id", "label", "country", "status", "site_type", "capabilities"] as const;
export const AVAILABILITY_FILTERABLE = ["region", "plan", "available"] as const;

/** Built once per process: it is a pure function of the static catalog. */
const AVAILABILITY = buildAvailabilityList();

export const regionRoutes: RouteSpec[] = [
  route(REGION_ENDPOINTS.list, { filterable: REGION_FILTERABLE }, () => REGION_CATALOG),
  route(REGION_ENDPOINTS.availability.list, { filterable: AVAILABILITY_FILTERABLE }, () => AVAILABILITY),
  route(REGION_ENDPOINTS.get, (ctx) => found(findRegion(ctx.param("regionId")))),
  route(REGION_ENDPOINTS.availability.get, (ctx) => {
    const region = found(findRegion(ctx.param("regionId")));
    // The spec answers one `{available, plan, region}` object, not a list. The emulator answers
    // the region's first available plan, else its first listed plan, else (regions outside the
    // recorded list) the first plan as unavailable.
    const own = AVAILABILITY.filter((a) => a.region === region.id);
    return own.find((a) => a.available) ?? own[0] ?? { region: region.id, plan: AVAILABILITY_PLANS[0]!, available: false };
  }),
];
