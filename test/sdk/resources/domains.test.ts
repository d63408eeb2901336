/**
 * `Domains` and `domains.records`: every method's method and path on recorded exchanges, the
 * request validation that refuses bad bodies before anything is sent, creates never retried, and
 * the shared DNS rules (rounding, spelling of names and targets, type rules).
 */
import { ClientValidationError, ConnectionError } from "../../../sdk/core/errors";
import {
  DOMAIN_REASONS,
  RECORD_REASONS,
  domainNameProblem,
  domainTypeErrors,
  recordRuleErrors,
  relativeRecordName,
  roundRecordTtl,
  roundUpDomainSeconds,
  srvBaseName,
  srvRecordName,
  storedRecordTarget,
} from "../../../sdk/resources/domains";
import { JSON_HEADERS, harness, netError, serveFixture } from "../helpers";

const sent = (h: ReturnType<typeof harness>) => h.calls().map((c) => `${c.method} ${c.path}`);

describe("Domains", () => {
  test("create / get / list / update / clone / zoneFile / delete on the recorded exchanges", async () => {
    const h = harness();
    const created = serveFixture(h, "domain.create.json");
    serveFixture(h, "domain.get.json");
    serveFixture(h, "domain.list.json");
    const updated = serveFixture(h, "domain.update.json");
    const cloned = serveFixture(h, "domain.clone.json");
    serveFixture(h, "domain.zone_file.json");
    h.pool.intercept({ path: "/v4/domains/1899364", method: "DELETE" }).reply(200, {}, JSON_HEADERS);

    await expect(h.client.domains.create(created.request as never)).resolves.toMatchObject({ id: 1899364, type: "master" });
    await expect(h.client.domains.get(1899367)).resolves.toMatchObject({ id: 1899367 });
    expect((await h.client.domains.listAll()).map((d) => d.id)).toEqual([1899366]);
    await expect(h.client.domains.update(1899365, updated.request as never)).resolves.toMatchObject({
      domain: "computego-renamed-domain.com",
    });
    await expect(h.client.domains.clone(3163304, cloned.request as never)).resolves.toMatchObject({ id: 3163305 });
    await expect(h.client.domains.zoneFile(1899368)).resolves.toEqual({ zone_file: [] });
    await expect(h.client.domains.delete(1899364)).resolves.toBeUndefined();
    expect(sent(h)).toEqual([
      "POST /v4/domains",
      "GET /v4/domains/1899367",
      "GET /v4/domains",
      "PUT /v4/domains/1899365",
      "POST /v4/domains/3163304/clone",
      "GET /v4/domains/1899368/zone-file",
      "DELETE /v4/domains/1899364",
    ]);
    expect(JSON.parse(h.calls()[0]!.body as string)).toEqual(created.request);
  });

  test("importZone POSTs domain and remote_nameserver to /domains/import", async () => {
    const h = harness();
    h.pool.intercept({ path: "/v4/domains/import", method: "POST" }).reply(200, importedDomain(), JSON_HEADERS);
    await expect(h.client.domains.importZone({ domain: "example.com", remote_nameserver: "192.0.2.53" })).resolves.toMatchObject({
      type: "master",
    });
    expect(sent(h)).toEqual(["POST /v4/domains/import"]);
    expect(JSON.parse(h.calls()[0]!.body as string)).toEqual({ domain: "example.com", remote_nameserver: "192.0.2.53" });
  });

  test("bad bodies are refused before sending, with the API's field and reason", async () => {
    const h = harness();
    await expect(h.client.domains.create({ domain: "example.com", type: "master" })).rejects.toMatchObject({
      name: "ClientValidationError",
      errors: [{ field: "soa_email", reason: DOMAIN_REASONS.soaEmailRequired }],
    });
    await expect(h.client.domains.create({ domain: "example.com", type: "slave" })).rejects.toMatchObject({
      errors: [{ field: "master_ips", reason: DOMAIN_REASONS.masterIpsRequired }],
    });
    await expect(h.client.domains.records.create(1, { type: "MX", target: "mail.example.com" })).rejects.toBeInstanceOf(
      ClientValidationError,
    );
    await expect(h.client.domains.importZone({ domain: "example.com", remote_nameserver: "ns1.example.net" })).rejects.toMatchObject({
      errors: [{ field: "remote_nameserver", reason: DOMAIN_REASONS.remoteNameserverInvalid }],
    });
    expect(h.calls()).toHaveLength(0);
  });

  test("create, clone and import are never retried after an ambiguous failure", async () => {
    const h = harness();
    for (const p of ["/v4/domains", "/v4/domains/1/clone", "/v4/domains/import", "/v4/domains/1/records"]) {
      h.pool.intercept({ path: p, method: "POST" }).replyWithError(netError("ECONNRESET"));
    }
    await expect(h.client.domains.create({ domain: "a.example", type: "master", soa_email: "a@a.example" })).rejects.toBeInstanceOf(
      ConnectionError,
    );
    await expect(h.client.domains.clone(1, { domain: "b.example" })).rejects.toBeInstanceOf(ConnectionError);
    await expect(h.client.domains.importZone({ domain: "c.example", remote_nameserver: "192.0.2.1" })).rejects.toBeInstanceOf(
      ConnectionError,
    );
    await expect(h.client.domains.records.create(1, { type: "A", target: "192.0.2.1" })).rejects.toBeInstanceOf(ConnectionError);
    expect(h.calls()).toHaveLength(4);
    expect(h.retries).toHaveLength(0);
  });
});

