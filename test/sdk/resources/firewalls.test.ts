/**
 * `client.networking.firewalls` (+ `.devices`, `.rules`): every method's method and path,
 * replaying recorded exchanges on undici's MockAgent; bodies refused before sending; and the
 * request schemas' rules (label, ports grammar, addresses, counts) as plain schema checks.
 */
import { ClientValidationError, ConnectionError } from "../../../sdk/core/errors";
import { issuesToErrors } from "../../../sdk/core/schema";
import {
  FIREWALL_REASONS,
  FirewallCreateRequest,
  FirewallLabel,
  FirewallPorts,
  FirewallRulesUpdateRequest,
  portPieces,
  portRanges,
  portsProblem,
} from "../../../sdk/resources/firewalls";
import { JSON_HEADERS, harness, netError, serveFixture } from "../helpers";

const sent = (h: ReturnType<typeof harness>) => h.calls().map((c) => `${c.method} ${c.path.split("?")[0]}`);

describe("Firewalls", () => {
  test("create POSTs the validated body and parses the recorded firewall", async () => {
    const h = harness();
    const f = serveFixture(h, "firewall.create.json");
    const fw = await h.client.networking.firewalls.create(f.request as never);
    expect(fw).toMatchObject({ id: 228233, status: "enabled", rules: { outbound: null } });
    expect(sent(h)).toEqual(["POST /v4/networking/firewalls"]);
    expect(JSON.parse(h.calls()[0]!.body as string)).toEqual(f.request);
  });

  test("list / listAll / get / update / delete", async () => {
    const h = harness();
    serveFixture(h, "firewall.list.json");
    serveFixture(h, "firewall.list.json");
    serveFixture(h, "firewall.get.json");
    const upd = serveFixture(h, "firewall.update.json");
    serveFixture(h, "firewall.delete.json");
    const listed = [];
    for await (const fw of h.client.networking.firewalls.list()) listed.push(fw.id);
    expect(listed).toEqual([228232]);
    expect((await h.client.networking.firewalls.listAll()).map((f) => f.id)).toEqual(listed);
    await expect(h.client.networking.firewalls.get(228233)).resolves.toMatchObject({ label: "computego-fw-test" });
    await expect(h.client.networking.firewalls.update(228234, upd.request as never)).resolves.toMatchObject({
      status: "disabled",
      tags: [],
    });
    await expect(h.client.networking.firewalls.delete(228233)).resolves.toBeUndefined();
    expect(sent(h)).toEqual([
      "GET /v4/networking/firewalls",
      "GET /v4/networking/firewalls",
      "GET /v4/networking/firewalls/228233",
      "PUT /v4/networking/firewalls/228234",
      "DELETE /v4/networking/firewalls/228233",
    ]);
  });

  test("devices: list / get / create / delete", async () => {
    const h = harness();
    serveFixture(h, "firewall_device.list.json");
    serveFixture(h, "firewall_device.get.json");
    const created = serveFixture(h, "firewall_device.create.json");
    serveFixture(h, "firewall_device.delete.json");
    const devices = h.client.networking.firewalls.devices;
    expect((await devices.listAll(228229)).map((d) => d.entity.id)).toEqual([49708338]);
    await expect(devices.get(228230, 485840)).resolves.toMatchObject({ entity: { type: "compute" } });
    await expect(devices.create(228230, created.request as never)).resolves.toMatchObject({ id: 485840 });
    await expect(devices.delete(228231, 485841)).resolves.toBeUndefined();
    expect(sent(h)).toEqual([
      "GET /v4/networking/firewalls/228229/devices",
      "GET /v4/networking/firewalls/228230/devices/485840",
      "POST /v4/networking/firewalls/228230/devices",
      "DELETE /v4/networking/firewalls/228231/devices/485841",
    ]);
  });

  test("rules: get / update", async () => {
    const h = harness();
    serveFixture(h, "firewall_rules.get.json");
    const upd = serveFixture(h, "firewall_rules.update.json");
    await expect(h.client.networking.firewalls.rules.get(228227)).resolves.toMatchObject({ inbound_policy: "ACCEPT" });
    await expect(h.client.networking.firewalls.rules.update(228228, upd.request as never)).resolves.toMatchObject({ outbound: null });
    expect(sent(h)).toEqual(["GET /v4/networking/firewalls/228227/rules", "PUT /v4/networking/firewalls/228228/rules"]);
  });

  test("a bad body is refused before anything is sent, with the API's field and reason", async () => {
    const h = harness();
    const rules = {
      inbound: [{ action: "ACCEPT", protocol: "ICMP", ports: "22", addresses: { ipv4: ["0.0.0.0/0"] } }],
      inbound_policy: "DROP",
      outbound_policy: "ACCEPT",
    };
    const error = await h.client.networking.firewalls.create({ label: "fw-1", rules } as never).catch((e) => e);
    expect(error).toBeInstanceOf(ClientValidationError);
    expect(error.errors).toEqual([{ field: "rules.inbound[0].ports", reason: FIREWALL_REASONS.portsNotAllowed }]);
    const device = await h.client.networking.firewalls.devices.create(1, { id: 5, type: "linode" } as never).catch((e) => e);
    expect(device.errors).toEqual([{ field: "type", reason: FIREWALL_REASONS.typeInvalid }]);
    expect(h.calls()).toEqual([]);
  });

  test("create and device create are never retried after an ambiguous failure", async () => {
    const h = harness();
    h.pool.intercept({ path: "/v4/networking/firewalls", method: "POST" }).replyWithError(netError("ECONNRESET"));
    h.pool.intercept({ path: "/v4/networking/firewalls/1/devices", method: "POST" }).replyWithError(netError("ECONNRESET"));
    const body = { label: "fw-1", rules: { inbound_policy: "DROP" as const, outbound_policy: "ACCEPT" as const } };
    await expect(h.client.networking.firewalls.create(body)).rejects.toBeInstanceOf(ConnectionError);
    await expect(h.client.networking.firewalls.devices.create(1, { id: 2, type: "compute" })).rejects.toBeInstanceOf(ConnectionError);
    expect(h.calls()).toHaveLength(2);
    expect(h.retries).toHaveLength(0);
  });

  test("reads and rule replacement are retried on 503 (PUT is idempotent)", async () => {
    const h = harness();
    h.pool
      .intercept({ path: "/v4/networking/firewalls/7/rules", method: "PUT" })
      .reply(503, { errors: [{ reason: "busy later" }] }, JSON_HEADERS);
    h.pool
      .intercept({ path: "/v4/networking/firewalls/7/rules", method: "PUT" })
      .reply(200, { inbound: [], inbound_policy: "DROP", outbound: [], outbound_policy: "DROP" }, JSON_HEADERS);
    await expect(h.client.networking.firewalls.rules.update(7, { inbound: [] })).resolves.toMatchObject({ inbound_policy: "DROP" });
    expect(h.retries).toHaveLength(1);
  });
});

