/** What the VPC endpoints do to the state, with their events (`vpc_*`, `subnet_*`, api-facts P6-2). */
import type { SubnetCreateRequest, SubnetUpdateRequest, VpcCreateRequest, VpcUpdateRequest } from "../../../sdk/resources/vpcs";
import type { Actor } from "../../core/runtime";
import { removeStored } from "../../core/state";
import { eventEntity, recordEvent } from "../events/operations";
import { SUBNET_ID, type StoredSubnet, type StoredVpc, VPCS, VPC_ID, subnetUrl, vpcUrl } from "./store";

const vpcEntity = (vpc: StoredVpc) => eventEntity("vpc", vpc.id, vpc.label, vpcUrl(vpc.id));
const subnetEntity = (vpc: StoredVpc, subnet: StoredSubnet) => eventEntity("subnet", subnet.id, subnet.label, subnetUrl(vpc.id, subnet.id));

function event(actor: Actor, action: string, entity: ReturnType<typeof eventEntity>): void {
  recordEvent(actor, { action, entity });
}

function newSubnet(actor: Actor, input: SubnetCreateRequest): StoredSubnet {
  const now = actor.runtime.clock.timestamp();
  return { id: actor.runtime.nextId(SUBNET_ID), label: input.label, ipv4: input.ipv4, created: now, updated: now };
}

/** Creates a VPC with its subnets; events `vpc_create` and one `subnet_create` per subnet. */
export function createVpc(actor: Actor, input: VpcCreateRequest): StoredVpc {
  const now = actor.runtime.clock.timestamp();
  const vpc: StoredVpc = {
    id: actor.runtime.nextId(VPC_ID),
    label: input.label,
    description: input.description ?? "",
    region: input.region,
    subnets: [],
    created: now,
    updated: now,
  };
  vpc.subnets = (input.subnets ?? []).map((s) => newSubnet(actor, s));
  VPCS.of(actor.account).push(vpc);
  event(actor, "vpc_create", vpcEntity(vpc));
  for (const subnet of vpc.subnets) event(actor, "subnet_create", subnetEntity(vpc, subnet));
  return vpc;
}

/** Updates label/description; `updated` moves on every update; event `vpc_update`. */
export function updateVpc(actor: Actor, vpc: StoredVpc, input: VpcUpdateRequest): StoredVpc {
  if (input.label !== undefined) vpc.label = input.label;
  if (input.description !== undefined) vpc.description = input.description;
  vpc.updated = actor.runtime.clock.timestamp();
  event(actor, "vpc_update", vpcEntity(vpc));
  return vpc;
}

/** Deletes a VPC and its subnets (callers check deletability first): `subnet_delete` per subnet, then `vpc_delete`. */
export function deleteVpc(actor: Actor, vpc: StoredVpc): void {
  for (const subnet of vpc.subnets) event(actor, "subnet_delete", subnetEntity(vpc, subnet));
  removeStored(VPCS, actor.account, vpc);
  event(actor, "vpc_delete", vpcEntity(vpc));
}

export function createSubnet(actor: Actor, vpc: StoredVpc, input: SubnetCreateRequest): StoredSubnet {
  const subnet = newSubnet(actor, input);
  vpc.subnets.push(subnet);
  event(actor, "subnet_create", subnetEntity(vpc, subnet));
  return subnet;
}

export function updateSubnet(actor: Actor, vpc: StoredVpc, subnet: StoredSubnet, input: SubnetUpdateRequest): StoredSubnet {
  subnet.label = input.label;
  subnet.updated = actor.runtime.clock.timestamp();
  event(actor, "subnet_update", subnetEntity(vpc, subnet));
  return subnet;
}

export function deleteSubnet(actor: Actor, vpc: StoredVpc, subnet: StoredSubnet): void {
  vpc.subnets = vpc.subnets.filter((s) => s !== subnet);
  event(actor, "subnet_delete", subnetEntity(vpc, subnet));
}
