/**
 * Domains and records (spec "Domain", "Domain record", "Domains"; api-facts P2-7, P2-8, P2-9,
 * P6-2, P7-2) over real HTTP: one test per rule with status, field and reason (texts from the
 * sdk's DOMAIN_REASONS / RECORD_REASONS), the API's spelling of what it stores, events, clone,
 * the rendered zone file (parsed by the independent `dns-zonefile`), and import by a real zone
 * transfer (AXFR over TCP) from an authoritative server on loopback.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Collection } from "../../../../sdk/core/schema";
import {
  DOMAIN_REASONS,
  Domain,
  DomainCreateRequest,
  DomainRecord,
  MAX_RECORDS_PER_DOMAIN,
  RECORD_REASONS,
  RecordCreateRequest,
  ZoneFile,
} from "../../../../sdk/resources/domains";
import { REASONS } from "../../../../emulator";
import { PLATFORM_NAMESERVERS, ZONE_RENDER_DELAY_MS } from "../../../../emulator/services/domains/zone-file";
import { DOMAINS, type StoredRecord } from "../../../../emulator/services/domains/store";
import { expectError, ok, sdkErrors, startTestEmulator, type TestEmulator } from "../../helpers";
import { sampleZoneRecords, startZoneServer, type ZoneServer } from "../../../support/dns-server";
import { parseZoneFile } from "../../../support/dns-zonefile";

const ZONE = "example.com";
const IMPORTED = "imported.example";

let emu: TestEmulator;
let dns: ZoneServer;
beforeAll(async () => {
  dns = await startZoneServer({
    zone: IMPORTED,
    soa: {
      mname: "ns1.elsewhere.net",
      rname: "host\\.master.imported.example",
      serial: 7,
      refresh: 3000,
      retry: 600,
      expire: 1000000,
      minimum: 200,
    },
    records: [
      { type: "NS", name: IMPORTED, ttl: 3600, class: "IN", data: "ns1.elsewhere.net" },
      { type: "NS", name: IMPORTED, ttl: 3600, class: "IN", data: "ns2.elsewhere.net" },
      ...sampleZoneRecords(IMPORTED, 50),
    ],
  });
  emu = await startTestEmulator({ zoneTransferPort: dns.port });
});
afterAll(async () => {
  await emu?.close();
  await dns?.close();
});
beforeEach(() => emu.control.reset());

const masterBody = (domain = ZONE, extra: Record<string, unknown> = {}) => ({
  domain,
  type: "master",
  soa_email: "admin@example.com",
  ...extra,
});

const createDomain = (domain = ZONE, extra: Record<string, unknown> = {}): Promise<Domain> =>
  ok(emu.post("/domains", masterBody(domain, extra)));
const createRecord = (domainId: number, body: Record<string, unknown>): Promise<DomainRecord> =>
  ok(emu.post(`/domains/${domainId}/records`, body));

async function events(action?: string) {
  const list = (await ok(emu.get("/account/events"))).data as Array<{
    action: string;
    entity: { id: number; type: string; label: string; url: string };
  }>;
  return action ? list.filter((e) => e.action === action) : list;
}

const render = () => emu.control.setClock({ advanceMs: ZONE_RENDER_DELAY_MS + 1000 });

describe("domains: create, read, update, delete", () => {
  test("a master domain is returned in the recorded shape with the API's defaults, and listed", async () => {
    const r = await emu.post("/domains", masterBody());
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual([
      "id",
      "type",
      "domain",
      "tags",
      "group",
      "status",
      "errors",
      "description",
      "soa_email",
      "retry_sec",
      "master_ips",
      "axfr_ips",
      "expire_sec",
      "refresh_sec",
      "ttl_sec",
      "created",
      "updated",
    ]);
    expect(Domain.parse(r.body)).toMatchObject({
      type: "master",
      domain: ZONE,
      tags: [],
      group: "",
      status: "active",
      errors: "",
      description: "",
      soa_email: "admin@example.com",
      master_ips: [],
      axfr_ips: [],
      refresh_sec: 0,
      retry_sec: 0,
      expire_sec: 0,
      ttl_sec: 0,
    });
    expect(r.body.id).toBeGreaterThanOrEqual(1900000);
    expect(await ok(emu.get(`/domains/${r.body.id}`))).toEqual(r.body);
    expect(Collection(Domain).parse(await ok(emu.get("/domains")))).toEqual({ data: [r.body], page: 1, pages: 1, results: 1 });
    expect(await events("dns_zone_create")).toEqual([
      expect.objectContaining({
        status: "notification",
        entity: { label: ZONE, id: r.body.id, type: "domain", url: `/v4/domains/${r.body.id}` },
      }),
    ]);
  });

  test("the recorded client's nulls for master_ips, axfr_ips and tags read as empty", async () => {
    const d = await createDomain(ZONE, { master_ips: null, axfr_ips: null, tags: null });
    expect(d).toMatchObject({ master_ips: [], axfr_ips: [], tags: [] });
  });

  test("a slave domain with master_ips, and every writable field stored", async () => {
    const d = await ok(
      emu.post("/domains", {
        domain: "Slave.Example.ORG",
        type: "slave",
        master_ips: ["192.0.2.1", "2001:db8::53"],
        axfr_ips: ["198.51.100.7"],
        description: "copy",
        group: "dns",
        tags: ["b", "a"],
        status: "disabled",
      }),
    );
    expect(d).toMatchObject({
      domain: "slave.example.org",
      type: "slave",
      master_ips: ["192.0.2.1", "2001:db8::53"],
      axfr_ips: ["198.51.100.7"],
      description: "copy",
      group: "dns",
      tags: ["a", "b"],
      status: "disabled",
      soa_email: "",
    });
  });

  test("update changes any writable field, the name included, moves `updated` and logs dns_zone_update", async () => {
    const d = await createDomain();
    emu.control.setClock({ advanceMs: 5000 });
    const r = await ok(
      emu.put(`/domains/${d.id}`, {
        domain: "renamed.example.com",
        description: "now described",
        group: "g",
        tags: ["t"],
        soa_email: "dns@example.com",
      }),
    );
    expect(r).toMatchObject({
      id: d.id,
      domain: "renamed.example.com",
      description: "now described",
      group: "g",
      tags: ["t"],
      soa_email: "dns@example.com",
      created: d.created,
    });
    expect(r.updated > d.created!).toBe(true);
    expect(await events("dns_zone_update")).toHaveLength(1);
  });

  test("status goes from active to disabled and back", async () => {
    const d = await createDomain();
    expect((await ok(emu.put(`/domains/${d.id}`, { status: "disabled" }))).status).toBe("disabled");
    expect((await ok(emu.put(`/domains/${d.id}`, { status: "active" }))).status).toBe("active");
    expectError(await emu.put(`/domains/${d.id}`, { status: "edit_mode" }), 400, DOMAIN_REASONS.statusInvalid, "status");
  });

  test("delete removes the domain and its records; dns_zone_delete; later reads are 404", async () => {
    const d = await createDomain();
    const rec = await createRecord(d.id, { type: "A", name: "www", target: "192.0.2.1" });
    expect(await ok(emu.del(`/domains/${d.id}`))).toEqual({});
    expectError(await emu.get(`/domains/${d.id}`), 404, REASONS.notFound);
    expectError(await emu.get(`/domains/${d.id}/records/${rec.id}`), 404, REASONS.notFound);
    expect(await events("dns_zone_delete")).toHaveLength(1);
    expect((await ok(emu.get("/domains"))).data).toEqual([]);
  });

  test("X-Filter on the domain name; unknown ids are 404", async () => {
    await createDomain("a.example");
    const b = await createDomain("b.example");
    expect((await ok(emu.get("/domains", { headers: { "X-Filter": JSON.stringify({ domain: "b.example" }) } }))).data).toEqual([b]);
    expectError(await emu.get("/domains/12345"), 404, REASONS.notFound);
    expectError(await emu.get("/domains/abc/records"), 404, REASONS.notFound);
  });

  test("a token with domains:read_only reads but cannot write", async () => {
    const { token } = emu.control.createToken({ scopes: ["domains:read_only"] });
    expect((await emu.get("/domains", { token })).status).toBe(200);
    expectError(await emu.post("/domains", masterBody(), { token }), 401, REASONS.oauthScope);
  });
});

describe("domain rules", () => {
  test("missing type: 400 `type is required` on field type", async () => {
    expectError(await emu.post("/domains", { domain: ZONE, soa_email: "a@example.com" }), 400, DOMAIN_REASONS.typeRequired, "type");
  });

  test("an unknown type: 400 on field type", async () => {
    expectError(
      await emu.post("/domains", { domain: ZONE, type: "primary", soa_email: "a@example.com" }),
      400,
      DOMAIN_REASONS.typeInvalid,
      "type",
    );
  });

  test("missing domain: 400 on field domain", async () => {
    expectError(await emu.post("/domains", { type: "master", soa_email: "a@example.com" }), 400, DOMAIN_REASONS.domainRequired, "domain");
  });

  test("a master domain needs soa_email (P2-7)", async () => {
    expectError(await emu.post("/domains", { domain: ZONE, type: "master" }), 400, DOMAIN_REASONS.soaEmailRequired, "soa_email");
  });

  test("a slave domain needs at least one master_ips entry (P2-8)", async () => {
    for (const master_ips of [undefined, [], null]) {
      expectError(
        await emu.post("/domains", { domain: ZONE, type: "slave", master_ips }),
        400,
        DOMAIN_REASONS.masterIpsRequired,
        "master_ips",
      );
    }
  });

  test("the type rules apply to the result of an update", async () => {
    const d = await createDomain();
    expectError(await emu.put(`/domains/${d.id}`, { type: "slave" }), 400, DOMAIN_REASONS.masterIpsRequired, "master_ips");
    expect((await ok(emu.put(`/domains/${d.id}`, { type: "slave", master_ips: ["192.0.2.1"] }))).type).toBe("slave");
  });

  test.each([
    ["an underscore", "bad_name.com"],
    ["a leading hyphen", "-lead.example.com"],
    ["a trailing hyphen", "trail-.example.com"],
    ["a single label", "localhost"],
    ["an empty label", "a..example.com"],
    ["a trailing period", "example.com."],
    ["an IP address", "192.0.2.1"],
  ])("a domain name with %s is not valid (RFC 1035)", async (_what, domain) => {
    expectError(await emu.post("/domains", masterBody(domain)), 400, DOMAIN_REASONS.domainInvalid, "domain");
  });

  test("a label of 64 characters is refused; 63 is fine", async () => {
    expectError(await emu.post("/domains", masterBody(`${"a".repeat(64)}.example.com`)), 400, DOMAIN_REASONS.domainLabelLength, "domain");
    await createDomain(`${"a".repeat(63)}.example.com`);
  });

  test("a name of 254 characters is refused; 253 is fine", async () => {
    const name = (total: number) => `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(total - 200)}.example`;
    expect(name(254)).toHaveLength(254);
    expectError(await emu.post("/domains", masterBody(name(254))), 400, DOMAIN_REASONS.domainLength, "domain");
    await createDomain(name(253));
  });

  test("names are unique across every account of the platform, in any letter case", async () => {
    const other = emu.control.createAccount();
    expect((await emu.post("/domains", masterBody(ZONE), { token: other.token })).status).toBe(200);
    expectError(await emu.post("/domains", masterBody("EXAMPLE.com")), 400, DOMAIN_REASONS.domainTaken, "domain");
  });

  test("an update cannot take another domain's name", async () => {
    await createDomain("taken.example");
    const d = await createDomain();
    expectError(await emu.put(`/domains/${d.id}`, { domain: "taken.example" }), 400, DOMAIN_REASONS.domainTaken, "domain");
    expect((await ok(emu.put(`/domains/${d.id}`, { domain: ZONE }))).domain).toBe(ZONE); // its own name is fine
  });

  test("soa_email must be an email address", async () => {
    expectError(
      await emu.post("/domains", masterBody(ZONE, { soa_email: "not-an-email" })),
      400,
      DOMAIN_REASONS.soaEmailInvalid,
      "soa_email",
    );
  });

  test("master_ips and axfr_ips hold IP addresses", async () => {
    expectError(
      await emu.post("/domains", { domain: ZONE, type: "slave", master_ips: ["ns1.example.net"] }),
      400,
      DOMAIN_REASONS.ipInvalid,
      "master_ips[0]",
    );
    expectError(
      await emu.post("/domains", masterBody(ZONE, { axfr_ips: ["192.0.2.1", "300.1.1.1"] })),
      400,
      DOMAIN_REASONS.ipInvalid,
      "axfr_ips[1]",
    );
  });

  test("axfr_ips may hold at most 1000 characters in total", async () => {
    const ips = (n: number) => Array.from({ length: n }, (_, i) => `2001:db8::${(0x1000 + i).toString(16)}`); // 14 characters each
    expect(ips(67).join(",").length).toBe(1004);
    expectError(await emu.post("/domains", masterBody(ZONE, { axfr_ips: ips(67) })), 400, DOMAIN_REASONS.axfrIpsLength, "axfr_ips");
    await createDomain(ZONE, { axfr_ips: ips(66) });
  });

  test("description is 1-253 characters, group 1-50", async () => {
    for (const description of ["", "d".repeat(254)]) {
      expectError(await emu.post("/domains", masterBody(ZONE, { description })), 400, DOMAIN_REASONS.descriptionLength, "description");
    }
    expectError(await emu.post("/domains", masterBody(ZONE, { group: "g".repeat(51) })), 400, DOMAIN_REASONS.groupLength, "group");
  });

  test("refresh/retry/expire/ttl seconds round up to the valid values; 0 means the default (P2-9)", async () => {
    const d = await createDomain(ZONE, { refresh_sec: 1, retry_sec: 3601, expire_sec: 0, ttl_sec: 3_000_000 });
    expect(d).toMatchObject({ refresh_sec: 30, retry_sec: 7200, expire_sec: 0, ttl_sec: 2419200 });
    const u = await ok(emu.put(`/domains/${d.id}`, { refresh_sec: 121, ttl_sec: 300 }));
    expect(u).toMatchObject({ refresh_sec: 300, ttl_sec: 300, retry_sec: 7200 });
    expectError(
      await emu.post("/domains", masterBody("b.example", { ttl_sec: -1 })),
      400,
      DOMAIN_REASONS.secondsInvalid("ttl_sec"),
      "ttl_sec",
    );
  });

  test("unknown fields are refused", async () => {
    const body = masterBody(ZONE, { soa: "x" });
    const r = await emu.post("/domains", body);
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual(sdkErrors(DomainCreateRequest, body));
  });
});

describe("records", () => {
  test("an A record is returned in the recorded shape; dns_record_create names the domain", async () => {
    const d = await createDomain();
    const r = await emu.post(`/domains/${d.id}/records`, { type: "A", name: "a", target: "127.0.0.1" });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual([
      "id",
      "type",
      "name",
      "target",
      "priority",
      "weight",
      "port",
      "service",
      "protocol",
      "ttl_sec",
      "tag",
      "created",
      "updated",
    ]);
    expect(DomainRecord.parse(r.body)).toMatchObject({
      type: "A",
      name: "a",
      target: "127.0.0.1",
      priority: 0,
      weight: 0,
      port: 0,
      service: null,
      protocol: null,
      ttl_sec: 0,
      tag: null,
    });
    expect(r.body.id).toBeGreaterThanOrEqual(22200000);
    expect(await ok(emu.get(`/domains/${d.id}/records/${r.body.id}`))).toEqual(r.body);
    expect(Collection(DomainRecord).parse(await ok(emu.get(`/domains/${d.id}/records`))).data).toEqual([r.body]);
    expect(await events("dns_record_create")).toEqual([
      expect.objectContaining({ entity: expect.objectContaining({ id: d.id, type: "domain", label: ZONE }) }),
    ]);
  });

  test("all nine types, written the way people write them, are stored the way the API spells them", async () => {
    const d = await createDomain();
    const cases: Array<[Record<string, unknown>, Partial<DomainRecord>]> = [
      [
        { type: "A", name: "WWW.example.com.", target: "192.0.2.10", ttl_sec: 1000 },
        { name: "www", target: "192.0.2.10", ttl_sec: 300 },
      ],
      [
        { type: "AAAA", name: "www.example.com", target: "2001:DB8:0:0:0:0:0:10" },
        { name: "www", target: "2001:db8::10", ttl_sec: 0 },
      ],
      [
        { type: "NS", name: "sub", target: "NS1.Example.NET." },
        { name: "sub", target: "ns1.example.net" },
      ],
      [
        { type: "MX", name: "@", target: "mail", priority: 10, ttl_sec: 2000 },
        { name: "", target: "mail.example.com", priority: 10, ttl_sec: 3600 },
      ],
      [
        { type: "CNAME", name: "docs.example.com.", target: "www.example.com." },
        { name: "docs", target: "www.example.com" },
      ],
      [
        { type: "TXT", name: "", target: "v=spf1 -all." },
        { name: "", target: "v=spf1 -all." },
      ],
      [
        {
          type: "SRV",
          service: "_sip",
          protocol: "TCP",
          priority: 10,
          weight: 5,
          port: 5060,
          target: "sip.example.com.",
          name: "example.com",
        },
        { name: "_sip._tcp", service: "sip", protocol: "tcp", priority: 10, weight: 5, port: 5060, target: "sip.example.com" },
      ],
      [
        { type: "PTR", name: "10", target: "host.example.com." },
        { name: "10", target: "host.example.com" },
      ],
      [
        { type: "CAA", name: "@", tag: "issue", target: "letsencrypt.org" },
        { name: "", tag: "issue", target: "letsencrypt.org" },
      ],
    ];
    for (const [body, stored] of cases) expect(await createRecord(d.id, body)).toMatchObject({ type: body.type, ...stored });
    expect((await ok(emu.get(`/domains/${d.id}/records`))).results).toBe(9);
  });

  test("an SRV record's name is generated from service and protocol, followed by the given name", async () => {
    const d = await createDomain();
    const srv = { type: "SRV", service: "xmpp", protocol: "tcp", priority: 0, weight: 0, port: 5222, target: "chat" };
    expect(await createRecord(d.id, { ...srv, name: "eu" })).toMatchObject({ name: "_xmpp._tcp.eu", target: "chat.example.com" });
    const apex = await createRecord(d.id, srv);
    expect(apex.name).toBe("_xmpp._tcp");
    // Writing the generated name back, or changing the service, never doubles the prefix.
    expect((await ok(emu.put(`/domains/${d.id}/records/${apex.id}`, { name: "_xmpp._tcp" }))).name).toBe("_xmpp._tcp");
    expect((await ok(emu.put(`/domains/${d.id}/records/${apex.id}`, { service: "_sips" }))).name).toBe("_sips._tcp");
  });

  test("record TTLs round to the nearest valid value (ties up); 0 stays 0", async () => {
    const d = await createDomain();
    const ttl = async (ttl_sec: number) => (await createRecord(d.id, { type: "TXT", name: `t${ttl_sec}`, target: "x", ttl_sec })).ttl_sec;
    expect(await ttl(0)).toBe(0);
    expect(await ttl(1)).toBe(300);
    expect(await ttl(1000)).toBe(300);
    expect(await ttl(1950)).toBe(3600);
    expect(await ttl(100000)).toBe(86400);
    expect(await ttl(5_000_000)).toBe(2419200);
  });

  test("missing type, or an unknown one: 400 on field type", async () => {
    const d = await createDomain();
    expectError(await emu.post(`/domains/${d.id}/records`, { name: "x", target: "192.0.2.1" }), 400, RECORD_REASONS.typeRequired, "type");
    expectError(await emu.post(`/domains/${d.id}/records`, { type: "SPF", target: "x" }), 400, RECORD_REASONS.typeInvalid, "type");
  });

  test("a target is required", async () => {
    const d = await createDomain();
    expectError(await emu.post(`/domains/${d.id}/records`, { type: "TXT", name: "x" }), 400, RECORD_REASONS.targetRequired, "target");
  });

  test("MX needs a priority", async () => {
    const d = await createDomain();
    expectError(
      await emu.post(`/domains/${d.id}/records`, { type: "MX", target: "mail.example.com" }),
      400,
      RECORD_REASONS.requiredFor("priority", "MX"),
      "priority",
    );
  });

  test("SRV needs priority, weight, port, service and protocol", async () => {
    const d = await createDomain();
    const r = await emu.post(`/domains/${d.id}/records`, { type: "SRV", target: "sip.example.com" });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual(
      ["priority", "weight", "port", "service", "protocol"].map((field) => ({ field, reason: RECORD_REASONS.requiredFor(field, "SRV") })),
    );
  });

  test("CAA needs a tag, one of issue, issuewild, iodef", async () => {
    const d = await createDomain();
    expectError(
      await emu.post(`/domains/${d.id}/records`, { type: "CAA", target: "letsencrypt.org" }),
      400,
      RECORD_REASONS.requiredFor("tag", "CAA"),
      "tag",
    );
    expectError(
      await emu.post(`/domains/${d.id}/records`, { type: "CAA", target: "letsencrypt.org", tag: "issuer" }),
      400,
      RECORD_REASONS.tagInvalid,
      "tag",
    );
  });

  test.each([
    ["A", "192.0.2.1."],
    ["AAAA", "2001:db8::1."],
    ["CAA", "letsencrypt.org."],
  ])("a trailing period is refused in the target of %s records", async (type, target) => {
    const d = await createDomain();
    expectError(
      await emu.post(`/domains/${d.id}/records`, { type, target, tag: type === "CAA" ? "issue" : undefined }),
      400,
      RECORD_REASONS.trailingPeriod(type),
      "target",
    );
  });

  test.each([
    ["A", { target: "2001:db8::1" }, RECORD_REASONS.targetIpv4],
    ["AAAA", { target: "192.0.2.1" }, RECORD_REASONS.targetIpv6],
    ["CNAME", { target: "not a host" }, RECORD_REASONS.targetHostname("CNAME")],
    ["CAA", { tag: "issuewild", target: "not a domain!" }, RECORD_REASONS.targetCaaDomain],
    ["CAA", { tag: "iodef", target: "security@example.com" }, RECORD_REASONS.targetCaaIodef],
  ])("a %s target of the wrong kind is refused", async (type, fields, reason) => {
    const d = await createDomain();
    expectError(await emu.post(`/domains/${d.id}/records`, { type, name: "x", ...fields }), 400, reason, "target");
  });

  test.each([
    ["priority", { type: "A", target: "192.0.2.1", priority: 10 }, RECORD_REASONS.onlyFor("priority", "MX and SRV")],
    ["weight", { type: "MX", target: "mail.example.com", priority: 1, weight: 3 }, RECORD_REASONS.onlyFor("weight", "SRV")],
    ["port", { type: "A", target: "192.0.2.1", port: 80 }, RECORD_REASONS.onlyFor("port", "SRV")],
    ["service", { type: "TXT", target: "x", service: "sip" }, RECORD_REASONS.onlyFor("service", "SRV")],
    ["protocol", { type: "TXT", target: "x", protocol: "tcp" }, RECORD_REASONS.onlyFor("protocol", "SRV")],
    ["tag", { type: "TXT", target: "x", tag: "issue" }, RECORD_REASONS.onlyFor("tag", "CAA")],
  ])("%s is refused on a type it does not apply to", async (field, body, reason) => {
    const d = await createDomain();
    expectError(await emu.post(`/domains/${d.id}/records`, body), 400, reason, field);
  });

  test("fields that do not apply may carry the values the API reports for them (0, null)", async () => {
    const d = await createDomain();
    const r = await createRecord(d.id, {
      type: "A",
      target: "192.0.2.1",
      priority: 0,
      weight: 0,
      port: 0,
      service: null,
      protocol: null,
      tag: null,
    });
    expect(r).toMatchObject({ priority: 0, service: null, tag: null });
  });

  test.each([
    ["priority", { type: "MX", target: "m.example.com", priority: 256 }, RECORD_REASONS.priorityRange],
    [
      "weight",
      { type: "SRV", target: "s.example.com", priority: 1, weight: 65536, port: 1, service: "s", protocol: "tcp" },
      RECORD_REASONS.weightRange,
    ],
    [
      "port",
      { type: "SRV", target: "s.example.com", priority: 1, weight: 1, port: -1, service: "s", protocol: "tcp" },
      RECORD_REASONS.portRange,
    ],
    ["ttl_sec", { type: "TXT", target: "x", ttl_sec: 1.5 }, RECORD_REASONS.ttlInvalid],
    [
      "service",
      { type: "SRV", target: "s.example.com", priority: 1, weight: 1, port: 1, service: "bad service", protocol: "tcp" },
      RECORD_REASONS.serviceInvalid,
    ],
    [
      "protocol",
      { type: "SRV", target: "s.example.com", priority: 1, weight: 1, port: 1, service: "s", protocol: "t/cp" },
      RECORD_REASONS.protocolInvalid,
    ],
    ["target", { type: "TXT", target: "x".repeat(65536) }, RECORD_REASONS.targetLength],
    ["name", { type: "TXT", target: "x", name: `${"n".repeat(50)}.${"n".repeat(50)}` }, RECORD_REASONS.nameLength],
    ["name", { type: "TXT", target: "x", name: "has space" }, RECORD_REASONS.nameInvalid],
  ])("%s out of its range or form is refused", async (field, body, reason) => {
    const d = await createDomain();
    const r = await emu.post(`/domains/${d.id}/records`, body);
    expect(r.body.errors).toEqual(sdkErrors(RecordCreateRequest, body));
    expectError(r, 400, reason, field);
  });

  test("a fully qualified name outside the domain is refused", async () => {
    const d = await createDomain();
    expectError(
      await emu.post(`/domains/${d.id}/records`, { type: "A", name: "www.other.org.", target: "192.0.2.1" }),
      400,
      RECORD_REASONS.nameOutsideDomain,
      "name",
    );
    // Without the trailing period it is a relative name.
    expect((await createRecord(d.id, { type: "A", name: "www.other.org", target: "192.0.2.1" })).name).toBe("www.other.org");
  });

  test("a CNAME is the only record at its name, and never at the apex", async () => {
    const d = await createDomain();
    await createRecord(d.id, { type: "A", name: "www", target: "192.0.2.1" });
    expectError(
      await emu.post(`/domains/${d.id}/records`, { type: "CNAME", name: "www", target: "web.example.net" }),
      400,
      RECORD_REASONS.cnameConflict,
      "name",
    );
    await createRecord(d.id, { type: "CNAME", name: "docs", target: "web.example.net" });
    expectError(
      await emu.post(`/domains/${d.id}/records`, { type: "TXT", name: "DOCS.example.com", target: "x" }),
      400,
      RECORD_REASONS.cnameConflict,
      "name",
    );
    expectError(
      await emu.post(`/domains/${d.id}/records`, { type: "CNAME", name: "@", target: "web.example.net" }),
      400,
      RECORD_REASONS.cnameConflict,
      "name",
    );
  });

  test(`at most ${MAX_RECORDS_PER_DOMAIN} records per domain`, async () => {
    const d = await createDomain();
    const stored = DOMAINS.of(emu.emulator.state.accounts[emu.emulator.state.primaryAccount]!)[0]!;
    const now = stored.created;
    const filler: StoredRecord[] = Array.from({ length: MAX_RECORDS_PER_DOMAIN - 1 }, (_, i) => ({
      id: 90000000 + i,
      type: "TXT",
      name: `r${i}`,
      target: "x",
      priority: 0,
      weight: 0,
      port: 0,
      service: null,
      protocol: null,
      ttl_sec: 0,
      tag: null,
      created: now,
      updated: now,
    }));
    stored.records.push(...filler);
    await createRecord(d.id, { type: "A", name: "last", target: "192.0.2.1" });
    expectError(
      await emu.post(`/domains/${d.id}/records`, { type: "A", name: "one-more", target: "192.0.2.2" }),
      400,
      RECORD_REASONS.recordLimit,
    );
  });

  test("a slave domain's records cannot be changed", async () => {
    const d = await ok(emu.post("/domains", { domain: ZONE, type: "slave", master_ips: ["192.0.2.1"] }));
    expectError(await emu.post(`/domains/${d.id}/records`, { type: "A", target: "192.0.2.1" }), 400, RECORD_REASONS.slaveReadOnly);
  });

  test("update: fields change in place, the type cannot; the rules apply to the result", async () => {
    const d = await createDomain();
    const mx = await createRecord(d.id, { type: "MX", target: "mail.example.com", priority: 10 });
    emu.control.setClock({ advanceMs: 2000 });
    const u = await ok(emu.put(`/domains/${d.id}/records/${mx.id}`, { target: "mx2", priority: 20, ttl_sec: 7000 }));
    expect(u).toMatchObject({ id: mx.id, type: "MX", target: "mx2.example.com", priority: 20, ttl_sec: 7200, created: mx.created });
    expect(u.updated > mx.created!).toBe(true);
    // The recorded client sends the record's own type along: accepted.
    expect((await ok(emu.put(`/domains/${d.id}/records/${mx.id}`, { type: "MX", name: "mail" }))).name).toBe("mail");
    expectError(await emu.put(`/domains/${d.id}/records/${mx.id}`, { type: "A" }), 400, RECORD_REASONS.typeFixed, "type");
    expectError(
      await emu.put(`/domains/${d.id}/records/${mx.id}`, { priority: null }),
      400,
      RECORD_REASONS.requiredFor("priority", "MX"),
      "priority",
    );
    expectError(await emu.put(`/domains/${d.id}/records/${mx.id}`, { tag: "issue" }), 400, RECORD_REASONS.onlyFor("tag", "CAA"), "tag");
  });

  test("events: one per record create, update and delete; unknown records are 404", async () => {
    const d = await createDomain();
    const a = await createRecord(d.id, { type: "A", name: "a", target: "192.0.2.1" });
    await ok(emu.put(`/domains/${d.id}/records/${a.id}`, { target: "192.0.2.2" }));
    expect(await ok(emu.del(`/domains/${d.id}/records/${a.id}`))).toEqual({});
    expectError(await emu.del(`/domains/${d.id}/records/${a.id}`), 404, REASONS.notFound);
    const actions = (await events()).map((e) => e.action).reverse();
    expect(actions).toEqual(["dns_zone_create", "dns_record_create", "dns_record_update", "dns_record_delete"]);
  });
});

describe("clone", () => {
  test("a clone is a new domain with the source's settings and a copy of every record; dns_zone_create", async () => {
    const d = await createDomain(ZONE, { refresh_sec: 300, tags: ["web"] });
    await createRecord(d.id, { type: "A", name: "www", target: "192.0.2.1", ttl_sec: 300 });
    await createRecord(d.id, { type: "MX", target: "mail", priority: 5 });
    const r = await emu.post(`/domains/${d.id}/clone`, { domain: "clone.example.com" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      domain: "clone.example.com",
      type: "master",
      soa_email: "admin@example.com",
      refresh_sec: 300,
      tags: ["web"],
    });
    expect(r.body.id).not.toBe(d.id);
    const strip = (records: DomainRecord[]) => records.map(({ id: _i, created: _c, updated: _u, ...rest }) => rest);
    const source = (await ok(emu.get(`/domains/${d.id}/records`))).data;
    const copy = (await ok(emu.get(`/domains/${r.body.id}/records`))).data;
    expect(strip(copy)).toEqual(strip(source));
    expect(copy.map((x: DomainRecord) => x.id)).not.toEqual(source.map((x: DomainRecord) => x.id));
    expect((await events("dns_zone_create")).map((e) => e.entity.label).sort()).toEqual(["clone.example.com", ZONE]);
  });

  test("a clone needs a free, valid name and an existing source", async () => {
    const d = await createDomain();
    expectError(await emu.post(`/domains/${d.id}/clone`, { domain: ZONE }), 400, DOMAIN_REASONS.domainTaken, "domain");
    expectError(await emu.post(`/domains/${d.id}/clone`, {}), 400, DOMAIN_REASONS.domainRequired, "domain");
    expectError(await emu.post(`/domains/999/clone`, { domain: "x.example" }), 404, REASONS.notFound);
  });
});

describe("zone file", () => {
  test("a fresh zone has no rendered lines yet (as recorded); after the render delay it is RFC 1035 text", async () => {
    const d = await createDomain();
    expect(ZoneFile.parse(await ok(emu.get(`/domains/${d.id}/zone-file`)))).toEqual({ zone_file: [] });
    render();
    const { zone_file } = await ok(emu.get(`/domains/${d.id}/zone-file`));
    expect(zone_file.length).toBeGreaterThan(PLATFORM_NAMESERVERS.length);
    const zone = parseZoneFile(zone_file.join("\n"));
    expect(zone.soa).toMatchObject({
      mname: "ns1.compute.com.",
      rname: "admin.example.com.",
      refresh: 14400,
      retry: 14400,
      expire: 1209600,
      minimum: 86400,
    });
    expect(String(zone.soa!.serial)).toMatch(/^\d{10}$/);
    expect(zone.ns!.map((n) => n.host)).toEqual(PLATFORM_NAMESERVERS.map((ns) => `${ns}.`));
  });

  test("the zone file, parsed by an independent parser, holds exactly the domain's records", async () => {
    const d = await createDomain(ZONE, { soa_email: "host.master@example.com", refresh_sec: 3000, ttl_sec: 300 });
    const records = [
      { type: "A", name: "www", target: "192.0.2.10", ttl_sec: 3600 },
      { type: "A", name: "", target: "192.0.2.11" },
      { type: "AAAA", name: "www", target: "2001:db8::10" },
      { type: "NS", name: "sub", target: "ns1.example.net" },
      { type: "MX", name: "", target: "mail", priority: 10 },
      { type: "CNAME", name: "docs", target: "www.example.com." },
      { type: "TXT", name: "", target: 'v=spf1 include:"x" -all' },
      { type: "TXT", name: "long", target: "y".repeat(300) },
      { type: "SRV", service: "sip", protocol: "tcp", priority: 10, weight: 5, port: 5060, target: "sip.example.com" },
      { type: "PTR", name: "10", target: "host.example.com" },
      { type: "CAA", name: "", tag: "issue", target: "letsencrypt.org" },
    ];
    for (const r of records) await createRecord(d.id, r);
    render();
    const zone = parseZoneFile((await ok(emu.get(`/domains/${d.id}/zone-file`))).zone_file.join("\n"));
    expect(zone.soa).toMatchObject({ rname: "host\\.master.example.com.", refresh: 3600, minimum: 300 });

    // Every RR the parser found, in the API's terms, against the API's own record list.
    const rel = (owner: string) => (owner === `${ZONE}.` ? "" : owner.slice(0, -(ZONE.length + 2)));
    const host = (target: string) => target.replace(/\.$/, "");
    const unquote = (text: string) =>
      (text.match(/"((?:[^"\\]|\\.)*)"/g) ?? []).map((q) => q.slice(1, -1).replace(/\\(.)/g, "$1")).join("");
    const parsed = [
      ...(zone.a ?? []).map((r) => `A ${rel(r.name)} ${r.ip} ${r.ttl}`),
      ...(zone.aaaa ?? []).map((r) => `AAAA ${rel(r.name)} ${r.ip} ${r.ttl}`),
      ...(zone.ns ?? []).filter((r) => r.name !== `${ZONE}.`).map((r) => `NS ${rel(r.name)} ${host(r.host)} ${r.ttl}`),
      ...(zone.mx ?? []).map((r) => `MX ${rel(r.name)} ${host(r.host)} ${r.ttl} ${r.preference}`),
      ...(zone.cname ?? []).map((r) => `CNAME ${rel(r.name)} ${host(r.alias)} ${r.ttl}`),
      ...(zone.txt ?? []).map((r) => `TXT ${rel(r.name)} ${unquote(r.txt)} ${r.ttl}`),
      ...(zone.srv ?? []).map((r) => `SRV ${rel(r.name)} ${host(r.target)} ${r.ttl} ${r.priority} ${r.weight} ${r.port}`),
      ...(zone.ptr ?? []).map((r) => `PTR ${rel(r.name)} ${host(r.host)} ${r.ttl}`),
      ...(zone.caa ?? []).map((r) => `CAA ${rel(r.name)} ${unquote(r.value)} ${r.ttl} ${r.tag}`),
    ];
    const api = ((await ok(emu.get(`/domains/${d.id}/records`))).data as DomainRecord[]).map((r) => {
      const ttl = r.ttl_sec || 300;
      const extra =
        r.type === "MX"
          ? ` ${r.priority}`
          : r.type === "SRV"
            ? ` ${r.priority} ${r.weight} ${r.port}`
            : r.type === "CAA"
              ? ` ${r.tag}`
              : "";
      return `${r.type} ${r.name} ${r.target} ${ttl}${extra}`;
    });
    expect(parsed.sort()).toEqual(api.sort());
    expect(api).toHaveLength(records.length);
  });

  test("the zone file is the last rendered state: later changes appear only after the next render", async () => {
    const d = await createDomain();
    await createRecord(d.id, { type: "A", name: "one", target: "192.0.2.1" });
    render();
    const first = (await ok(emu.get(`/domains/${d.id}/zone-file`))).zone_file as string[];
    await createRecord(d.id, { type: "A", name: "two", target: "192.0.2.2" });
    expect((await ok(emu.get(`/domains/${d.id}/zone-file`))).zone_file).toEqual(first);
    render();
    const second = (await ok(emu.get(`/domains/${d.id}/zone-file`))).zone_file as string[];
    expect(second.filter((l) => l.includes(" IN A "))).toHaveLength(2);
    const serial = (lines: string[]) => Number(parseZoneFile(lines.join("\n")).soa!.serial);
    expect(serial(second)).toBeGreaterThan(serial(first));
  });

  test("a disabled domain is not rendered", async () => {
    const d = await createDomain(ZONE, { status: "disabled" });
    await createRecord(d.id, { type: "A", name: "www", target: "192.0.2.1" });
    render();
    expect((await ok(emu.get(`/domains/${d.id}/zone-file`))).zone_file).toEqual([]);
    await ok(emu.put(`/domains/${d.id}`, { status: "active" }));
    render();
    expect((await ok(emu.get(`/domains/${d.id}/zone-file`))).zone_file.some((l: string) => l.startsWith("www.example.com. "))).toBe(true);
  });

  test("a render pending when the emulator stops happens after a restart from its state file", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pc-domains-"));
    const stateFile = path.join(dir, "state.json");
    try {
      const first = await startTestEmulator({ stateFile });
      const d = (await first.post("/domains", masterBody())).body;
      await first.close();
      const second = await startTestEmulator({ stateFile, token: first.token });
      try {
        expect((await second.get(`/domains/${d.id}/zone-file`)).body.zone_file).toEqual([]);
        second.control.setClock({ advanceMs: ZONE_RENDER_DELAY_MS + 1000 });
        expect((await second.get(`/domains/${d.id}/zone-file`)).body.zone_file.length).toBeGreaterThan(0);
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("import by zone transfer (AXFR)", () => {
  test("a 50-record zone served on loopback is imported with exactly those 50 records; dns_zone_import", async () => {
    const r = await emu.post("/domains/import", { domain: IMPORTED, remote_nameserver: "127.0.0.1" });
    expect(r.status).toBe(200);
    expect(Domain.parse(r.body)).toMatchObject({
      domain: IMPORTED,
      type: "master",
      status: "active",
      soa_email: "host.master@imported.example",
      refresh_sec: 3600,
      retry_sec: 3600,
      expire_sec: 1209600,
      ttl_sec: 300,
    });
    expect(dns.queries().at(-1)).toEqual({ name: IMPORTED, type: "AXFR" });
    const records = (await ok(emu.get(`/domains/${r.body.id}/records`))).data as DomainRecord[];
    expect(records).toHaveLength(50);
    const expected = sampleZoneRecords(IMPORTED, 50).map((a) => {
      const name = a.name.slice(0, -(IMPORTED.length + 1));
      const data = (a as { data: unknown }).data;
      switch (a.type) {
        case "MX": {
          const mx = data as { preference: number; exchange: string };
          return `MX ${name} ${mx.exchange} ${mx.preference}`;
        }
        case "TXT":
          return `TXT ${name} ${(data as string[]).join("")} 0`;
        default:
          return `${a.type} ${name} ${String(data)} 0`;
      }
    });
    const got = records.map((x) => `${x.type} ${x.name} ${x.target} ${x.priority}`);
    expect(got.sort()).toEqual(expected.sort());
    expect(records.map((x) => x.ttl_sec).sort()).toEqual(
      sampleZoneRecords(IMPORTED, 50)
        .map((a) => (a as { ttl: number }).ttl)
        .sort(),
    );
    expect(await events("dns_zone_import")).toEqual([
      expect.objectContaining({ entity: expect.objectContaining({ id: r.body.id, label: IMPORTED }) }),
    ]);
  });

  test("a zone the remote server refuses to transfer: 400 on remote_nameserver", async () => {
    expectError(
      await emu.post("/domains/import", { domain: "not-served.example", remote_nameserver: "127.0.0.1" }),
      400,
      DOMAIN_REASONS.transferRefused,
      "remote_nameserver",
    );
    expect((await ok(emu.get("/domains"))).data).toEqual([]);
  });

  test("a nameserver that cannot be reached: 400 on remote_nameserver", async () => {
    expectError(
      await emu.post("/domains/import", { domain: IMPORTED, remote_nameserver: "127.0.0.2" }),
      400,
      DOMAIN_REASONS.transferUnreachable,
      "remote_nameserver",
    );
  });

  test("remote_nameserver is required and must be an IP address; the name must be free", async () => {
    expectError(await emu.post("/domains/import", { domain: IMPORTED }), 400, DOMAIN_REASONS.remoteNameserverRequired, "remote_nameserver");
    expectError(
      await emu.post("/domains/import", { domain: IMPORTED, remote_nameserver: "ns1.example.net" }),
      400,
      DOMAIN_REASONS.remoteNameserverInvalid,
      "remote_nameserver",
    );
    await createDomain(IMPORTED);
    const before = dns.queries().length;
    expectError(
      await emu.post("/domains/import", { domain: IMPORTED, remote_nameserver: "127.0.0.1" }),
      400,
      DOMAIN_REASONS.domainTaken,
      "domain",
    );
    expect(dns.queries()).toHaveLength(before); // refused before any transfer
  });
});
