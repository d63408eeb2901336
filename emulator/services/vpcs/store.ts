/**
 * VPCs and subnets of an account as stored. Request shapes and the per-field rules come from the
 * sdk schemas (`sdk/resources/vpcs.ts`); the rules that need state live in `rules.ts`, the wire
 * rendering in `render.ts`, the mutations with their events in `operations.ts`.
 */
import type { Subnet, Vpc } from "../../../sdk/resources/vpcs";
import { type AccountState, type StoredShape, type UserRecord, accountSlice, idCounter } from "../../core/state";
import { canSee } from "../../core/auth";

/**
 * A subnet as stored: the sdk's `Subnet` but `computes` (the instances' interfaces on it, rendered)
 * and `ipv6` (always null); `updated` is stamped on create.
 */
export type StoredSubnet = StoredShape<typeof Subnet, "computes" | "ipv6", { updated: string }>;

/** A VPC as stored: the sdk's `Vpc`, with its subnets as stored; `updated` is stamped on create. */
export type StoredVpc = StoredShape<typeof Vpc, never, { subnets: StoredSubnet[]; updated: string }>;

/** `accounts[id].vpcs`, each with its subnets. */
export const VPCS = accountSlice("vpcs", (): StoredVpc[] => []);
export const VPC_ID = idCounter("vpc", 10_000);
export const SUBNET_ID = idCounter("subnet", 11_000);

export const vpcUrl = (vpcId: number) => `/v4/vpcs/${vpcId}`;
export const subnetUrl = (vpcId: number, subnetId: number) => `/v4/vpcs/${vpcId}/subnets/${subnetId}`;

export function findVpc(account: AccountState, id: number): StoredVpc | undefined {
  return VPCS.of(account).find((v) => v.id === id);
}

export function findSubnet(vpc: StoredVpc, id: number): StoredSubnet | undefined {
  return vpc.subnets.find((s) => s.id === id);
}

/** A subnet of any of the account's VPCs, with its VPC. */
export function findSubnetOfAccount(account: AccountState, subnetId: number): { vpc: StoredVpc; subnet: StoredSubnet } | undefined {
  for (const vpc of VPCS.of(account)) {
    const subnet = findSubnet(vpc, subnetId);
    if (subnet) return { vpc, subnet };
  }
  return undefined;
}

/** VPCs the user may see: all of them, or for a restricted user those with a grant. */
export function visibleVpcs(account: AccountState, user: UserRecord): StoredVpc[] {
  return VPCS.of(account).filter((v) => canSee(user, "vpc", v.id));
}
