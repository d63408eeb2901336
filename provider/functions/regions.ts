/** Read-only region data: the catalog and plan availability. */
import type { Region, RegionAvailability } from "../../sdk/resources/regions";
import { camelizeDeep } from "../engine/values";
import type { Camelized } from "../engine/values";
import { type FunctionOptions, outputForm, withClient } from "./client";

/** A region of the catalog, with camelCase keys. */
export type RegionResult = Camelized<Region>;
/** Whether a plan is available in a region, with camelCase keys. */
export type RegionAvailabilityResult = Camelized<RegionAvailability>;

/**
 * Every region, optionally only those with a capability (such as `"Managed Databases"`).
 *
 * @example
 * ```ts
 * export const vpcRegions = compute.getRegionsOutput({ capability: "VPCs" }).apply((rs) => rs.map((r) => r.id));
 * ```
 */
export function getRegions(args: { capability?: string } = {}, options: FunctionOptions = {}): Promise<RegionResult[]> {
  return withClient("getRegions", options, async (client) => {
    const regions = await client.regions.listAll();
    const wanted = args.capability?.toLowerCase();
    return regions
      .filter((r) => !wanted || r.capabilities.some((c) => c.toLowerCase() === wanted))
      .map((r) => camelizeDeep(r) as RegionResult);
  });
}

/**
 * One region by id.
 *
 * @example
 * ```ts
 * export const country = compute.getRegionOutput({ id: "us-iad" }).apply((r) => r.country);
 * ```
 */
export function getRegion(args: { id: string }, options: FunctionOptions = {}): Promise<RegionResult> {
  return withClient("getRegion", options, async (client) => camelizeDeep(await client.regions.get(args.id)) as RegionResult);
}

/**
 * Availability of select plans: of one region when `regionId` is given, else of all.
 *
 * @example
 * ```ts
 * export const plans = compute.getRegionAvailabilityOutput({ regionId: "us-iad" });
 * ```
 */
export function getRegionAvailability(
  args: { regionId?: string } = {},
  options: FunctionOptions = {},
): Promise<RegionAvailabilityResult[]> {
  return withClient("getRegionAvailability", options, async (client) => {
    const records = args.regionId ? await client.regions.availability.get(args.regionId) : await client.regions.availability.listAll();
    return records.map((a) => camelizeDeep(a) as RegionAvailabilityResult);
  });
}

/** `getRegions` taking Inputs and answering an Output. */
export const getRegionsOutput = outputForm(getRegions);
/** `getRegion` taking Inputs and answering an Output. */
export const getRegionOutput = outputForm(getRegion);
/** `getRegionAvailability` taking Inputs and answering an Output. */
export const getRegionAvailabilityOutput = outputForm(getRegionAvailability);
