/** Firewalls, devices and rules on the wire: key order as in `fixtures/firewall.get.json`, `firewall_device.get.json`. */
import type { Firewall, FirewallDevice, FirewallRules } from "../../../sdk/resources/firewalls";
import type { AccountState } from "../../core/state";
import { type StoredFirewall, type StoredFirewallDevice, entityLabel, entityUrl } from "./store";

export function renderRules(rules: FirewallRules): FirewallRules {
  return structuredClone({
    inbound: rules.inbound,
    inbound_policy: rules.inbound_policy,
    outbound: rules.outbound,
    outbound_policy: rules.outbound_policy,
  });
}

export function renderFirewall(firewall: StoredFirewall): Firewall {
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

export function renderDevice(account: AccountState, device: StoredFirewallDevice): FirewallDevice {
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
