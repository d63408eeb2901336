/**
 * The DomainRecordSet provider against the emulator over HTTP: per-record checks at preview, one
 * request per changed record plus O(1) reads, natural spellings that never diff, a per-record
 * detailed diff by position (`records[2]`: Pulumi prints the record there), drift per record, exclusive zones, and a partial failure that
 * records exactly what was applied.
 */
import { provider } from "../../../provider/registry";
import { check, diff, ResourceInitError } from "../../../provider/engine/engine";
import { UNKNOWN } from "../../../provider/engine/values";
import { domainRecordSetSpec, recordKeys, runBounded } from "../../../provider/resources/domain-record-set";
import { RECORD_REASONS } from "../../../sdk/resources/domains";
import { useProviderHarness } from "../harness";

const harness = useProviderHarness();
const domains = provider("Domain");
const sets = provider("DomainRecordSet");

const requests = () =>
  harness.emulator.control.listRequests().map((r) => `${r.method} ${r.path.replace(/\?.*$/, "").replace(/\/\d+/g, "/{id}")}`);
const zone = async (name = "example.com") => (await domains.create({ domain: name, type: "master", soaEmail: "admin@example.com" })).id;
/** The provider's progress lines (its stdout, which the engine shows) during one test. */
function captureProgress(): string[] {
  const lines: string[] = [];
  const spy = jest.spyOn(console, "log").mockImplementation((line: unknown) => void lines.push(String(line)));
  afterEachOnce(() => spy.mockRestore());
  return lines;
}
const cleanups: Array<() => void> = [];
const afterEachOnce = (cleanup: () => void) => cleanups.push(cleanup);
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const zoneRecords = async (domainId: string) =>
  (await harness.client.domains.records.listAll(Number(domainId))).map((r) => `${r.type} ${r.name} ${r.target}`).sort();

/** Records written the way people write them; the API stores them differently, never with another meaning. */
const NATURAL = [
  { type: "A", name: "WWW.Example.com.", target: "192.0.2.10", ttlSec: 1000 },
  { type: "A", name: "api", target: "192.0.2.11" },
  { type: "A", name: "api", target: "192.0.2.12" },
  { type: "AAAA", name: "www.example.com", target: "2001:DB8::10", ttlSec: 86000 },
  { type: "MX", name: "@", target: "mail", priority: 10, ttlSec: 2000 },
  { type: "CNAME", name: "docs", target: "www.example.com." },
  { type: "TXT", name: "", target: "v=spf1 -all" },
  { type: "SRV", service: "_sip", protocol: "TCP", priority: 10, weight: 5, port: 5060, target: "sip.example.com." },
  { type: "CAA", name: "example.com.", tag: "issue", target: "letsencrypt.org" },
];

/**
 * A detailed diff as `preview --diff` prints it: each path with the record Pulumi looks up there,
 * the program's for an addition, state's for a removal, both for an update of a position.
 */
function printed(detailed: Record<string, { kind: string }>, olds: unknown, news: unknown): Record<string, string> {
  const text = (r: unknown) => {
    const { type, name, target } = r as Record<string, string>;
    return `${type} ${name ?? ""} ${target}`;
  };
  const at = (list: unknown, i: number) => text((list as unknown[])[i]);
  return Object.fromEntries(
    Object.entries(detailed).map(([path, { kind }]) => {
      const i = Number(/\[(\d+)\]$/.exec(path)![1]);
      return [path, kind === "add" ? `+ ${at(news, i)}` : kind === "delete" ? `- ${at(olds, i)}` : `~ ${at(olds, i)} => ${at(news, i)}`];
    }),
  );
}

