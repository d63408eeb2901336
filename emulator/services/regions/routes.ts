/** `/regions*`: no authorization is listed for these endpoints (spec "Regions"). */
import { filterableFields } from "../../../sdk/core/schema";
import { REGION_ENDPOINTS, RegionAvailability } from "../../../sdk/resources/regions";
import { found } from "../../core/errors";
import { route } from "../../core/route-table";
import type { RouteSpec } from "../../core/routes";
import { REGION_CATALOG, findRegion } from "./catalog";
import { buildAvailabilityList } from "./availability";

export const REGION_FILTERABLE = ["id", "label", "country", "status", "site_type", "capabilities"] as const;
export const AVAILABILITY_FILTERABLE = filterableFields(RegionAvailability);

/** Built once per process: it is a pure function of the static catalog. */
const AVAILABILITY = buildAvailabilityList();

export const regionRoutes: RouteSpec[] = [
  route(REGION_ENDPOINTS.list, { filterable: REGION_FILTERABLE }, () => REGION_CATALOG),
  route(REGION_ENDPOINTS.availability.list, { filterable: AVAILABILITY_FILTERABLE }, () => AVAILABILITY),
  route(REGION_ENDPOINTS.get, (ctx) => found(findRegion(ctx.param("regionId")))),
  route(REGION_ENDPOINTS.availability.get, (ctx) => {
    // The region's entries of the list, in its order: none for a region the list leaves out.
    const region = found(findRegion(ctx.param("regionId")));
    return AVAILABILITY.filter((a) => a.region === region.id);
  }),
];
