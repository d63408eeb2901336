/**
 * The VPC rules that need state (api-facts P2-1, P8-3, spec "Errors"). Field-level rules (label
 * characters and length, CIDR form, private range, prefix, 192.168.128.0/17) are enforced by the
 * sdk schemas before these run. Each check returns every problem it finds, as the API reports
 * several at once.
 */
import type { ErrorEntry } from "../../../sdk/core/schema";
import { VPC_CAPABILITY, VPC_REASONS } from "../../../sdk/resources/vpcs";
import type { SubnetCreateRequest, SubnetUpdateRequest, VpcCreateRequest, VpcUpdateRequest } from "../../../sdk/resources/vpcs";
import { ipv4RangesOverlap, parseIpv4Cidr } from "../../../sdk/core/net";
import type { AccountState } from "../../core/state";
import { entry } from "../../core/errors";
import { findRegion, regionHasCapability } from "../regions/catalog";
import { interfacesOnSubnet } from "../computes/store";
import { type StoredSubnet, type StoredVpc, VPCS } from "./store";

/** Default account limits (api-facts P8-3). */
export const VPCS_PER_REGION = 10;
export const SUBNETS_PER_VPC = 10;

function overlaps(a: string, b: string): boolean {
  const ra = parseIpv4Cidr(a);
  const rb = parseIpv4Cidr(b);
  return !!ra && !!rb && ipv4RangesOverlap(ra, rb);
}

export function checkVpcCreate(account: AccountState, input: VpcCreateRequest): ErrorEntry[] {
  const errors: ErrorEntry[] = [];
  const region = findRegion(input.region);
  if (!region) errors.push(entry(VPC_REASONS.regionInvalid, "region"));
  else if (!regionHasCapability(region, VPC_CAPABILITY)) errors.push(entry(VPC_REASONS.regionNoVpcs, "region"));
  else if (VPCS.of(account).filter((v) => v.region === region.id).length >= VPCS_PER_REGION) {
    errors.push(entry(VPC_REASONS.vpcLimit, "region"));
  }
  if (VPCS.of(account).some((v) => v.label === input.label)) errors.push(entry(VPC_REASONS.labelUniqueVpc, "label"));
  const subnets = input.subnets ?? [];
  subnets.forEach((subnet, i) => {
    const earlier = subnets.slice(0, i);
    if (earlier.some((s) => s.label === subnet.label)) errors.push(entry(VPC_REASONS.labelUniqueSubnet, `subnets[${i}].label`));
    if (earlier.some((s) => overlaps(s.ipv4, subnet.ipv4))) errors.push(entry(VPC_REASONS.ipv4Overlap, `subnets[${i}].ipv4`));
  });
  return errors;
}

export function checkVpcUpdate(account: AccountState, vpc: StoredVpc, input: VpcUpdateRequest): ErrorEntry[] {
  if (input.label === undefined) return [];
  return VPCS.of(account).some((v) => v !== vpc && v.label === input.label) ? [entry(VPC_REASONS.labelUniqueVpc, "label")] : [];
}

export function checkSubnetCreate(vpc: StoredVpc, input: SubnetCreateRequest): ErrorEntry[] {
  const errors: ErrorEntry[] = [];
  if (vpc.subnets.length >= SUBNETS_PER_VPC) errors.push(entry(VPC_REASONS.subnetLimit));
  if (vpc.subnets.some((s) => s.label === input.label)) errors.push(entry(VPC_REASONS.labelUniqueSubnet, "label"));
  if (vpc.subnets.some((s) => overlaps(s.ipv4, input.ipv4))) errors.push(entry(VPC_REASONS.ipv4Overlap, "ipv4"));
  return errors;
}

export function checkSubnetUpdate(vpc: StoredVpc, subnet: StoredSubnet, input: SubnetUpdateRequest): ErrorEntry[] {
  return vpc.subnets.some((s) => s !== subnet && s.label === input.label) ? [entry(VPC_REASONS.labelUniqueSubnet, "label")] : [];
}

/** A subnet can be deleted only once no configuration profile interface uses it. */
export function subnetInUse(account: AccountState, subnet: StoredSubnet): boolean {
  return interfacesOnSubnet(account, subnet.id).length > 0;
}

export function checkSubnetDelete(account: AccountState, subnet: StoredSubnet): ErrorEntry[] {
  return subnetInUse(account, subnet) ? [entry(VPC_REASONS.subnetInUse)] : [];
}

/** All-or-nothing: one undeletable subnet keeps the whole VPC. */
export function checkVpcDelete(account: AccountState, vpc: StoredVpc): ErrorEntry[] {
  return vpc.subnets.some((s) => subnetInUse(account, s)) ? [entry(VPC_REASONS.vpcInUse)] : [];
}
