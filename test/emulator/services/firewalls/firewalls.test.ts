/**
 * Cloud Firewalls in the emulator over HTTP (spec "Firewall", "Firewall status", "Networking:
 * firewalls", Errors and Limits tables; api-facts P2-3, P2-4, P6-2, P7-1, P7-2): one test per
 * condition of the Errors table, each asserting status, `field` and reason (texts from the sdk's
 * `FIREWALL_REASONS`), plus rendering, status transitions, events, devices, grants and scopes.
 */
import { Collection } from "../../../../sdk/core/schema";
import { FIREWALL_REASONS, Firewall, FirewallDevice, FirewallRules } from "../../../../sdk/resources/firewalls";
import { REASONS } from "../../../../emulator";
import { expectError, onlyError, startTestEmulator, type TestEmulator } from "../../helpers";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

const rule = (extra: Record<string, unknown> = {}) => ({
  action: "ACCEPT",
  label: "ssh-in",
  ports: "22",
  protocol: "TCP",
  addresses: { ipv4: ["0.0.0.0/0"] },
  ...extra,
});

const body = (label = "fw-1", extra: Record<string, unknown> = {}, rules: Record<string, unknown> = {}) => ({
  label,
  rules: { inbound: [rule()], inbound_policy: "DROP", outbound: [], outbound_policy: "ACCEPT", ...rules },
  ...extra,
});

async function createFirewall(label = "fw-1", extra: Record<string, unknown> = {}): Promise<Firewall> {
  const r = await emu.post("/networking/firewalls", body(label, extra));
  expect(r.status).toBe(200);
  return Firewall.parse(r.body);
}

const compute = (label = "web-1", extra: Record<string, unknown> = {}) => emu.control.seedCompute({ label, region: "us-iad", ...extra });
const nodebalancer = (label = "nb-1") => emu.control.seedNodeBalancer({ label, region: "us-iad" });
const events = async (action?: string) =>
  (await emu.get("/account/events", action ? { headers: { "X-Filter": JSON.stringify({ action }) } } : {})).body.data as any[];

describe("the rules' version and fingerprint (later API)", () => {
  test("the rules endpoints carry version, one more on every PUT, and a fingerprint that follows the content", async () => {
    const fw = (await emu.post("/networking/firewalls", body())).body;
    const first = (await emu.get(`/networking/firewalls/${fw.id}/rules`)).body;
    expect(Object.keys(first)).toEqual(["inbound", "inbound_policy", "outbound", "outbound_policy", "version", "fingerprint"]);
    expect(FirewallRules.parse(first)).toMatchObject({ version: 1, fingerprint: expect.stringMatching(/^[0-9a-f]{8}$/) });
    const changed = (await emu.put(`/networking/firewalls/${fw.id}/rules`, { inbound: [rule({ ports: "443" })] })).body;
    expect(changed.version).toBe(2);
    expect(changed.fingerprint).not.toBe(first.fingerprint);
    // The same content again: a new version (every PUT is a change), the same fingerprint as before.
    const back = (await emu.put(`/networking/firewalls/${fw.id}/rules`, { inbound: [rule()], inbound_policy: "DROP", outbound: [] })).body;
    expect(back).toMatchObject({ version: 3, fingerprint: first.fingerprint });
    expect((await emu.get(`/networking/firewalls/${fw.id}/rules`)).body).toEqual(back);
    // The firewall record's rules are 4.174's shape.
    expect(Object.keys((await emu.get(`/networking/firewalls/${fw.id}`)).body.rules)).toEqual([
      "inbound",
      "inbound_policy",
      "outbound",
      "outbound_policy",
    ]);
  });

  test("version and fingerprint are read-only: a PUT echoing them (as linodego does) is accepted and they are ignored", async () => {
    const fw = (await emu.post("/networking/firewalls", body())).body;
    const r = await emu.put(`/networking/firewalls/${fw.id}/rules`, { inbound: [], version: 99, fingerprint: "00000000" });
    expect(r.status).toBe(200);
    expect(r.body.version).toBe(2);
    expect(r.body.fingerprint).not.toBe("00000000");
  });
});

