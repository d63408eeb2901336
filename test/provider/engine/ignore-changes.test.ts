/**
 * `ignoreChanges` as drift reads it: a difference under a path the option names is ignored (the
 * engine's `up` keeps the recorded value there), any other difference is drift as before; and as
 * the engine's diff, update and its preview read it: the recorded value stands at those paths.
 */
import { diff, previewUpdate } from "../../../provider/engine/engine";
import { parsePropertyPath, withIgnored } from "../../../provider/engine/ignore-changes";
import { ignoredChange, managedChanges } from "../../../provider/engine/managed-drift";
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

/**
 * The engine's diff, update and its preview with the paths Pulumi sends (`DiffRequest.ignoreChanges`):
 * the recorded outputs hold what the API answered (a value set by hand, read back by an update),
 * the program's inputs the engine's copy of the recorded input at those paths (seed 105, bench/README).
 */
describe("the diff and the update leave ignored paths as recorded", () => {
  const outputs = { ...recorded, id: 7, status: "enabled" };

  test("a whole field: the diff plans nothing for it, and another field still changes", () => {
    const byHand = { ...outputs, label: "edited-by-hand" };
    expect(diff(firewallSpec, byHand, given, ["label"]).changes).toBe(false);
    expect(diff(firewallSpec, byHand, given)).toMatchObject({ changes: true, diffs: ["label"] });
    const other = diff(firewallSpec, byHand, { ...given, outboundPolicy: "DROP" }, ["label"]);
    expect(other).toMatchObject({ changes: true, diffs: ["outboundPolicy"], detailedDiff: { outboundPolicy: { kind: "update" } } });
    // `*` ignores every field, even one the program changes (Pulumi's news already keep the recorded inputs there).
    expect(diff(firewallSpec, byHand, { ...given, outboundPolicy: "DROP" }, ["*"]).changes).toBe(false);
    // A path Pulumi would refuse, or one of another field, ignores nothing.
    expect(diff(firewallSpec, byHand, given, ["labels", "label["]).diffs).toEqual(["label"]);
  });

  test("nested paths as Pulumi spells them: one key of one rule, every rule's addresses, a quoted key, one tag", () => {
    const handRule = { ...rule, label: "renamed-by-hand", addresses: { ipv4: ["10.0.0.0/8"] } };
    const byHand = { ...outputs, inbound: [handRule] };
    expect(diff(firewallSpec, byHand, given, ["inbound[0].label", "inbound[*].addresses"]).changes).toBe(false);
    expect(diff(firewallSpec, byHand, given, ['inbound[0]["label"]', "inbound[0].addresses.ipv4"]).changes).toBe(false);
    // Only the label ignored: the addresses are set back, with the hand label kept in what the update sends.
    const partly = diff(firewallSpec, byHand, given, ["inbound[0].label"]);
    expect(partly).toMatchObject({ changes: true, diffs: ["inbound"] });
    expect(withIgnored(firewallSpec, byHand, given, ["inbound[0].label"]).inbound).toEqual([{ ...rule, label: "renamed-by-hand" }]);
    // A tag set by hand: ignored with the whole set, or with its place in the list.
    const tagged = { ...outputs, tags: ["a", "ops"] };
    expect(diff(firewallSpec, tagged, given, ["tags"]).changes).toBe(false);
    expect(diff(firewallSpec, { ...outputs, tags: ["ops"] }, given, ["tags[0]"]).changes).toBe(false);
    // An element added by hand is no place of the program's list: Pulumi cannot ignore it by index.
    expect(diff(firewallSpec, tagged, given, ["tags[1]"]).diffs).toEqual(["tags"]);
  });

  test("an input the program leaves out stays out; the preview of an update records the ignored value as the API holds it", () => {
    // Rules left to FirewallRules (absent, no default) are not made the firewall's by ignoring them.
    const { inbound: _absent, ...noRules } = given;
    expect(withIgnored(firewallSpec, { ...outputs, inbound: [{ ...rule, label: "added" }] }, noRules, ["inbound"])).toEqual(noRules);
    // A field with a default is the program's: ignored, the recorded value stands.
    expect(withIgnored(firewallSpec, { ...outputs, status: "disabled" }, given, ["status"])).toEqual({ ...given, status: "disabled" });
    const byHand = { ...outputs, label: "edited-by-hand" };
    const previewed = previewUpdate(firewallSpec, byHand, { ...given, outboundPolicy: "DROP" }, ["label"]);
    expect(previewed).toMatchObject({ label: "edited-by-hand", outboundPolicy: "DROP" });
    expect(previewUpdate(firewallSpec, byHand, { ...given, outboundPolicy: "DROP" })).toMatchObject({ label: "edge" });
  });
});
