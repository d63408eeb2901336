/**
 * Drift counts the fields the program manages: a field it leaves out (and that has no default) is
 * the cloud's to change, as in the engine's own diff.
 */
import { managedDrift } from "../../../provider/engine/managed-drift";
import { firewallSpec } from "../../../provider/resources/firewall";
import { instanceSpec } from "../../../provider/resources/instance";

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

test("a secret input re-encrypted by a refresh (two ciphertexts of one rootPass) is not drift; a label changed by hand is", () => {
  const sealed = (ciphertext: string) => ({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext });
  const before = { label: "worker", region: "us-iad", type: "g6-nanode-1", image: "linode/debian12", rootPass: sealed("v1:a:one") };
  const after = { ...before, label: "edited-by-hand", rootPass: sealed("v1:b:two") };
  const given = { label: "worker", region: "us-iad", type: "g6-nanode-1", image: "linode/debian12", rootPass: sealed("v1:c:three") };
  expect(managedDrift(instanceSpec, before, after, given)).toEqual([{ field: "label", state: "worker", cloud: "edited-by-hand" }]);
});