describe("create and read", () => {
  test("a firewall is rendered with the recorded keys, enabled, and parses with the sdk schema", async () => {
    const r = await emu.post("/networking/firewalls", body("fw-1", { tags: ["web", "prod"] }));
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(["id", "label", "created", "updated", "status", "rules", "tags"]);
    expect(Object.keys(r.body.rules)).toEqual(["inbound", "inbound_policy", "outbound", "outbound_policy"]);
    expect(Object.keys(r.body.rules.inbound[0])).toEqual(["action", "label", "ports", "protocol", "addresses"]);
    const fw = Firewall.parse(r.body);
    expect(fw).toMatchObject({ label: "fw-1", status: "enabled", tags: ["web", "prod"], rules: { inbound_policy: "DROP", outbound: [] } });
    expect(fw.id).toBeGreaterThanOrEqual(228000);
    expect(fw.updated).toBe(fw.created);
    expect((await emu.get(`/networking/firewalls/${fw.id}`)).body).toEqual(r.body);
    expect((await emu.get(`/networking/firewalls/${fw.id}/rules`)).body).toEqual({
      ...r.body.rules,
      version: 1,
      fingerprint: expect.any(String),
    });
    const list = await emu.get("/networking/firewalls");
    expect(Collection(Firewall).parse(list.body)).toEqual({ data: [r.body], page: 1, pages: 1, results: 1 });
    expect(r.body).not.toHaveProperty("devices");
  });

  test("rules keep only the supplied keys, and `outbound: null` is stored and returned as null", async () => {
    const icmp = { action: "DROP", protocol: "ICMP", addresses: { ipv6: ["::/0"] } };
    const r = await emu.post("/networking/firewalls", body("fw-1", {}, { inbound: [icmp], outbound: null }));
    expect(r.status).toBe(200);
    expect(r.body.rules.inbound).toEqual([icmp]);
    expect(Object.keys(r.body.rules.inbound[0])).toEqual(["action", "protocol", "addresses"]);
    expect(r.body.rules.outbound).toBeNull();
    expect((await emu.get(`/networking/firewalls/${r.body.id}/rules`)).body.outbound).toBeNull();
  });

  test("an absent ruleset is stored as []; a rule label with an underscore is accepted", async () => {
    const r = await emu.post("/networking/firewalls", {
      label: "fw-1",
      rules: { inbound_policy: "ACCEPT", outbound_policy: "DROP", outbound: [rule({ label: "go-fwrule-test_r" })] },
    });
    expect(r.status).toBe(200);
    expect(r.body.rules).toMatchObject({ inbound: [], outbound: [{ label: "go-fwrule-test_r" }] });
  });

  test("IPv6 entries come back in RFC 5952 form with their prefix and host bits kept", async () => {
    const addresses = { ipv6: ["2001:DB8:0:0:0:0:0:0F88/128", "1234::5678/0", "2001:0db8::/32"], ipv4: ["192.0.2.1/32", "10.0.0.1/24"] };
    const r = await emu.post("/networking/firewalls", body("fw-1", {}, { inbound: [rule({ addresses })] }));
    expect(r.status).toBe(200);
    expect(r.body.rules.inbound[0].addresses).toEqual({
      ipv4: ["192.0.2.1/32", "10.0.0.1/24"],
      ipv6: ["2001:db8::f88/128", "1234::5678/0", "2001:db8::/32"],
    });
  });

  test("ports: single, range and comma lists with an optional space after each comma are accepted as written", async () => {
    const ports = "22, 80,443,8000-8080";
    const r = await emu.post(
      "/networking/firewalls",
      body("fw-1", {}, { inbound: [rule({ ports }), rule({ protocol: "UDP", ports: null })] }),
    );
    expect(r.status).toBe(200);
    expect(r.body.rules.inbound.map((x: any) => x.ports)).toEqual([ports, null]);
  });

  test("unknown firewall and device ids are 404 Not found", async () => {
    const fw = await createFirewall();
    expectError(await emu.get("/networking/firewalls/999"), 404, REASONS.notFound);
    expectError(await emu.get("/networking/firewalls/abc"), 404, REASONS.notFound);
    expectError(await emu.get(`/networking/firewalls/${fw.id}/devices/999`), 404, REASONS.notFound);
    expectError(await emu.put("/networking/firewalls/999/rules", { inbound: [] }), 404, REASONS.notFound);
    expectError(await emu.del(`/networking/firewalls/${fw.id}/devices/999`), 404, REASONS.notFound);
  });

  test("collections page and filter", async () => {
    for (let i = 0; i < 30; i += 1) await createFirewall(`fw-${String(i).padStart(2, "0")}`, { tags: i % 2 ? ["odd"] : [] });
    const page2 = await emu.get("/networking/firewalls", { query: { page: 2, page_size: 25 } });
    expect(page2.body).toMatchObject({ page: 2, pages: 2, results: 30 });
    expect(page2.body.data).toHaveLength(5);
    const odd = await emu.get("/networking/firewalls", { headers: { "X-Filter": JSON.stringify({ tags: { "+contains": "odd" } }) } });
    expect(odd.body.results).toBe(15);
    const byLabel = await emu.get("/networking/firewalls", { headers: { "X-Filter": JSON.stringify({ label: "fw-07" }) } });
    expect(byLabel.body.data.map((f: any) => f.label)).toEqual(["fw-07"]);
    expectError(
      await emu.get("/networking/firewalls", { headers: { "X-Filter": '{"rules": 1}' } }),
      400,
      REASONS.cannotFilterOn("rules"),
      "X-Filter",
    );
  });
});

