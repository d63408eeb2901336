/**
 * The DomainRecord provider against the emulator over HTTP: `check` refuses every locally
 * checkable rule at preview (even while the domain id is unknown), natural spellings never diff
 * against what the API stored, drift is read back, SRV names, ambiguous creates are adopted; one
 * request per create and update, and a refresh of a domain's records served by one listing.
 */
import { RECORD_REASONS } from "../../../sdk/resources/domains";
import { forgetSessions, provider } from "../../../provider/registry";
import { check } from "../../../provider/engine/engine";
import { UNKNOWN } from "../../../provider/engine/values";
import { domainRecordSpec } from "../../../provider/resources/domain-record";
import { useProviderHarness } from "../harness";

const harness = useProviderHarness();
const domains = provider("Domain");
const records = provider("DomainRecord");

const master = (domain = "example.com", extra: Record<string, unknown> = {}) => ({
  domain,
  type: "master",
  soaEmail: "admin@example.com",
  ...extra,
});
const failures = (inputs: Record<string, unknown>) => check(domainRecordSpec, inputs).failures ?? [];

describe("check at preview", () => {
  test("record rules are checked even while the domain id is unknown (a domain created in the same program)", () => {
    const rec = (fields: Record<string, unknown>) => failures({ domainId: UNKNOWN, ...fields });
    expect(rec({ type: "MX", target: "mail.example.com." })).toEqual([
      { property: "priority", reason: RECORD_REASONS.requiredFor("priority", "MX") },
    ]);
    expect(rec({ type: "SRV", target: "sip" }).map((f) => f.property)).toEqual(["priority", "weight", "port", "service", "protocol"]);
    expect(rec({ type: "CAA", target: "letsencrypt.org" })).toEqual([
      { property: "tag", reason: RECORD_REASONS.requiredFor("tag", "CAA") },
    ]);
    expect(rec({ type: "A", target: "192.0.2.1." })).toEqual([{ property: "target", reason: RECORD_REASONS.trailingPeriod("A") }]);
    expect(rec({ type: "AAAA", target: "192.0.2.1" })).toEqual([{ property: "target", reason: RECORD_REASONS.targetIpv6 }]);
    expect(rec({ type: "A", target: "192.0.2.1", priority: 10 })).toEqual([
      { property: "priority", reason: RECORD_REASONS.onlyFor("priority", "MX and SRV") },
    ]);
    expect(rec({ type: "TXT", target: "x", tag: "issue" })).toEqual([{ property: "tag", reason: RECORD_REASONS.onlyFor("tag", "CAA") }]);
    expect(rec({ type: "TXT", target: "x", ttlSec: 1.5 })).toEqual([
      { property: "ttlSec", reason: "ttlSec must be a whole number of seconds, 0 or more" },
    ]);
    expect(rec({ type: "TXT", target: "x", name: "has space" })).toEqual([{ property: "name", reason: RECORD_REASONS.nameInvalid }]);
    expect(rec({ type: "SPF", target: "x" })).toEqual([{ property: "type", reason: RECORD_REASONS.typeInvalid }]);
    expect(rec({ type: "A" })).toEqual([{ property: "target", reason: "target is required" }]);
    // Values still unknown are checked later, not refused now.
    expect(rec({ type: "A", target: UNKNOWN })).toEqual([]);
    expect(rec({ type: "MX", target: "mail", priority: UNKNOWN })).toEqual([]);
  });
});

