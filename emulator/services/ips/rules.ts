/**
 * The IP address and IPv6 range rules that need state (spec "Errors", "Limits", the assign and
 * share details; api-facts P7-1, P7-2). Field-level rules (address forms, prefix lengths, the
 * both/neither rule of a range's target, the rdns domain form) are the sdk schemas'.
 *
 * Order of checks: referenced objects exist (400 `Invalid Compute ID <n>`, `IP Address not
 * found.`, as recorded for assign), then the caller's access (403 `Unauthorized` without
 * read_write on an instance or on the instance holding an address), then the rules (400, every
 * problem found at once).
 */
import type { ErrorEntry } from "../../../sdk/core/schema";
import {
  IP_REASONS,
  assignmentRegion,
  canonicalRdns,
  type IpAllocateRequest,
  type IpAssignRequest,
  type IpShareRequest,
  type Ipv6RangeCreateRequest,
} from "../../../sdk/resources/ips";
import { canonicalIpv6, parseIpv4 } from "../../../sdk/core/net";
import type { AccountState, UserRecord } from "../../core/state";
import { ApiFailure, entry, forbidden, throwIfAny } from "../../core/errors";
import { COMPUTES, findCompute, type StoredCompute } from "../computes/store";
import { defaultRdns } from "./address-plan";
import { forwardRecordExists } from "./forward-dns";
import {
  IPV6_RANGES,
  type PlacedAddress,
  type StoredIpv6Range,
  computePermission,
  findAddress,
  findRange,
  findRangeByCidr,
  natOf,
  privateIpv4Of,
  rangeOwner,
  rangeSharers,
  sharedIpsOf,
  slaacOf,
} from "./store";
import { type Move, holdingsAfter } from "./operations";

/** 403 unless the user may change the instance (an address's access is its holder's). */
export function requireReadWrite(user: UserRecord, compute: StoredCompute | undefined): void {
  if (compute && computePermission(user, compute.id) !== "read_write") throw forbidden();
}

/** 403 unless the user may see the instance. */
export function requireRead(user: UserRecord, compute: StoredCompute | undefined): void {
  if (compute && computePermission(user, compute.id) === undefined) throw forbidden();
}

/** True when some instance lists the address (an IPv4 or a range address) among those it shares. */
function isShared(account: AccountState, address: string): boolean {
  return COMPUTES.of(account).some((c) => sharedIpsOf(c).includes(address));
}

// ---------------------------------------------------------------------------------------------
// Allocation

/** The instance an allocation targets, once every rule holds. */
export function checkAllocate(account: AccountState, user: UserRecord, body: IpAllocateRequest): StoredCompute {
  const compute = findCompute(account, body.compute_id);
  if (!compute) throw new ApiFailure(400, [entry(IP_REASONS.invalidCompute(body.compute_id), "compute_id")]);
  requireReadWrite(user, compute);
  if (body.public && !compute.additional_ipv4) throwIfAny([entry(IP_REASONS.allocationNotEnabled, "compute_id")]);
  if (!body.public && privateIpv4Of(compute).length > 0) throwIfAny([entry(IP_REASONS.privateExists, "public")]);
  return compute;
}

// ---------------------------------------------------------------------------------------------
// Assignment

