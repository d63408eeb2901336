/**
 * What the firewall endpoints do to the state, with their events (`firewall_*`, api-facts P6-2).
 * Callers check the rules (`rules.ts`) first.
 */
import type {
  FirewallCreateRequest,
  FirewallRuleInput,
  FirewallRuleRecord,
  FirewallRules,
  FirewallRulesUpdateRequest,
  FirewallUpdateRequest,
} from "../../../sdk/resources/firewalls";
import { canonicalIpv6 } from "../../../sdk/core/net";
import type { Actor } from "../../core/runtime";
import { type AccountState, removeStored } from "../../core/state";
import { eventEntity, recordEvent } from "../events/operations";
import {
  type EntityRef,
  FIREWALLS,
  FIREWALL_DEVICE_ID,
  FIREWALL_ID,
  type StoredFirewall,
  type StoredFirewallDevice,
  entityLabel,
  entityUrl,
  firewallUrl,
} from "./store";

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

const firewallEntity = (f: StoredFirewall) => eventEntity("firewall", f.id, f.label, firewallUrl(f.id));
const deviceEntity = (account: AccountState, d: StoredFirewallDevice) => {
  const label = entityLabel(account, d.entity_type, d.entity_id) ?? d.entity_label;
  return eventEntity(d.entity_type, d.entity_id, label, entityUrl(d.entity_type, d.entity_id));
};

function event(actor: Actor, action: string, firewall: StoredFirewall, device?: StoredFirewallDevice): void {
  recordEvent(actor, {
    action,
    entity: firewallEntity(firewall),
    secondaryEntity: device ? deviceEntity(actor.account, device) : null,
  });
}

function newDevice(actor: Actor, ref: Pick<EntityRef, "type" | "id">): StoredFirewallDevice {
  const now = actor.runtime.clock.timestamp();
  return {
    id: actor.runtime.nextId(FIREWALL_DEVICE_ID),
    entity_id: ref.id,
    entity_type: ref.type,
    entity_label: entityLabel(actor.account, ref.type, ref.id) ?? "",
    created: now,
    updated: now,
  };
}

/** Creates an enabled firewall (event `firewall_create`) and a device per entity (`firewall_device_add` each). */
export function createFirewall(actor: Actor, input: FirewallCreateRequest, refs: EntityRef[]): StoredFirewall {
  const now = actor.runtime.clock.timestamp();
  const firewall: StoredFirewall = {
    id: actor.runtime.nextId(FIREWALL_ID),
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
    rules_version: 1,
    tags: [...(input.tags ?? [])],
    devices: [],
  };
  FIREWALLS.of(actor.account).push(firewall);
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
export function updateFirewall(actor: Actor, firewall: StoredFirewall, input: FirewallUpdateRequest): StoredFirewall {
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
 * `null`); an absent policy keeps its value; the rules' `version` grows by one. No event is
 * documented for it (api-facts P6-2).
 */
export function replaceRules(actor: Actor, firewall: StoredFirewall, input: FirewallRulesUpdateRequest): FirewallRules {
  firewall.rules = {
    inbound: storedList(input.inbound),
    inbound_policy: input.inbound_policy ?? firewall.rules.inbound_policy,
    outbound: storedList(input.outbound),
    outbound_policy: input.outbound_policy ?? firewall.rules.outbound_policy,
  };
  firewall.rules_version = (firewall.rules_version ?? 1) + 1;
  firewall.updated = actor.runtime.clock.timestamp();
  return firewall.rules;
}

/** Deletes the firewall with its devices, so its rules leave every assigned service; event `firewall_delete`. */
export function deleteFirewall(actor: Actor, firewall: StoredFirewall): void {
  removeStored(FIREWALLS, actor.account, firewall);
  event(actor, "firewall_delete", firewall);
}

/** Assigns the firewall to one entity; event `firewall_device_add`. */
export function addDevice(actor: Actor, firewall: StoredFirewall, ref: Pick<EntityRef, "type" | "id">): StoredFirewallDevice {
  const device = newDevice(actor, ref);
  firewall.devices.push(device);
  event(actor, "firewall_device_add", firewall, device);
  return device;
}

/** Removes the firewall from one entity (other firewalls' rules stay); event `firewall_device_remove`. */
export function removeDevice(actor: Actor, firewall: StoredFirewall, device: StoredFirewallDevice): void {
  firewall.devices = firewall.devices.filter((d) => d !== device);
  event(actor, "firewall_device_remove", firewall, device);
}