describe("Errors table: labels (create and update)", () => {
  test.each([
    ["2 characters", "ab", FIREWALL_REASONS.labelLength],
    ["33 characters", "a".repeat(33), FIREWALL_REASONS.labelLength],
    ["a space", "web fw", FIREWALL_REASONS.labelChars],
    ["a leading hyphen", "-webfw", FIREWALL_REASONS.labelEnds],
    ["a trailing period", "webfw.", FIREWALL_REASONS.labelEnds],
    ["two hyphens in a row", "web--fw", FIREWALL_REASONS.labelRepeat],
    ["an underscore and a period in a row", "web_.fw", FIREWALL_REASONS.labelRepeat],
  ])("create refuses a label with %s", async (_what, label, reason) => {
    expectError(await emu.post("/networking/firewalls", body(label)), 400, reason, "label");
  });

  test("labels with single hyphens, underscores and periods are fine (fw_label as recorded)", async () => {
    for (const label of ["fw_label.1-a", "abc", "A".repeat(32)])
      expect((await emu.post("/networking/firewalls", body(label))).status).toBe(200);
  });

  test("create refuses a label already used by another firewall of the account", async () => {
    await createFirewall("taken");
    expectError(await emu.post("/networking/firewalls", body("taken")), 400, FIREWALL_REASONS.labelUnique, "label");
    // Another account may use it.
    const other = emu.control.createAccount();
    expect((await emu.post("/networking/firewalls", body("taken"), { token: other.token })).status).toBe(200);
  });

  test("update refuses a bad label", async () => {
    const fw = await createFirewall();
    expectError(await emu.put(`/networking/firewalls/${fw.id}`, { label: "a..b" }), 400, FIREWALL_REASONS.labelRepeat, "label");
  });

  test("update refuses a label used by another firewall, but keeping its own is fine", async () => {
    await createFirewall("taken");
    const fw = await createFirewall("mine");
    expectError(await emu.put(`/networking/firewalls/${fw.id}`, { label: "taken" }), 400, FIREWALL_REASONS.labelUnique, "label");
    expect((await emu.put(`/networking/firewalls/${fw.id}`, { label: "mine" })).status).toBe(200);
  });

  test("label and rules are required on create, and both policies", async () => {
    expectError(await emu.post("/networking/firewalls", { rules: body().rules }), 400, FIREWALL_REASONS.labelRequired, "label");
    expectError(await emu.post("/networking/firewalls", { label: "fw-1" }), 400, FIREWALL_REASONS.rulesRequired, "rules");
    expectError(
      await emu.post("/networking/firewalls", { label: "fw-1", rules: { inbound: [], outbound_policy: "DROP" } }),
      400,
      FIREWALL_REASONS.inboundPolicyRequired,
      "rules.inbound_policy",
    );
    expectError(
      await emu.post("/networking/firewalls", { label: "fw-1", rules: { inbound_policy: "DROP" } }),
      400,
      FIREWALL_REASONS.outboundPolicyRequired,
      "rules.outbound_policy",
    );
    expectError(
      await emu.post("/networking/firewalls", body("fw-1", {}, { inbound_policy: "REJECT" })),
      400,
      FIREWALL_REASONS.policyInvalid,
      "rules.inbound_policy",
    );
  });
});

