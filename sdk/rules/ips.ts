/**
 * IP addresses, IPv6 pools and IPv6 ranges: the reason texts (recorded ones where they exist:
 * `IP Address not found.`, `Invalid Compute ID <n>`, `Domain is not valid.`), the field and
 * request schemas and the pure rule functions, shared by the sdk's validation, the emulator's
 * checks and the provider's `check` (re-exported by `ips.ts`; api-facts P2-5, P7-2).
 */
import { z } from "zod";
import { missingOr, requiredInt, requiredString } from "../core/schema";
import { canonicalIpv6, parseIpv4, parseIpv6, parseIpv6Cidr } from "../core/net";

/** Reason texts of the IP address and IPv6 rules, shared with the emulator and the tests. */
export const IP_REASONS = {
  /** Recorded (`fixtures/error.400.ip_assign_not_found.json`). */
  addressNotFound: "IP Address not found.",
  /** Recorded (`fixtures/error.400.ip_assign_invalid_compute.json`). */
  invalidCompute: (id: number) => `Invalid Compute ID ${id}`,
  /** Recorded, field `rdns` (`fixtures/error.400.ip_rdns_invalid.json`). */
  rdnsInvalid: "Domain is not valid.",
  rdnsRequired: "rdns is required",
  rdnsType: "rdns must be a domain name or null",
  rdnsNoForward: "Forward DNS must exist first: create an A (IPv4) or AAAA (IPv6) record for this name that points at this address",
  rdnsPrivate: "Reverse DNS cannot be set on a private address",
  skipIpv6RdnsInvalid: "skip_ipv6_rdns must be a boolean",
  publicRequired: "public is required",
  typeRequired: "type is required",
  typeIpv4: "type must be ipv4; only IPv4 addresses can be allocated",
  allocationNotEnabled: "This compute instance is not enabled for additional public IPv4 addresses; open a support ticket to request one",
  privateExists: "This compute instance already has a private IPv4 address; at most one is allowed",
  assignmentsRequired: "assignments is required",
  assignmentsEmpty: "assignments must list at least one address",
  assignAddress: "address must be an IPv4 address, or an IPv6 range with prefix length /56 or /64",
  assignRegionMissing: "region is required, for the request or for each assignment",
  regionAddress: (address: string, region: string) => `${address} is not in region ${region}`,
  regionCompute: (computeId: number, region: string) => `Compute instance ${computeId} is not in region ${region}`,
  assignNoPublic: (computeId: number) => `Compute instance ${computeId} would be left without a public IPv4 address`,
  assignPrivateLimit: (computeId: number) => `Compute instance ${computeId} would have more than one private IPv4 address`,
  assignRangeLimit: (computeId: number) => `Compute instance ${computeId} would have more than one IPv6 range`,
  assignShared: (address: string) => `${address} is shared with another compute instance; shared addresses cannot be swapped`,
  assignNat: (address: string) => `${address} has an active 1:1 NAT to a VPC interface address and cannot be assigned`,
  assignNoSlaac: (computeId: number) => `Compute instance ${computeId} has no IPv6 SLAAC address to route a range to`,
  ipsRequired: "ips is required",
  shareAddress: "must be an IPv4 address, or the address of an IPv6 range without its prefix length",
  shareRegion: (address: string, computeId: number) => `${address} is not in the region of compute instance ${computeId}`,
  shareOwn: (address: string, computeId: number) => `${address} already belongs to compute instance ${computeId}`,
  shareNat: (address: string) => `${address} has a 1:1 NAT on a VPC interface and cannot be shared`,
  prefixLengthRequired: "prefix_length is required",
  prefixLength: "prefix_length must be 56 or 64",
  rangeTargetBoth: "Specify either compute_id or route_target, not both",
  rangeTargetNeither: "Either compute_id or route_target is required",
  routeTargetInvalid: "route_target must be an IPv6 address without a prefix length",
  routeTargetUnknown: "route_target is not the SLAAC address of one of your compute instances",
  rangeNoSlaac: "This compute instance has no IPv6 SLAAC address to route a range to",
  rangeRegionLimit: "You may have only one IPv6 range per region; open a support ticket to request more",
  rangeSlaacLimit: "An IPv6 range is already routed to this SLAAC address; only one is allowed",
  rangeShared: "This IPv6 range is shared and cannot be deleted; remove it from IP sharing first",
} as const;

// ---------------------------------------------------------------------------------------------
// Field schemas

/** Labels of 1..63 letters, digits and inner dashes; 2+ labels; 253 characters at most; an optional final dot. */
const DOMAIN_LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;

/** True for a fully qualified host name as reverse DNS takes it (`web.example.com`, with or without a final dot). */
export function isDomainName(text: string): boolean {
  const name = text.endsWith(".") ? text.slice(0, -1) : text;
  if (name.length === 0 || name.length > 253) return false;
  const labels = name.split(".");
  return labels.length >= 2 && labels.every((label) => DOMAIN_LABEL.test(label));
}

/** The form the API stores a reverse DNS name in: lower case, no final dot. */
export function canonicalRdns(text: string): string {
  return (text.endsWith(".") ? text.slice(0, -1) : text).toLowerCase();
}

/** `rdns`: a host name, or `null` to restore the default (required: the key must be present). */
export const Rdns = z
  .string(missingOr(IP_REASONS.rdnsRequired, IP_REASONS.rdnsType))
  .refine(isDomainName, IP_REASONS.rdnsInvalid)
  .nullable();

/** An IPv4 or IPv6 address (no prefix length). */
export const IpAddressText = requiredString("address").refine(
  (s) => parseIpv4(s) !== undefined || parseIpv6(s) !== undefined,
  "address must be an IPv4 or IPv6 address",
);

