/** Firewalls, devices and rules on the wire: key order as in `fixtures/firewall.get.json`, `firewall_device.get.json`. */
import { createHash } from "node:crypto";
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

/**
 * The answer of `GET`/`PUT .../rules`: the rules with the later API's `version` (one more on every
 * change) and `fingerprint` (a digest of the content: equal rules, equal fingerprint). The API does
 * not document how it computes the fingerprint; 8 hex digits of a SHA-256 here.
 */
export function renderRuleSet(firewall: StoredFirewall): FirewallRules {
  const rules = renderRules(firewall.rules);
  const fingerprint = createHash("sha256").update(JSON.stringify(rules)).digest("hex").slice(0, 8);
  return { ...rules, version: firewall.rules_version ?? 1, fingerprint };
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
