/**
 * VPCs and subnets: the reason texts, the label, IPv4 range and description rules, and the request
 * schemas, shared by the sdk's validation, the emulator's checks and the provider's `check`
 * (re-exported by `vpcs.ts`; api-facts P2-1).
 */
import { z } from "zod";
import { requiredString } from "../core/schema";
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
export const SubnetUpdateRequest = SubnetCreateRequest.pick({ label: true });
export type SubnetUpdateRequest = z.infer<typeof SubnetUpdateRequest>;

/** The body of `POST /vpcs`, with every rule of the API. */
export const VpcCreateRequest = z.strictObject({
  label: VpcLabel,
  region: requiredString("region").min(1, VPC_REASONS.regionRequired),
  description: VpcDescription.optional(),
  subnets: z.array(SubnetCreateRequest).max(10, VPC_REASONS.subnetLimit).optional(),
});
export type VpcCreateRequest = z.infer<typeof VpcCreateRequest>;

/** The body of `PUT /vpcs/{vpcId}`: a create's label and description, each optional. */
export const VpcUpdateRequest = VpcCreateRequest.pick({ label: true, description: true }).partial();
export type VpcUpdateRequest = z.infer<typeof VpcUpdateRequest>;
