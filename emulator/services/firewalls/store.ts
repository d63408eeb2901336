/**
 * Cloud Firewalls of an account as stored. Devices are stored on their firewall, so deleting a
 * firewall removes it from every assigned service at once (spec "Firewall status": rules removed
 * from all assigned services). Request shapes and per-field rules come from the sdk schemas
 * (`sdk/resources/firewalls.ts`); the rules that need state (label uniqueness, device entities and
 * grants, one active firewall per service, live migrations) live in `rules.ts`, the wire rendering
 * in `render.ts`, the mutations with their events in `operations.ts`.
 */
import type { FirewallCreateRequest, FirewallDeviceType, FirewallRules } from "../../../sdk/resources/firewalls";
import { type AccountState, type UserRecord, accountSlice, idCounter } from "../../core/state";
import { canSee } from "../../core/auth";
import { computeUrl, findCompute } from "../computes/store";
import { findNodeBalancer, nodebalancerUrl } from "../nodebalancers/store";

export type FirewallStatus = "enabled" | "disabled";

export interface StoredFirewallDevice {
  id: number;
  entity_id: number;
  entity_type: FirewallDeviceType;
  /** The entity's label when it was assigned (shown if the entity has gone since). */
  entity_label: string;
  created: string;
  updated: string;
}

export interface StoredFirewall {
  id: number;
  label: string;
  created: string;
  updated: string;
  status: FirewallStatus;
  /** Stored in wire shape: each rule keeps only the keys that were supplied (api-facts P2-3). */
  rules: FirewallRules;
  /**
   * The rules' `version` (later API): 1 when created, one more on every rules change. A state file
   * from before it has none and counts as 1.
   */
  rules_version?: number;
  tags: string[];
  devices: StoredFirewallDevice[];
}

/** `accounts[id].firewalls`, each with its devices. */
export const FIREWALLS = accountSlice("firewalls", (): StoredFirewall[] => []);
export const FIREWALL_ID = idCounter("firewall", 228_000);
export const FIREWALL_DEVICE_ID = idCounter("firewall_device", 485_000);

/** A device entity named by a request: `devices.computes[i]` on create, `{id, type}` on device add. */
export interface EntityRef {
  type: FirewallDeviceType;
  id: number;
  /** The request field that named it, for error entries. */
  field: string;
}

export function findFirewall(account: AccountState, id: number): StoredFirewall | undefined {
  return FIREWALLS.of(account).find((f) => f.id === id);
}

export function findDevice(firewall: StoredFirewall, id: number): StoredFirewallDevice | undefined {
  return firewall.devices.find((d) => d.id === id);
}

/** Firewalls the user may see: all of them, or for a restricted user those with a grant. */
export function visibleFirewalls(account: AccountState, user: UserRecord): StoredFirewall[] {
  return FIREWALLS.of(account).filter((f) => canSee(user, "firewall", f.id));
}

/** The label of an entity of the account, or undefined when there is no such entity. */
export function entityLabel(account: AccountState, type: FirewallDeviceType, id: number): string | undefined {
  return type === "compute" ? findCompute(account, id)?.label : findNodeBalancer(account, id)?.label;
}

export const firewallUrl = (id: number) => `/v4/networking/firewalls/${id}`;
export const entityUrl = (type: FirewallDeviceType, id: number) => (type === "compute" ? computeUrl(id) : nodebalancerUrl(id));

/** Entity refs of a create's `devices`, each id once, in request order. */
export function createDeviceRefs(devices: FirewallCreateRequest["devices"]): EntityRef[] {
  const refs: EntityRef[] = [];
  const seen = new Set<string>();
  for (const type of ["computes", "nodebalancers"] as const) {
    (devices?.[type] ?? []).forEach((id, i) => {
      const entityType: FirewallDeviceType = type === "computes" ? "compute" : "nodebalancer";
      if (seen.has(`${entityType}:${id}`)) return;
      seen.add(`${entityType}:${id}`);
      refs.push({ type: entityType, id, field: `devices.${type}[${i}]` });
    });
  }
  return refs;
}
