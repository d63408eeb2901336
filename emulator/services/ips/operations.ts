/** What the IP endpoints do to the state, with their events (api-facts P6-2). */
import { formatIpv6, parseIpv6Cidr } from "../../../sdk/core/net";
import type { Actor } from "../../core/runtime";
import { type AccountState, removeStored } from "../../core/state";
import { allInterfaces, computeUrl, everyCompute, type StoredCompute } from "../computes/store";
import { eventEntity, recordEvent } from "../events/operations";
import { allocateRangeBlock, defaultRdns, nextPrivateIpv4, nextPublicIpv4 } from "./address-plan";
import { IPV6_RANGES, type PlacedAddress, RDNS, type StoredIpv6Range, privateIpv4Of, rangeOwner, rangesOf, slaacOf } from "./store";

const computeEntity = (c: StoredCompute) => eventEntity("compute", c.id, c.label, computeUrl(c.id));
const addressEntity = (address: string) => eventEntity("ipaddress", address, address, `/v4/networking/ips/${address}`);

function event(actor: Actor, action: string, entity: ReturnType<typeof eventEntity> | null, message = ""): void {
  recordEvent(actor, { action, entity, message });
}

/** Allocates the next free public or private IPv4 address to an instance; event `compute_addip`. */
export function allocateAddress(actor: Actor, compute: StoredCompute, isPublic: boolean): PlacedAddress {
  const computes = everyCompute(actor.runtime);
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
  if (isDefault) delete RDNS.of(actor.account)[placed.address];
  else RDNS.of(actor.account)[placed.address] = rdns;
  event(actor, "ipaddress_update", addressEntity(placed.address));
}

/** One move of an assign request, resolved. */
export type Move =
  { kind: "ipv4"; placed: PlacedAddress; to: StoredCompute } | { kind: "range"; range: StoredIpv6Range; to: StoredCompute };

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

/** How many public and private IPv4 addresses and IPv6 ranges an instance holds. */
export type Holdings = Record<"public" | "private" | "ranges", number>;

/** The moves as an instance would hold its addresses afterwards (for the limits). */
export function holdingsAfter(account: AccountState, moves: Move[], compute: StoredCompute): Holdings {
  const holder = (m: Move) => (m.kind === "ipv4" ? m.placed.compute : rangeOwner(account, m.range));
  const movedAway = (m: Move) => holder(m) === compute && m.to !== compute;
  const movedIn = (m: Move) => m.to === compute && holder(m) !== compute;
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
export function setShared(compute: StoredCompute, addresses: string[]): void {
  compute.shared_ips = [...new Set(addresses)];
}

/** Creates a range routed to an instance's SLAAC address; event `ipv6pool_add`. */
export function createRange(actor: Actor, compute: StoredCompute, prefix: number): StoredIpv6Range {
  const taken = Object.values(actor.runtime.state.accounts)
    .flatMap((a) => IPV6_RANGES.of(a))
    .map((r) => ({ network: parseIpv6Cidr(`${r.range}/${r.prefix}`)!.network, prefix: r.prefix }));
  const network = allocateRangeBlock(compute.region, prefix, taken);
  if (network === undefined) throw new Error(`the emulator's IPv6 range area of ${compute.region} is exhausted`);
  const range: StoredIpv6Range = {
    range: formatIpv6(network),
    prefix,
    region: compute.region,
    route_target: slaacOf(compute)!,
    created: actor.runtime.clock.timestamp(),
  };
  IPV6_RANGES.of(actor.account).push(range);
  event(actor, "ipv6pool_add", computeEntity(compute), `${range.range}/${range.prefix} added`);
  return range;
}

/** Deletes a range (callers check it is not shared); event `ipv6pool_delete`. */
export function deleteRange(actor: Actor, range: StoredIpv6Range): void {
  const owner = rangeOwner(actor.account, range);
  removeStored(IPV6_RANGES, actor.account, range);
  event(actor, "ipv6pool_delete", owner ? computeEntity(owner) : null, `${range.range}/${range.prefix} removed`);
}
