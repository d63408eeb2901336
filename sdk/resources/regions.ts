/** Regions: the catalog of regions and the availability of select plans. No authorization needed. */
import { z } from "zod";
import type { CallOptions, HttpClient } from "../core/http";
import type { ListOptions, Paginator } from "../core/pagination";
import { endpoint } from "../core/endpoint";
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

const REGIONS = { service: "regions", auth: "none", scopes: [] } as const;

/** The `/regions` endpoints (spec "Regions": no authorization listed). */
export const REGION_ENDPOINTS = {
  list: endpoint({
    ...REGIONS,
    name: "regions.list",
    method: "GET",
    path: "/regions",
    summary: "Region collection",
    response: Region,
    paginated: true,
  }),
  get: endpoint({ ...REGIONS, name: "regions.get", method: "GET", path: "/regions/{regionId}", summary: "One region", response: Region }),
  availability: {
    list: endpoint({
      ...REGIONS,
      name: "regions.availability.list",
      method: "GET",
      path: "/regions/availability",
      summary: "Availability of select plans in every region",
      response: RegionAvailability,
      paginated: true,
    }),
    get: endpoint({
      ...REGIONS,
      name: "regions.availability.get",
      method: "GET",
      path: "/regions/{regionId}/availability",
      summary: "Availability of select plans in one region",
      // An array, not a collection envelope (the OpenAPI description of 4.174; the spec's table
      // names the element, `{available, plan, region}`, not the answer).
      response: z.array(RegionAvailability),
    }),
  },
};

/** `/regions`: the region catalog. Read-only; no token needed. */
export class Regions {
  /** `/regions/availability` and `/regions/{regionId}/availability`. */
  readonly availability: RegionAvailabilities;

  constructor(private readonly http: HttpClient) {
    this.availability = new RegionAvailabilities(http);
  }

  /** Iterates every region (`GET /regions`). */
  list(options?: ListOptions): Paginator<Region> {
    return this.http.paginate(REGION_ENDPOINTS.list, {}, options);
  }

  /** Every region, collected. */
  listAll(options?: ListOptions): Promise<Region[]> {
    return this.list(options).all();
  }

  /** `GET /regions/{regionId}`. */
  get(regionId: string, options: CallOptions = {}): Promise<Region> {
    return this.http.call(REGION_ENDPOINTS.get, { regionId }, undefined, options);
  }
}

/** Availability of select plans per region. */
export class RegionAvailabilities {
  constructor(private readonly http: HttpClient) {}

  /** Iterates the availability records of all regions (`GET /regions/availability`, several pages). */
  list(options?: ListOptions): Paginator<RegionAvailability> {
    return this.http.paginate(REGION_ENDPOINTS.availability.list, {}, options);
  }

  /** Every availability record, collected. */
  listAll(options?: ListOptions): Promise<RegionAvailability[]> {
    return this.list(options).all();
  }

  /** `GET /regions/{regionId}/availability`: the region's `{region, plan, available}` records, one per listed plan. */
  get(regionId: string, options: CallOptions = {}): Promise<RegionAvailability[]> {
    return this.http.call(REGION_ENDPOINTS.availability.get, { regionId }, undefined, options);
  }
}
