/**
 * IP addresses and IPv6 ranges of an account: where each address lives, the wire rendering (key
 * order as `fixtures/ip.list.json`, `ipv6_range.*.json`) and the mutations with their events.
 *
 * Addresses are held by the seeded compute instances (public and private IPv4 lists, the SLAAC
 * address); custom reverse DNS names live in `account.ipRdns` (absent = the platform default);
 * IPv6 ranges in `account.ipv6Ranges`, routed to the instance whose SLAAC address is their
 * `route_target`, and shared with every instance that lists the range in its `shared_ips`.
 */
import type { IpAddress, Ipv6Range, Ipv6RangeCreated, Ipv6RangeView, VpcNat11 } from "../../../sdk/resources/ips";
import { canonicalIp, canonicalIpv6, formatIpv6, ipv6Netmask, parseIpv4, parseIpv6Cidr } from "../../../sdk/core/net";
import type { EmulatorRuntime } from "../../core/runtime";
import type { AccountState, UserRecord } from "../../core/state";
import { objectPermission } from "../../core/auth";
import { allInterfaces, type ComputeRecord } from "../computes/models";
import { eventEntity, recordEvent } from "../events/models";
import {
  PRIVATE_IPV4_PREFIX,
  PUBLIC_IPV4_PREFIX,
  SLAAC_GATEWAY,
  SLAAC_PREFIX,
  allocateRangeBlock,
  defaultRdns,
  nextPrivateIpv4,
  nextPublicIpv4,
  privateNetmask,
  publicGateway,
  publicNetmask,
} from "./address-plan";

/** A stored IPv6 range. `range` is the canonical network address, without the prefix length. */
export interface Ipv6RangeRecord {
  range: string;
  prefix: number;
  region: string;
  /** The SLAAC address it is routed to. */
  route_target: string;
  created: string;
}

export type AddressKind = "public" | "private" | "slaac";

/** One address with the instance holding it. */
export interface PlacedAddress {
  compute: ComputeRecord;
  kind: AddressKind;
  address: string;
}

// ---------------------------------------------------------------------------------------------
// Reading an instance's addresses (fields are optional in older state files)

export const privateIpv4Of = (c: ComputeRecord): string[] => c.ipv4_private ?? [];
export const slaacOf = (c: ComputeRecord): string | null => c.ipv6 ?? null;
export const sharedIpsOf = (c: ComputeRecord): string[] => c.shared_ips ?? [];

