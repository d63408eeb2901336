/**
 * Cloud Firewalls of an account: stored records, their wire rendering (key order as in
 * `fixtures/firewall.get.json`, `firewall_device.get.json`) and the mutations with their events.
 * Request shapes and per-field rules come from the sdk schemas (`sdk/resources/firewalls.ts`);
 * the rules that need state (label uniqueness, device entities and grants, one active firewall
 * per service, live migrations) live in `rules.ts`.
 *
 * Devices are stored on their firewall, so deleting a firewall removes it from every assigned
 * service at once (spec "Firewall status": rules removed from all assigned services).
 */
import type {
  Firewall,
  FirewallCreateRequest,
  FirewallDevice,
  FirewallDeviceType,
  FirewallRuleInput,
  FirewallRuleRecord,
  FirewallRules,
  FirewallRulesUpdateRequest,
  FirewallUpdateRequest,
} from "../../../sdk/resources/firewalls";
import { canonicalIpv6 } from "../../../sdk/core/net";
import type { EmulatorRuntime } from "../../core/runtime";
import type { AccountState, UserRecord } from "../../core/state";
import { canSee } from "../../core/auth";
import { eventEntity, recordEvent } from "../events/models";
import { findCompute } from "../computes/models";
import { findNodeBalancer } from "../nodebalancers/models";

export type FirewallStatus = "enabled" | "disabled";

export interface FirewallDeviceRecord {
  id: number;
  entity_id: number;
  entity_type: FirewallDeviceType;
  /** The entity's label when it was assigned (shown if the entity has gone since). */
  entity_label: string;
  created: string;
  updated: string;
}

export interface FirewallRecord {
  id: number;
  label: string;
  created: string;
  updated: string;
  status: FirewallStatus;
  /** Stored in wire shape: each rule keeps only the keys that were supplied (api-facts P2-3). */
  rules: FirewallRules;
  tags: string[];
  devices: FirewallDeviceRecord[];
}

/** A device entity named by a request: `devices.computes[i]` on create, `{id, type}` on device add. */
export interface EntityRef {
  type: FirewallDeviceType;
  id: number;
  /** The request field that named it, for error entries. */
  field: string;
}

/** Everything an operation needs to act on an account as a user. */
export interface Actor {
  runtime: EmulatorRuntime;
  account: AccountState;
  user: UserRecord;
}

export function findFirewall(account: AccountState, id: number): FirewallRecord | undefined {
  return account.firewalls.find((f) => f.id === id);
}

export function findDevice(firewall: FirewallRecord, id: number): FirewallDeviceRecord | undefined {
  return firewall.devices.find((d) => d.id === id);
}

/** Firewalls the user may see: all of them, or for a restricted user those with a grant. */
export function visibleFirewalls(account: AccountState, user: UserRecord): FirewallRecord[] {
  return account.firewalls.filter((f) => canSee(user, "firewall", f.id));
}

/** The label of an entity of the account, or undefined when there is no such entity. */
export function entityLabel(account: AccountState, type: FirewallDeviceType, id: number): string | undefined {
  return type === "compute" ? findCompute(account, id)?.label : findNodeBalancer(account, id)?.label;
}

export const firewallUrl = (id: number) => `/v4/networking/firewalls/${id}`;
export const entityUrl = (type: FirewallDeviceType, id: number) => (type === "compute" ? `/v4/compute/instances/${id}` : `/v4/nodebalancers/${id}`);

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

// ---------------------------------------------------------------------------------------------
// rendering

/**
 * A rule as stored and returned: only the supplied keys, in the recorded order (`action, label,
 * ports, protocol, addresses`). IPv6 entries are kept in RFC 5952 form, as the platform returns
 * them (linode/terraform-provider-linode#634: `...:0f88/128` came back as `...:f88/128`).
 */
export function storedRule(rule: FirewallRuleInput): FirewallRuleRecord {
  const stored: FirewallRuleRecord = { action: rule.action } as FirewallRuleRecord;
  if (rule.label !== undefined) stored.label = rule.label;
  if (rule.description !== undefined) stored.description = rule.description;
  if (rule.ports !== undefined) stored.ports = rule.ports;
  stored.protocol = rule.protocol;
  const addresses: FirewallRuleRecord["addresses"] = {};
  if (rule.addresses.ipv4 !== undefined) addresses.ipv4 = [...rule.addresses.ipv4];
  if (rule.addresses.ipv6 !== undefined) addresses.ipv6 = rule.addresses.ipv6.map(canonicalIpv6Network);
  stored.addresses = addresses;
  return stored;
}

function canonicalIpv6Network(text: string): string {
  const slash = text.lastIndexOf("/");
  return `${canonicalIpv6(text.slice(0, slash)) ?? text.slice(0, slash)}${text.slice(slash)}`;
}

const storedList = (rules: FirewallRuleInput[] | null | undefined) => (rules === null ? null : (rules ?? []).map(storedRule));

export function renderRules(rules: FirewallRules): FirewallRules {
  return structuredClone({
    inbound: rules.inbound,
    inbound_policy: rules.inbound_policy,
    outbound: rules.outbound,
    outbound_policy: rules.outbound_policy,
  });
}

export function renderFirewall(firewall: FirewallRecord): Firewall {
  return {
    id: firewall.id,
    label: firewall.label,
    created: firewall.created,
    updated: firewall.updated,
    status: firewall.status,
    rules: renderRules(firewall.rules),
    tags: [...firewall.tags],
  };
}

