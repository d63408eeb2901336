/**
 * VPCs and subnets of an account: stored records, their wire rendering (key order as in
 * `fixtures/vpc.create.json`, `subnet.get.json`) and the mutations with their events.
 * Request shapes and the per-field rules come from the sdk schemas (`sdk/resources/vpcs.ts`);
 * the rules that need state (uniqueness, overlap, limits, region, in-use) live in `rules.ts`.
 */
import type { Subnet, Vpc } from "../../../sdk/resources/vpcs";
import type { EmulatorRuntime } from "../../core/runtime";
import type { AccountState, UserRecord } from "../../core/state";
import { canSee } from "../../core/auth";
import { interfacesOnSubnet } from "../computes/models";
import { eventEntity, recordEvent } from "../events/models";

export interface SubnetRecord {
  id: number;
  label: string;
  ipv4: string;
  created: string;
  updated: string;
}

export interface VpcRecord {
  id: number;
  label: string;
  description: string;
  region: string;
  subnets: SubnetRecord[];
  created: string;
  updated: string;
}

export function findVpc(account: AccountState, id: number): VpcRecord | undefined {
  return account.vpcs.find((v) => v.id === id);
}

export function findSubnet(vpc: VpcRecord, id: number): SubnetRecord | undefined {
  return vpc.subnets.find((s) => s.id === id);
}

/** VPCs the user may see: all of them, or for a restricted user those with a grant. */
export function visibleVpcs(account: AccountState, user: UserRecord): VpcRecord[] {
  return account.vpcs.filter((v) => canSee(user, "vpc", v.id));
}

/** `subnet.computes`: instances with a vpc-purpose interface on the subnet, each with those interfaces. */
function subnetComputes(account: AccountState, subnetId: number): Subnet["computes"] {
  const byCompute = new Map<number, Subnet["computes"][number]>();
  for (const { compute, iface } of interfacesOnSubnet(account, subnetId)) {
    const item = byCompute.get(compute.id) ?? { id: compute.id, interfaces: [] };
    item.interfaces.push({ id: iface.id, active: iface.active });
    byCompute.set(compute.id, item);
  }
  return [...byCompute.values()];
}

export function renderSubnet(account: AccountState, subnet: SubnetRecord): Subnet {
  return {
    id: subnet.id,
    label: subnet.label,
    ipv4: subnet.ipv4,
    ipv6: null,
    computes: subnetComputes(account, subnet.id),
    created: subnet.created,
    updated: subnet.updated,
  };
}

export function renderVpc(account: AccountState, vpc: VpcRecord): Vpc {
  return {
    id: vpc.id,
    label: vpc.label,
    description: vpc.description,
    region: vpc.region,
    subnets: vpc.subnets.map((s) => renderSubnet(account, s)),
    created: vpc.created,
    updated: vpc.updated,
  };
}

export const vpcUrl = (vpcId: number) => `/v4/vpcs/${vpcId}`;
export const subnetUrl = (vpcId: number, subnetId: number) => `/v4/vpcs/${vpcId}/subnets/${subnetId}`;

const vpcEntity = (vpc: VpcRecord) => eventEntity("vpc", vpc.id, vpc.label, vpcUrl(vpc.id));
const subnetEntity = (vpc: VpcRecord, subnet: SubnetRecord) => eventEntity("subnet", subnet.id, subnet.label, subnetUrl(vpc.id, subnet.id));

/** Everything an operation needs to act on an account as a user. */
export interface Actor {
  runtime: EmulatorRuntime;
  account: AccountState;
  user: UserRecord;
}

function event(actor: Actor, action: string, entity: ReturnType<typeof eventEntity>): void {
  recordEvent(actor.runtime, actor.account, { action, username: actor.user.username, entity });
}

function newSubnet(actor: Actor, input: { label: string; ipv4: string }): SubnetRecord {
  const now = actor.runtime.clock.timestamp();
  return { id: actor.runtime.nextId("subnet"), label: input.label, ipv4: input.ipv4, created: now, updated: now };
}

/** Creates a VPC with its subnets; events `vpc_create` and one `subnet_create` per subnet. */
export function createVpc(
  actor: Actor,
  input: { label: string; region: string; description?: string | undefined; subnets?: Array<{ label: string; ipv4: string }> | undefined },
): VpcRecord {
  const now = actor.runtime.clock.timestamp();
  const vpc: VpcRecord = {
    id: actor.runtime.nextId("vpc"),
    label: input.label,
    description: input.description ?? "",
    region: input.region,
    subnets: [],
    created: now,
    updated: now,
  };
  vpc.subnets = (input.subnets ?? []).map((s) => newSubnet(actor, s));
  actor.account.vpcs.push(vpc);
  event(actor, "vpc_create", vpcEntity(vpc));
  for (const subnet of vpc.subnets) event(actor, "subnet_create", subnetEntity(vpc, subnet));
  return vpc;
}

/** Updates label/description; `updated` moves on every update; event `vpc_update`. */
export function updateVpc(actor: Actor, vpc: VpcRecord, input: { label?: string | undefined; description?: string | undefined }): VpcRecord {
  if (input.label !== undefined) vpc.label = input.label;
  if (input.description !== undefined) vpc.description = input.description;
  vpc.updated = actor.runtime.clock.timestamp();
  event(actor, "vpc_update", vpcEntity(vpc));
  return vpc;
}

/** Deletes a VPC and its subnets (callers check deletability first): `subnet_delete` per subnet, then `vpc_delete`. */
export function deleteVpc(actor: Actor, vpc: VpcRecord): void {
  for (const subnet of vpc.subnets) event(actor, "subnet_delete", subnetEntity(vpc, subnet));
  actor.account.vpcs = actor.account.vpcs.filter((v) => v !== vpc);
  event(actor, "vpc_delete", vpcEntity(vpc));
}

export function createSubnet(actor: Actor, vpc: VpcRecord, input: { label: string; ipv4: string }): SubnetRecord {
  const subnet = newSubnet(actor, input);
  vpc.subnets.push(subnet);
  event(actor, "subnet_create", subnetEntity(vpc, subnet));
  return subnet;
}

export function updateSubnet(actor: Actor, vpc: VpcRecord, subnet: SubnetRecord, input: { label: string }): SubnetRecord {
  subnet.label = input.label;
  subnet.updated = actor.runtime.clock.timestamp();
  event(actor, "subnet_update", subnetEntity(vpc, subnet));
  return subnet;
}

export function deleteSubnet(actor: Actor, vpc: VpcRecord, subnet: SubnetRecord): void {
  vpc.subnets = vpc.subnets.filter((s) => s !== subnet);
  event(actor, "subnet_delete", subnetEntity(vpc, subnet));
}
