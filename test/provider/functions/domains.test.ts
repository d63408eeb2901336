/**
 * The DNS data functions against the emulator: getDomain by id or name, getDomains,
 * getDomainZoneFile, getDomainRecord by id or by name and type (refusing an ambiguous or missing
 * match, and bad argument combinations before any request), getDomainRecords, an Output form.
 */
import {
  getDomain,
  getDomainRecord,
  getDomainRecordOutput,
  getDomainRecords,
  getDomainZoneFile,
  getDomains,
  type GetDomainRecordArgs,
} from "../../../provider";
import * as pulumi from "@pulumi/pulumi";
import { ZONE_RENDER_DELAY_MS } from "../../../emulator/services/domains/zone-file";
import { useProviderHarness } from "../harness";

const harness = useProviderHarness();

describe("data functions", () => {
  test("getDomain by id or by name, getDomains, getDomainZoneFile", async () => {
    const options = { apiUrl: harness.emulator.url, token: harness.emulator.token };
    const a = await harness.client.domains.create({ domain: "a.example", type: "master", soa_email: "a@a.example", group: "web" });
    await harness.client.domains.create({ domain: "b.example", type: "slave", master_ips: ["192.0.2.1"] });
    await harness.client.domains.records.create(a.id, { type: "A", name: "www", target: "192.0.2.7" });

    expect(await getDomain({ id: a.id }, options)).toMatchObject({ id: a.id, domain: "a.example", soaEmail: "a@a.example" });
    expect(await getDomain({ domain: "A.Example." }, options)).toMatchObject({ id: a.id });
    await expect(getDomain({ domain: "c.example" }, options)).rejects.toThrow('no domain named "c.example"');
    expect(() => getDomain({}, options)).toThrow("exactly one of id and domain");
    expect((await getDomains({}, options)).map((d) => d.domain).sort()).toEqual(["a.example", "b.example"]);
    expect((await getDomains({ type: "slave" }, options)).map((d) => d.domain)).toEqual(["b.example"]);
    expect((await getDomains({ group: "web" }, options)).map((d) => d.domain)).toEqual(["a.example"]);

    expect(await getDomainZoneFile({ domainId: a.id }, options)).toEqual({ domainId: a.id, zoneFile: [] });
    harness.emulator.control.setClock({ advanceMs: ZONE_RENDER_DELAY_MS + 1000 });
    const { zoneFile } = await getDomainZoneFile({ domainId: String(a.id) }, options);
    expect(zoneFile).toContain("www.a.example. 86400 IN A 192.0.2.7");
  });

  test("getDomainRecord by id, or by name and type; getDomainRecords filtered; camelCase", async () => {
    const options = { apiUrl: harness.emulator.url, token: harness.emulator.token };
    const zone = await harness.client.domains.create({ domain: "a.example", type: "master", soa_email: "a@a.example" });
    const www = await harness.client.domains.records.create(zone.id, { type: "A", name: "www", target: "192.0.2.7", ttl_sec: 300 });
    const mail = await harness.client.domains.records.create(zone.id, { type: "MX", name: "", target: "mail.a.example", priority: 10 });
    await harness.client.domains.records.create(zone.id, { type: "AAAA", name: "www", target: "2001:db8::7" });

    const byName = await getDomainRecord({ domainId: String(zone.id), name: "www", type: "A" }, options);
    const { ttl_sec, ...rest } = www;
    expect(byName).toEqual({ ...rest, ttlSec: ttl_sec });
    expect(ttl_sec).toBe(300);
    expect(await getDomainRecord({ domainId: zone.id, id: String(www.id) }, options)).toEqual(byName);
    expect(await getDomainRecord({ domainId: zone.id, name: "", type: "MX" }, options)).toMatchObject({ id: mail.id, priority: 10 });

    expect((await getDomainRecords({ domainId: zone.id }, options)).map((r) => r.type)).toEqual(["A", "MX", "AAAA"]);
    expect((await getDomainRecords({ domainId: zone.id, name: "www" }, options)).map((r) => r.type)).toEqual(["A", "AAAA"]);
    expect((await getDomainRecords({ domainId: zone.id, name: "www", type: "AAAA" }, options)).map((r) => r.target)).toEqual([
      "2001:db8::7",
    ]);
    await expect(getDomainRecords({ domainId: 9999 }, options)).rejects.toThrow("getDomainRecords: no domain with id 9999");
  });

  test("getDomainRecord refuses a missing match and an ambiguous one (two A records of one name), naming what was asked", async () => {
    const options = { apiUrl: harness.emulator.url, token: harness.emulator.token };
    const zone = await harness.client.domains.create({ domain: "a.example", type: "master", soa_email: "a@a.example" });
    const one = await harness.client.domains.records.create(zone.id, { type: "A", name: "www", target: "192.0.2.7" });
    const two = await harness.client.domains.records.create(zone.id, { type: "A", name: "www", target: "192.0.2.8" });
    await expect(getDomainRecord({ domainId: zone.id, name: "www", type: "A" }, options)).rejects.toThrow(
      `getDomainRecord: 2 records of domain ${zone.id} have name "www" and type A (ids ${one.id}, ${two.id}); pass id`,
    );
    await expect(getDomainRecord({ domainId: zone.id, name: "api", type: "A" }, options)).rejects.toThrow(
      `getDomainRecord: no record of domain ${zone.id} with name "api" and type A`,
    );
    await expect(getDomainRecord({ domainId: zone.id, id: 9999 }, options)).rejects.toThrow(
      `getDomainRecord: no record of domain ${zone.id} with id 9999`,
    );
    await expect(getDomainRecord({ domainId: 9999, name: "www", type: "A" }, options)).rejects.toThrow(
      "getDomainRecord: no domain with id 9999",
    );
    expect((await getDomainRecord({ domainId: zone.id, id: two.id }, options)).target).toBe("192.0.2.8");
  });

  test("getDomainRecord refuses id with name, name without type, and no domainId, before any request", async () => {
    const options = { apiUrl: harness.emulator.url, token: harness.emulator.token };
    const call = (args: object) => getDomainRecord(args as GetDomainRecordArgs, options);
    await expect(call({ domainId: 1, id: 2, name: "www", type: "A" })).rejects.toThrow(
      'getDomainRecord: give either id, or name and type, not both (got domainId 1, id 2, name "www", type "A")',
    );
    await expect(call({ domainId: 1, name: "www" })).rejects.toThrow(
      'getDomainRecord: give either id, or name and type (got domainId 1, name "www")',
    );
    await expect(call({ domainId: 1 })).rejects.toThrow("getDomainRecord: give either id, or name and type (got domainId 1)");
    await expect(call({ id: 2 })).rejects.toThrow("getDomainRecord: domainId is required (got id 2)");
    expect(harness.emulator.control.listRequests()).toEqual([]);
  });

  test("getDomainRecordOutput takes an Output domainId", async () => {
    const options = { apiUrl: harness.emulator.url, token: harness.emulator.token };
    const zone = await harness.client.domains.create({ domain: "a.example", type: "master", soa_email: "a@a.example" });
    const www = await harness.client.domains.records.create(zone.id, { type: "A", name: "www", target: "192.0.2.7" });
    const record = getDomainRecordOutput({ domainId: pulumi.output(zone.id), name: "www", type: "A" }, options);
    expect(await new Promise((resolve) => record.id.apply(resolve))).toBe(www.id);
  });
});
