/**
 * The FirewallRule provider: `check` refuses what `Firewall` refuses for a rule, in the program's
 * names, and what only the program as a whole gets wrong (its Firewall owning the rule lists, more
 * than 25 rules on the firewall); against the emulator over HTTP, the rules of one `up` share their
 * reads and writes, other rules come back exactly as read, drift is read back, and two provider
 * processes writing one firewall at once never lose each other's rules or a foreign one.
 */
import { FIREWALL_REASONS } from "../../../sdk/resources/firewalls";
import { checkAndDerive, diff, makeProvider } from "../../../provider/engine/engine";
import { ProviderContext } from "../../../provider/engine/context";
import { UNKNOWN } from "../../../provider/engine/values";
import { firewallRuleSpec } from "../../../provider/resources/firewall-rule";
import { firewallSpec } from "../../../provider/resources/firewall";
import { provider } from "../../../provider/registry";
import { useProviderHarness } from "../harness";

const PROVIDER = { __provider: "exports.handler = …" };
const harness = useProviderHarness();

/** A provider process of its own: its context, its shared writes, its declarations. */
function process() {
  const ctx = new ProviderContext((key) => harness.config[key]);
  return { ctx, rules: makeProvider(firewallRuleSpec, () => ctx), firewalls: makeProvider(firewallSpec, () => ctx) };
}

const ruleArgs = (firewallId: number | string, label: string, extra: Record<string, unknown> = {}) => ({
  ...PROVIDER,
  firewallId: String(firewallId),
  direction: "inbound",
  label,
  action: "ACCEPT",
  protocol: "TCP",
  ports: "443",
  addresses: { ipv4: ["10.0.0.0/24"] },
  ...extra,
});

/** A firewall made through the API with `foreign` inbound rules (another stack's, the console's). */
async function firewallWith(foreign: number, label = "shared-fw") {
  const inbound = Array.from({ length: foreign }, (_, i) => ({
    action: "ACCEPT" as const,
    protocol: "TCP" as const,
    ports: String(1000 + i),
    addresses: { ipv4: ["192.0.2.0/24"] },
    label: `base-${i}`,
    description: "made elsewhere",
  }));
  return harness.client.networking.firewalls.create({ label, rules: { inbound, inbound_policy: "DROP", outbound_policy: "ACCEPT" } });
}

const rulesOf = (firewallId: number) => harness.client.networking.firewalls.rules.get(firewallId);
const requests = () => harness.emulator.control.listRequests().map((r) => `${r.method} ${r.path.replace(/\/\d+/g, "/{id}")}`);

