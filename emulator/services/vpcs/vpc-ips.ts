/**
 * VPC IP address records, derived from the seeded instances' VPC interfaces (spec "VPC IP
 * address record"; key order as `fixtures/vpc_ip.list.json`). One record per interface address,
 * plus one per routed range (`address: null`, `address_range` set). An instance with several
 * profiles is listed once per profile, so an address can repeat.
 */
import type { VpcIp } from "../../../sdk/resources/vpcs";
import { ipv4Netmask, parseIpv4Cidr } from "../../../sdk/core/net";
import type { AccountState, UserRecord } from "../../core/state";
import { allInterfaces } from "../computes/store";
import { visibleVpcs } from "./store";
import { subnetGateway } from "./subnet-addresses";

export const VPC_IP_FILTERABLE = [
  "active",
  "address",
  "address_range",
  "compute_id",
  "config_id",
  "interface_id",
  "nat_1_1",
  "region",
  "subnet_id",
  "vpc_id",
] as const;

/** Records of every VPC the user can see, or of one VPC. Ordered by instance, profile, interface. */
export function vpcIpRecords(account: AccountState, user: UserRecord, vpcId?: number): VpcIp[] {
  const vpcs = new Map(
    visibleVpcs(account, user)
      .filter((v) => vpcId === undefined || v.id === vpcId)
      .map((v) => [v.id, v]),
  );
  const placed = allInterfaces(account)
    .filter((p) => p.iface.purpose === "vpc" && p.iface.vpc_id !== null && vpcs.has(p.iface.vpc_id))
    .sort((a, b) => a.compute.id - b.compute.id || a.config.id - b.config.id || a.iface.id - b.iface.id);
  const records: VpcIp[] = [];
  for (const { compute, config, iface } of placed) {
    const vpc = vpcs.get(iface.vpc_id!)!;
    const subnet = vpc.subnets.find((s) => s.id === iface.subnet_id);
    if (!subnet) continue;
    const prefix = parseIpv4Cidr(subnet.ipv4)!.prefix;
    const base = {
      vpc_id: vpc.id,
      subnet_id: subnet.id,
      region: vpc.region,
      compute_id: compute.id,
      config_id: config.id,
      interface_id: iface.id,
      active: iface.active,
    };
    records.push({
      address: iface.ipv4?.vpc ?? null,
      address_range: null,
      ...base,
      nat_1_1: iface.ipv4?.nat_1_1 ?? null,
      gateway: subnetGateway(subnet),
      prefix,
      subnet_mask: ipv4Netmask(prefix),
    });
    for (const range of iface.ip_ranges) {
      records.push({
        address: null,
        address_range: range,
        ...base,
        nat_1_1: null,
        gateway: null,
        prefix,
        subnet_mask: ipv4Netmask(prefix),
      });
    }
  }
  return records;
}
