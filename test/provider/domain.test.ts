/**
 * The Domain and DomainRecord providers against the emulator over HTTP, and the DNS data
 * functions: `check` refuses every locally checkable rule at preview (even while the domain id is
 * unknown), natural spellings never diff against what the API stored, drift is read back, the
 * name changes in place while the type replaces, clones, ambiguous creates are adopted.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { DOMAIN_REASONS, RECORD_REASONS } from "../../sdk/resources/domains";
import { provider } from "../../provider/registry";
import { check } from "../../provider/engine/engine";
import { UNKNOWN } from "../../provider/engine/values";
import { domainSpec } from "../../provider/resources/domain";
import { domainRecordSpec } from "../../provider/resources/domain-record";
import { getDomain, getDomainZoneFile, getDomains } from "../../provider";
import { ZONE_RENDER_DELAY_MS } from "../../emulator/services/domains/zone-file";
import { startProviderHarness } from "../support/provider";

let emulator: RunningEmulator;
let client: ComputeClient;
let domains: pulumi.dynamic.ResourceProvider;
let records: pulumi.dynamic.ResourceProvider;
const config: Record<string, string | undefined> = {};

beforeAll(async () => {
  ({ emulator, client } = await startProviderHarness(config));
  domains = provider("Domain");
  records = provider("DomainRecord");
});

afterAll(async () => {
  await client.close();
  await emulator.close();
});

beforeEach(() => {
  emulator.control.reset();
  emulator.control.clearFaults();
});

const master = (domain = "example.com", extra: Record<string, unknown> = {}) => ({ domain, type: "master", soaEmail: "admin@example.com", ...extra });
const failures = (spec: typeof domainSpec | typeof domainRecordSpec, inputs: Record<string, unknown>) => check(spec, inputs).failures ?? [];

describe("check at preview", () => {
  test("a master domain needs soaEmail, a slave one masterIps", () => {
    expect(failures(domainSpec, { domain: "example.com", type: "master" })).toEqual([{ property: "soaEmail", reason: DOMAIN_REASONS.soaEmailRequired }]);
    expect(failures(domainSpec, { domain: "example.com", type: "slave", masterIps: [] })).toEqual([{ property: "masterIps", reason: DOMAIN_REASONS.masterIpsRequired }]);
    expect(failures(domainSpec, { domain: "example.com", type: "slave", masterIps: ["192.0.2.1"] })).toEqual([]);
    // Unknown at preview: checked once known.
    expect(failures(domainSpec, { domain: "example.com", type: "master", soaEmail: UNKNOWN })).toEqual([]);
  });

  test.each([
    ["domain", { domain: "bad_name.com" }, DOMAIN_REASONS.domainInvalid],
    ["domain", { domain: `${"a".repeat(64)}.com` }, DOMAIN_REASONS.domainLabelLength],
    ["soaEmail", { soaEmail: "nobody" }, DOMAIN_REASONS.soaEmailInvalid],
    ["axfrIps", { axfrIps: Array.from({ length: 80 }, (_, i) => `2001:db8::${(0x1000 + i).toString(16)}`) }, DOMAIN_REASONS.axfrIpsLength],
    ["description", { description: "" }, DOMAIN_REASONS.descriptionLength],
    ["group", { group: "g".repeat(51) }, DOMAIN_REASONS.groupLength],
    ["status", { status: "paused" }, DOMAIN_REASONS.statusInvalid],
    ["ttlSec", { ttlSec: -5 }, DOMAIN_REASONS.secondsInvalid("ttl_sec")],
  ])("a domain's %s is checked with the API's reason", (property, extra, reason) => {
    expect(failures(domainSpec, master("example.com", extra))).toEqual([{ property, reason }]);
  });

  test("record rules are checked even while the domain id is unknown (a domain created in the same program)", () => {
    const rec = (fields: Record<string, unknown>) => failures(domainRecordSpec, { domainId: UNKNOWN, ...fields });
    expect(rec({ type: "MX", target: "mail.example.com." })).toEqual([{ property: "priority", reason: RECORD_REASONS.requiredFor("priority", "MX") }]);
    expect(rec({ type: "SRV", target: "sip" }).map((f) => f.property)).toEqual(["priority", "weight", "port", "service", "protocol"]);
    expect(rec({ type: "CAA", target: "letsencrypt.org" })).toEqual([{ property: "tag", reason: RECORD_REASONS.requiredFor("tag", "CAA") }]);
    expect(rec({ type: "A", target: "192.0.2.1." })).toEqual([{ property: "target", reason: RECORD_REASONS.trailingPeriod("A") }]);
    expect(rec({ type: "AAAA", target: "192.0.2.1" })).toEqual([{ property: "target", reason: RECORD_REASONS.targetIpv6 }]);
    expect(rec({ type: "A", target: "192.0.2.1", priority: 10 })).toEqual([{ property: "priority", reason: RECORD_REASONS.onlyFor("priority", "MX and SRV") }]);
    expect(rec({ type: "TXT", target: "x", tag: "issue" })).toEqual([{ property: "tag", reason: RECORD_REASONS.onlyFor("tag", "CAA") }]);
    expect(rec({ type: "TXT", target: "x", ttlSec: 1.5 })).toEqual([{ property: "ttlSec", reason: RECORD_REASONS.ttlInvalid }]);
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
    expect(await records.diff!(created.id, created.outs, { ...inputs, target: "192.0.2.11" })).toMatchObject({ changes: true, replaces: [] });
    expect(await records.diff!(created.id, created.outs, { ...inputs, name: "web" })).toMatchObject({ changes: true, replaces: [] });
    expect(await records.diff!(created.id, created.outs, { ...inputs, ttlSec: 3000 })).toMatchObject({ changes: true });
    expect(await records.diff!(created.id, created.outs, { ...inputs, type: "AAAA", target: "2001:db8::1" })).toMatchObject({ replaces: ["type"] });
  });
});

describe("Domain", () => {
  test("create, read, rename in place, update timers, delete", async () => {
    const created = await domains.create(master("example.com", { ttlSec: 1000, tags: ["b", "a"] }));
    expect(created.outs).toMatchObject({ domain: "example.com", type: "master", soaEmail: "admin@example.com", ttlSec: 3600, status: "active", tags: ["a", "b"] });
    const inputs = master("Example.COM", { ttlSec: 1000, tags: ["a", "b", "a"] });
    expect(await domains.diff!(created.id, created.outs, inputs)).toMatchObject({ changes: false });

    const renamed = master("renamed.example", { ttlSec: 1000, tags: ["a", "b"] });
    expect(await domains.diff!(created.id, created.outs, renamed)).toMatchObject({ changes: true, replaces: [] });
    const updated = await domains.update!(created.id, created.outs, renamed);
    expect(updated.outs).toMatchObject({ domain: "renamed.example", ttlSec: 3600 });
    expect((await client.domains.get(Number(created.id))).domain).toBe("renamed.example");

    // The type cannot change in place, and the name stays taken until the old domain is gone.
    expect(await domains.diff!(created.id, updated.outs!, { ...renamed, type: "slave", masterIps: ["192.0.2.1"] })).toMatchObject({
      replaces: ["type"],
      deleteBeforeReplace: true,
    });
    await domains.delete!(created.id, updated.outs!);
    expect(await client.domains.listAll()).toEqual([]);
  });

  test("soaEmail changed behind Pulumi's back is read back as drift", async () => {
    const created = await domains.create(master());
    await client.domains.update(Number(created.id), { soa_email: "other@example.com" });
    const read = await domains.read!(created.id, created.outs);
    expect(read.props!.soaEmail).toBe("other@example.com");
    expect(await domains.diff!(created.id, read.props!, master())).toMatchObject({ changes: true });
  });

  test("cloneFromId creates a clone with a copy of every record, then applies the program's own fields", async () => {
    const source = await domains.create(master());
    await records.create({ domainId: source.id, type: "A", name: "www", target: "192.0.2.1" });
    await records.create({ domainId: source.id, type: "MX", name: "", target: "mail", priority: 5 });
    const clone = await domains.create(master("clone.example", { cloneFromId: source.id, description: "the copy" }));
    expect(clone.outs).toMatchObject({ domain: "clone.example", description: "the copy", cloneFromId: Number(source.id) });
    const copied = await client.domains.records.listAll(Number(clone.id));
    expect(copied.map((r) => `${r.type} ${r.name} ${r.target}`).sort()).toEqual(["A www 192.0.2.1", "MX  mail.example.com"]);
    expect(await domains.diff!(clone.id, clone.outs, master("clone.example", { cloneFromId: source.id, description: "the copy" }))).toMatchObject({ changes: false });
    const read = await domains.read!(clone.id, clone.outs);
    expect(read.props!.cloneFromId).toBe(Number(source.id));
  });

  test("a create whose connection breaks after the API accepted it adopts the domain instead of orphaning it", async () => {
    emulator.control.addFault({ pathPattern: "/v4/domains", method: "POST", kind: "reset-after", count: 1 });
    const created = await domains.create(master());
    const all = await client.domains.listAll();
    expect(all).toHaveLength(1);
    expect(created.id).toBe(String(all[0]!.id));
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

    await client.domains.records.update(Number(domain.id), Number(created.id), { target: "evil.example.net" });
    const read = await records.read!(created.id, updated.outs!);
    expect(read.props!.target).toBe("evil.example.net");
    expect(await records.diff!(created.id, read.props!, { ...inputs, target: "web" })).toMatchObject({ changes: true, replaces: [] });

    await client.domains.records.delete(Number(domain.id), Number(created.id));
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
    emulator.control.addFault({ pathPattern: "/v4/domains/*/records", method: "POST", kind: "reset-after", count: 1 });
    const created = await records.create({ domainId: domain.id, type: "A", name: "www.example.com.", target: "192.0.2.1" });
    const all = await client.domains.records.listAll(Number(domain.id));
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

