/** `/regions*`: no authorization is listed for these endpoints (spec "Regions"). */
import { Collection } from "../../../sdk/core/schema";
import { Region, RegionAvailability } from "../../../sdk/resources/regions";
import { found } from "../../core/errors";
import type { RouteSpec } from "../../core/routes";
import { REGION_CATALOG, findRegion } from "./catalog";
import { AVAILABILITY_PLANS, buildAvailabilityList } from "./availability";


const common = { service: "regions", auth: "none", scopes: [] } as const;

export const REGION_FILTERABLE = ["id", "label", "country", "status", "site_type", "capabilities"] as const;
export const AVAILABILITY_FILTERABLE = ["region", "plan", "available"] as const;

/** Built once per process: it is a pure function of the static catalog. */
const AVAILABILITY = buildAvailabilityList();

export const regionRoutes: RouteSpec[] = [
  {
    ...common,
    method: "GET",
    path: "/regions",
    summary: "Region collection",
    filterable: REGION_FILTERABLE,
    response: Collection(Region),
    handler: (ctx) => ctx.collection(REGION_CATALOG),
  },
  {
    ...common,
    method: "GET",
    path: "/regions/availability",
    summary: "Availability of select plans in every region",
    filterable: AVAILABILITY_FILTERABLE,
    response: Collection(RegionAvailability),
    handler: (ctx) => ctx.collection(AVAILABILITY),
  },
  {
    ...common,
    method: "GET",
    path: "/regions/{regionId}",
    summary: "One region",
    response: Region,
    handler: (ctx) => found(findRegion(ctx.param("regionId"))),
  },
  {
    ...common,
    method: "GET",
    path: "/regions/{regionId}/availability",
    summary: "Availability object of one region",
    response: RegionAvailability,
    handler: (ctx) => {
      const region = found(findRegion(ctx.param("regionId")));
      // The spec answers one `{available, plan, region}` object, not a list. The emulator answers
      // the region's first available plan, else its first listed plan, else (regions outside the
      // recorded list) the first plan as unavailable.
      const own = AVAILABILITY.filter((a) => a.region === region.id);
      return own.find((a) => a.available) ?? own[0] ?? { region: region.id, plan: AVAILABILITY_PLANS[0]!, available: false };
    },
  },
];
