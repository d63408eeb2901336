/** Region lookups shared by other services (a VPC's region must exist and offer VPCs). */
import type { Region } from "../../../sdk/resources/regions";
import { REGION_CATALOG } from "./catalog";

/** The capability a region must list for VPCs to be created in it. */
export const VPC_CAPABILITY = "VPCs";

export function findRegion(id: string): Region | undefined {
  return REGION_CATALOG.find((r) => r.id === id);
}

export function regionHasCapability(region: Region, capability: string): boolean {
  return region.capabilities.includes(capability);
}