/** Rule conditions of the Errors table (plus the rule field rules of the spec's Rule table). */
const RULE_CASES: Array<[string, Record<string, unknown>, string, string]> = [
  ["ports with ICMP", { protocol: "ICMP", ports: "22" }, "ports", FIREWALL_REASONS.portsNotAllowed],
  ["ports with IPENCAP", { protocol: "IPENCAP", ports: "1-100" }, "ports", FIREWALL_REASONS.portsNotAllowed],
  ["port 0", { ports: "0" }, "ports", FIREWALL_REASONS.portsRange],
  ["port 65536", { ports: "80, 65536" }, "ports", FIREWALL_REASONS.portsRange],
  ["a leading zero", { ports: "022" }, "ports", FIREWALL_REASONS.portsLeadingZero],
  ["a range whose end does not exceed its start", { ports: "80-80" }, "ports", FIREWALL_REASONS.portsRangeOrder],
  ["16 port pieces (ranges count 2)", { ports: "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15-16" }, "ports", FIREWALL_REASONS.portsTooMany],
  ["two spaces after a comma", { ports: "22,  80" }, "ports", FIREWALL_REASONS.portsFormat],
  ["an empty ports string", { ports: "" }, "ports", FIREWALL_REASONS.portsFormat],
  ["an unknown protocol", { protocol: "SCTP" }, "protocol", FIREWALL_REASONS.protocolInvalid],
  ["no action", { action: undefined }, "action", FIREWALL_REASONS.actionRequired],
  ["addresses without ipv4 or ipv6", { addresses: {} }, "addresses", FIREWALL_REASONS.addressesFamily],
  ["an empty ipv4 list", { addresses: { ipv4: [] } }, "addresses.ipv4", FIREWALL_REASONS.addressesEmpty],
  ["an empty ipv6 list", { addresses: { ipv4: ["0.0.0.0/0"], ipv6: [] } }, "addresses.ipv6", FIREWALL_REASONS.addressesEmpty],
  ["an IPv4 address without mask", { addresses: { ipv4: ["192.0.2.1"] } }, "addresses.ipv4[0]", FIREWALL_REASONS.ipv4Invalid],
  ["an IPv6 address with a zone id", { addresses: { ipv6: ["fe80::1%eth0/128"] } }, "addresses.ipv6[0]", FIREWALL_REASONS.ipv6ZoneId],
  ["an invalid IPv6 network", { addresses: { ipv6: ["2001:db8::g/64"] } }, "addresses.ipv6[0]", FIREWALL_REASONS.ipv6Invalid],
  [
    "256 addresses (IPv4 and IPv6 together)",
    {
      addresses: {
        ipv4: Array.from({ length: 200 }, (_, i) => `10.0.${i}.0/24`),
        ipv6: Array.from({ length: 56 }, (_, i) => `2001:db8:${i.toString(16)}::/48`),
      },
    },
    "addresses",
    FIREWALL_REASONS.addressesTooMany,
  ],
  ["a 2-character rule label", { label: "ab" }, "label", FIREWALL_REASONS.ruleLabelLength],
  ["a 101-character description", { description: "d".repeat(101) }, "description", FIREWALL_REASONS.ruleDescriptionLength],
];

describe("Errors table: rules (create and rules update)", () => {
  test.each(RULE_CASES)("create refuses a rule with %s", async (_what, change, field, reason) => {
    const r = await emu.post("/networking/firewalls", body("fw-1", {}, { outbound: [rule(change)] }));
    expectError(r, 400, reason, `rules.outbound[0].${field}`);
  });

  test.each(RULE_CASES)("rules update refuses a rule with %s", async (_what, change, field, reason) => {
    const fw = await createFirewall();
    expectError(
      await emu.put(`/networking/firewalls/${fw.id}/rules`, { inbound: [rule(), rule(change)] }),
      400,
      reason,
      `inbound[1].${field}`,
    );
    // Nothing changed, the version neither.
    expect((await emu.get(`/networking/firewalls/${fw.id}/rules`)).body).toEqual({
      ...fw.rules,
      version: 1,
      fingerprint: expect.any(String),
    });
  });

  test("exactly 255 addresses, 15 port pieces and 25 rules are fine", async () => {
    const addresses = { ipv4: Array.from({ length: 255 }, (_, i) => `10.1.${i}.0/24`) };
    const ports = "1,2,3,4,5,6,7,8,9,10,11,12,13-14";
    const rules = {
      inbound: Array.from({ length: 20 }, () => rule()),
      outbound: [rule({ addresses, ports }), ...Array.from({ length: 4 }, () => rule())],
    };
    expect((await emu.post("/networking/firewalls", body("fw-1", {}, rules))).status).toBe(200);
  });

  test("create refuses 26 rules across both rulesets, on the ruleset where the 26th lands", async () => {
    const rules = { inbound: Array.from({ length: 20 }, () => rule()), outbound: Array.from({ length: 6 }, () => rule()) };
    expectError(await emu.post("/networking/firewalls", body("fw-1", {}, rules)), 400, FIREWALL_REASONS.rulesTooMany, "rules.outbound");
  });

  test("rules update refuses 26 rules", async () => {
    const fw = await createFirewall();
    expectError(
      await emu.put(`/networking/firewalls/${fw.id}/rules`, { inbound: Array.from({ length: 26 }, () => rule()) }),
      400,
      FIREWALL_REASONS.rulesTooMany,
      "inbound",
    );
  });

  test("rules update replaces both rulesets, keeps an absent policy and moves `updated`", async () => {
    const fw = await createFirewall();
    emu.control.setClock({ advanceMs: 5000 });
    const r = await emu.put(`/networking/firewalls/${fw.id}/rules`, { outbound: [rule({ action: "DROP" })], outbound_policy: "DROP" });
    expect(r.status).toBe(200);
    expect(FirewallRules.parse(r.body)).toEqual({
      inbound: [],
      inbound_policy: "DROP",
      outbound: [rule({ action: "DROP" })],
      outbound_policy: "DROP",
      version: 2,
      fingerprint: expect.any(String),
    });
    const after = (await emu.get(`/networking/firewalls/${fw.id}`)).body;
    const { version: _version, fingerprint: _fingerprint, ...rules } = r.body;
    expect(after.rules).toEqual(rules);
    expect(after.updated > fw.updated!).toBe(true);
  });
});

