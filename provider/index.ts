/**
 * pulumi-compute: Pulumi resources and data functions for the compute cloud's API v4.
 *
 * ```ts
 * import * as compute from "pulumi-compute";
 * const vpc = new compute.Vpc("app", { label: "app-net", region: "us-east" });
 * ```
 */
export { Vpc, type VpcArgs } from "./resources/vpc";
export { VpcSubnet, type VpcSubnetArgs } from "./resources/vpc-subnet";
export { getRegions, getRegion, getRegionAvailability, type RegionResult, type RegionAvailabilityResult } from "./functions/regions";
export { getVpcIps, type VpcIpResult } from "./functions/vpc-ips";
export type { FunctionOptions } from "./functions/client";
export type { MetaArgs, TimeoutsArgs } from "./engine/resource";
export { ComputeClient } from "../sdk/client";
