/**
 * VPCs, their subnets and the VPC IP address records (spec "VPC", "VPC Subnet", api-facts P2-1).
 * The request schemas carry the API's own rules and reason texts: the sdk validates before
 * sending, the emulator validates with the same schemas, and the provider's `check` derives
 * from them.
 */
import { z } from "zod";
import { FILTERABLE_STAMPS, filterable, requiredString } from "../core/schema";
import type { ListOptions, Paginator } from "../core/pagination";
import { crud, endpoints, verbs } from "../core/endpoint";
import { resource } from "../core/resource";
import { CLASSIC_PRIVATE_RANGE, RFC1918_RANGES, formatIpv4Cidr, ipv4RangeWithin, ipv4RangesOverlap, parseIpv4Cidr } from "../core/net";

/** The capability a region lists when VPCs can be made in it (`GET /regions`). */
export const VPC_CAPABILITY = "VPCs";

/** Reason texts of the VPC rules, shared with the emulator and the tests. */
export const VPC_REASONS = {
  labelChars: "Label must include only ASCII letters, numbers, and dashes",
  labelDashes: "Label must not contain two dashes in a row",
  labelLength: "Label must be 1-64 characters",
  labelUniqueVpc: "Label must be unique among your VPCs",
  labelUniqueSubnet: "Label must be unique among the subnets of this VPC",
  descriptionLength: "Description must be 255 characters or fewer",
  regionRequired: "region is required",
  regionInvalid: "Region is not valid",
  regionNoVpcs: "VPCs are not available in this region",
  vpcLimit: "You may have at most 10 VPCs in a region",
  subnetLimit: "A VPC may have at most 10 subnets",
  ipv4Invalid: "Subnet IPv4 range must be a valid IPv4 range in CIDR form, such as 10.0.0.0/24",
  ipv4Prefix: "Subnet IPv4 range prefix length must be between 1 and 29",
  ipv4Private: "Subnet IPv4 range must lie within RFC 1918 private address space (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)",
  ipv4Classic: "Subnet IPv4 range must not overlap 192.168.128.0/17, the range of classic private IPs",
  ipv4Overlap: "Subnet IPv4 range overlaps another subnet of this VPC",
  subnetInUse: "The subnet has assigned interfaces; delete them first (active ones need the compute instance shut down)",
  vpcInUse: "A subnet of this VPC has assigned interfaces; nothing was deleted",
} as const;

/** A VPC or subnet label: 1–64 ASCII letters, digits and single dashes (api-facts P2-1). */
export const VpcLabel = requiredString("label")
  .min(1, VPC_REASONS.labelLength)
  .max(64, VPC_REASONS.labelLength)
  .regex(/^[A-Za-z0-9-]*$/, VPC_REASONS.labelChars)
  .refine((s) => !s.includes("--"), VPC_REASONS.labelDashes);

/** A subnet's IPv4 range: canonical CIDR, RFC 1918, prefix 1..29, clear of 192.168.128.0/17. */
export const SubnetIpv4 = requiredString("ipv4").superRefine((text, ctx) => {
  const range = parseIpv4Cidr(text);
  if (!range) return void ctx.addIssue({ code: "custom", message: VPC_REASONS.ipv4Invalid });
  if (!range.canonical) {
    return void ctx.addIssue({
      code: "custom",
      message: `Subnet IPv4 range must be in canonical CIDR form (${formatIpv4Cidr(range)}, not ${text})`,
    });
  }
  if (range.prefix < 1 || range.prefix > 29) return void ctx.addIssue({ code: "custom", message: VPC_REASONS.ipv4Prefix });
  if (!RFC1918_RANGES.some((outer) => ipv4RangeWithin(range, outer))) {
    return void ctx.addIssue({ code: "custom", message: VPC_REASONS.ipv4Private });
  }
  if (ipv4RangesOverlap(range, CLASSIC_PRIVATE_RANGE)) ctx.addIssue({ code: "custom", message: VPC_REASONS.ipv4Classic });
});

/** A VPC description: at most 255 characters. */
export const VpcDescription = z.string().max(255, VPC_REASONS.descriptionLength);

/** The body of `POST /vpcs/{vpcId}/subnets` (and of each subnet in a VPC create). */
export const SubnetCreateRequest = z.strictObject({ label: VpcLabel, ipv4: SubnetIpv4 });
export type SubnetCreateRequest = z.infer<typeof SubnetCreateRequest>;

/** The body of `PUT /vpcs/{vpcId}/subnets/{subnetId}`: only the label changes. */
export const SubnetUpdateRequest = z.strictObject({ label: VpcLabel });
export type SubnetUpdateRequest = z.infer<typeof SubnetUpdateRequest>;

/** The body of `POST /vpcs`, with every rule of the API. */
export const VpcCreateRequest = z.strictObject({
  label: VpcLabel,
  region: requiredString("region").min(1, VPC_REASONS.regionRequired),
  description: VpcDescription.optional(),
  subnets: z.array(SubnetCreateRequest).max(10, VPC_REASONS.subnetLimit).optional(),
});
export type VpcCreateRequest = z.infer<typeof VpcCreateRequest>;