export function renderDevice(account: AccountState, device: FirewallDeviceRecord): FirewallDevice {
  return {
    id: device.id,
    created: device.created,
    updated: device.updated,
    entity: {
      id: device.entity_id,
      type: device.entity_type,
      label: entityLabel(account, device.entity_type, device.entity_id) ?? device.entity_label,
      url: entityUrl(device.entity_type, device.entity_id),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// mutations and their events

const firewallEntity = (f: FirewallRecord) => eventEntity("firewall", f.id, f.label, firewallUrl(f.id));
const deviceEntity = (account: AccountState, d: FirewallDeviceRecord) =>
  eventEntity(d.entity_type, d.entity_id, entityLabel(account, d.entity_type, d.entity_id) ?? d.entity_label, entityUrl(d.entity_type, d.entity_id));

function event(actor: Actor, action: string, firewall: FirewallRecord, device?: FirewallDeviceRecord): void {
  recordEvent(actor.runtime, actor.account, {
    action,
    username: actor.user.username,
    entity: firewallEntity(firewall),
    secondaryEntity: device ? deviceEntity(actor.account, device) : null,
  });
}

function newDevice(actor: Actor, ref: Pick<EntityRef, "type" | "id">): FirewallDeviceRecord {
  const now = actor.runtime.clock.timestamp();
  return {
    id: actor.runtime.nextId("firewall_device"),
    entity_id: ref.id,
    entity_type: ref.type,
    entity_label: entityLabel(actor.account, ref.type, ref.id) ?? "",
    created: now,
    updated: now,
  };
}

/** Creates an enabled firewall (event `firewall_create`) and a device per entity (`firewall_device_add` each). */
export function createFirewall(actor: Actor, input: FirewallCreateRequest, refs: EntityRef[]): FirewallRecord {
  const now = actor.runtime.clock.timestamp();
  const firewall: FirewallRecord = {
    id: actor.runtime.nextId("firewall"),
    label: input.label,
    created: now,
    updated: now,
    status: "enabled",
    rules: {
      inbound: storedList(input.rules.inbound),
      inbound_policy: input.rules.inbound_policy,
      outbound: storedList(input.rules.outbound),
      outbound_policy: input.rules.outbound_policy,
    },
    tags: [...(input.tags ?? [])],
    devices: [],
  };
  actor.account.firewalls.push(firewall);
  event(actor, "firewall_create", firewall);
  for (const ref of refs) {
    const device = newDevice(actor, ref);
    firewall.devices.push(device);
    event(actor, "firewall_device_add", firewall, device);
  }
  return firewall;
}

/**
 * Label, tags and status; `updated` moves. Events: `firewall_update` when the body carries a label
 * or tags, `firewall_enable` / `firewall_disable` when the status actually changes.
 */
export function updateFirewall(actor: Actor, firewall: FirewallRecord, input: FirewallUpdateRequest): FirewallRecord {
  if (input.label !== undefined) firewall.label = input.label;
  if (input.tags !== undefined) firewall.tags = [...input.tags];
  const statusChanged = input.status !== undefined && input.status !== firewall.status;
  if (input.status !== undefined) firewall.status = input.status;
  firewall.updated = actor.runtime.clock.timestamp();
  if (input.label !== undefined || input.tags !== undefined) event(actor, "firewall_update", firewall);
  if (statusChanged) event(actor, firewall.status === "enabled" ? "firewall_enable" : "firewall_disable", firewall);
  return firewall;
}

/**
 * `PUT .../rules` replaces both rulesets completely (an absent ruleset becomes `[]`, `null` stays
 * `null`); an absent policy keeps its value. No event is documented for it (api-facts P6-2).
 */
export function replaceRules(actor: Actor, firewall: FirewallRecord, input: FirewallRulesUpdateRequest): FirewallRules {
  firewall.rules = {
    inbound: storedList(input.inbound),
    inbound_policy: input.inbound_policy ?? firewall.rules.inbound_policy,
    outbound: storedList(input.outbound),
    outbound_policy: input.outbound_policy ?? firewall.rules.outbound_policy,
  };
  firewall.updated = actor.runtime.clock.timestamp();
  return firewall.rules;
}

/** Deletes the firewall with its devices, so its rules leave every assigned service; event `firewall_delete`. */
export function deleteFirewall(actor: Actor, firewall: FirewallRecord): void {
  actor.account.firewalls = actor.account.firewalls.filter((f) => f !== firewall);
  event(actor, "firewall_delete", firewall);
}

/** Assigns the firewall to one entity; event `firewall_device_add`. */
export function addDevice(actor: Actor, firewall: FirewallRecord, ref: Pick<EntityRef, "type" | "id">): FirewallDeviceRecord {
  const device = newDevice(actor, ref);
  firewall.devices.push(device);
  event(actor, "firewall_device_add", firewall, device);
  return device;
}

/** Removes the firewall from one entity (other firewalls' rules stay); event `firewall_device_remove`. */
export function removeDevice(actor: Actor, firewall: FirewallRecord, device: FirewallDeviceRecord): void {
  firewall.devices = firewall.devices.filter((d) => d !== device);
  event(actor, "firewall_device_remove", firewall, device);
}
