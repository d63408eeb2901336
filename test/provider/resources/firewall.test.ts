/**
 * The Firewall provider: `check` refuses every locally checkable condition of the spec's Errors
 * table with the field named (and sends nothing), `diff` ignores natural spellings but not rule
 * order, and the provider methods run against the emulator over HTTP (one rules PUT per change,
 * authoritative devices, unmanaged devices left alone, drift read back, adoption, ambiguous creates).
 */
import { FIREWALL_REASONS } from "../../../sdk/resources/firewalls";
import { check, diff } from "../../../provider/engine/engine";
import { UNKNOWN } from "../../../provider/engine/values";
import { canonicalRule, firewallSpec, normalizeDevices, wireRule } from "../../../provider/resources/firewall";
import { provider } from "../../../provider/registry";
import { useProviderHarness } from "../harness";
import { args, rule } from "../firewall-inputs";

const PROVIDER = { __provider: "exports.handler = …" };
const failuresOf = (inputs: Record<string, unknown>) => check(firewallSpec, { ...PROVIDER, ...inputs }).failures ?? [];
const harness = useProviderHarness();
const firewalls = provider("Firewall");

describe("check", () => {
  test("accepts good inputs, natural spellings included, and returns them unchanged", () => {
    const inputs = {
      ...PROVIDER,
      ...args({
        inbound: [rule({ ports: " 22, 80 - 90 ", addresses: { ipv4: ["203.0.113.7"], ipv6: ["2001:DB8::1", "::/0"] } })],
        outbound: [rule({ protocol: "ICMP", ports: null })],
        tags: ["b", "a"],
        status: "disabled",
        devices: { computes: ["52000001", 52000002], nodebalancers: [300000] },
      }),
    };
    expect(check(firewallSpec, inputs)).toEqual({ inputs });
  });

  test("names every missing required input", () => {
    expect(failuresOf({})).toEqual([
      { property: "label", reason: "label is required" },
      { property: "inboundPolicy", reason: "inboundPolicy is required" },
      { property: "outboundPolicy", reason: "outboundPolicy is required" },
    ]);
  });

  test.each([
    ["2 characters", "ab", FIREWALL_REASONS.labelLength],
    ["33 characters", "a".repeat(33), FIREWALL_REASONS.labelLength],
    ["a space", "web fw", FIREWALL_REASONS.labelChars],
    ["a leading period", ".webfw", FIREWALL_REASONS.labelEnds],
    ["two underscores in a row", "web__fw", FIREWALL_REASONS.labelRepeat],
  ])("refuses a label with %s, with the API's reason", (_what, label, reason) => {
    expect(failuresOf(args({ label }))).toEqual([{ property: "label", reason }]);
  });

  test.each([
    ["ports with ICMP", { protocol: "ICMP" }, "ports", FIREWALL_REASONS.portsNotAllowed],
    ["ports with IPENCAP", { protocol: "IPENCAP", ports: "1-10" }, "ports", FIREWALL_REASONS.portsNotAllowed],
    ["port 65536", { ports: "65536" }, "ports", FIREWALL_REASONS.portsRange],
    ["port 0", { ports: "0" }, "ports", FIREWALL_REASONS.portsRange],
    ["a leading zero", { ports: "08080" }, "ports", FIREWALL_REASONS.portsLeadingZero],
    ["a backwards range", { ports: "90-80" }, "ports", FIREWALL_REASONS.portsRangeOrder],
    ["16 port pieces", { ports: "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16" }, "ports", FIREWALL_REASONS.portsTooMany],
    ["garbage ports", { ports: "ssh" }, "ports", FIREWALL_REASONS.portsFormat],
    ["an unknown protocol", { protocol: "SCTP" }, "protocol", FIREWALL_REASONS.protocolInvalid],
    ["an unknown action", { action: "REJECT" }, "action", FIREWALL_REASONS.actionInvalid],
    ["addresses without ipv4 or ipv6", { addresses: {} }, "addresses", FIREWALL_REASONS.addressesFamily],
    ["an empty ipv4 list", { addresses: { ipv4: [] } }, "addresses.ipv4", FIREWALL_REASONS.addressesEmpty],
    ["an empty ipv6 list", { addresses: { ipv4: ["0.0.0.0/0"], ipv6: [] } }, "addresses.ipv6", FIREWALL_REASONS.addressesEmpty],
    ["a malformed IPv4 address", { addresses: { ipv4: ["300.1.1.1"] } }, "addresses.ipv4[0]", FIREWALL_REASONS.ipv4Invalid],
    ["an IPv6 zone id", { addresses: { ipv6: ["fe80::1%eth0"] } }, "addresses.ipv6[0]", FIREWALL_REASONS.ipv6ZoneId],
    [
      "256 addresses",
      { addresses: { ipv4: Array.from({ length: 256 }, (_, i) => `10.0.${i}.0/24`) } },
      "addresses",
      FIREWALL_REASONS.addressesTooMany,
    ],
    ["a 2-character rule label", { label: "ab" }, "label", FIREWALL_REASONS.ruleLabelLength],
    ["an empty description", { description: "" }, "description", FIREWALL_REASONS.ruleDescriptionLength],
  ])("refuses a rule with %s, naming the rule's field", (_what, change, field, reason) => {
    expect(failuresOf(args({ outbound: [rule(), rule(change)] }))).toEqual([{ property: "", reason: `outbound[1].${field}: ${reason}` }]);
  });

  test("refuses more than 25 rules in all, on the ruleset where the 26th lands", () => {
    const many = (n: number) => Array.from({ length: n }, () => rule());
    // The rules are named with a short excerpt in the reason: the engine would print them whole beside a property.
    expect(failuresOf(args({ inbound: many(20), outbound: many(6) }))).toEqual([
      {
        property: "",
        reason: expect.stringMatching(
          new RegExp(`^outbound \\[\\{"action":"ACCEPT".*… \\(6 items\\): ${FIREWALL_REASONS.rulesTooMany.replace(/[()]/g, "\\$&")}$`),
        ),
      },
    ]);
    expect(failuresOf(args({ inbound: many(26) }))).toEqual([
      { property: "", reason: expect.stringMatching(/^inbound \[.*… \(26 items\): A Cloud Firewall may have at most 25 rules/) },
    ]);
    expect(failuresOf(args({ inbound: many(20), outbound: many(5) }))).toEqual([]);
  });

  test("refuses more than one nodebalancer, bad policies, statuses and device ids", () => {
    expect(failuresOf(args({ devices: { nodebalancers: [1, 2] } }))).toEqual([
      { property: "", reason: `devices.nodebalancers: ${FIREWALL_REASONS.nodebalancersTooMany}` },
    ]);
    expect(failuresOf(args({ inboundPolicy: "REJECT" }))).toEqual([{ property: "inboundPolicy", reason: FIREWALL_REASONS.policyInvalid }]);
    expect(failuresOf(args({ status: "deleted" }))).toEqual([{ property: "status", reason: FIREWALL_REASONS.statusInvalid }]);
    expect(failuresOf(args({ devices: { computes: ["web-1"] } }))[0]!.reason).toBe(
      `devices.computes[0]: ${FIREWALL_REASONS.deviceIdInvalid}`,
    );
    expect(failuresOf(args({ devices: { linodes: [1] } }))).toEqual([
      { property: "devices", reason: expect.stringContaining('"linodes"') },
    ]);
  });

  test("lets preview's unknown values through", () => {
    expect(
      failuresOf(args({ label: UNKNOWN, devices: { computes: [UNKNOWN] }, inbound: [rule({ addresses: { ipv4: [UNKNOWN] } })] })),
    ).toEqual([]);
  });
});

describe("normalization and diff", () => {
  const stored = {
    ...PROVIDER,
    label: "web-fw",
    tags: ["a", "b"],
    status: "enabled",
    inbound: [
      {
        action: "ACCEPT",
        label: "ssh-in",
        ports: "22,80-90",
        protocol: "TCP",
        addresses: { ipv4: ["203.0.113.7/32", "0.0.0.0/0"], ipv6: ["2001:db8::1/128"] },
      },
    ],
    inboundPolicy: "DROP",
    outbound: null,
    outboundPolicy: "ACCEPT",
    created: "t",
    updated: "t",
  };

  test("natural spellings match what the API stores: bare addresses, IPv6 case and zeroes, ports whitespace, address order, tag order", () => {
    const news = {
      label: "web-fw",
      tags: ["b", "a", "a"],
      inboundPolicy: "DROP",
      outboundPolicy: "ACCEPT",
      inbound: [
        {
          action: "ACCEPT",
          protocol: "TCP",
          ports: "22, 80 - 90",
          label: "ssh-in",
          addresses: { ipv6: ["2001:0DB8:0:0::1"], ipv4: ["0.0.0.0/0", "203.0.113.7"] },
        },
      ],
    };
    expect(diff(firewallSpec, stored, news)).toMatchObject({ changes: false, replaces: [], deleteBeforeReplace: true });
  });

  test("rule order is significant, a changed rule is a change, never a replacement", () => {
    const two = [rule({ label: "first" }), rule({ label: "second" })];
    const olds = { ...stored, tags: [], inbound: two.map(wireRule) };
    expect(diff(firewallSpec, olds, { ...args(), inbound: [...two].reverse() }).changes).toBe(true);
    expect(diff(firewallSpec, olds, { ...args(), inbound: two }).changes).toBe(false);
    expect(
      diff(firewallSpec, olds, { ...args(), inbound: [two[0], rule({ label: "second", ports: "23" })], status: "disabled" }),
    ).toMatchObject({
      changes: true,
      replaces: [],
      deleteBeforeReplace: true,
    });
  });

  test("absent devices are not managed; given devices compare as sets", () => {
    const unmanaged = { ...stored, tags: [] };
    expect(diff(firewallSpec, unmanaged, { ...args(), inbound: stored.inbound }).changes).toBe(false);
    const withDevices = { ...unmanaged, devices: { computes: [2, 1], nodebalancers: [] } };
    expect(diff(firewallSpec, withDevices, { ...args(), inbound: stored.inbound, devices: { computes: ["1", 2] } }).changes).toBe(false);
    expect(diff(firewallSpec, withDevices, { ...args(), inbound: stored.inbound, devices: { computes: [1] } }).changes).toBe(true);
    expect(normalizeDevices({ computes: ["3", 1, 3] })).toEqual({ computes: [1, 3], nodebalancers: [] });
  });

  test("canonical rules: null ports mean all ports; IPv6 in RFC 5952 form", () => {
    expect(canonicalRule({ action: "DROP", protocol: "UDP", ports: null, addresses: { ipv6: ["2001:DB8:0:0:0:0:0:0F88"] } })).toEqual({
      action: "DROP",
      protocol: "UDP",
      addresses: { ipv6: ["2001:db8::f88/128"] },
    });
  });
});

describe("against the emulator", () => {
  const requests = () => harness.emulator.control.listRequests().map((r) => `${r.method} ${r.path.replace(/\/\d+/g, "/{id}")}`);
  const seed = (label: string) => harness.emulator.control.seedCompute({ label, region: "us-iad" }).id;
  const deviceIds = async (id: string | number) =>
    (await harness.client.networking.firewalls.devices.listAll(Number(id))).map((d) => d.entity.id).sort();

  test("check sends no request", async () => {
    await firewalls.check!({}, { ...args({ inbound: [rule({ ports: "0" })] }) });
    expect(harness.emulator.control.listRequests()).toEqual([]);
  });

  test("create with natural spellings, devices and disabled status; outputs read back with no diff", async () => {
    const [a, b] = [seed("web-1"), seed("web-2")];
    const inputs = args({
      inbound: [rule({ ports: "22, 443", addresses: { ipv4: ["203.0.113.7"], ipv6: ["2001:DB8::1"] } })],
      tags: ["web"],
      status: "disabled",
      devices: { computes: [a, String(b)] },
    });
    const created = await firewalls.create!(inputs);
    expect(created.outs).toMatchObject({
      label: "web-fw",
      status: "disabled",
      tags: ["web"],
      inbound: [{ ports: "22,443", addresses: { ipv4: ["203.0.113.7/32"], ipv6: ["2001:db8::1/128"] } }],
      outbound: [],
      devices: { computes: [a, b], nodebalancers: [] },
    });
    expect(await deviceIds(created.id)).toEqual([a, b].sort());
    expect((await harness.client.networking.firewalls.get(Number(created.id))).status).toBe("disabled");
    // The disabled firewall got its devices after being disabled: create, status, then devices.
    expect(requests().filter((r) => !r.startsWith("GET"))).toEqual([
      "POST /v4/networking/firewalls",
      "PUT /v4/networking/firewalls/{id}",
      "POST /v4/networking/firewalls/{id}/devices",
      "POST /v4/networking/firewalls/{id}/devices",
    ]);
    const read = await firewalls.read!(created.id, created.outs);
    expect(read.props).toEqual(created.outs);
    expect(diff(firewallSpec, read.props!, inputs).changes).toBe(false);
  });

  test("a rules change is one rules PUT; label, tags and status one firewall PUT; devices added and removed to match", async () => {
    const [a, b, c] = [seed("web-1"), seed("web-2"), seed("web-3")];
    const created = await firewalls.create!(args({ devices: { computes: [a, b] } }));
    const id = created.id;
    harness.emulator.control.clearRequests();
    const news = args({
      label: "web-fw-2",
      tags: ["x"],
      inbound: [rule({ ports: "23" })],
      outboundPolicy: "DROP",
      devices: { computes: [b, c] },
    });
    const done = await firewalls.update!(id, created.outs, news);
    const writes = requests().filter((r) => !r.startsWith("GET"));
    expect(writes).toEqual([
      "DELETE /v4/networking/firewalls/{id}/devices/{id}",
      "PUT /v4/networking/firewalls/{id}",
      "PUT /v4/networking/firewalls/{id}/rules",
      "POST /v4/networking/firewalls/{id}/devices",
    ]);
    expect(done.outs).toMatchObject({
      label: "web-fw-2",
      tags: ["x"],
      outboundPolicy: "DROP",
      inbound: [{ ports: "23" }],
      devices: { computes: [b, c] },
    });
    expect(await deviceIds(id)).toEqual([b, c].sort());
  });

  test("without `devices` the firewall leaves devices alone, and reads never report them", async () => {
    const a = seed("web-1");
    const created = await firewalls.create!(args());
    await harness.client.networking.firewalls.devices.create(Number(created.id), { id: a, type: "compute" });
    const read = await firewalls.read!(created.id, created.outs);
    expect(read.props).not.toHaveProperty("devices");
    const updated = await firewalls.update!(created.id, read.props!, args({ tags: ["t"] }));
    expect(updated.outs).not.toHaveProperty("devices");
    expect(await deviceIds(created.id)).toEqual([a]);
  });

  test("without `inbound`/`outbound` the firewall leaves rules alone: rules added elsewhere are no drift, a policy change keeps them", async () => {
    const inputs = args({ inbound: undefined });
    const created = await firewalls.create!(inputs);
    const id = Number(created.id);
    const added = {
      action: "ACCEPT" as const,
      protocol: "TCP" as const,
      ports: "443",
      addresses: { ipv4: ["10.0.0.0/24"] },
      label: "app-https",
    };
    await harness.client.networking.firewalls.rules.update(id, { inbound: [added], outbound: [added] });
    const read = await firewalls.read!(created.id, created.outs);
    expect(diff(firewallSpec, read.props!, inputs).changes).toBe(false);
    // Only `inbound` given: the firewall owns the inbound rules, and leaves the outbound ones alone.
    const owned = args({ inboundPolicy: "ACCEPT" });
    expect(diff(firewallSpec, read.props!, owned).diffs).toEqual(["inbound", "inboundPolicy"]);
    await firewalls.update!(created.id, read.props!, owned);
    const rules = await harness.client.networking.firewalls.rules.get(id);
    expect(rules).toMatchObject({ inbound_policy: "ACCEPT", inbound: [{ label: "ssh-in" }], outbound: [added] });
  });

  test("changes behind Pulumi's back are read back: an edited rule and a removed device", async () => {
    const [a, b] = [seed("web-1"), seed("web-2")];
    const inputs = args({ inbound: [rule(), rule({ label: "https-in", ports: "443" })], devices: { computes: [a, b] } });
    const created = await firewalls.create!(inputs);
    const fwId = Number(created.id);
    const rules = await harness.client.networking.firewalls.rules.get(fwId);
    rules.inbound![1]!.ports = "8443";
    await harness.client.networking.firewalls.rules.update(fwId, { inbound: rules.inbound as never });
    const [first] = await harness.client.networking.firewalls.devices.listAll(fwId);
    await harness.client.networking.firewalls.devices.delete(fwId, first!.id);
    const read = await firewalls.read!(created.id, created.outs);
    expect((read.props!.inbound as any[])[1].ports).toBe("8443");
    expect(read.props!.devices).toEqual({ computes: [b], nodebalancers: [] });
    expect(diff(firewallSpec, read.props!, inputs).changes).toBe(true);
    harness.emulator.control.clearRequests();
    const restored = await firewalls.update!(created.id, read.props!, inputs);
    expect(requests().filter((r) => !r.startsWith("GET"))).toEqual([
      "PUT /v4/networking/firewalls/{id}/rules",
      "POST /v4/networking/firewalls/{id}/devices",
    ]);
    expect(diff(firewallSpec, restored.outs!, inputs).changes).toBe(false);
  });

  test("a firewall deleted behind Pulumi's back reads as gone; delete then succeeds", async () => {
    const created = await firewalls.create!(args());
    await harness.client.networking.firewalls.delete(Number(created.id));
    expect(await firewalls.read!(created.id, created.outs)).toEqual({});
    await expect(firewalls.delete!(created.id, created.outs)).resolves.toBeUndefined();
  });

  test("the API's refusals name the program's input", async () => {
    const a = seed("web-1");
    await firewalls.create!(args({ label: "first", devices: { computes: [a] } }));
    // A taken label is found before the API is asked; the firewall equals these inputs (devices are not declared), so
    // the error names recover first, then how to adopt it.
    const [first] = await harness.client.networking.firewalls.listAll();
    await expect(firewalls.create!(args({ label: "first" }))).rejects.toThrow(
      `a firewall with label "first" already exists (id ${first!.id}) and equals this resource's inputs: if an earlier run was ` +
        "interrupted, run `npx pulumi-compute recover` (it hands the objects that run created to the stack), then `pulumi up` again. " +
        `Otherwise, if it is the one this resource should manage, set adoptId: ${first!.id} on the resource`,
    );
    await expect(firewalls.create!(args({ label: "second", devices: { computes: [a] } }))).rejects.toThrow(
      `devices.computes[0]: ${FIREWALL_REASONS.activeFirewall("compute", a)}`,
    );
    await expect(firewalls.create!(args({ label: "third", devices: { computes: [99] } }))).rejects.toThrow(
      FIREWALL_REASONS.invalidEntity("compute", 99),
    );
  });

  test("a create whose connection breaks after the API accepted it adopts the firewall by its label", async () => {
    harness.emulator.control.addFault({ pathPattern: "/v4/networking/firewalls", method: "POST", kind: "reset-after", count: 1 });
    const created = await firewalls.create!(args());
    const all = await harness.client.networking.firewalls.listAll();
    expect(all.map((f) => String(f.id))).toEqual([created.id]);
    expect(requests().filter((r) => r.startsWith("POST"))).toEqual(["POST /v4/networking/firewalls"]);
  });

  test("devices added and removed through ambiguous faults: each lands once, and the update succeeds", async () => {
    const [a, b] = [seed("web-1"), seed("web-2")];
    const created = await firewalls.create!(args({ devices: { computes: [a] } }));
    harness.emulator.control.addFault({ pathPattern: "/v4/networking/firewalls/*/devices", method: "POST", kind: "reset-after", count: 1 });
    harness.emulator.control.addFault({
      pathPattern: "/v4/networking/firewalls/*/devices/*",
      method: "DELETE",
      kind: "reset-after",
      count: 1,
    });
    const updated = await firewalls.update!(created.id, created.outs, args({ devices: { computes: [b] } }));
    expect(updated.outs!.devices).toEqual({ computes: [b], nodebalancers: [] });
    expect(await deviceIds(created.id)).toEqual([b]);
    expect(harness.emulator.control.listFaults().map((f) => f.fired)).toEqual([1, 1]);
  });

  test("adoptId brings an existing firewall to the program", async () => {
    const existing = await harness.client.networking.firewalls.create({
      label: "elsewhere",
      rules: { inbound_policy: "ACCEPT", outbound_policy: "ACCEPT", outbound: null },
    });
    const adopted = await firewalls.create!({ ...args({ label: "elsewhere" }), adoptId: existing.id });
    expect(adopted.id).toBe(String(existing.id));
    expect((await harness.client.networking.firewalls.rules.get(existing.id)).inbound_policy).toBe("DROP");
  });
});
