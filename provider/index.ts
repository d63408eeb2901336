/**
 * pulumi-compute: Pulumi resources and data functions for the compute cloud's API v4.
 *
 * ```ts
 * import * as compute from "pulumi-compute";
 * const vpc = new compute.Vpc("app", { label: "app-net", region: "us-east" });
 * ```
 */
import { assertPulumiLoadable, watchInlinePrograms } from "./launch/peer";

// Before anything loads @pulumi/pulumi (a peer dependency): without it, one line saying what to install.
assertPulumiLoadable();
// Before an Automation API program runs: where its engine starts the provider plugin (see launch/peer.ts).
watchInlinePrograms();

// Every resource class, its `Args`, and the input and output types its file offers (generated from the specs).
export * from "./classes/resource-classes";
// Data functions, each with its `…Output` form (Inputs in, an Output out).
export {
  getDatabaseEngines,
  getDatabaseEnginesOutput,
  getDatabases,
  getDatabasesOutput,
  getMysqlDatabase,
  getMysqlDatabaseOutput,
  getPostgresqlDatabase,
  getPostgresqlDatabaseOutput,
  getDatabaseBackups,
  getDatabaseBackupsOutput,
  type DatabaseEngineResult,
  type DatabaseEnginesResult,
  type DatabaseResult,
  type DatabaseWithSecretsResult,
  type DatabaseBackupResult,
  type GetDatabaseArgs,
  type GetDatabaseBackupsArgs,
} from "./functions/databases";
export {
  getRegions,
  getRegionsOutput,
  getRegion,
  getRegionOutput,
  getRegionAvailability,
  getRegionAvailabilityOutput,
  type RegionResult,
  type RegionAvailabilityResult,
} from "./functions/regions";
export { getVpcIps, getVpcIpsOutput, type VpcIpResult } from "./functions/vpc-ips";
export {
  getVpc,
  getVpcOutput,
  getVpcs,
  getVpcsOutput,
  getVpcSubnet,
  getVpcSubnetOutput,
  getVpcSubnets,
  getVpcSubnetsOutput,
  type GetVpcArgs,
  type GetVpcSubnetArgs,
  type VpcResult,
  type VpcSubnetResult,
} from "./functions/vpcs";
export {
  getDomain,
  getDomainOutput,
  getDomains,
  getDomainsOutput,
  getDomainRecord,
  getDomainRecordOutput,
  getDomainRecords,
  getDomainRecordsOutput,
  getDomainZoneFile,
  getDomainZoneFileOutput,
  type DomainResult,
  type DomainRecordResult,
  type DomainZoneFileResult,
  type GetDomainRecordArgs,
  type GetDomainRecordsArgs,
} from "./functions/domains";
export {
  getFirewalls,
  getFirewallsOutput,
  getFirewall,
  getFirewallOutput,
  type FirewallResult,
  type FirewallDeviceResult,
  type FirewallWithDevicesResult,
  type GetFirewallsArgs,
  type GetFirewallArgs,
} from "./functions/firewalls";
export {
  getIps,
  getIpsOutput,
  getIpv6Pools,
  getIpv6PoolsOutput,
  getIpv6Ranges,
  getIpv6RangesOutput,
  getIpv6Range,
  getIpv6RangeOutput,
  type GetIpsArgs,
  type IpResult,
  type Ipv6PoolResult,
  type Ipv6RangeResult,
  type Ipv6RangeViewResult,
} from "./functions/ips";
export { getVlans, getVlansOutput, type VlanResult } from "./functions/vlans";
export { getImages, getImagesOutput, getImage, getImageOutput, type GetImagesArgs, type ImageResult } from "./functions/images";
export type { FunctionOptions, InputArgs, OutputFunction } from "./functions/client";
export type { MetaArgs, TimeoutsArgs } from "./classes/resource";
export { ComputeClient } from "../sdk/client";
// The Automation API's project settings with this package's plugin declared (preview support).
export { withComputePlugins, PLUGINS_PATH, type ProjectSettingsWithPlugins } from "./launch/plugins";
// The compute-guardrails policy pack's launcher: `policyPacks: [GUARDRAILS]` (docs/guides/policy.md).
export { GUARDRAILS, GUARDRAILS_PATH } from "./launch/plugins";