describe("records written the way people write them never diff", () => {
  const natural: Array<Record<string, unknown>> = [
    { type: "A", name: "WWW.Example.com.", target: "192.0.2.10", ttlSec: 1000 },
    { type: "AAAA", name: "www.example.com", target: "2001:DB8::10", ttlSec: 86000 },
    { type: "NS", name: "sub.example.com.", target: "NS1.example.net." },
    { type: "MX", name: "@", target: "mail", priority: 10, ttlSec: 2000 },
    { type: "CNAME", name: "docs", target: "www.example.com." },
    { type: "TXT", name: "", target: "v=spf1 -all" },
    { type: "SRV", service: "_sip", protocol: "TCP", priority: 10, weight: 5, port: 5060, target: "sip.example.com." },
    { type: "PTR", name: "10.example.com.", target: "host.example.com." },
    { type: "CAA", name: "example.com.", tag: "issue", target: "letsencrypt.org" },
  ];

  test.each(natural.map((r) => [r.type, r] as const))("%s", async (_type, spelling) => {
    const domain = await domains.create(master());
    const inputs = { domainId: domain.id, ...spelling };
    expect(check(domainRecordSpec, inputs).failures).toBeUndefined();
    const created = await records.create(inputs);
    expect(created.outs).toMatchObject({ domainId: Number(domain.id), domain: "example.com", type: spelling.type });
    expect(created.outs.target).not.toMatch(/\.$/);
    // What the API stored differs in spelling, never in meaning: no diff, before or after a refresh.
    expect(await records.diff!(created.id, created.outs, inputs)).toMatchObject({ changes: false, replaces: [] });
    const read = await records.read!(created.id, created.outs);
    expect(read.props).toEqual(created.outs);
    expect(await records.diff!(created.id, read.props!, inputs)).toMatchObject({ changes: false });
  });

  test("a real change still diffs, and the type replaces", async () => {
    const domain = await domains.create(master());
    const inputs = { domainId: domain.id, type: "A", name: "www.example.com.", target: "192.0.2.10" };
    const created = await records.create(inputs);
    expect(await records.diff!(created.id, created.outs, { ...inputs, target: "192.0.2.11" })).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(await records.diff!(created.id, created.outs, { ...inputs, name: "web" })).toMatchObject({ changes: true, replaces: [] });
    expect(await records.diff!(created.id, created.outs, { ...inputs, ttlSec: 3000 })).toMatchObject({ changes: true });
    expect(await records.diff!(created.id, created.outs, { ...inputs, type: "AAAA", target: "2001:db8::1" })).toMatchObject({
      replaces: ["type"],
    });
  });
});

describe("DomainRecord", () => {
  test("update in place; a target changed behind Pulumi's back is read back; gone records read as gone", async () => {
    const domain = await domains.create(master());
    const inputs = { domainId: domain.id, type: "CNAME", name: "docs.example.com.", target: "www.example.com." };
    const created = await records.create(inputs);
    expect(created.outs).toMatchObject({ name: "docs", target: "www.example.com", fqdn: "docs.example.com" });

    const updated = await records.update!(created.id, created.outs, { ...inputs, target: "web" });
    expect(updated.outs).toMatchObject({ target: "web.example.com" });

    await harness.client.domains.records.update(Number(domain.id), Number(created.id), { target: "evil.example.net" });
    const read = await records.read!(created.id, updated.outs!);
    expect(read.props!.target).toBe("evil.example.net");
    expect(await records.diff!(created.id, read.props!, { ...inputs, target: "web" })).toMatchObject({ changes: true, replaces: [] });

    await harness.client.domains.records.delete(Number(domain.id), Number(created.id));
    expect(await records.read!(created.id, updated.outs!)).toEqual({});
    await expect(records.delete!(created.id, updated.outs!)).resolves.toBeUndefined();
  });

  test("an SRV record's service change updates its generated name in place", async () => {
    const domain = await domains.create(master());
    const inputs = { domainId: domain.id, type: "SRV", service: "sip", protocol: "tcp", priority: 1, weight: 1, port: 5060, target: "sip" };
    const created = await records.create(inputs);
    expect(created.outs.name).toBe("_sip._tcp");
    const changed = { ...inputs, service: "sips" };
    expect(await records.diff!(created.id, created.outs, changed)).toMatchObject({ changes: true, replaces: [] });
    const updated = await records.update!(created.id, created.outs, changed);
    expect(updated.outs).toMatchObject({ name: "_sips._tcp", service: "sips" });
    expect(await records.diff!(created.id, updated.outs!, changed)).toMatchObject({ changes: false });
  });

  test("an ambiguous create is adopted by type, name and target", async () => {
    const domain = await domains.create(master());
    harness.emulator.control.addFault({ pathPattern: "/v4/domains/*/records", method: "POST", kind: "reset-after", count: 1 });
    const created = await records.create({ domainId: domain.id, type: "A", name: "www.example.com.", target: "192.0.2.1" });
    const all = await harness.client.domains.records.listAll(Number(domain.id));
    expect(all).toHaveLength(1);
    expect(created.id).toBe(String(all[0]!.id));
  });

  test("the API's refusals name the program's input", async () => {
    const domain = await domains.create(master());
    await records.create({ domainId: domain.id, type: "A", name: "www", target: "192.0.2.1" });
    await expect(records.create({ domainId: domain.id, type: "CNAME", name: "www", target: "x.example.net" })).rejects.toThrow(
      `the API refused the domain record create: name: ${RECORD_REASONS.cnameConflict}`,
    );
  });
});

