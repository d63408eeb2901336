/**
 * `ignoreChanges` as drift reads it: a difference under a path the option names is ignored (the
 * engine's `up` keeps the recorded value there), any other difference is drift as before.
 */
import { ignoredChange, parsePropertyPath } from "../../../provider/engine/ignore-changes";
import { managedChanges } from "../../../provider/engine/managed-drift";
import { firewallSpec } from "../../../provider/resources/firewall";

const rule = { action: "ACCEPT", protocol: "TCP", ports: "443", addresses: { ipv4: ["0.0.0.0/0"] }, label: "web" };
const recorded = { label: "edge", inboundPolicy: "DROP", outboundPolicy: "ACCEPT", inbound: [rule], outbound: [], tags: ["a"] };
const given = { label: "edge", inboundPolicy: "DROP", outboundPolicy: "ACCEPT", inbound: [rule], outbound: [], tags: ["a"] };

test("property paths parse as Pulumi writes them; anything else is no path", () => {
  expect(parsePropertyPath("label")).toEqual(["label"]);
  expect(parsePropertyPath('inbound[0].addresses["ipv4"][*]')).toEqual(["inbound", 0, "addresses", "ipv4", "*"]);
  expect(parsePropertyPath("tags.*")).toEqual(["tags", "*"]);
  expect(parsePropertyPath("*")).toEqual(["*"]);
  expect(parsePropertyPath("")).toBeUndefined();
  expect(parsePropertyPath("inbound[")).toBeUndefined();
  expect(parsePropertyPath(".label")).toBeUndefined();
});

test("a field the option names is ignored; another field changed at the same time is still drift", () => {
  const cloud = { ...recorded, label: "edited-by-hand", inboundPolicy: "ACCEPT" };
  expect(managedChanges(firewallSpec, recorded, cloud, given, ["label"])).toEqual({
    drift: [{ field: "inboundPolicy", state: "DROP", cloud: "ACCEPT" }],
    ignored: [{ field: "label", state: "edge", cloud: "edited-by-hand" }],
  });
  expect(managedChanges(firewallSpec, recorded, cloud, given, ["*"])).toEqual({
    drift: [],
    ignored: [
      { field: "label", state: "edge", cloud: "edited-by-hand" },
      { field: "inboundPolicy", state: "DROP", cloud: "ACCEPT" },
    ],
  });
});

test("without the option, or with a path to another field, drift is as before", () => {
  const cloud = { ...recorded, label: "edited-by-hand" };
  const drift = [{ field: "label", state: "edge", cloud: "edited-by-hand" }];
  expect(managedChanges(firewallSpec, recorded, cloud, given)).toEqual({ drift, ignored: [] });
  expect(managedChanges(firewallSpec, recorded, cloud, given, ["tags", "labels", "not a [path"])).toEqual({ drift, ignored: [] });
});

test("a path into a field ignores the difference only when it lies wholly under that path", () => {
  const inbound = firewallSpec.inputs.inbound;
  const portsChanged = [{ ...rule, ports: "8443" }];
  expect(ignoredChange("inbound", inbound, [rule], portsChanged, ["inbound[0].ports"])).toBe(true);
  expect(ignoredChange("inbound", inbound, [rule], portsChanged, ["inbound[*].ports"])).toBe(true);
  expect(ignoredChange("inbound", inbound, [rule], portsChanged, ["inbound[0].label"])).toBe(false);
  // A rule added by hand is not under `inbound[0]`.
  expect(ignoredChange("inbound", inbound, [rule], [rule, { ...rule, label: "extra" }], ["inbound[0]"])).toBe(false);
  const both = [{ ...rule, ports: "8443", label: "renamed" }];
  expect(ignoredChange("inbound", inbound, [rule], both, ["inbound[0].ports"])).toBe(false);
  expect(ignoredChange("inbound", inbound, [rule], both, ["inbound[0].ports", "inbound[0].label"])).toBe(true);
});
