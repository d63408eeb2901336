/**
 * IP addresses and IPv6 ranges of an account as stored, and where each address lives. Addresses
 * are held by the seeded compute instances (public and private IPv4 lists, the SLAAC address);
 * custom reverse DNS names live in `RDNS` (absent = the platform default); IPv6 ranges in
 * `IPV6_RANGES`, routed to the instance whose SLAAC address is their `route_target`,
 * and shared with every instance that lists the range in its `shared_ips`. The wire rendering is
 * `render.ts`, the mutations with their events `operations.ts`.
 */
import type { VpcNat11 } from "../../../sdk/resources/ips";
import { canonicalIp, canonicalIpv6, formatIpv6, parseIpv6Cidr } from "../../../sdk/core/net";
import { type AccountState, type UserRecord, accountSlice } from "../../core/state";
import { objectPermission } from "../../core/auth";
import { COMPUTES, allInterfaces, type StoredCompute } from "../computes/store";

/** A stored IPv6 range. `range` is the canonical network address, without the prefix length. */
export interface StoredIpv6Range {
  range: string;
  prefix: number;
  region: string;
  /** The SLAAC address it is routed to. */
  route_target: string;
  created: string;
}

/** `accounts[id].ipv6Ranges`: the IPv6 ranges routed to the account's instances. */
export const IPV6_RANGES = accountSlice("ipv6Ranges", (): StoredIpv6Range[] => []);
/** `accounts[id].ipRdns`: custom reverse DNS names by address; an address without one answers the platform default. */
export const RDNS = accountSlice("ipRdns", (): Record<string, string> => ({}));
/**
 * `accounts[id].forwardDnsDelayMs`: how long (emulated) after an A/AAAA record is written the
 * reverse-DNS check sees it, as real DNS takes a while to resolve a new record; 0 (the default)
 * sees it at once. Set through the control API (`control.ips.delayForwardDns`).
 */
export const FORWARD_DNS_DELAY = accountSlice("forwardDnsDelayMs", (): number => 0);

export type AddressKind = "public" | "private" | "slaac";

/** One address with the instance holding it. */
export interface PlacedAddress {
  compute: StoredCompute;
  kind: AddressKind;
  address: string;
}

// ---------------------------------------------------------------------------------------------
// Reading an instance's addresses (fields are optional in older state files)

export const privateIpv4Of = (c: StoredCompute): string[] => c.ipv4_private ?? [];
export const slaacOf = (c: StoredCompute): string | null => c.ipv6 ?? null;
export const sharedIpsOf = (c: StoredCompute): string[] => c.shared_ips ?? [];

/** Every address of the account's instances, instance by instance: public IPv4, SLAAC, private IPv4. */
export function accountAddresses(account: AccountState): PlacedAddress[] {
  return [...COMPUTES.of(account)]
    .sort((a, b) => a.id - b.id)
    .flatMap((compute) => [
      ...compute.ipv4.map((address) => ({ compute, kind: "public" as const, address })),
      ...(slaacOf(compute) ? [{ compute, kind: "slaac" as const, address: slaacOf(compute)! }] : []),
      ...privateIpv4Of(compute).map((address) => ({ compute, kind: "private" as const, address })),
    ]);
}

/** The address (any spelling of an IPv6 one), or undefined when no instance of the account holds it. */
export function findAddress(account: AccountState, text: string): PlacedAddress | undefined {
  const canonical = canonicalIp(text);
  if (!canonical) return undefined;
  return accountAddresses(account).find((p) => p.address === canonical);
}

/** The user's permission on an instance (unrestricted users have read_write on all). */
export const computePermission = (user: UserRecord, computeId: number) => objectPermission(user, "compute", computeId);

/** A VPC interface whose 1:1 NAT maps this public address, with whether that interface is active. */
export function natOf(account: AccountState, address: string): (VpcNat11 & { active: boolean }) | undefined {
  const placed = allInterfaces(account).find((p) => p.iface.purpose === "vpc" && p.iface.ipv4?.nat_1_1 === address);
  if (!placed || placed.iface.vpc_id === null || placed.iface.subnet_id === null) return undefined;
  return { vpc_id: placed.iface.vpc_id, subnet_id: placed.iface.subnet_id, address: placed.iface.ipv4!.vpc, active: placed.iface.active };
}

/** Addresses `GET /networking/ips` lists: not private ones, and for a restricted user only those of granted instances. */
export function listedAddresses(account: AccountState, user: UserRecord): PlacedAddress[] {
  return accountAddresses(account).filter((p) => p.kind !== "private" && computePermission(user, p.compute.id) !== undefined);
}

// ---------------------------------------------------------------------------------------------
// IPv6 ranges

/** The range named by a path or share entry (any spelling of its address, without `/len`). */
export function findRange(account: AccountState, text: string): StoredIpv6Range | undefined {
  const canonical = canonicalIpv6(text);
  return canonical === undefined ? undefined : IPV6_RANGES.of(account).find((r) => r.range === canonical);
}

/** The range an assign entry names (`addr/len`, any address inside it): network and prefix length must both match. */
export function findRangeByCidr(account: AccountState, text: string): StoredIpv6Range | undefined {
  const parsed = parseIpv6Cidr(text);
  if (!parsed) return undefined;
  const network = formatIpv6(parsed.network);
  return IPV6_RANGES.of(account).find((r) => r.range === network && r.prefix === parsed.prefix);
}

/** The instance a range is routed to (its SLAAC address is the route target). */
export function rangeOwner(account: AccountState, range: StoredIpv6Range): StoredCompute | undefined {
  return COMPUTES.of(account).find((c) => slaacOf(c) === range.route_target);
}

/** Instances that share the range (IP share). */
export function rangeSharers(account: AccountState, range: StoredIpv6Range): StoredCompute[] {
  return COMPUTES.of(account).filter((c) => sharedIpsOf(c).includes(range.range));
}

/** Ranges routed to an instance. */
export function rangesOf(account: AccountState, compute: StoredCompute): StoredIpv6Range[] {
  const slaac = slaacOf(compute);
  return slaac === null ? [] : IPV6_RANGES.of(account).filter((r) => r.route_target === slaac);
}

/** The instances a range is routed to or shared with: its owner first. */
export function rangeComputes(account: AccountState, range: StoredIpv6Range): number[] {
  const owner = rangeOwner(account, range);
  return [...new Set([...(owner ? [owner.id] : []), ...rangeSharers(account, range).map((c) => c.id)])];
}

/** Ranges the user may see: those routed to (or shared with) an instance they have a grant on. */
export function visibleRanges(account: AccountState, user: UserRecord): StoredIpv6Range[] {
  return IPV6_RANGES.of(account).filter((r) => rangeComputes(account, r).some((id) => computePermission(user, id) !== undefined));
}
