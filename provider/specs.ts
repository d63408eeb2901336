/** Every resource spec by kind: the registry serves them, the docs generator lists them. */
import type { ResourceSpec } from "./engine/spec";
import { vpcSpec } from "./resources/vpc";
import { vpcSubnetSpec } from "./resources/vpc-subnet";
import { mysqlDatabaseSpec } from "./resources/mysql-database";
import { postgresqlDatabaseSpec } from "./resources/postgresql-database";
import { domainSpec } from "./resources/domain";
import { domainRecordSpec } from "./resources/domain-record";
import { firewallSpec } from "./resources/firewall";
import { firewallDeviceSpec } from "./resources/firewall-device";
import { ipv6RangeSpec } from "./resources/ipv6-range";
import { reverseDnsSpec } from "./resources/reverse-dns";
import { imageSpec } from "./resources/image";

export const RESOURCE_SPECS: Record<string, ResourceSpec> = {
  [vpcSpec.name]: vpcSpec,
  [vpcSubnetSpec.name]: vpcSubnetSpec,
  [mysqlDatabaseSpec.name]: mysqlDatabaseSpec,
  [postgresqlDatabaseSpec.name]: postgresqlDatabaseSpec,
  [domainSpec.name]: domainSpec,
  [domainRecordSpec.name]: domainRecordSpec,
  [firewallSpec.name]: firewallSpec,
  [firewallDeviceSpec.name]: firewallDeviceSpec,
  [ipv6RangeSpec.name]: ipv6RangeSpec,
  [reverseDnsSpec.name]: reverseDnsSpec,
  [imageSpec.name]: imageSpec,
};