describe("Domains.records", () => {
  test("create / get / list / update / delete on /domains/{id}/records[/{recordId}]", async () => {
    const h = harness();
    const created = serveFixture(h, "domain_record.create.json");
    serveFixture(h, "domain_record.get.json");
    serveFixture(h, "domain_record.list.json");
    const updated = serveFixture(h, "domain_record.update.json");
    const txt = serveFixture(h, "domain_record.update.txt.json");
    h.pool.intercept({ path: "/v4/domains/1899363/records/22122788", method: "DELETE" }).reply(200, {}, JSON_HEADERS);

    await expect(h.client.domains.records.create(1899359, created.request as never)).resolves.toMatchObject({ id: 22122783, type: "A" });
    await expect(h.client.domains.records.get(1899363, 22122788)).resolves.toMatchObject({ target: "127.0.0.1" });
    expect(await h.client.domains.records.listAll(1899361)).toHaveLength(1);
    await expect(h.client.domains.records.update(1899360, 22122785, updated.request as never)).resolves.toMatchObject({ name: "renamed" });
    await expect(h.client.domains.records.update(1065421, 9295256, txt.request as never)).resolves.toMatchObject({ name: "updated.test" });
    await expect(h.client.domains.records.delete(1899363, 22122788)).resolves.toBeUndefined();
    expect(sent(h)).toEqual([
      "POST /v4/domains/1899359/records",
      "GET /v4/domains/1899363/records/22122788",
      "GET /v4/domains/1899361/records",
      "PUT /v4/domains/1899360/records/22122785",
      "PUT /v4/domains/1065421/records/9295256",
      "DELETE /v4/domains/1899363/records/22122788",
    ]);
  });
});

describe("the shared DNS rules", () => {
  test("record TTLs round to the nearest valid value, ties up; 0 stays 0", () => {
    expect([0, 1, 299, 1000, 1950, 2000, 100000, 1209600, 9_999_999].map(roundRecordTtl)).toEqual([
      0, 300, 300, 300, 3600, 3600, 86400, 1209600, 2419200,
    ]);
  });

  test("domain timers round up to the next valid value; 0 stays 0 (the default)", () => {
    expect([0, 1, 30, 31, 1000, 3601, 2419200, 3_000_000].map(roundUpDomainSeconds)).toEqual([
      0, 30, 30, 120, 3600, 7200, 2419200, 2419200,
    ]);
  });

  test("domain names follow RFC 1035", () => {
    expect(domainNameProblem("example.com")).toBeUndefined();
    expect(domainNameProblem("1.168.192.in-addr.arpa")).toBeUndefined();
    expect(domainNameProblem("xn--bcher-kva.example")).toBeUndefined();
    expect(domainNameProblem(`${"a".repeat(64)}.com`)).toBe(DOMAIN_REASONS.domainLabelLength);
    expect(domainNameProblem("a_b.com")).toBe(DOMAIN_REASONS.domainInvalid);
    expect(domainNameProblem("")).toBe(DOMAIN_REASONS.domainLength);
  });

  test("names are stored relative to the zone", () => {
    const rel = (n: string) => relativeRecordName(n, "example.com");
    expect(["www", "WWW.example.com", "www.example.com.", "@", "", "example.com", "EXAMPLE.COM.", "a.b.example.com"].map(rel)).toEqual([
      "www",
      "www",
      "www",
      "",
      "",
      "",
      "",
      "a.b",
    ]);
    expect(rel("www.other.org.")).toBeUndefined();
    expect(rel("www.other.org")).toBe("www.other.org");
  });

  test("targets are stored without a trailing period; single labels expand within the zone; AAAA canonical", () => {
    const t = (type: string, target: string) => storedRecordTarget(type, target, "example.com");
    expect(t("CNAME", "www.example.com.")).toBe("www.example.com");
    expect(t("MX", "Mail")).toBe("mail.example.com");
    expect(t("NS", "@")).toBe("example.com");
    expect(t("SRV", "host.")).toBe("host");
    expect(t("AAAA", "2001:0DB8:0000::0001")).toBe("2001:db8::1");
    expect(t("TXT", "Keep This.")).toBe("Keep This.");
    expect(t("A", "192.0.2.1")).toBe("192.0.2.1");
  });

  test("SRV names are generated from service and protocol", () => {
    expect(srvRecordName("_sip", "TCP", "")).toBe("_sip._tcp");
    expect(srvRecordName("sip", "tcp", "eu")).toBe("_sip._tcp.eu");
    expect(srvBaseName("_sip._tcp.eu", "sip", "_tcp")).toBe("eu");
    expect(srvBaseName("_sip._tcp", "sip", "tcp")).toBe("");
  });

  test("type rules of domains and records", () => {
    expect(domainTypeErrors({ type: "master" })).toEqual([{ field: "soa_email", reason: DOMAIN_REASONS.soaEmailRequired }]);
    expect(domainTypeErrors({ type: "slave", master_ips: ["192.0.2.1"] })).toEqual([]);
    expect(recordRuleErrors({ type: "CAA", target: "letsencrypt.org." })).toEqual([
      { field: "tag", reason: RECORD_REASONS.requiredFor("tag", "CAA") },
      { field: "target", reason: RECORD_REASONS.trailingPeriod("CAA") },
    ]);
    expect(recordRuleErrors({ type: "CNAME", target: "_dkim.example.net." })).toEqual([]);
  });
});

/** A domain body in the recorded shape, for mocked answers that have no fixture (import). */
function importedDomain() {
  return {
    id: 1,
    type: "master",
    domain: "example.com",
    tags: [],
    group: "",
    status: "active",
    errors: "",
    description: "",
    soa_email: "hostmaster@example.com",
    retry_sec: 0,
    master_ips: [],
    axfr_ips: [],
    expire_sec: 0,
    refresh_sec: 0,
    ttl_sec: 0,
    created: "2018-01-02T03:04:05",
    updated: "2018-01-02T03:04:05",
  };
}