describe("check at preview", () => {
  const failures = (inputs: Record<string, unknown>) => check(domainRecordSetSpec, inputs).failures ?? [];

  test("each record is checked by the DomainRecord rules, on its own path, even while the domain id is unknown", () => {
    expect(
      failures({
        domainId: UNKNOWN,
        records: [
          { type: "A", name: "www", target: "192.0.2.1" },
          { type: "MX", target: "mail.example.com." },
          { type: "A", target: "192.0.2.1", priority: 10 },
        ],
      }),
    ).toEqual([
      { property: "", reason: `records[1].priority: ${RECORD_REASONS.requiredFor("priority", "MX")}` },
      { property: "", reason: `records[2].priority: ${RECORD_REASONS.onlyFor("priority", "MX and SRV")}` },
    ]);
    expect(failures({ domainId: 1, records: [{ type: "SPF", target: "x" }] })).toEqual([
      { property: "", reason: `records[0].type: ${RECORD_REASONS.typeInvalid}` },
    ]);
    expect(failures({ domainId: 1, records: [{ type: "A", target: "192.0.2.1", color: "red" }] }).map((f) => f.reason)).toEqual([
      expect.stringContaining("records[0]"),
    ]);
  });

  test("values still unknown are checked once known; known fields beside them are checked now", () => {
    expect(failures({ domainId: 1, records: [{ type: "A", name: "www", target: UNKNOWN }] })).toEqual([]);
    expect(failures({ domainId: 1, records: [{ type: "MX", target: UNKNOWN, priority: UNKNOWN }] })).toEqual([]);
    expect(failures({ domainId: 1, records: [{ type: "A", target: UNKNOWN, ttlSec: 1.5 }] })).toEqual([
      { property: "", reason: `records[0].ttlSec: ${RECORD_REASONS.ttlInvalid}` },
    ]);
  });
});

describe("keys", () => {
  test("name and type; the target (and a CAA tag) where name and type repeat in either list; identical records numbered", () => {
    const r = (type: string, name: string, target: string, extra = {}) => ({ type, name, target, ...extra });
    expect(
      recordKeys([r("A", "www", "192.0.2.1")], [r("A", "www", "192.0.2.1"), r("A", "www", "192.0.2.2"), r("MX", "", "mail.x")]),
    ).toEqual({
      olds: ["www A 192.0.2.1"],
      news: ["www A 192.0.2.1", "www A 192.0.2.2", "@ MX"],
    });
    expect(recordKeys([], [r("SRV", "", "sip.x", { service: "sip", protocol: "tcp" }), r("TXT", "", "a"), r("TXT", "", "a")]).news).toEqual(
      ["_sip._tcp SRV", "@ TXT a", "@ TXT a #2"],
    );
    expect(recordKeys([], [r("CAA", "", "ca.x", { tag: "issue" }), r("CAA", "", "ca.x", { tag: "issuewild" })]).news).toEqual([
      "@ CAA issue ca.x",
      "@ CAA issuewild ca.x",
    ]);
  });
});