/** Resolves and checks an assign request; returns the moves to apply together. */
export function resolveAssign(account: AccountState, user: UserRecord, body: IpAssignRequest): Move[] {
  const targets = body.assignments.map((a) => findCompute(account, a.compute_id));
  throwIfAny(body.assignments.flatMap((a, i) => (targets[i] ? [] : [entry(IP_REASONS.invalidCompute(a.compute_id))])));

  const moves: Move[] = body.assignments.map((a, i) => {
    const to = targets[i]!;
    if (parseIpv4(a.address) !== undefined) {
      const placed = findAddress(account, a.address);
      return placed && placed.kind !== "slaac" ? { kind: "ipv4" as const, placed, to } : undefined;
    }
    const range = findRangeByCidr(account, a.address);
    return range ? { kind: "range" as const, range, to } : undefined;
  }) as Move[];
  throwIfAny(moves.flatMap((m) => (m ? [] : [entry(IP_REASONS.addressNotFound)])));

  for (const move of moves) {
    requireReadWrite(user, move.to);
    requireReadWrite(user, holderOf(account, move));
  }

  const errors: ErrorEntry[] = [];
  moves.forEach((move, i) => {
    const given = body.assignments[i]!;
    const region = assignmentRegion(body, i);
    const regionField = given.region !== undefined ? `assignments[${i}].region` : "region";
    const addressField = `assignments[${i}].address`;
    const address = move.kind === "ipv4" ? move.placed.address : move.range.range;
    const addressRegion = move.kind === "ipv4" ? move.placed.compute.region : move.range.region;
    if (addressRegion !== region) errors.push(entry(IP_REASONS.regionAddress(given.address, region), regionField));
    if (move.to.region !== region) errors.push(entry(IP_REASONS.regionCompute(move.to.id, region), regionField));
    if (move.kind === "ipv4" && move.placed.kind === "public" && natOf(account, address)?.active) {
      errors.push(entry(IP_REASONS.assignNat(given.address), addressField));
    }
    if (isShared(account, address)) errors.push(entry(IP_REASONS.assignShared(given.address), addressField));
    if (move.kind === "range" && slaacOf(move.to) === null)
      errors.push(entry(IP_REASONS.assignNoSlaac(move.to.id), `assignments[${i}].compute_id`));
  });
  throwIfAny(errors);
  throwIfAny(checkHoldings(account, moves));
  return moves;
}

/** The instance holding what a move takes away. */
function holderOf(account: AccountState, move: Move): StoredCompute | undefined {
  return move.kind === "ipv4" ? move.placed.compute : rangeOwner(account, move.range);
}

/**
 * The assignment limits (spec "Limits"): an instance keeps at least one public IPv4 address and
 * holds at most one private IPv4 address and one IPv6 range. Only changes count: an instance that
 * had no public address before is not "left without" one.
 */
function checkHoldings(account: AccountState, moves: Move[]): ErrorEntry[] {
  const involved = new Set<StoredCompute>();
  for (const move of moves) {
    involved.add(move.to);
    const holder = holderOf(account, move);
    if (holder) involved.add(holder);
  }
  const errors: ErrorEntry[] = [];
  for (const compute of [...involved].sort((a, b) => a.id - b.id)) {
    const before = holdingsAfter(account, [], compute);
    const after = holdingsAfter(account, moves, compute);
    if (after.public < 1 && before.public >= 1) errors.push(entry(IP_REASONS.assignNoPublic(compute.id), "assignments"));
    if (after.private > 1 && after.private > before.private) errors.push(entry(IP_REASONS.assignPrivateLimit(compute.id), "assignments"));
    if (after.ranges > 1 && after.ranges > before.ranges) errors.push(entry(IP_REASONS.assignRangeLimit(compute.id), "assignments"));
  }
  return errors;
}

// ---------------------------------------------------------------------------------------------
// Sharing

/** Resolves and checks a share request; returns the instance and the canonical list it will share. */
export function resolveShare(
  account: AccountState,
  user: UserRecord,
  body: IpShareRequest,
): { compute: StoredCompute; addresses: string[] } {
  const compute = findCompute(account, body.compute_id);
  if (!compute) throw new ApiFailure(400, [entry(IP_REASONS.invalidCompute(body.compute_id), "compute_id")]);
  requireReadWrite(user, compute);

  const resolved = body.ips.map((text) => resolveShareEntry(account, text));
  throwIfAny(resolved.flatMap((r, i) => (r ? [] : [entry(IP_REASONS.addressNotFound, `ips[${i}]`)])));
  for (const r of resolved) requireReadWrite(user, r!.holder);

  const errors: ErrorEntry[] = [];
  resolved.forEach((r, i) => {
    const { address, region, holder, placed } = r!;
    const field = `ips[${i}]`;
    if (holder === compute) errors.push(entry(IP_REASONS.shareOwn(address, compute.id), field));
    if (region !== compute.region) errors.push(entry(IP_REASONS.shareRegion(address, compute.id), field));
    if (placed?.kind === "public" && natOf(account, address)) errors.push(entry(IP_REASONS.shareNat(address), field));
  });
  throwIfAny(errors);
  return { compute, addresses: resolved.map((r) => r!.address) };
}