describe("request schemas", () => {
  const errorsOf = (schema: { safeParse(v: unknown): { success: boolean; error?: any } }, value: unknown) => {
    const r = schema.safeParse(value);
    return r.success ? [] : issuesToErrors(r.error);
  };

  test.each([
    ["22", undefined],
    ["1-65535", undefined],
    ["22,80, 443,8000-8080", undefined],
    ["1,2,3,4,5,6,7,8,9,10,11,12,13-14", undefined],
    ["0", FIREWALL_REASONS.portsRange],
    ["65536", FIREWALL_REASONS.portsRange],
    ["1-65536", FIREWALL_REASONS.portsRange],
    ["080", FIREWALL_REASONS.portsLeadingZero],
    ["80-080", FIREWALL_REASONS.portsLeadingZero],
    ["90-80", FIREWALL_REASONS.portsRangeOrder],
    ["80-80", FIREWALL_REASONS.portsRangeOrder],
    ["1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16", FIREWALL_REASONS.portsTooMany],
    ["1-2,3-4,5-6,7-8,9-10,11-12,13-14,15-16", FIREWALL_REASONS.portsTooMany],
    [" 22", FIREWALL_REASONS.portsFormat],
    ["22 ,80", FIREWALL_REASONS.portsFormat],
    ["22,", FIREWALL_REASONS.portsFormat],
    ["22-", FIREWALL_REASONS.portsFormat],
    ["1-2-3", FIREWALL_REASONS.portsFormat],
    ["ssh", FIREWALL_REASONS.portsFormat],
  ])("ports %j → %s", (ports, reason) => {
    expect(portsProblem(ports)).toBe(reason);
    expect(FirewallPorts.safeParse(ports).success).toBe(reason === undefined);
  });

  test("port pieces: a range counts 2", () => {
    expect(portPieces("22")).toBe(1);
    expect(portPieces("22, 80-90,443")).toBe(4);
  });

  test("port ranges: each piece inclusive, a single port its own range, white space passed over", () => {
    expect(portRanges("22")).toEqual([[22, 22]]);
    expect(portRanges("22, 80-90,443")).toEqual([
      [22, 22],
      [80, 90],
      [443, 443],
    ]);
    expect(portRanges(" 8000 - 8080 , 443")).toEqual([
      [8000, 8080],
      [443, 443],
    ]);
  });

  test.each([
    ["fw-1", []],
    ["a_b.c-d", []],
    ["ab", [FIREWALL_REASONS.labelLength]],
    ["_abc", [FIREWALL_REASONS.labelEnds]],
    ["ab-.c", [FIREWALL_REASONS.labelRepeat]],
    ["ab c", [FIREWALL_REASONS.labelChars]],
  ])("label %j", (label, reasons) => {
    expect(errorsOf(FirewallLabel, label).map((e) => e.reason)).toEqual(reasons);
  });

  test("addresses: IP/mask form for both families, no zone id, never empty, at most 255", () => {
    const rule = (addresses: unknown) => ({ inbound: [{ action: "ACCEPT", protocol: "TCP", addresses }] });
    expect(errorsOf(FirewallRulesUpdateRequest, rule({ ipv4: ["0.0.0.0/0"], ipv6: ["::/0", "2001:DB8::1/128"] }))).toEqual([]);
    expect(errorsOf(FirewallRulesUpdateRequest, rule({ ipv4: ["192.0.2.1"] }))).toEqual([
      { field: "inbound[0].addresses.ipv4[0]", reason: FIREWALL_REASONS.ipv4Invalid },
    ]);
    expect(errorsOf(FirewallRulesUpdateRequest, rule({ ipv4: ["10.0.0.0/33"] }))[0]!.reason).toBe(FIREWALL_REASONS.ipv4Invalid);
    expect(errorsOf(FirewallRulesUpdateRequest, rule({ ipv6: ["2001:db8::1"] }))[0]!.reason).toBe(FIREWALL_REASONS.ipv6Invalid);
    expect(errorsOf(FirewallRulesUpdateRequest, rule({ ipv6: ["fe80::1%eth0/64"] }))[0]!.reason).toBe(FIREWALL_REASONS.ipv6ZoneId);
    expect(errorsOf(FirewallRulesUpdateRequest, rule({ ipv6: [] }))).toEqual([
      { field: "inbound[0].addresses.ipv6", reason: FIREWALL_REASONS.addressesEmpty },
    ]);
    expect(errorsOf(FirewallRulesUpdateRequest, rule({}))).toEqual([
      { field: "inbound[0].addresses", reason: FIREWALL_REASONS.addressesFamily },
    ]);
    expect(errorsOf(FirewallRulesUpdateRequest, rule({ ipv4: ["0.0.0.0/0"], ipv4x: [] }))[0]!.field).toBe("inbound[0].addresses");
    const many = {
      ipv4: Array.from({ length: 128 }, (_, i) => `10.0.${i}.0/24`),
      ipv6: Array.from({ length: 128 }, (_, i) => `2001:db8:${i.toString(16)}::/48`),
    };
    expect(errorsOf(FirewallRulesUpdateRequest, rule(many))).toEqual([
      { field: "inbound[0].addresses", reason: FIREWALL_REASONS.addressesTooMany },
    ]);
  });

  test("create: policies required, devices limited to one nodebalancer, 25 rules in all", () => {
    const ok = { label: "fw-1", rules: { inbound_policy: "DROP", outbound_policy: "ACCEPT" } };
    expect(errorsOf(FirewallCreateRequest, ok)).toEqual([]);
    expect(errorsOf(FirewallCreateRequest, { ...ok, rules: { outbound_policy: "ACCEPT" } })).toEqual([
      { field: "rules.inbound_policy", reason: FIREWALL_REASONS.inboundPolicyRequired },
    ]);
    expect(errorsOf(FirewallCreateRequest, { ...ok, devices: { computes: [1, 2], nodebalancers: [3, 4] } })).toEqual([
      { field: "devices.nodebalancers", reason: FIREWALL_REASONS.nodebalancersTooMany },
    ]);
    const rule = { action: "DROP", protocol: "ICMP", addresses: { ipv4: ["0.0.0.0/0"] } };
    const rules = { ...ok.rules, inbound: Array(13).fill(rule), outbound: Array(13).fill(rule) };
    expect(errorsOf(FirewallCreateRequest, { ...ok, rules })).toEqual([{ field: "rules.outbound", reason: FIREWALL_REASONS.rulesTooMany }]);
  });
});