describe("data functions", () => {
  test("getDomain by id or by name, getDomains, getDomainZoneFile", async () => {
    const options = { apiUrl: emulator.url, token: emulator.token };
    const a = await client.domains.create({ domain: "a.example", type: "master", soa_email: "a@a.example", group: "web" });
    await client.domains.create({ domain: "b.example", type: "slave", master_ips: ["192.0.2.1"] });
    await client.domains.records.create(a.id, { type: "A", name: "www", target: "192.0.2.7" });

    expect(await getDomain({ id: a.id }, options)).toMatchObject({ id: a.id, domain: "a.example", soaEmail: "a@a.example" });
    expect(await getDomain({ domain: "A.Example." }, options)).toMatchObject({ id: a.id });
    await expect(getDomain({ domain: "c.example" }, options)).rejects.toThrow('no domain named "c.example"');
    expect(() => getDomain({}, options)).toThrow("exactly one of id and domain");
    expect((await getDomains({}, options)).map((d) => d.domain).sort()).toEqual(["a.example", "b.example"]);
    expect((await getDomains({ type: "slave" }, options)).map((d) => d.domain)).toEqual(["b.example"]);
    expect((await getDomains({ group: "web" }, options)).map((d) => d.domain)).toEqual(["a.example"]);

    expect(await getDomainZoneFile({ domainId: a.id }, options)).toEqual({ domainId: a.id, zoneFile: [] });
    emulator.control.setClock({ advanceMs: ZONE_RENDER_DELAY_MS + 1000 });
    const { zoneFile } = await getDomainZoneFile({ domainId: String(a.id) }, options);
    expect(zoneFile).toContain("www.a.example. 86400 IN A 192.0.2.7");
  });
});