describe("against the emulator", () => {
  test("create costs 1 request per record plus 2; natural spellings never diff; a read is one list of the zone", async () => {
    const domainId = await zone();
    const before = requests().length;
    const created = await sets.create({ domainId, records: NATURAL });
    const made = requests().slice(before);
    expect(made.filter((r) => r === "POST /v4/domains/{id}/records")).toHaveLength(NATURAL.length);
    // + GET /domains/{id} for the zone's name, + one listing of its records (records already there are taken over, not twinned)
    expect(made.filter((r) => !r.startsWith("POST")).sort()).toEqual(["GET /v4/domains/{id}", "GET /v4/domains/{id}/records"]);
    expect(made).toHaveLength(NATURAL.length + 2);
    expect(created.outs.records).toHaveLength(NATURAL.length);
    expect(created.outs).toMatchObject({ domainId: Number(domainId), domain: "example.com", exclusive: false });

    const inputs = { domainId, records: NATURAL };
    expect(diff(domainRecordSetSpec, created.outs, inputs)).toMatchObject({ changes: false, detailedDiff: {} });
    // Order does not matter.
    expect(diff(domainRecordSetSpec, created.outs, { domainId, records: [...NATURAL].reverse() }).changes).toBe(false);

    const mark = requests().length;
    const read = await sets.read!(created.id, created.outs);
    expect(requests().slice(mark)).toEqual(["GET /v4/domains/{id}/records"]);
    expect(read.props).toEqual(created.outs);
  });

  test("the diff names each changed record by position, and the update makes exactly one request per changed record", async () => {
    const domainId = await zone();
    const created = await sets.create({ domainId, records: NATURAL });
    const records = [
      ...NATURAL.filter((r) => r.type !== "TXT" && r.type !== "CNAME"),
      { type: "CNAME", name: "docs", target: "www2.example.com." }, // changed target
      { type: "A", name: "api", target: "192.0.2.13" }, // a third api A record
      { type: "A", name: "new", target: "192.0.2.20", ttlSec: 300 },
    ].map((r) => (r.type === "A" && r.name === "WWW.Example.com." ? { ...r, ttlSec: 3600 } : r)); // changed TTL
    const news = { domainId, records };
    const result = diff(domainRecordSetSpec, created.outs, news);
    expect(result).toMatchObject({ changes: true, replaces: [], diffs: ["records"] });
    expect(printed(result.detailedDiff, created.outs.records, records)).toEqual({
      // Positions as Pulumi prints them: the changed TTL in place, the changed CNAME moved to the
      // end (its old position now holds the next record), the TXT removed, two records added.
      "records[0]": "~ A www 192.0.2.10 => A WWW.Example.com. 192.0.2.10",
      "records[6]": "- CNAME docs www.example.com",
      "records[7]": "~ TXT  v=spf1 -all => CNAME docs www2.example.com.",
      "records[8]": "+ A api 192.0.2.13",
      "records[9]": "+ A new 192.0.2.20",
    });
    expect(result.detailedDiff["records[8]"]).toEqual({ kind: "add", inputDiff: false });

    const mark = requests().length;
    const updated = await sets.update!(created.id, created.outs, news);
    expect(requests().slice(mark).sort()).toEqual([
      "DELETE /v4/domains/{id}/records/{id}",
      "GET /v4/domains/{id}/records", // once, because the update creates records: one the zone already holds is taken over
      "POST /v4/domains/{id}/records",
      "POST /v4/domains/{id}/records",
      "PUT /v4/domains/{id}/records/{id}",
      "PUT /v4/domains/{id}/records/{id}",
    ]);
    expect(diff(domainRecordSetSpec, updated.outs, news).changes).toBe(false);
    expect(await zoneRecords(domainId)).toContain("CNAME docs www2.example.com");
    expect(await zoneRecords(domainId)).not.toContain("TXT  v=spf1 -all");
  });

  test("drift is found per record: a changed record and a deleted one, each at its position", async () => {
    const domainId = await zone();
    const inputs = { domainId, records: NATURAL };
    const created = await sets.create(inputs);
    const byKey = (outs: Record<string, unknown>, type: string, name: string) =>
      (outs.records as Array<{ id: number; type: string; name: string }>).find((r) => r.type === type && r.name === name)!;
    await harness.client.domains.records.update(Number(domainId), byKey(created.outs, "A", "www").id, { target: "198.51.100.1" });
    await harness.client.domains.records.delete(Number(domainId), byKey(created.outs, "CNAME", "docs").id);
    const read = await sets.read!(created.id, created.outs);
    expect(read.props!.records).toHaveLength(NATURAL.length - 1);
    expect(printed(diff(domainRecordSetSpec, read.props!, inputs).detailedDiff, read.props!.records, inputs.records)).toEqual({
      "records[0]": "~ A www 198.51.100.1 => A WWW.Example.com. 192.0.2.10",
      "records[5]": "+ CNAME docs www.example.com.",
    });
    const restored = await sets.update!(created.id, read.props!, inputs);
    expect(diff(domainRecordSetSpec, restored.outs, inputs).changes).toBe(false);
  });

  test("exclusive: the zone ends up holding exactly the declared records, and a record added behind Pulumi's back shows as a delete", async () => {
    const domainId = await zone();
    await harness.client.domains.records.create(Number(domainId), { type: "TXT", name: "old", target: "stale" });
    await harness.client.domains.records.create(Number(domainId), { type: "A", name: "www", target: "192.0.2.99" });
    const inputs = { domainId, records: NATURAL.slice(0, 2), exclusive: true };
    const created = await sets.create(inputs);
    // `www A` was already there: changed in place, not duplicated; `old TXT` went.
    expect(await zoneRecords(domainId)).toEqual(["A api 192.0.2.11", "A www 192.0.2.10"]);

    await harness.client.domains.records.create(Number(domainId), { type: "TXT", name: "sneaky", target: "x" });
    const read = await sets.read!(created.id, created.outs);
    expect(printed(diff(domainRecordSetSpec, read.props!, inputs).detailedDiff, read.props!.records, inputs.records)).toEqual({
      "records[2]": "- TXT sneaky x",
    });
    // Not exclusive: the same record is none of the set's business.
    expect(diff(domainRecordSetSpec, created.outs, { ...inputs, exclusive: false }).detailedDiff).toEqual({
      exclusive: { kind: "update", inputDiff: false },
    });
    // Leaving exclusive mode releases the other records: they stay in the zone and leave state.
    const released = await sets.update!(created.id, read.props!, { ...inputs, exclusive: false });
    expect((released.outs.records as unknown[]).length).toBe(2);
    expect(await zoneRecords(domainId)).toEqual(["A api 192.0.2.11", "A www 192.0.2.10", "TXT sneaky x"]);
  });

  test("a partial failure records exactly the records that were applied; the next update applies the rest", async () => {
    const domainId = await zone();
    const records = Array.from({ length: 20 }, (_, i) => ({ type: "A", name: `host${i}`, target: `192.0.2.${i + 1}` }));
    // Maintenance is a refusal that fails at once (a 500 would be resolved by a lookup, below).
    harness.emulator.control.addFault({ pathPattern: "/v4/domains/*/records", method: "POST", kind: "503-maintenance", count: 3 });
    const error = await sets.create({ domainId, records }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ResourceInitError);
    const partial = error as ResourceInitError;
    expect(partial.id).toBe(String(domainId));
    expect(partial.message).toMatch(/^records\["host\d+ A"\]: .*record changes applied and recorded/);
    const recorded = (partial.properties.records as Array<{ name: string }>).map((r) => `A ${r.name}`).sort();
    const inZone = (await zoneRecords(domainId)).map((r) => r.split(" ").slice(0, 2).join(" ")).sort();
    expect(recorded).toEqual(inZone);
    expect(recorded.length).toBeGreaterThan(0);
    expect(recorded.length).toBeLessThan(records.length);

    const finished = await sets.update!(partial.id, partial.properties, { domainId, records });
    expect(diff(domainRecordSetSpec, finished.outs, { domainId, records }).changes).toBe(false);
    expect(await zoneRecords(domainId)).toHaveLength(records.length);
  });

  test("never a twin: records the zone already holds, identical to declared ones, are taken over on create and on update", async () => {
    const lines = captureProgress();
    const domainId = await zone();
    const api = harness.client.domains.records;
    // A run cut off before it saved state left two of the records; a third differs in its target.
    await api.create(Number(domainId), { type: "A", name: "www", target: "192.0.2.10", ttl_sec: 1000 });
    await api.create(Number(domainId), { type: "MX", name: "", target: "mail.example.com", priority: 10, ttl_sec: 2000 });
    await api.create(Number(domainId), { type: "A", name: "api", target: "192.0.2.99" });
    const records = [NATURAL[0]!, NATURAL[1]!, NATURAL[4]!];
    let mark = requests().length;
    const created = await sets.create({ domainId, records });
    expect(
      requests()
        .slice(mark)
        .filter((r) => r.startsWith("POST")),
    ).toEqual(["POST /v4/domains/{id}/records"]); // api A 192.0.2.11 only
    expect(await zoneRecords(domainId)).toEqual(["A api 192.0.2.11", "A api 192.0.2.99", "A www 192.0.2.10", "MX  mail.example.com"]);
    expect(created.outs.records).toHaveLength(3);
    expect(diff(domainRecordSetSpec, created.outs, { domainId, records }).changes).toBe(false);
    expect(lines).toEqual([
      expect.stringMatching(/^taking over 2 record\(s\) the zone already holds, identical to declared ones \(ids \d+, \d+\)$/),
    ]);

    // An update that adds a record made by hand meanwhile takes it over too; the differing one stays unmanaged.
    await api.create(Number(domainId), { type: "TXT", name: "", target: "v=spf1 -all" });
    const more = [...records, NATURAL[6]!, { type: "A", name: "api", target: "192.0.2.12" }];
    mark = requests().length;
    const updated = await sets.update!(created.id, created.outs, { domainId, records: more });
    expect(requests().slice(mark).sort()).toEqual(["GET /v4/domains/{id}/records", "POST /v4/domains/{id}/records"]);
    expect(updated.outs.records).toHaveLength(5);
    expect(await zoneRecords(domainId)).toHaveLength(6);
    await sets.delete!(created.id, updated.outs);
    expect(await zoneRecords(domainId)).toEqual(["A api 192.0.2.99"]);
  });

  test("adoptId takes the zone's identical records over: nothing is created twice, only what is missing", async () => {
    const domainId = await zone();
    const api = harness.client.domains.records;
    await api.create(Number(domainId), { type: "A", name: "www", target: "192.0.2.10", ttl_sec: 1000 });
    await api.create(Number(domainId), { type: "TXT", name: "", target: "v=spf1 -all" });
    await api.create(Number(domainId), { type: "TXT", name: "other", target: "not declared" });
    const records = [NATURAL[0]!, NATURAL[6]!];
    let mark = requests().length;
    const adopted = await sets.create({ domainId, records, adoptId: domainId });
    expect(
      requests()
        .slice(mark)
        .filter((r) => !r.startsWith("GET")),
    ).toEqual([]);
    expect(adopted.outs.records).toHaveLength(2);
    expect(diff(domainRecordSetSpec, adopted.outs, { domainId, records }).changes).toBe(false);
    expect((await sets.read!(adopted.id, adopted.outs)).props).toEqual(adopted.outs);

    const withMx = [...records, NATURAL[4]!];
    mark = requests().length;
    const second = await sets.create({ domainId, records: withMx, adoptId: domainId });
    expect(
      requests()
        .slice(mark)
        .filter((r) => !r.startsWith("GET")),
    ).toEqual(["POST /v4/domains/{id}/records"]);
    expect(second.outs.records).toHaveLength(3);
    expect(await zoneRecords(domainId)).toHaveLength(4);
  });

  test.each([
    ["reset-after", "landed", /: the create request failed \(.*\) but had created it \(id \d+\); kept$/],
    ["500", "did not land", /: the create request failed \(.*\) and it did not land; sending it again$/],
  ] as const)(
    "a record create that fails ambiguously (%s: it %s) is resolved by listing the zone: exactly one record",
    async (kind, _landed, line) => {
      const lines = captureProgress();
      const domainId = await zone();
      harness.emulator.control.addFault({ pathPattern: "/v4/domains/*/records", method: "POST", kind, count: 1 });
      const records = NATURAL.slice(0, 3);
      const created = await sets.create({ domainId, records });
      expect(await zoneRecords(domainId)).toEqual(["A api 192.0.2.11", "A api 192.0.2.12", "A www 192.0.2.10"]);
      expect(created.outs.records).toHaveLength(3);
      expect(diff(domainRecordSetSpec, created.outs, { domainId, records }).changes).toBe(false);
      expect(lines.filter((l) => l.startsWith("records["))).toEqual([expect.stringMatching(line)]);
    },
  );

  test("delete removes the set's records only, one request each; records already gone are fine", async () => {
    const domainId = await zone();
    await harness.client.domains.records.create(Number(domainId), { type: "TXT", name: "other", target: "keep me" });
    const created = await sets.create({ domainId, records: NATURAL.slice(0, 3) });
    const first = (created.outs.records as Array<{ id: number }>)[0]!;
    await harness.client.domains.records.delete(Number(domainId), first.id);
    const mark = requests().length;
    await sets.delete!(created.id, created.outs);
    expect(requests().slice(mark)).toEqual(Array(3).fill("DELETE /v4/domains/{id}/records/{id}"));
    expect(await zoneRecords(domainId)).toEqual(["TXT other keep me"]);
  });
});

test("runBounded keeps at most `limit` in flight and lets those in flight finish after a failure", async () => {
  let inFlight = 0;
  let peak = 0;
  const finished: number[] = [];
  const failure = await runBounded([1, 2, 3, 4, 5, 6, 7, 8], 3, async (n) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    await new Promise((r) => setTimeout(r, n === 2 ? 1 : 10));
    inFlight--;
    if (n === 2) throw new Error("two");
    finished.push(n);
  });
  expect((failure as Error).message).toBe("two");
  expect(peak).toBe(3);
  // 1 and 3 were in flight when 2 failed: they finished; nothing new started.
  expect(finished.sort()).toEqual([1, 3]);
});