describe("status", () => {
  test("disable and enable apply at once; `deleted` cannot be set", async () => {
    const fw = await createFirewall();
    const off = await emu.put(`/networking/firewalls/${fw.id}`, { status: "disabled" });
    expect(off.body.status).toBe("disabled");
    expect((await emu.put(`/networking/firewalls/${fw.id}`, { status: "enabled" })).body.status).toBe("enabled");
    expectError(await emu.put(`/networking/firewalls/${fw.id}`, { status: "deleted" }), 400, FIREWALL_REASONS.statusInvalid, "status");
  });

  test("update takes label, status and tags only (devices and rules cannot change there)", async () => {
    const fw = await createFirewall();
    const r = await emu.put(`/networking/firewalls/${fw.id}`, { label: "renamed", tags: [], rules: body().rules });
    expect(r.status).toBe(400);
    expect(onlyError(r)).toEqual({ reason: "Unknown field: rules" });
  });
});

describe("devices", () => {
  test("devices on create, listed with the recorded keys; get and delete one", async () => {
    const a = compute("web-1");
    const b = compute("web-2");
    const nb = nodebalancer();
    const fw = await createFirewall("fw-1", { devices: { computes: [a.id, b.id, a.id], nodebalancers: [nb.id] } });
    const list = await emu.get(`/networking/firewalls/${fw.id}/devices`);
    const devices = Collection(FirewallDevice).parse(list.body).data;
    expect(devices.map((d) => [d.entity.type, d.entity.id, d.entity.label])).toEqual([
      ["compute", a.id, "web-1"],
      ["compute", b.id, "web-2"],
      ["nodebalancer", nb.id, "nb-1"],
    ]);
    expect(Object.keys(list.body.data[0])).toEqual(["id", "created", "updated", "entity"]);
    expect(Object.keys(list.body.data[0].entity)).toEqual(["id", "type", "label", "url"]);
    expect(devices.map((d) => d.entity.url)).toEqual([
      `/v4/compute/instances/${a.id}`,
      `/v4/compute/instances/${b.id}`,
      `/v4/nodebalancers/${nb.id}`,
    ]);
    expect(devices[0]!.id).toBeGreaterThanOrEqual(485000);

    const one = await emu.get(`/networking/firewalls/${fw.id}/devices/${devices[1]!.id}`);
    expect(one.body).toEqual(list.body.data[1]);
    expect((await emu.del(`/networking/firewalls/${fw.id}/devices/${devices[1]!.id}`)).body).toEqual({});
    expectError(await emu.get(`/networking/firewalls/${fw.id}/devices/${devices[1]!.id}`), 404, REASONS.notFound);
    expect((await emu.get(`/networking/firewalls/${fw.id}/devices`)).body.results).toBe(2);
  });

  test("device add returns the device record", async () => {
    const a = compute();
    const fw = await createFirewall();
    const r = await emu.post(`/networking/firewalls/${fw.id}/devices`, { id: a.id, type: "compute" });
    expect(r.status).toBe(200);
    expect(FirewallDevice.parse(r.body).entity).toEqual({
      id: a.id,
      type: "compute",
      label: "web-1",
      url: `/v4/compute/instances/${a.id}`,
    });
  });

  test("create refuses more than one nodebalancer in devices.nodebalancers", async () => {
    const [x, y] = [nodebalancer("nb-1"), nodebalancer("nb-2")];
    expectError(
      await emu.post("/networking/firewalls", body("fw-1", { devices: { nodebalancers: [x.id, y.id] } })),
      400,
      FIREWALL_REASONS.nodebalancersTooMany,
      "devices.nodebalancers",
    );
  });

  test("device add refuses a second nodebalancer (one nodebalancer per firewall)", async () => {
    const [x, y] = [nodebalancer("nb-1"), nodebalancer("nb-2")];
    const fw = await createFirewall("fw-1", { devices: { nodebalancers: [x.id] } });
    expectError(
      await emu.post(`/networking/firewalls/${fw.id}/devices`, { id: y.id, type: "nodebalancer" }),
      400,
      FIREWALL_REASONS.nodebalancersTooMany,
      "id",
    );
  });

  test("device entities must exist: `Invalid Compute ID <n>`", async () => {
    expectError(
      await emu.post("/networking/firewalls", body("fw-1", { devices: { computes: [99999] } })),
      400,
      FIREWALL_REASONS.invalidEntity("compute", 99999),
      "devices.computes[0]",
    );
    const fw = await createFirewall();
    expectError(
      await emu.post(`/networking/firewalls/${fw.id}/devices`, { id: 4242, type: "nodebalancer" }),
      400,
      FIREWALL_REASONS.invalidEntity("nodebalancer", 4242),
      "id",
    );
    // Another account's instance does not exist for this one.
    const other = emu.control.createAccount();
    const theirs = emu.control.seedCompute({ account: other.account, label: "theirs", region: "us-iad" });
    expectError(
      await emu.post(`/networking/firewalls/${fw.id}/devices`, { id: theirs.id, type: "compute" }),
      400,
      FIREWALL_REASONS.invalidEntity("compute", theirs.id),
      "id",
    );
  });

  test("device add validates its body", async () => {
    const fw = await createFirewall();
    expectError(await emu.post(`/networking/firewalls/${fw.id}/devices`, { id: 1 }), 400, FIREWALL_REASONS.typeRequired, "type");
    expectError(
      await emu.post(`/networking/firewalls/${fw.id}/devices`, { id: 1, type: "linode" }),
      400,
      FIREWALL_REASONS.typeInvalid,
      "type",
    );
    expectError(await emu.post(`/networking/firewalls/${fw.id}/devices`, { type: "compute" }), 400, "id is required", "id");
  });

  test("the same entity cannot be added to one firewall twice", async () => {
    const a = compute();
    const fw = await createFirewall("fw-1", { devices: { computes: [a.id] } });
    expectError(
      await emu.post(`/networking/firewalls/${fw.id}/devices`, { id: a.id, type: "compute" }),
      400,
      FIREWALL_REASONS.deviceExists("compute", a.id),
      "id",
    );
  });
});