describe("requests: one per change, a refresh served by the records listing", () => {
  const requests = () => harness.emulator.control.listRequests().map((r) => `${r.method} ${r.path.replace(/\d+/g, "#")}`);

  test("create and update take one request per record; the zone's name is read once per process, its records listed once per burst", async () => {
    const domain = await domains.create(master());
    harness.emulator.control.clearRequests();
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) => records.create({ domainId: domain.id, type: "A", name: `h${i}`, target: "192.0.2.1" })),
    );
    expect(created[7]!.outs).toMatchObject({ domain: "example.com", fqdn: "h7.example.com" });
    // The natural-key lookups before the creates (no twin of each record) share one listing of the zone.
    expect(requests().sort()).toEqual(
      [...Array(20).fill("POST /v#/domains/#/records"), "GET /v#/domains/#", "GET /v#/domains/#/records?page=#&page_size=#"].sort(),
    );

    harness.emulator.control.clearRequests();
    const inputs = { domainId: domain.id, type: "A", name: "h3", target: "192.0.2.99" };
    expect((await records.update!(created[3]!.id, created[3]!.outs, inputs)).outs).toMatchObject({
      target: "192.0.2.99",
      domain: "example.com",
    });
    expect(requests()).toEqual(["PUT /v#/domains/#/records/#"]);
  });

  test("a refresh of 600 records is two pages and one read of the domain; a record deleted behind Pulumi's back reads as gone", async () => {
    const domain = await domains.create(master());
    const domainId = Number(domain.id);
    const created = await Promise.all(
      Array.from({ length: 600 }, (_, i) => records.create({ domainId: domain.id, type: "TXT", name: `t${i}`, target: `v${i}` })),
    );
    // Behind Pulumi's back: one record deleted, one changed, and the zone renamed.
    await harness.client.domains.records.delete(domainId, Number(created[10]!.id));
    await harness.client.domains.records.update(domainId, Number(created[20]!.id), { target: "changed" });
    await harness.client.domains.update(domainId, { domain: "renamed.example" });
    forgetSessions(); // a refresh is a new provider process

    harness.emulator.control.clearRequests();
    const read = await Promise.all(created.map((c) => records.read!(c.id, c.outs)));
    expect(requests().sort()).toEqual(
      [
        "GET /v#/domains/#",
        "GET /v#/domains/#/records?page=#&page_size=#",
        "GET /v#/domains/#/records?page=#&page_size=#",
        "GET /v#/domains/#/records/#", // the deleted one, missing from the listing: its own GET says 404
      ].sort(),
    );
    expect(requests().length).toBeLessThanOrEqual(Math.ceil(600 / 500) + 2 + 1);
    expect(read[10]).toEqual({});
    expect(read[20]!.props).toMatchObject({ target: "changed" });
    expect(read[30]!.props).toMatchObject({ target: "v30", domain: "renamed.example", fqdn: "t30.renamed.example" });
    expect(read[30]!.props).toEqual({ ...created[30]!.outs, domain: "renamed.example", fqdn: "t30.renamed.example" });
  }, 120_000);

  test("a read alone is one GET, with the zone's name from state", async () => {
    const domain = await domains.create(master());
    const created = await records.create({ domainId: domain.id, type: "A", name: "www", target: "192.0.2.1" });
    forgetSessions();
    harness.emulator.control.clearRequests();
    expect((await records.read!(created.id, created.outs)).props).toEqual(created.outs);
    expect(requests()).toEqual(["GET /v#/domains/#/records/#"]);
  });
});