interface ShareEntry {
  address: string;
  region: string;
  holder: StoredCompute | undefined;
  placed?: PlacedAddress;
}

/** An IPv4 address of the account (public or private), or the address of one of its IPv6 ranges. */
function resolveShareEntry(account: AccountState, text: string): ShareEntry | undefined {
  if (parseIpv4(text) !== undefined) {
    const placed = findAddress(account, text);
    return placed ? { address: placed.address, region: placed.compute.region, holder: placed.compute, placed } : undefined;
  }
  const range = findRange(account, text);
  return range ? { address: range.range, region: range.region, holder: rangeOwner(account, range) } : undefined;
}

// ---------------------------------------------------------------------------------------------
// IPv6 ranges

/** The instance a new range is routed to, once every rule holds. */
export function checkRangeCreate(account: AccountState, user: UserRecord, body: Ipv6RangeCreateRequest): StoredCompute {
  const targetField = body.compute_id !== undefined ? "compute_id" : "route_target";
  let compute: StoredCompute | undefined;
  if (body.compute_id !== undefined) {
    compute = findCompute(account, body.compute_id);
    if (!compute) throw new ApiFailure(400, [entry(IP_REASONS.invalidCompute(body.compute_id), "compute_id")]);
    if (slaacOf(compute) === null) throw new ApiFailure(400, [entry(IP_REASONS.rangeNoSlaac, "compute_id")]);
  } else {
    const target = canonicalIpv6(body.route_target!);
    compute = COMPUTES.of(account).find((c) => target !== undefined && slaacOf(c) === target);
    if (!compute) throw new ApiFailure(400, [entry(IP_REASONS.routeTargetUnknown, "route_target")]);
  }
  requireReadWrite(user, compute);
  // The per-address rule is the more specific one: report it alone when it applies.
  if (IPV6_RANGES.of(account).some((r) => r.route_target === slaacOf(compute)))
    throwIfAny([entry(IP_REASONS.rangeSlaacLimit, targetField)]);
  if (IPV6_RANGES.of(account).some((r) => r.region === compute.region)) throwIfAny([entry(IP_REASONS.rangeRegionLimit)]);
  return compute;
}

/** A range can be deleted only while no instance shares it. */
export function checkRangeDelete(account: AccountState, user: UserRecord, range: StoredIpv6Range): void {
  requireReadWrite(user, rangeOwner(account, range));
  if (rangeSharers(account, range).length > 0) throwIfAny([entry(IP_REASONS.rangeShared)]);
}

// ---------------------------------------------------------------------------------------------
// Reverse DNS

/**
 * The value to store for an rDNS update, once the rules hold: `null` restores the default; a name
 * needs forward DNS (an A/AAAA record of the account resolving it to the address) unless it is
 * the platform's own default name, whose forward record the platform keeps.
 */
export function checkRdns(account: AccountState, placed: PlacedAddress, rdns: string | null, nowMs: number): string | null {
  if (rdns === null) return null;
  if (placed.kind === "private") throwIfAny([entry(IP_REASONS.rdnsPrivate, "rdns")]);
  const name = canonicalRdns(rdns);
  const isDefault = placed.kind === "public" && name === defaultRdns(placed.address);
  if (!isDefault && !forwardRecordExists(account, name, placed.address, nowMs)) throwIfAny([entry(IP_REASONS.rdnsNoForward, "rdns")]);
  return name;
}
