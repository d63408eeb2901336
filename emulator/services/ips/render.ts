/** Addresses and IPv6 ranges on the wire: key order as `fixtures/ip.list.json`, `ipv6_range.*.json`. */
import type { IpAddress, Ipv6Range, Ipv6RangeCreated, Ipv6RangeView } from "../../../sdk/resources/ips";
import { ipv6Netmask } from "../../../sdk/core/net";
import type { AccountState } from "../../core/state";
import {
  PRIVATE_IPV4_PREFIX,
  PUBLIC_IPV4_PREFIX,
  SLAAC_GATEWAY,
  SLAAC_PREFIX,
  defaultRdns,
  privateNetmask,
  publicGateway,
  publicNetmask,
} from "./address-plan";
import { type PlacedAddress, RDNS, type StoredIpv6Range, natOf, rangeComputes, rangeSharers } from "./store";

export interface RenderOptions {
  /** Listing (`GET /networking/ips`): IPv4 entries always carry `vpc_nat_1_1`. */
  listing: boolean;
  /** `skip_ipv6_rdns`: IPv6 entries answer `rdns: null`. */
  skipIpv6Rdns?: boolean;
}

/** The reverse DNS an address answers with: a custom name, else the platform default (public IPv4 only). */
export function rdnsOf(account: AccountState, placed: PlacedAddress): string | null {
  const custom = RDNS.of(account)[placed.address];
  if (custom !== undefined) return custom;
  return placed.kind === "public" ? defaultRdns(placed.address) : null;
}

/**
 * The IP address record. IPv4 list entries carry `vpc_nat_1_1` (null when unmapped) and IPv6
 * entries never do, as recorded; single-address answers carry it only when a mapping exists, so an
 * unmapped address has the keys of the (older) single-address recordings (api-facts P2-5).
 */
export function renderAddress(account: AccountState, placed: PlacedAddress, options: RenderOptions): IpAddress {
  const { compute, kind, address } = placed;
  const ipv4 = kind !== "slaac";
  const record: IpAddress = {
    address,
    gateway: kind === "public" ? publicGateway(address) : kind === "slaac" ? SLAAC_GATEWAY : null,
    subnet_mask: kind === "public" ? publicNetmask() : kind === "private" ? privateNetmask() : ipv6Netmask(SLAAC_PREFIX),
    prefix: kind === "public" ? PUBLIC_IPV4_PREFIX : kind === "private" ? PRIVATE_IPV4_PREFIX : SLAAC_PREFIX,
    type: ipv4 ? "ipv4" : "ipv6",
    public: kind !== "private",
    rdns: !ipv4 && options.skipIpv6Rdns ? null : rdnsOf(account, placed),
    compute_id: compute.id,
    region: compute.region,
  };
  if (ipv4) {
    const nat = kind === "public" ? natOf(account, address) : undefined;
    const mapping = nat ? { vpc_id: nat.vpc_id, subnet_id: nat.subnet_id, address: nat.address } : null;
    if (options.listing || mapping) record.vpc_nat_1_1 = mapping;
  }
  return record;
}

export function renderRange(range: StoredIpv6Range): Ipv6Range {
  return { range: range.range, prefix: range.prefix, region: range.region, route_target: range.route_target };
}

export function renderRangeView(account: AccountState, range: StoredIpv6Range): Ipv6RangeView {
  const sharers = rangeSharers(account, range);
  const computes = rangeComputes(account, range);
  return { range: range.range, prefix: range.prefix, region: range.region, is_bgp: sharers.length > 0, computes };
}

/** Range create's answer: `{range: "<addr>/<len>", route_target}` only. */
export function renderRangeCreated(range: StoredIpv6Range): Ipv6RangeCreated {
  return { range: `${range.range}/${range.prefix}`, route_target: range.route_target };
}
