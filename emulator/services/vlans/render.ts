/**
 * VLANs, derived from the seeded instances' configuration profile interfaces of purpose `vlan`
 * (spec: "VLAN listing"; api-facts P2-5). A VLAN is a label within a region; it exists while an
 * interface names it, lists the instances attached, and dates from its earliest instance.
 * Record key order as `fixtures/vlan.list.json`.
 */
import type { Vlan } from "../../../sdk/resources/vlans";
import type { AccountState, UserRecord } from "../../core/state";
import { objectPermission } from "../../core/auth";
import { allInterfaces } from "../computes/store";

/** The account's VLANs, by region then label; a restricted user sees those of granted instances. */
export function accountVlans(account: AccountState, user: UserRecord): Vlan[] {
  const byKey = new Map<string, Vlan>();
  for (const { compute, iface } of allInterfaces(account)) {
    if (iface.purpose !== "vlan" || iface.label === null) continue;
    if (objectPermission(user, "compute", compute.id) === undefined) continue;
    const key = `${compute.region}\n${iface.label}`;
    const vlan = byKey.get(key) ?? { region: compute.region, label: iface.label, computes: [], created: compute.created };
    if (!vlan.computes.includes(compute.id)) vlan.computes.push(compute.id);
    if (compute.created < vlan.created) vlan.created = compute.created;
    byKey.set(key, vlan);
  }
  return [...byKey.values()]
    .map((v) => ({ ...v, computes: [...v.computes].sort((a, b) => a - b) }))
    .sort((a, b) => (a.region === b.region ? a.label.localeCompare(b.label) : a.region.localeCompare(b.region)));
}