describe("check", () => {
  const failuresOf = async (inputs: Record<string, unknown>, ctx = process().ctx) =>
    (await checkAndDerive(firewallRuleSpec, {}, inputs, () => ctx)).failures ?? [];

  test("accepts a rule in natural spellings and returns it unchanged", async () => {
    const fw = await firewallWith(0);
    const inputs = ruleArgs(fw.id, "app-https", { ports: "80, 443", addresses: { ipv4: ["10.0.0.7"], ipv6: ["2001:DB8::1"] } });
    expect(await checkAndDerive(firewallRuleSpec, {}, inputs, () => process().ctx)).toEqual({ inputs });
  });

  test.each([
    ["ports with ICMP", { protocol: "ICMP" }, "ports", FIREWALL_REASONS.portsNotAllowed],
    ["port 65536", { ports: "65536" }, "ports", FIREWALL_REASONS.portsRange],
    ["a backwards range", { ports: "90-80" }, "ports", FIREWALL_REASONS.portsRangeOrder],
    ["an unknown protocol", { protocol: "SCTP" }, "protocol", FIREWALL_REASONS.protocolInvalid],
    ["an empty ipv4 list", { addresses: { ipv4: [] } }, "addresses", FIREWALL_REASONS.addressesEmpty],
    ["no address family", { addresses: {} }, "addresses", FIREWALL_REASONS.addressesFamily],
    ["a 2-character label", { label: "ab" }, "label", FIREWALL_REASONS.ruleLabelLength],
    ["an empty description", { description: "" }, "description", FIREWALL_REASONS.ruleDescriptionLength],
  ])("refuses %s, as Firewall does, naming the program's field", async (_what, extra, field, reason) => {
    const failures = await failuresOf(ruleArgs(7, "app-https", extra));
    expect(failures).toHaveLength(1);
    expect(`${failures[0]!.property} ${failures[0]!.reason}`).toContain(field);
    expect(failures[0]!.reason).toContain(reason);
  });

  test("names missing inputs and a bad direction or position", async () => {
    const failures = await failuresOf({ ...PROVIDER, direction: "sideways", position: "middle" });
    expect(failures).toEqual(
      expect.arrayContaining([
        { property: "firewallId", reason: "firewallId is required" },
        { property: "label", reason: "label is required" },
        { property: "direction", reason: "direction must be inbound or outbound" },
        { property: "position", reason: "position must be first or last" },
      ]),
    );
  });

  test("refuses a rule on a firewall whose Firewall in this program owns the rule lists, saying which to use", async () => {
    const { ctx, firewalls } = process();
    const created = await firewalls.create!({ ...PROVIDER, label: "net-fw", inboundPolicy: "DROP", outboundPolicy: "ACCEPT", inbound: [] });
    const failures = await failuresOf(ruleArgs(created.id, "app-https"), ctx);
    expect(failures).toHaveLength(1);
    expect(failures[0]!.property).toBe("firewallId");
    expect(failures[0]!.reason).toMatch(
      /set by a Firewall resource of this program.*add the rule to that Firewall's inbound or outbound list.*remove inbound and outbound from the Firewall/,
    );
    // A Firewall without rule lists leaves them to FirewallRules.
    const open = await firewalls.create!({ ...PROVIDER, label: "open-fw", inboundPolicy: "DROP", outboundPolicy: "ACCEPT" });
    expect(await failuresOf(ruleArgs(open.id, "app-https"), ctx)).toEqual([]);
  });

  test("counts the 25-rule limit over the rules already on the firewall and every FirewallRule of the program, before any write", async () => {
    const fw = await firewallWith(20);
    const { ctx } = process();
    for (let i = 0; i < 5; i++) expect(await failuresOf(ruleArgs(fw.id, `app-${i}`), ctx)).toEqual([]);
    const failures = await failuresOf(ruleArgs(fw.id, "app-5"), ctx);
    expect(failures).toEqual([
      {
        property: "",
        reason: `firewall ${fw.id} would have 26 rules (20 already on it that this program does not manage, 6 FirewallRule resources of this program): ${FIREWALL_REASONS.rulesTooMany}`,
      },
    ]);
    // A rule already on the firewall that the program declares (taking it over, as its create requires) counts once.
    expect(await failuresOf(ruleArgs(fw.id, "base-0", { adoptId: `${fw.id}:inbound:base-0` }), process().ctx)).toEqual([]);
    expect(requests().filter((r) => !r.startsWith("GET"))).toEqual(["POST /v4/networking/firewalls"]);
  });

  test("lets preview's unknown firewall id through", async () => {
    expect(await failuresOf(ruleArgs(7, "app-https", { firewallId: UNKNOWN }))).toEqual([]);
  });
});