describe("Errors table: one active firewall per service", () => {
  test("device add is refused when another active firewall is assigned to the compute instance", async () => {
    const a = compute();
    await createFirewall("fw-1", { devices: { computes: [a.id] } });
    const second = await createFirewall("fw-2");
    expectError(
      await emu.post(`/networking/firewalls/${second.id}/devices`, { id: a.id, type: "compute" }),
      400,
      FIREWALL_REASONS.activeFirewall("compute", a.id),
      "id",
    );
  });

  test("device add is refused for a nodebalancer with another active firewall", async () => {
    const nb = nodebalancer();
    await createFirewall("fw-1", { devices: { nodebalancers: [nb.id] } });
    const second = await createFirewall("fw-2");
    expectError(
      await emu.post(`/networking/firewalls/${second.id}/devices`, { id: nb.id, type: "nodebalancer" }),
      400,
      FIREWALL_REASONS.activeFirewall("nodebalancer", nb.id),
      "id",
    );
  });

  test("create with devices is refused when a device already has an active firewall", async () => {
    const a = compute();
    await createFirewall("fw-1", { devices: { computes: [a.id] } });
    expectError(
      await emu.post("/networking/firewalls", body("fw-2", { devices: { computes: [a.id] } })),
      400,
      FIREWALL_REASONS.activeFirewall("compute", a.id),
      "devices.computes[0]",
    );
  });

  test("enable is refused while another active firewall covers one of its services", async () => {
    const a = compute();
    const first = await createFirewall("fw-1", { devices: { computes: [a.id] } });
    await emu.put(`/networking/firewalls/${first.id}`, { status: "disabled" });
    const second = await createFirewall("fw-2", { devices: { computes: [a.id] } }); // the only active one now
    expectError(
      await emu.put(`/networking/firewalls/${first.id}`, { status: "enabled" }),
      400,
      FIREWALL_REASONS.activeFirewall("compute", a.id),
      "status",
    );
    expect((await emu.get(`/networking/firewalls/${first.id}`)).body.status).toBe("disabled");
    // A service may hold extra disabled firewalls; once the active one is disabled, the other can be enabled.
    await emu.put(`/networking/firewalls/${second.id}`, { status: "disabled" });
    expect((await emu.put(`/networking/firewalls/${first.id}`, { status: "enabled" })).body.status).toBe("enabled");
  });

  test("a disabled firewall may be added to a service that has an active one", async () => {
    const a = compute();
    await createFirewall("fw-1", { devices: { computes: [a.id] } });
    const spare = await createFirewall("fw-2");
    await emu.put(`/networking/firewalls/${spare.id}`, { status: "disabled" });
    expect((await emu.post(`/networking/firewalls/${spare.id}/devices`, { id: a.id, type: "compute" })).status).toBe(200);
  });

  test("delete removes the firewall from every assigned service, so another can be enabled there", async () => {
    const [a, b] = [compute("web-1"), compute("web-2")];
    const first = await createFirewall("fw-1", { devices: { computes: [a.id, b.id] } });
    const second = await createFirewall("fw-2");
    await emu.put(`/networking/firewalls/${second.id}`, { status: "disabled" });
    for (const c of [a, b])
      expect((await emu.post(`/networking/firewalls/${second.id}/devices`, { id: c.id, type: "compute" })).status).toBe(200);
    expect((await emu.put(`/networking/firewalls/${second.id}`, { status: "enabled" })).status).toBe(400);
    expect((await emu.del(`/networking/firewalls/${first.id}`)).body).toEqual({});
    expectError(await emu.get(`/networking/firewalls/${first.id}/devices`), 404, REASONS.notFound);
    expect((await emu.put(`/networking/firewalls/${second.id}`, { status: "enabled" })).body.status).toBe("enabled");
    expect((await emu.post("/networking/firewalls", body("fw-3", { devices: { computes: [a.id] } }))).status).toBe(400);
  });
});

