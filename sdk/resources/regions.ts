/** Regions: the catalog of regions and the availability of select plans. No authorization needed. */
import { z } from "zod";
import { endpoints, verbs } from "../core/endpoint";
import { resource } from "../core/resource";
import { filterable } from "../core/schema";

/** A region's status: `ok` or `outage`. */
export const RegionStatus = z.enum(["ok", "outage"]);

/** A region of the catalog, as the API returns it. */
export const Region = z.looseObject({
  id: z.string(),
  label: z.string(),
  country: z.string(),
  capabilities: z.array(z.string()),
  status: RegionStatus,
  /** Comma-separated lists of resolver addresses. */
  resolvers: z.looseObject({ ipv4: z.string(), ipv6: z.string() }),
  /** Present in recordings though not in the spec (`core`, `edge`, …). */
  site_type: z.string().optional(),
});
export type Region = z.infer<typeof Region>;

/** Whether a plan is available in a region. */
export const RegionAvailability = z.looseObject({
  region: filterable(z.string()),
  plan: filterable(z.string()),
  available: filterable(z.boolean()),
});
export type RegionAvailability = z.infer<typeof RegionAvailability>;

const REGIONS = verbs({ service: "regions", auth: "none", scopes: [] });

/** The `/regions` endpoints (spec "Regions": no authorization listed). */
export const REGION_ENDPOINTS = endpoints("regions", {
  list: { ...REGIONS.list, path: "/regions", summary: "Region collection", response: Region },
  get: { ...REGIONS.get, path: "/regions/{regionId}", summary: "One region", response: Region },
  /** Availability of select plans per region. */
  availability: {
    list: {
      ...REGIONS.list,
      path: "/regions/availability",
      summary: "Availability of select plans in every region",
      response: RegionAvailability,
    },
    get: {
      ...REGIONS.get,
      path: "/regions/{regionId}/availability",
      summary: "Availability of select plans in one region",
      // An array, not a collection envelope (the OpenAPI description of 4.174; the spec's table
      // names the element, `{available, plan, region}`, not the answer).
      response: z.array(RegionAvailability),
    },
  },
});

/** `/regions`: the region catalog. Read-only; no token needed. */
export class Regions extends resource(REGION_ENDPOINTS) {}