/** An IPv6 SLAAC address given as a route target: an address, never `addr/128`. */
export const RouteTarget = z
  .string({ error: () => IP_REASONS.routeTargetInvalid })
  .refine((s) => parseIpv6(s) !== undefined, IP_REASONS.routeTargetInvalid);

/** `prefix_length` of an IPv6 range: 56 or 64. */
export const PrefixLength = z
  .number(missingOr(IP_REASONS.prefixLengthRequired, IP_REASONS.prefixLength))
  .refine((n) => n === 56 || n === 64, IP_REASONS.prefixLength);

/** An assignable address: IPv4, or an IPv6 range written with its /56 or /64 prefix length. */
const AssignableAddress = requiredString("address").refine((s) => {
  if (parseIpv4(s) !== undefined) return true;
  const range = parseIpv6Cidr(s);
  return range !== undefined && (range.prefix === 56 || range.prefix === 64);
}, IP_REASONS.assignAddress);

/** A shareable address: IPv4, or an IPv6 range's address with the prefix length omitted. */
const ShareableAddress = z.string().refine((s) => parseIpv4(s) !== undefined || parseIpv6(s) !== undefined, IP_REASONS.shareAddress);

// ---------------------------------------------------------------------------------------------
// Request bodies

/** `POST /networking/ips`: allocate an IPv4 address to an instance. */
export const IpAllocateRequest = z.strictObject({
  compute_id: requiredInt("compute_id"),
  public: z.boolean(missingOr(IP_REASONS.publicRequired, "public must be a boolean")),
  type: z.literal("ipv4", missingOr(IP_REASONS.typeRequired, IP_REASONS.typeIpv4)),
});
export type IpAllocateRequest = z.infer<typeof IpAllocateRequest>;

/** One move of an assign request. `region` may be given here or once for the request. */
export const IpAssignment = z.strictObject({
  address: AssignableAddress,
  compute_id: requiredInt("compute_id"),
  region: z.string().min(1, "region must not be empty").optional(),
});

/**
 * `POST /networking/ips/assign` (or `/networking/ipv4/assign`). The spec lists `region` per
 * assignment; the recorded requests send it once beside `assignments` (`fixtures/ip.assign.json`):
 * both spellings are accepted, and every assignment must end up with a region.
 */
export const IpAssignRequest = z
  .strictObject({
    region: z.string().min(1, "region must not be empty").optional(),
    assignments: z
      .array(IpAssignment, missingOr(IP_REASONS.assignmentsRequired, "assignments must be an array"))
      .min(1, IP_REASONS.assignmentsEmpty),
  })
  .superRefine((body, ctx) => {
    body.assignments.forEach((a, i) => {
      if (a.region === undefined && body.region === undefined) {
        ctx.addIssue({ code: "custom", message: IP_REASONS.assignRegionMissing, path: ["assignments", i, "region"] });
      }
    });
  });
export type IpAssignRequest = z.infer<typeof IpAssignRequest>;

/** The region an assignment is checked against: its own, else the request's. */
export function assignmentRegion(body: IpAssignRequest, index: number): string {
  return body.assignments[index]!.region ?? body.region!;
}

/** `POST /networking/ips/share` (or `/networking/ipv4/share`): the full list of addresses the instance shares; `[]` removes all. */
export const IpShareRequest = z.strictObject({
  compute_id: requiredInt("compute_id"),
  ips: z.array(ShareableAddress, missingOr(IP_REASONS.ipsRequired, "ips must be an array")),
});
export type IpShareRequest = z.infer<typeof IpShareRequest>;

/** `PUT /networking/ips/{address}`: reverse DNS; `null` restores the platform default. */
export const IpUpdateRequest = z.strictObject({ rdns: Rdns });
export type IpUpdateRequest = z.infer<typeof IpUpdateRequest>;

/** `POST /networking/ipv6/ranges`: exactly one of `compute_id` / `route_target`. */
export const Ipv6RangeCreateRequest = z
  .strictObject({
    prefix_length: PrefixLength,
    compute_id: z
      .number({ error: () => "compute_id must be an integer" })
      .int("compute_id must be an integer")
      .optional(),
    route_target: RouteTarget.optional(),
  })
  .superRefine((body, ctx) => {
    const reason = rangeTargetProblem(body.compute_id !== undefined, body.route_target !== undefined);
    if (!reason) return;
    for (const field of ["compute_id", "route_target"]) ctx.addIssue({ code: "custom", message: reason, path: [field] });
  });
export type Ipv6RangeCreateRequest = z.infer<typeof Ipv6RangeCreateRequest>;

/** The both/neither rule of a range's target, shared with the provider's check. */
export function rangeTargetProblem(hasComputeId: boolean, hasRouteTarget: boolean): string | undefined {
  if (hasComputeId && hasRouteTarget) return IP_REASONS.rangeTargetBoth;
  if (!hasComputeId && !hasRouteTarget) return IP_REASONS.rangeTargetNeither;
  return undefined;
}

/** `GET /networking/ips` query: `skip_ipv6_rdns` (listed by the spec as a body field of the GET). */
export const IpListQuery = z.strictObject({ skip_ipv6_rdns: z.boolean({ error: IP_REASONS.skipIpv6RdnsInvalid }).optional() });

/** Splits a created range's `addr/len` into the path id (the address) and the prefix length. */
export function splitRange(text: string): { range: string; prefix: number } | undefined {
  const parsed = parseIpv6Cidr(text);
  if (!parsed) return undefined;
  return { range: canonicalIpv6(text.split("/")[0]!)!, prefix: parsed.prefix };
}