/** Every address of the account's instances, instance by instance: public IPv4, SLAAC, private IPv4. */
export function accountAddresses(account: AccountState): PlacedAddress[] {
  return [...account.computes]
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

// ---------------------------------------------------------------------------------------------
// Rendering

export interface RenderOptions {
  /** Listing (`GET /networking/ips`): IPv4 entries always carry `vpc_nat_1_1`. */
  listing: boolean;
  /** `skip_ipv6_rdns`: IPv6 entries answer `rdns: null`. */
  skipIpv6Rdns?: boolean;
}

/** The reverse DNS an address answers with: a custom name, else the platform default (public IPv4 only). */
export function rdnsOf(account: AccountState, placed: PlacedAddress): string | null {
  const custom = account.ipRdns[placed.address];
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

/** Addresses `GET /networking/ips` lists: not private ones, and for a restricted user only those of granted instances. */
export function listedAddresses(account: AccountState, user: UserRecord): PlacedAddress[] {
  return accountAddresses(account).filter((p) => p.kind !== "private" && computePermission(user, p.compute.id) !== undefined);
}

// ---------------------------------------------------------------------------------------------
// IPv6 ranges

/** The range named by a path or share entry (any spelling of its address, without `/len`). */
export function findRange(account: AccountState, text: string): Ipv6RangeRecord | undefined {
  const canonical = canonicalIpv6(text);
  return canonical === undefined ? undefined : account.ipv6Ranges.find((r) => r.range === canonical);
}

/** The range an assign entry names (`addr/len`, any address inside it): network and prefix length must both match. */
export function findRangeByCidr(account: AccountState, text: string): Ipv6RangeRecord | undefined {
  const parsed = parseIpv6Cidr(text);
  if (!parsed) return undefined;
  const network = formatIpv6(parsed.network);
  return account.ipv6Ranges.find((r) => r.range === network && r.prefix === parsed.prefix);
}

/** The instance a range is routed to (its SLAAC address is the route target). */
export function rangeOwner(account: AccountState, range: Ipv6RangeRecord): ComputeRecord | undefined {
  return account.computes.find((c) => slaacOf(c) === range.route_target);
}

/** Instances that share the range (IP share). */
export function rangeSharers(account: AccountState, range: Ipv6RangeRecord): ComputeRecord[] {
  return account.computes.filter((c) => sharedIpsOf(c).includes(range.range));
}

/** Ranges routed to an instance. */
export function rangesOf(account: AccountState, compute: ComputeRecord): Ipv6RangeRecord[] {
  const slaac = slaacOf(compute);
  return slaac === null ? [] : account.ipv6Ranges.filter((r) => r.route_target === slaac);
}

export function renderRange(range: Ipv6RangeRecord): Ipv6Range {
  return { range: range.range, prefix: range.prefix, region: range.region, route_target: range.route_target };
}

export function renderRangeView(account: AccountState, range: Ipv6RangeRecord): Ipv6RangeView {
  const owner = rangeOwner(account, range);
  const sharers = rangeSharers(account, range).map((c) => c.id);
  const computes = [...new Set([...(owner ? [owner.id] : []), ...sharers])];
  return { range: range.range, prefix: range.prefix, region: range.region, is_bgp: sharers.length > 0, computes };
}

/** Range create's answer: `{range: "<addr>/<len>", route_target}` only. */
export function renderRangeCreated(range: Ipv6RangeRecord): Ipv6RangeCreated {
  return { range: `${range.range}/${range.prefix}`, route_target: range.route_target };
}

/** Ranges the user may see: those routed to (or shared with) an instance they have a grant on. */
export function visibleRanges(account: AccountState, user: UserRecord): Ipv6RangeRecord[] {
  return account.ipv6Ranges.filter((r) => renderRangeView(account, r).computes.some((id) => computePermission(user, id) !== undefined));
}

// ---------------------------------------------------------------------------------------------
// Mutations and their events (api-facts P6-2)

export interface Actor {
  runtime: EmulatorRuntime;
  account: AccountState;
  user: UserRecord;
}

const computeUrl = (id: number) => `/v4/compute/instances/${id}`;
const computeEntity = (c: ComputeRecord) => eventEntity("compute", c.id, c.label, computeUrl(c.id));
const addressEntity = (address: string) => eventEntity("ipaddress", address, address, `/v4/networking/ips/${address}`);

function event(actor: Actor, action: string, entity: ReturnType<typeof eventEntity>, message = ""): void {
  recordEvent(actor.runtime, actor.account, { action, username: actor.user.username, entity, message });
}

/** Every instance of every account (addresses are unique platform-wide). */
function everyCompute(actor: Actor): ComputeRecord[] {
  return Object.values(actor.runtime.state.accounts).flatMap((a) => a.computes);
}

/** Allocates the next free public or private IPv4 address to an instance; event `compute_addip`. */
export function allocateAddress(actor: Actor, compute: ComputeRecord, isPublic: boolean): PlacedAddress {
  const computes = everyCompute(actor);
  let address: string | undefined;
  if (isPublic) {
    address = nextPublicIpv4(new Set(computes.flatMap((c) => c.ipv4)));
    if (!address) throw new Error("the emulator's public IPv4 allocation block is exhausted");
    compute.ipv4.push(address);
  } else {
    address = nextPrivateIpv4(new Set(computes.filter((c) => c.region === compute.region).flatMap(privateIpv4Of)));
    if (!address) throw new Error("the emulator's private IPv4 block is exhausted");
    compute.ipv4_private = [...privateIpv4Of(compute), address];
  }
  event(actor, "compute_addip", computeEntity(compute), `${address} added`);
  return { compute, kind: isPublic ? "public" : "private", address };
}

/** Sets (or with null restores) an address's reverse DNS; event `ipaddress_update`. */
export function setRdns(actor: Actor, placed: PlacedAddress, rdns: string | null): void {
  const isDefault = rdns === null || (placed.kind === "public" && rdns === defaultRdns(placed.address));
  if (isDefault) delete actor.account.ipRdns[placed.address];
  else actor.account.ipRdns[placed.address] = rdns;
  event(actor, "ipaddress_update", addressEntity(placed.address));
}

/** One move of an assign request, resolved. */
export type Move =
  | { kind: "ipv4"; placed: PlacedAddress; to: ComputeRecord }
  | { kind: "range"; range: Ipv6RangeRecord; to: ComputeRecord };

/** Applies validated moves all at once (so two instances can swap addresses). */
export function applyMoves(account: AccountState, moves: Move[]): void {
  for (const move of moves) {
    if (move.kind !== "ipv4") continue;
    const { compute, kind, address } = move.placed;
    if (kind === "public") compute.ipv4 = compute.ipv4.filter((a) => a !== address);
    else compute.ipv4_private = privateIpv4Of(compute).filter((a) => a !== address);
    // A NAT of the old holder's (inactive) VPC interface no longer has its public address.
    for (const p of allInterfaces(account)) if (p.compute === compute && p.iface.ipv4?.nat_1_1 === address) p.iface.ipv4.nat_1_1 = null;
  }
  for (const move of moves) {
    if (move.kind === "ipv4") {
      if (move.placed.kind === "public") move.to.ipv4.push(move.placed.address);
      else move.to.ipv4_private = [...privateIpv4Of(move.to), move.placed.address];
    } else {
      // Assigning a range points its route target at the new instance's SLAAC address.
      move.range.route_target = slaacOf(move.to)!;
      move.range.region = move.to.region;
    }
  }
}

/** The moves as an instance would hold its addresses afterwards (for the limits). */
export function holdingsAfter(account: AccountState, moves: Move[], compute: ComputeRecord): { public: number; private: number; ranges: number } {
  const movedAway = (m: Move) => (m.kind === "ipv4" ? m.placed.compute === compute && m.to !== compute : rangeOwner(account, m.range) === compute && m.to !== compute);
  const movedIn = (m: Move) => m.to === compute && (m.kind === "ipv4" ? m.placed.compute !== compute : rangeOwner(account, m.range) !== compute);
  let publicCount = compute.ipv4.length;
  let privateCount = privateIpv4Of(compute).length;
  let ranges = rangesOf(account, compute).length;
  for (const m of moves) {
    const delta = movedIn(m) ? 1 : movedAway(m) ? -1 : 0;
    if (m.kind === "range") ranges += delta;
    else if (m.placed.kind === "public") publicCount += delta;
    else privateCount += delta;
  }
  return { public: publicCount, private: privateCount, ranges };
}

/** Replaces the list of addresses an instance shares (`[]` removes all). */
export function setShared(compute: ComputeRecord, addresses: string[]): void {
  compute.shared_ips = [...new Set(addresses)];
}

/** Canonical spelling of a share entry (IPv4 as is, an IPv6 range address canonical). */
export function canonicalShareEntry(text: string): string {
  return parseIpv4(text) !== undefined ? text : canonicalIpv6(text) ?? text;
}

/** Creates a range routed to an instance's SLAAC address; event `ipv6pool_add`. */
export function createRange(actor: Actor, compute: ComputeRecord, prefix: number): Ipv6RangeRecord {
  const taken = Object.values(actor.runtime.state.accounts)
    .flatMap((a) => a.ipv6Ranges)
    .map((r) => ({ network: parseIpv6Cidr(`${r.range}/${r.prefix}`)!.network, prefix: r.prefix }));
  const network = allocateRangeBlock(compute.region, prefix, taken);
  if (network === undefined) throw new Error(`the emulator's IPv6 range area of ${compute.region} is exhausted`);
  const range: Ipv6RangeRecord = {
    range: formatIpv6(network),
    prefix,
    region: compute.region,
    route_target: slaacOf(compute)!,
    created: actor.runtime.clock.timestamp(),
  };
  actor.account.ipv6Ranges.push(range);
  event(actor, "ipv6pool_add", computeEntity(compute), `${range.range}/${range.prefix} added`);
  return range;
}

/** Deletes a range (callers check it is not shared); event `ipv6pool_delete`. */
export function deleteRange(actor: Actor, range: Ipv6RangeRecord): void {
  const owner = rangeOwner(actor.account, range);
  actor.account.ipv6Ranges = actor.account.ipv6Ranges.filter((r) => r !== range);
  const entity = owner ? computeEntity(owner) : null;
  recordEvent(actor.runtime, actor.account, {
    action: "ipv6pool_delete",
    username: actor.user.username,
    entity,
    message: `${range.range}/${range.prefix} removed`,
  });
}
