/** Domains, records of every kind the client sends, the zone file, clone and import by AXFR. */
import { v4, type DomainRecord } from "../client";
import type { LifeContext } from "./context";
import * as S from "../shapes";

const {
  cloneDomain,
  createDomain,
  createDomainRecord,
  deleteDomain,
  deleteDomainRecord,
  getDNSZoneFile,
  getDomain,
  getDomainRecord,
  getDomainRecords,
  getDomains,
  importZone,
  updateDomain,
  updateDomainRecord,
} = v4;

const ZONE = "life.api-v4.example";

export async function dnsLife(ctx: LifeContext): Promise<void> {
  const domain = ctx.check(
    "domain",
    await createDomain({ domain: ZONE, type: "master", soa_email: "admin@api-v4.example", tags: ["contract"] }),
    S.DOMAIN,
  );
  ctx.check(
    "domain updated",
    await updateDomain(domain.id, { description: "made by @linode/api-v4", ttl_sec: 3600, group: "contract" }),
    S.DOMAIN,
  );
  expect(ctx.check("domain get", await getDomain(domain.id), S.DOMAIN).description).toBe("made by @linode/api-v4");

  const records: Array<Partial<DomainRecord>> = [
    { type: "A", name: "www", target: "192.0.2.10", ttl_sec: 300 },
    { type: "AAAA", name: "www", target: "2001:db8::10" },
    { type: "CNAME", name: "docs", target: `www.${ZONE}` },
    { type: "MX", name: "", target: `mail.${ZONE}`, priority: 10 },
    { type: "TXT", name: "", target: "v=spf1 -all" },
    { type: "SRV", service: "_sip", protocol: "_tcp", target: `sip.${ZONE}`, priority: 10, weight: 5, port: 5060 },
    { type: "CAA", name: "", tag: "issue", target: "letsencrypt.org" },
    { type: "NS", name: "sub", target: "ns1.elsewhere.example" },
  ];
  const created: DomainRecord[] = [];
  for (const record of records) created.push(ctx.check(`record ${record.type}`, await createDomainRecord(domain.id, record), S.RECORD));
  expect(created.map((r) => r.type)).toEqual(records.map((r) => r.type));
  const a = created[0]!;
  ctx.check("record updated", await updateDomainRecord(domain.id, a.id, { target: "192.0.2.11", ttl_sec: 3600 }), S.RECORD);
  expect(ctx.check("record get", await getDomainRecord(domain.id, a.id), S.RECORD).target).toBe("192.0.2.11");
  expect(ctx.checkPage("records", await getDomainRecords(domain.id), S.RECORD)).toHaveLength(records.length);
  await deleteDomainRecord(domain.id, created.at(-1)!.id);

  // The zone is rendered a while after a change, as on the platform.
  ctx.advance(10 * 60_000);
  const zoneFile = ctx.check("zone file", await getDNSZoneFile(domain.id), S.ZONE_FILE);
  expect(zoneFile.zone_file.join("\n")).toContain("192.0.2.11");

  const clone = ctx.check("domain clone", await cloneDomain(domain.id, { domain: `clone.${ZONE}` }), S.DOMAIN);
  expect((await getDomainRecords(clone.id)).results).toBe(records.length - 1);

  const imported = ctx.check(
    "domain import",
    await importZone({ domain: ctx.zoneServer.zone, remote_nameserver: ctx.zoneServer.host }),
    S.DOMAIN,
  );
  expect(imported.domain).toBe(ctx.zoneServer.zone);
  expect((await getDomainRecords(imported.id)).results).toBeGreaterThan(0);

  const names = ctx.checkPage("domains", await getDomains(), S.DOMAIN).map((d) => d.domain);
  expect(names).toEqual(expect.arrayContaining([ZONE, `clone.${ZONE}`, ctx.zoneServer.zone]));
  for (const d of [clone, imported, domain]) await deleteDomain(d.id);
  expect((await getDomains()).data).toEqual([]);
}
