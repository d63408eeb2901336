/**
 * Drift counts the fields the program manages: a field it leaves out (and that has no default) is
 * the cloud's to change, as in the engine's own diff.
 */
import { managedDrift } from "../../../provider/engine/managed-drift";
import { firewallSpec } from "../../../provider/resources/firewall";

const rule = { action: "ACCEPT", protocol: "TCP", ports: "443", addresses: { ipv4: ["0.0.0.0/0"] }, label: "web" };
const recorded = { label: "edge", inboundPolicy: "DROP", outboundPolicy: "ACCEPT", inbound: [], outbound: [] };
const refreshed = { ...recorded, inbound: [rule] };

test("a rule list the program leaves out (FirewallRule adds to it) is not drift", () => {
  const given = { label: "edge", inboundPolicy: "DROP", outboundPolicy: "ACCEPT" };
  expect(managedDrift(firewallSpec, recorded, refreshed, given)).toEqual([]);
});

test("a rule list the program gives is drift when the cloud's differs", () => {
  const given = { label: "edge", inboundPolicy: "DROP", outboundPolicy: "ACCEPT", inbound: [], outbound: [] };
  expect(managedDrift(firewallSpec, recorded, refreshed, given)).toEqual([{ field: "inbound", state: [], cloud: [rule] }]);
});

test("a managed field changed by hand is drift, with or without the program's inputs", () => {
  const given = { label: "edge", inboundPolicy: "DROP", outboundPolicy: "ACCEPT" };
  const edited = { ...recorded, label: "edited-by-hand" };
  expect(managedDrift(firewallSpec, recorded, edited, given)).toEqual([{ field: "label", state: "edge", cloud: "edited-by-hand" }]);
  expect(managedDrift(firewallSpec, recorded, edited)).toEqual([{ field: "label", state: "edge", cloud: "edited-by-hand" }]);
});