describe("Errors table: live migration of an assigned compute instance", () => {
  async function migratingSetup() {
    const a = compute("web-1");
    const b = compute("web-2");
    const fw = await createFirewall("fw-1", { devices: { computes: [a.id] } });
    const devices = (await emu.get(`/networking/firewalls/${fw.id}/devices`)).body.data;
    // Through the control API over HTTP, as a test driving a running emulator would.
    expect((await emu.ctl("POST", `/seed/computes/${a.id}/migration`, { migrating: true })).status).toBe(200);
    return { a, b, fw, deviceId: devices[0].id as number };
  }

  test("firewall create with a migrating instance", async () => {
    const a = compute("web-1", { migrating: true });
    expectError(
      await emu.post("/networking/firewalls", body("fw-1", { devices: { computes: [a.id] } })),
      400,
      FIREWALL_REASONS.migrating(a.id),
    );
  });

  test("firewall update", async () => {
    const { a, fw } = await migratingSetup();
    expectError(await emu.put(`/networking/firewalls/${fw.id}`, { tags: ["x"] }), 400, FIREWALL_REASONS.migrating(a.id));
  });

  test("firewall delete", async () => {
    const { a, fw } = await migratingSetup();
    expectError(await emu.del(`/networking/firewalls/${fw.id}`), 400, FIREWALL_REASONS.migrating(a.id));
    expect((await emu.get(`/networking/firewalls/${fw.id}`)).status).toBe(200);
  });

  test("device create", async () => {
    const { a, b, fw } = await migratingSetup();
    expectError(
      await emu.post(`/networking/firewalls/${fw.id}/devices`, { id: b.id, type: "compute" }),
      400,
      FIREWALL_REASONS.migrating(a.id),
    );
  });

  test("device delete", async () => {
    const { a, fw, deviceId } = await migratingSetup();
    expectError(await emu.del(`/networking/firewalls/${fw.id}/devices/${deviceId}`), 400, FIREWALL_REASONS.migrating(a.id));
  });

  test("rules update", async () => {
    const { a, fw } = await migratingSetup();
    expectError(await emu.put(`/networking/firewalls/${fw.id}/rules`, { inbound: [] }), 400, FIREWALL_REASONS.migrating(a.id));
  });

  test("adding a migrating instance to a firewall without one", async () => {
    const { a } = await migratingSetup();
    const other = await createFirewall("fw-2");
    await emu.put(`/networking/firewalls/${other.id}`, { status: "disabled" });
    expectError(
      await emu.post(`/networking/firewalls/${other.id}/devices`, { id: a.id, type: "compute" }),
      400,
      FIREWALL_REASONS.migrating(a.id),
    );
  });

  test("once the migration ends everything is allowed again; firewalls of other instances were never affected", async () => {
    const { a, fw } = await migratingSetup();
    const unaffected = await createFirewall("fw-2");
    expect((await emu.put(`/networking/firewalls/${unaffected.id}`, { tags: ["x"] })).status).toBe(200);
    emu.control.setComputeMigration(a.id, { migrating: false });
    expect((await emu.put(`/networking/firewalls/${fw.id}`, { tags: ["x"] })).status).toBe(200);
    expect((await emu.ctl("POST", "/seed/computes/1/migration", { migrating: true })).status).toBe(404);
    expect((await emu.ctl("POST", `/seed/computes/${a.id}/migration`, {})).status).toBe(400);
  });
});

