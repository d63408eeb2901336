/**
 * pulumi-compute: Pulumi resources and data functions for the compute cloud's API v4.
 *
 * ```ts
 * import * as compute from "pulumi-compute";
 * const vpc = new compute.Vpc("app", { label: "app-net", region: "us-east" });
 * ```
 */
import { assertPulumiLoadable, watchInlinePrograms } from "./peer";

// Before anything loads @pulumi/pulumi (a peer dependency): without it, one line saying what to install.
assertPulumiLoadable();
// Before an Automation API program runs: where its engine starts the provider plugin (see peer.ts).
watchInlinePrograms();

// Every resource class, its `Args`, and the input and output types its file offers (generated from the specs).
export * from "./resources.generated";
export {
  getDatabaseEngines,
  getDatabases,
  type DatabaseEngineResult,
  type DatabaseEnginesResult,
  type DatabaseResult,
} from "./functions/databases";
export { getRegions, getRegion, getRegionAvailability, type RegionResult, type RegionAvailabilityResult } from "./functions/regions";
export { getVpcIps, type VpcIpResult } from "./functions/vpc-ips";
export { getVpcSubnets, type VpcSubnetResult } from "./functions/vpcs";
export { getDomain, getDomains, getDomainZoneFile, type DomainResult, type DomainZoneFileResult } from "./functions/domains";
export { getFirewalls, type FirewallResult, type GetFirewallsArgs } from "./functions/firewalls";
export {
  getIps,
  getIpv6Pools,
  getIpv6Ranges,
  type GetIpsArgs,
  type IpResult,
  type Ipv6PoolResult,
  type Ipv6RangeResult,
} from "./functions/ips";
export { getVlans, type VlanResult } from "./functions/vlans";
export { getImages, getImage, type GetImagesArgs, type ImageResult } from "./functions/images";
export type { FunctionOptions } from "./functions/client";
export type { MetaArgs, TimeoutsArgs } from "./engine/resource";
export { ComputeClient } from "../sdk/client";
