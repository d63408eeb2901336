/**
 * DNS end to end through the real Pulumi engine against the emulator over HTTP, in one stack: a
 * master domain with records of all nine types written the way people write them (fully
 * qualified names, trailing periods, letter case, odd TTLs), a slave domain and a clone →
 * `up` → `preview` shows no changes → a record's target and the domain's soaEmail changed behind
 * Pulumi's back are exactly what `refresh` reports → `up` restores them → `destroy`.
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { Domain, DomainRecord, type DomainRecordArgs } from "../../provider";
import { driftFromEvents } from "../../provider/stack/refresh-drift";
import { createTestStack, eventRecorder, type TestStack } from "../support/engine";

jest.setTimeout(300_000);

const ZONE = "e2e.example";

let emulator: RunningEmulator;
let client: ComputeClient;
let testStack: TestStack;

/** The records, in natural spellings; `stored` is how the API keeps them. */
const RECORDS: Record<string, { args: Omit<DomainRecordArgs, "domainId">; stored: string }> = {
  a: { args: { type: "A", name: "WWW.e2e.example.", target: "192.0.2.10", ttlSec: 1000 }, stored: "A www 192.0.2.10 300" },
  aaaa: { args: { type: "AAAA", name: "www.e2e.example", target: "2001:DB8:0:0::10", ttlSec: 3000 }, stored: "AAAA www 2001:db8::10 3600" },
  ns: { args: { type: "NS", name: "sub", target: "NS1.Example.NET." }, stored: "NS sub ns1.example.net 0" },
  mx: { args: { type: "MX", name: "@", target: "mail", priority: 10, ttlSec: 1000 }, stored: "MX  mail.e2e.example 300" },
  cname: { args: { type: "CNAME", name: "Docs.E2E.example.", target: "www.e2e.example." }, stored: "CNAME docs www.e2e.example 0" },
  txt: { args: { type: "TXT", name: "", target: "v=spf1 -all" }, stored: "TXT  v=spf1 -all 0" },
  srv: {
    args: {
      type: "SRV",
      service: "_sip",
      protocol: "TCP",
      priority: 10,
      weight: 5,
      port: 5060,
      target: "sip.e2e.example.",
      ttlSec: 100000,
    },
    stored: "SRV _sip._tcp sip.e2e.example 86400",
  },
  ptr: { args: { type: "PTR", name: "10.e2e.example.", target: "host.e2e.example." }, stored: "PTR 10 host.e2e.example 0" },
  caa: { args: { type: "CAA", name: "e2e.example.", tag: "issue", target: "letsencrypt.org" }, stored: "CAA  letsencrypt.org 0" },
};

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  testStack = await createTestStack({
    name: "dns",
    apiUrl: emulator.url,
    token: emulator.token,
    program: async () => {
      const zone = new Domain("zone", { domain: ZONE, type: "master", soaEmail: "admin@e2e.example", ttlSec: 1000, tags: ["e2e"] });
      const records = Object.entries(RECORDS).map(([name, r]) => new DomainRecord(name, { ...r.args, domainId: zone.id }));
      const slave = new Domain("slave", { domain: "slave.example", type: "slave", masterIps: ["192.0.2.53"] });
      const copy = new Domain(
        "copy",
        { domain: "copy.example", type: "master", soaEmail: "admin@e2e.example", cloneFromId: zone.id },
        { dependsOn: records },
      );
      return {
        zoneId: zone.id,
        slaveId: slave.id,
        copyId: copy.id,
        cnameId: records[Object.keys(RECORDS).indexOf("cname")]!.id,
      };
    },
  });
});

afterAll(async () => {
  await testStack?.stack.destroy().catch(() => undefined);
  testStack?.cleanup();
  await client?.close();
  await emulator?.close();
});

const storedRecords = async (domainId: number) =>
  (await client.domains.records.listAll(domainId)).map((r) => `${r.type} ${r.name} ${r.target} ${r.ttl_sec}`).sort();

test("a master domain with nine records, a slave and a clone go through their whole life", async () => {
  // up
  const up = await testStack.stack.up();
  expect(up.summary.result).toBe("succeeded");
  expect(up.summary.resourceChanges).toMatchObject({ create: 13 }); // the stack, 3 domains, 9 records
  const zoneId = Number(up.outputs.zoneId!.value);
  const copyId = Number(up.outputs.copyId!.value);
  const expected = Object.values(RECORDS)
    .map((r) => r.stored)
    .sort();
  expect(await storedRecords(zoneId)).toEqual(expected);
  expect(await client.domains.get(zoneId)).toMatchObject({ domain: ZONE, soa_email: "admin@e2e.example", ttl_sec: 3600, tags: ["e2e"] });
  expect(await client.domains.get(Number(up.outputs.slaveId!.value))).toMatchObject({ type: "slave", master_ips: ["192.0.2.53"] });
  expect(await client.domains.get(copyId)).toMatchObject({ domain: "copy.example", type: "master" });
  expect(await storedRecords(copyId)).toEqual(expected); // the clone holds a copy of every record

  // the natural spellings never diff against what the API stored
  expect(Object.keys((await testStack.stack.preview()).changeSummary)).toEqual(["same"]);

  // behind Pulumi's back
  const cnameId = Number(up.outputs.cnameId!.value);
  await client.domains.records.update(zoneId, cnameId, { target: "elsewhere.example.net" });
  await client.domains.update(zoneId, { soa_email: "hijacked@example.net" });

  // refresh reports exactly that drift
  const recorder = eventRecorder();
  const refresh = await testStack.stack.refresh({ onEvent: recorder.onEvent });
  expect(refresh.summary.resourceChanges).toMatchObject({ update: 2, same: 11 });
  expect(driftFromEvents(recorder.events).sort((x, y) => x.resource.localeCompare(y.resource))).toEqual([
    { resource: "cname", type: "DomainRecord", field: "target", state: "www.e2e.example", cloud: "elsewhere.example.net" },
    { resource: "zone", type: "Domain", field: "soaEmail", state: "admin@e2e.example", cloud: "hijacked@example.net" },
  ]);

  // up restores both, in place
  const restore = await testStack.stack.up();
  expect(restore.summary.resourceChanges).toMatchObject({ update: 2, same: 11 });
  expect((await client.domains.records.get(zoneId, cnameId)).target).toBe("www.e2e.example");
  expect((await client.domains.get(zoneId)).soa_email).toBe("admin@e2e.example");
  expect(Object.keys((await testStack.stack.preview()).changeSummary)).toEqual(["same"]);

  // destroy
  const destroyed = await testStack.stack.destroy();
  expect(destroyed.summary.resourceChanges).toMatchObject({ delete: 13 });
  expect(await client.domains.listAll()).toEqual([]);
});
