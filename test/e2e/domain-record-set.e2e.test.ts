/**
 * A DomainRecordSet end to end through the real Pulumi engine against the emulator over HTTP:
 * `up` (one POST per record) → `preview` clean → a record changed and one deleted behind Pulumi's
 * back, and the domain's soaEmail → `refresh` records the drift, and `preview` names exactly those
 * records by position in its detailed diff (`records[3]`), which `preview --diff` prints with their
 * values, and the domain's field with both values → a record added to the list →
 * `up` restores and adds with one request per record → `preview` clean → `destroy` deletes the
 * set's records (one DELETE each) and leaves a record it does not manage.
 */
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { Domain, DomainRecordSet, type DomainRecordSetArgs } from "../../provider";
import { createTestStack, eventRecorder, type TestStack } from "../support/engine";

jest.setTimeout(300_000);

const ZONE = "set.example";

const RECORDS = [
  { type: "A" as const, name: "WWW.set.example.", target: "192.0.2.10", ttlSec: 300 },
  { type: "A" as const, name: "api", target: "192.0.2.11" },
  { type: "A" as const, name: "api", target: "192.0.2.12" },
  { type: "CNAME" as const, name: "docs", target: "www" },
  { type: "MX" as const, name: "@", target: "mail.set.example.", priority: 10 },
  { type: "TXT" as const, name: "", target: "v=spf1 mx -all" },
];

let emulator: RunningEmulator;
let client: ComputeClient;
let testStack: TestStack;
/** What the program declares; the test changes it between runs. */
let declared: DomainRecordSetArgs["records"] = RECORDS;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  testStack = await createTestStack({
    name: "record-set",
    apiUrl: emulator.url,
    token: emulator.token,
    program: async () => {
      const zone = new Domain("zone", { domain: ZONE, type: "master", soaEmail: `admin@${ZONE}` });
      const set = new DomainRecordSet("records", { domainId: zone.id, records: declared });
      return { zoneId: zone.id, count: set.records.apply((r) => r.length) };
    },
  });
});

afterAll(async () => {
  await testStack?.stack.destroy().catch(() => undefined);
  testStack?.cleanup();
  await client?.close();
  await emulator?.close();
});

const zoneRecords = async (id: number) =>
  (await client.domains.records.listAll(id)).map((r) => `${r.type} ${r.name} ${r.target}`.trimEnd()).sort();
/** Record requests since `mark` (method and path, ids elided). */
const recordRequests = (mark: number) =>
  emulator.control
    .listRequests()
    .slice(mark)
    .map((r) => `${r.method} ${r.path.replace(/\?.*$/, "").replace(/\/\d+/g, "/{id}")}`)
    .filter((r) => r.includes("/records"))
    .sort();
const setStep = (events: EngineEvent[]) =>
  events.map((e) => e.resourcePreEvent?.metadata).find((m) => m?.type === "pulumi-nodejs:dynamic/compute:DomainRecordSet");

test("a record set goes through its whole life, each record named in the diffs", async () => {
  // up: one POST per record, after one listing of the zone (records already there are taken over, never twinned)
  let mark = emulator.control.listRequests().length;
  const up = await testStack.stack.up();
  expect(up.summary.resourceChanges).toMatchObject({ create: 3 }); // the stack, the domain, the set
  const zoneId = Number(up.outputs.zoneId!.value);
  expect(up.outputs.count!.value).toBe(RECORDS.length);
  expect(recordRequests(mark)).toEqual(["GET /v4/domains/{id}/records", ...Array(RECORDS.length).fill("POST /v4/domains/{id}/records")]);
  expect(await zoneRecords(zoneId)).toEqual([
    "A api 192.0.2.11",
    "A api 192.0.2.12",
    "A www 192.0.2.10",
    "CNAME docs www.set.example",
    "MX  mail.set.example",
    "TXT  v=spf1 mx -all",
  ]);
  await client.domains.records.create(zoneId, { type: "TXT" as const, name: "manual", target: "not the set's" });

  // the natural spellings never diff
  expect(Object.keys((await testStack.stack.preview()).changeSummary)).toEqual(["same"]);

  // behind Pulumi's back: one record changed, one deleted
  const byName = async (type: string, name: string) =>
    (await client.domains.records.listAll(zoneId)).find((r) => r.type === type && r.name === name)!;
  await client.domains.records.update(zoneId, (await byName("A", "www")).id, { target: "198.51.100.66" });
  await client.domains.records.delete(zoneId, (await byName("CNAME", "docs")).id);
  await client.domains.update(zoneId, { soa_email: "hijacked@example.net" });

  // refresh finds the drift (reading the zone's records in one list), and preview names the records, printed with their values
  mark = emulator.control.listRequests().length;
  const refresh = await testStack.stack.refresh();
  expect(refresh.summary.resourceChanges).toMatchObject({ update: 2, same: 1 });
  expect(recordRequests(mark)).toEqual(["GET /v4/domains/{id}/records"]);
  const recorder = eventRecorder();
  const preview = await testStack.stack.preview({ onEvent: recorder.onEvent, diff: true });
  expect(preview.changeSummary).toMatchObject({ update: 2, same: 1 });
  // Each record by its position, so Pulumi prints its values: the drifted `www A` where state has it,
  // the deleted `docs CNAME` as an addition where the program's list has it.
  expect(setStep(recorder.events)?.detailedDiff).toEqual({
    "records[0]": { diffKind: "update", inputDiff: false },
    "records[3]": { diffKind: "add", inputDiff: false },
  });
  expect(preview.stdout).toMatch(/~ \[0\]: \{[^}]*~ target\s*: "198\.51\.100\.66" => "192\.0\.2\.10"/);
  expect(preview.stdout).toMatch(/\+ \[3\]: \{\s+\+ name\s*: "docs"\s+\+ target: "www"\s+\+ type\s*: "CNAME"/);
  expect(preview.stdout).not.toContain("[unknown]");
  // A plain field: the drifted value and the program's, by the program's name.
  expect(preview.stdout).toMatch(/~ soaEmail\s*: "hijacked@example.net" => "admin@set.example"/);

  // a record added to the list: up restores the drift and adds it, one request per record (and,
  // since it creates records, one listing of the zone)
  declared = [...RECORDS, { type: "AAAA" as const, name: "www", target: "2001:DB8::10" }];
  mark = emulator.control.listRequests().length;
  const restore = await testStack.stack.up();
  expect(restore.summary.resourceChanges).toMatchObject({ update: 2, same: 1 });
  expect(recordRequests(mark)).toEqual([
    "GET /v4/domains/{id}/records",
    "POST /v4/domains/{id}/records",
    "POST /v4/domains/{id}/records",
    "PUT /v4/domains/{id}/records/{id}",
  ]);
  expect(await zoneRecords(zoneId)).toEqual(
    expect.arrayContaining(["A www 192.0.2.10", "AAAA www 2001:db8::10", "CNAME docs www.set.example"]),
  );
  expect(Object.keys((await testStack.stack.preview()).changeSummary)).toEqual(["same"]);

  // destroy: one DELETE per record of the set; the record added by hand stays
  mark = emulator.control.listRequests().length;
  const destroyed = await testStack.stack.destroy();
  expect(destroyed.summary.resourceChanges).toMatchObject({ delete: 3 }); // the stack, the domain, the set
  expect(recordRequests(mark)).toEqual(Array(RECORDS.length + 1).fill("DELETE /v4/domains/{id}/records/{id}"));
});
