/** The DNS data functions against the emulator: getDomain by id or name, getDomains, getDomainZoneFile. */
import { getDomain, getDomainZoneFile, getDomains } from "../../../provider";
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
});