describe("events", () => {
  test("each operation records its event with the firewall as entity and the device as secondary entity", async () => {
    const [a, b] = [compute("web-1"), compute("web-2")];
    const fw = await createFirewall("fw-1", { devices: { computes: [a.id] } });
    await emu.put(`/networking/firewalls/${fw.id}`, { label: "fw-renamed", tags: ["t"] });
    await emu.put(`/networking/firewalls/${fw.id}`, { status: "disabled" });
    await emu.put(`/networking/firewalls/${fw.id}`, { status: "disabled" }); // no change, no event
    await emu.put(`/networking/firewalls/${fw.id}`, { status: "enabled" });
    await emu.put(`/networking/firewalls/${fw.id}/rules`, { inbound: [] });
    const added = (await emu.post(`/networking/firewalls/${fw.id}/devices`, { id: b.id, type: "compute" })).body;
    await emu.del(`/networking/firewalls/${fw.id}/devices/${added.id}`);
    await emu.del(`/networking/firewalls/${fw.id}`);

    const all = (await events()).reverse();
    expect(all.map((e) => e.action)).toEqual([
      "firewall_create",
      "firewall_device_add",
      "firewall_update",
      "firewall_disable",
      "firewall_enable",
      "firewall_device_add",
      "firewall_device_remove",
      "firewall_delete",
    ]);
    for (const e of all) {
      expect(e.entity).toMatchObject({ id: fw.id, type: "firewall", url: `/v4/networking/firewalls/${fw.id}` });
      expect(e.status).toBe("notification");
    }
    expect(all[0].entity.label).toBe("fw-1");
    expect(all[2].entity.label).toBe("fw-renamed");
    expect(all[1].secondary_entity).toEqual({ label: "web-1", id: a.id, type: "compute", url: `/v4/compute/instances/${a.id}` });
    expect(all[6].secondary_entity).toMatchObject({ id: b.id, type: "compute" });
    expect(all[0].secondary_entity).toBeNull();
  });

  test("refused operations record nothing", async () => {
    await createFirewall("taken");
    await emu.post("/networking/firewalls", body("taken"));
    expect((await events()).map((e) => e.action)).toEqual(["firewall_create"]);
  });
});

describe("scopes and grants", () => {
  test("reads need firewall:read_only, writes firewall:read_write", async () => {
    const fw = await createFirewall();
    const reader = emu.control.createToken({ scopes: ["firewall:read_only"] });
    expect((await emu.get("/networking/firewalls", { token: reader.token })).status).toBe(200);
    expect((await emu.get(`/networking/firewalls/${fw.id}/rules`, { token: reader.token })).headers["x-accepted-oauth-scopes"]).toBe(
      "firewall:read_only",
    );
    expectError(await emu.put(`/networking/firewalls/${fw.id}`, { tags: [] }, { token: reader.token }), 401, REASONS.oauthScope);
    const other = emu.control.createToken({ scopes: ["vpc:read_write"] });
    expectError(await emu.get("/networking/firewalls", { token: other.token }), 401, REASONS.oauthScope);
  });

  test("a restricted user sees only granted firewalls and owns what it creates", async () => {
    const theirs = await createFirewall("not-mine");
    const user = emu.control.createToken({ restricted: true });
    expect((await emu.get("/networking/firewalls", { token: user.token })).body.results).toBe(0);
    expectError(await emu.get(`/networking/firewalls/${theirs.id}`, { token: user.token }), 403, REASONS.unauthorized);
    const mine = await emu.post("/networking/firewalls", body("mine"), { token: user.token });
    expect(mine.status).toBe(200);
    expect((await emu.get("/networking/firewalls", { token: user.token })).body.data.map((f: any) => f.label)).toEqual(["mine"]);
    expect((await emu.put(`/networking/firewalls/${mine.body.id}`, { status: "disabled" }, { token: user.token })).status).toBe(200);
  });

  test("a read_only grant allows reading, not changing", async () => {
    const fw = await createFirewall();
    const user = emu.control.createToken({ restricted: true, grants: { firewall: [{ id: fw.id, permissions: "read_only" }] } });
    expect((await emu.get(`/networking/firewalls/${fw.id}`, { token: user.token })).status).toBe(200);
    expectError(await emu.put(`/networking/firewalls/${fw.id}/rules`, { inbound: [] }, { token: user.token }), 403, REASONS.unauthorized);
  });

  test("assigning devices needs read_write grants on the entities", async () => {
    const a = compute();
    const nb = nodebalancer();
    const reader = emu.control.createToken({ restricted: true, grants: { compute: [{ id: a.id, permissions: "read_only" }] } });
    expectError(
      await emu.post("/networking/firewalls", body("fw-1", { devices: { computes: [a.id] } }), { token: reader.token }),
      403,
      REASONS.unauthorized,
    );
    const writer = emu.control.createToken({
      restricted: true,
      grants: { compute: [{ id: a.id, permissions: "read_write" }] },
    });
    const fw = await emu.post("/networking/firewalls", body("fw-2", { devices: { computes: [a.id] } }), { token: writer.token });
    expect(fw.status).toBe(200);
    expectError(
      await emu.post(`/networking/firewalls/${fw.body.id}/devices`, { id: nb.id, type: "nodebalancer" }, { token: writer.token }),
      403,
      REASONS.unauthorized,
    );
    expect(await events("firewall_create")).toHaveLength(1);
  });
});