/** The body of `PUT /vpcs/{vpcId}`: label and description. */
export const VpcUpdateRequest = z.strictObject({
  label: VpcLabel.optional(),
  description: VpcDescription.optional(),
});
export type VpcUpdateRequest = z.infer<typeof VpcUpdateRequest>;

/** A compute instance assigned to a subnet through configuration profile interfaces. */
export const SubnetCompute = z.looseObject({
  id: z.number().int(),
  interfaces: z.array(z.looseObject({ id: z.number().int(), active: z.boolean() })),
});

/** A VPC subnet as the API returns it; `filterable`: what `X-Filter` may name in a listing. */
export const Subnet = z.looseObject({
  id: filterable(z.number().int()),
  label: filterable(z.string()),
  ipv4: filterable(z.string()),
  /** Not in the spec; every recording carries `"ipv6": null`. */
  ipv6: z.unknown().optional(),
  computes: z.array(SubnetCompute),
  ...FILTERABLE_STAMPS,
});
export type Subnet = z.infer<typeof Subnet>;

/** A VPC as the API returns it, with its subnets; `filterable`: what `X-Filter` may name in a listing. */
export const Vpc = z.looseObject({
  id: filterable(z.number().int()),
  label: filterable(z.string()),
  description: filterable(z.string()),
  region: filterable(z.string()),
  subnets: z.array(Subnet),
  ...FILTERABLE_STAMPS,
});
export type Vpc = z.infer<typeof Vpc>;

/** One address of a VPC interface; an instance with several VPC profiles is listed once per profile. */
export const VpcIp = z.looseObject({
  active: z.boolean(),
  address: z.string().nullable(),
  address_range: z.string().nullable(),
  config_id: z.number().int(),
  gateway: z.string().nullable(),
  interface_id: z.number().int(),
  compute_id: z.number().int(),
  nat_1_1: z.string().nullable(),
  prefix: z.number().int(),
  region: z.string(),
  subnet_id: z.number().int(),
  subnet_mask: z.string(),
  vpc_id: z.number().int(),
});
export type VpcIp = z.infer<typeof VpcIp>;

const READ = verbs({ service: "vpcs", auth: "token", scopes: [] });
const WRITE = verbs({ service: "vpcs", auth: "token", scopes: ["vpc:read_write"] });
const IPS = { ...verbs({ service: "vpcs", auth: "token", scopes: ["ips:read_only"] }).list, response: VpcIp };

/** The `/vpcs` endpoints (spec "VPCs"): reads list no scope, the IP lists need `ips:read_only`, writes `vpc:read_write`. */
export const VPC_ENDPOINTS = endpoints("vpcs", {
  ...crud(READ, WRITE, "/vpcs", "vpcId", Vpc, {
    /** Iterates the account's VPCs. */
    list: "VPC collection",
    /** The body is validated against `VpcCreateRequest` before anything is sent; never retried after an ambiguous failure. */
    create: ["Create a VPC with optional subnets", VpcCreateRequest],
    get: "One VPC",
    update: ["Update a VPC's label or description", VpcUpdateRequest],
    delete: "Delete a VPC and all its subnets (all or nothing)",
  }),
  /** `/vpcs/{vpcId}/subnets`. */
  subnets: crud(READ, WRITE, "/vpcs/{vpcId}/subnets", "vpcSubnetId", Subnet, {
    list: "Subnet collection of a VPC",
    /** Never retried after an ambiguous failure. */
    create: ["Create a subnet", SubnetCreateRequest],
    get: "One subnet",
    /** The label only; `ipv4` is fixed. */
    update: ["Update a subnet's label", SubnetUpdateRequest],
    delete: "Delete a subnet without assigned interfaces",
  }),
  ips: {
    list: { ...IPS, path: "/vpcs/{vpcId}/ips", summary: "VPC IP records of one VPC" },
    listAccount: { ...IPS, path: "/vpcs/ips", summary: "VPC IP records of the account" },
    listAccountViaNetworking: {
      ...IPS,
      name: "vpcs.ips.listAccount#networking",
      path: "/networking/vpcs/ips",
      summary: "VPC IP records of the account (networking path)",
    },
  },
});

/** Options of `VpcIps.listAccount`. */
export interface VpcIpListOptions extends ListOptions {
  /** Which of the two equivalent account-wide paths to use: `/vpcs/ips` (default) or `/networking/vpcs/ips`. */
  via?: "vpcs" | "networking";
}

/** VPC IP address records, per VPC or for the whole account. */
export class VpcIps extends resource(VPC_ENDPOINTS.ips, { own: ["listAccount"] }) {
  /** Iterates the IP records of every VPC of the account; both paths exist on the real API. */
  listAccount(options: VpcIpListOptions = {}): Paginator<VpcIp> {
    const { via = "vpcs", ...rest } = options;
    return this.http.paginate(via === "networking" ? this.endpoints.listAccountViaNetworking : this.endpoints.listAccount, {}, rest);
  }
}

/**
 * `/vpcs`: VPCs, with their subnets (`vpcs.subnets`) and VPC IP records (`vpcs.ips`).
 * Create is a POST without an idempotency key: it is never retried after an ambiguous failure.
 */
export class Vpcs extends resource(VPC_ENDPOINTS, { sub: { ips: VpcIps } }) {}
