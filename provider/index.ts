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
export { MysqlDatabase, type MysqlDatabaseArgs } from "./resources/mysql-database";
export { PostgresqlDatabase, type PostgresqlDatabaseArgs } from "./resources/postgresql-database";
export type { MaintenanceWindowArgs } from "./resources/database-common";
export { getDatabaseEngines, getDatabases, type DatabaseEngineResult, type DatabaseEnginesResult, type DatabaseResult } from "./functions/databases";
export { Domain, type DomainArgs } from "./resources/domain";
export { DomainRecord, type DomainRecordArgs } from "./resources/domain-record";
export { getRegions, getRegion, getRegionAvailability, type RegionResult, type RegionAvailabilityResult } from "./functions/regions";
export { getVpcIps, type VpcIpResult } from "./functions/vpc-ips";
export { getDomain, getDomains, getDomainZoneFile, type DomainResult, type DomainZoneFileResult } from "./functions/domains";
export { Firewall, type FirewallArgs, type FirewallDevicesArgs, type FirewallRuleOutput } from "./resources/firewall";
export { FirewallDevice, type FirewallDeviceArgs } from "./resources/firewall-device";
export { getFirewalls, type FirewallResult, type GetFirewallsArgs } from "./functions/firewalls";
export { Ipv6Range, type Ipv6RangeArgs } from "./resources/ipv6-range";
export { ReverseDns, type ReverseDnsArgs } from "./resources/reverse-dns";
export { getIps, getIpv6Pools, getIpv6Ranges, type GetIpsArgs, type IpResult, type Ipv6PoolResult, type Ipv6RangeResult } from "./functions/ips";
export { getVlans, type VlanResult } from "./functions/vlans";
export { Image, type ImageArgs } from "./resources/image";
export { getImages, getImage, type GetImagesArgs, type ImageResult } from "./functions/images";
export type { FunctionOptions } from "./functions/client";
export type { MetaArgs, TimeoutsArgs } from "./engine/resource";
export { ComputeClient } from "../sdk/client";