describe("against the emulator", () => {
  test("N rules of one up share their reads and writes; other rules come back exactly as read", async () => {
    const fw = await firewallWith(3);
    const before = await rulesOf(fw.id);
    const start = requests().length;
    const rules = provider("FirewallRule"); // the registry's process, as the engine runs it
    const made = await Promise.all(
      Array.from({ length: 10 }, (_, i) => rules.create!(ruleArgs(fw.id, `app-${i}`, { ports: String(8000 + i) }))),
    );
    const sent = requests().slice(start);
    // One read, one write, two confirming reads: far fewer than 2 per rule.
    expect(sent.filter((r) => r.startsWith("PUT"))).toHaveLength(1);
    expect(sent.length).toBeLessThanOrEqual(4);
    const after = await rulesOf(fw.id);
    expect(after.inbound!.slice(0, 3)).toEqual(before.inbound);
    expect(after.inbound!.map((r) => r.label)).toEqual(["base-0", "base-1", "base-2", ...made.map((_, i) => `app-${i}`)]);
    expect(made[0]).toMatchObject({
      id: `${fw.id}:inbound:app-0`,
      outs: { firewallId: fw.id, label: "app-0", ports: "8000", position: "last" },
    });
  });

  test("position first puts the rule before the rules it does not manage", async () => {
    const fw = await firewallWith(2);
    await process().rules.create!(ruleArgs(fw.id, "deny-bad", { action: "DROP", position: "first", ports: undefined }));
    expect((await rulesOf(fw.id)).inbound!.map((r) => r.label)).toEqual(["deny-bad", "base-0", "base-1"]);
  });

  test("a rule edited by hand is drift on it; deleted by hand it is gone; update and delete touch only it", async () => {
    const fw = await firewallWith(2);
    const { rules } = process();
    const inputs = ruleArgs(fw.id, "app-https");
    const made = await rules.create!(inputs);
    const current = await rulesOf(fw.id);
    const edited = current.inbound!.map((r) => (r.label === "app-https" ? { ...r, ports: "8443" } : r));
    await harness.client.networking.firewalls.rules.update(fw.id, { inbound: edited as never, outbound: [] });
    const read = await rules.read!(made.id, made.outs);
    expect(read.props).toMatchObject({ ports: "8443" });
    expect(diff(firewallRuleSpec, read.props!, inputs)).toMatchObject({ changes: true, diffs: ["ports"] });
    // The update puts the rule back in place, nothing else moves.
    await rules.update!(made.id, read.props!, inputs);
    expect((await rulesOf(fw.id)).inbound!.map((r) => `${r.label}:${r.ports}`)).toEqual(["base-0:1000", "base-1:1001", "app-https:443"]);
    // The delete removes exactly it.
    await rules.delete!(made.id, read.props!);
    expect((await rulesOf(fw.id)).inbound!.map((r) => r.label)).toEqual(["base-0", "base-1"]);
    expect((await rules.read!(made.id, made.outs)).props).toBeUndefined();
  });

  test("a label already on the firewall is someone else's: the create says so and names the adoptId", async () => {
    const fw = await firewallWith(1);
    await expect(process().rules.create!(ruleArgs(fw.id, "base-0"))).rejects.toThrow(/already exists.*adoptId/);
  });

  test("two provider processes writing one firewall at once, with slow writes, never lose a foreign rule or each other's", async () => {
    // Writes land late, so each writer's PUT is often built on a read from before the other's.
    harness.emulator.control.addFault({
      pathPattern: "/v4/networking/firewalls/*/rules",
      method: "PUT",
      kind: "latency",
      latencyMs: 120,
      rate: 0.5,
    });
    for (let round = 0; round < 3; round++) {
      const fw = await firewallWith(2, `shared-fw-${round}`);
      const foreign = (await rulesOf(fw.id)).inbound;
      const a = process();
      const b = process();
      await Promise.all([
        ...[0, 1].map((i) => a.rules.create!(ruleArgs(fw.id, `a-${i}`, { ports: String(2000 + i) }))),
        ...[0, 1].map((i) => b.rules.create!(ruleArgs(fw.id, `b-${i}`, { ports: String(3000 + i) }))),
      ]);
      const inbound = (await rulesOf(fw.id)).inbound!;
      expect(inbound.slice(0, 2)).toEqual(foreign);
      expect(inbound.map((r) => r.label).sort()).toEqual(["a-0", "a-1", "b-0", "b-1", "base-0", "base-1"]);
    }
  }, 120_000);
});
