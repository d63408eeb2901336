/** VPCs and subnets on the wire: key order as in `fixtures/vpc.create.json`, `subnet.get.json`. */
import type { Subnet, Vpc } from "../../../sdk/resources/vpcs";
import type { AccountState } from "../../core/state";
import { interfacesOnSubnet } from "../computes/store";
import type { StoredSubnet, StoredVpc } from "./store";

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

export function renderSubnet(account: AccountState, subnet: StoredSubnet): Subnet {
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

export function renderVpc(account: AccountState, vpc: StoredVpc): Vpc {
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
