/**
 * Scale through the real Pulumi engine against the emulator over HTTP:
 *
 * - a refresh of a domain's records is served by one listing of them (coalesced reads), and a
 *   record deleted behind Pulumi's back meanwhile still reads as gone (its own GET says 404);
 *   `up` then makes one request per change;
 * - with the emulator's rate limits on (tighter than the documented ones, so that 300 creates need
 *   several windows), an `up` of 300 records succeeds first time: the provider paces itself from
 *   the rate-limit headers, and any 429 is retried, never a failed resource.
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { Domain, DomainRecord } from "../../provider";
import { driftFromEvents } from "../../provider/stack/refresh-drift";
import { createTestStack, eventRecorder, type TestStack } from "../support/engine";

jest.setTimeout(600_000);

const requests = (emulator: RunningEmulator) => emulator.control.listRequests().map((r) => `${r.method} ${r.path.replace(/\d+/g, "#")}`);

describe("coalesced refresh", () => {
  const N = 60;
  let emulator: RunningEmulator;
  let client: ComputeClient;
  let testStack: TestStack;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
    testStack = await createTestStack({
      name: "coalesced",
      apiUrl: emulator.url,
      token: emulator.token,
      // The checks read requests and the state after each operation, not a state left mid-way.
      ephemeral: { checkpoints: false },
      program: async () => {
        const zone = new Domain("zone", { domain: "coalesced.example", type: "master", soaEmail: "admin@coalesced.example" });
        const records = Array.from(
          { length: N },
          (_, i) => new DomainRecord(`r${i}`, { domainId: zone.id, type: "A", name: `host-${i}`, target: "192.0.2.1", ttlSec: 300 }),
        );
        return { zoneId: zone.id, ids: records.map((r) => r.id) };
      },
    });
  });

  afterAll(async () => {
    await testStack?.stack.destroy().catch(() => undefined);
    testStack?.cleanup();
    await client?.close();
    await emulator?.close();
  });

  test(`a refresh of ${N} records is one listing; a record deleted behind Pulumi's back reads as gone`, async () => {
    emulator.control.clearRequests();
    const up = await testStack.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ create: N + 2 });
    // One request per record; for the domain its name's lookups (at check, which a preview makes
    // too, and right before the create) and its create; for all the records one read of the zone's
    // name and one listing of the zone (their natural-key lookups).
    const upRequests = requests(emulator);
    expect(upRequests.filter((r) => r.startsWith("POST /v#/domains/#/records"))).toHaveLength(N);
    expect(upRequests.length).toBeLessThanOrEqual(N + 4 + Math.ceil(N / 500));
    const zoneId = Number(up.outputs.zoneId!.value);
    const ids = (up.outputs.ids!.value as string[]).map(Number);

    // Behind Pulumi's back: one record deleted, another changed.
    await client.domains.records.delete(zoneId, ids[5]!);
    await client.domains.records.update(zoneId, ids[6]!, { target: "198.51.100.6" });

    emulator.control.clearRequests();
    const recorder = eventRecorder();
    const refresh = await testStack.stack.refresh({ onEvent: recorder.onEvent });
    expect(refresh.summary.resourceChanges).toMatchObject({ delete: 1, update: 1, same: N });
    const byResource = (a: { resource: string }, b: { resource: string }) => a.resource.localeCompare(b.resource);
    expect(driftFromEvents(recorder.events).sort(byResource)).toEqual([
      { resource: "r5", type: "DomainRecord", field: "(the object)", state: `id ${ids[5]}`, cloud: "gone" },
      { resource: "r6", type: "DomainRecord", field: "target", state: "192.0.2.1", cloud: "198.51.100.6" },
    ]);
    expect(requests(emulator).sort()).toEqual(
      [
        "GET /v#/domains/#", // the Domain's own read
        "GET /v#/domains/#", // the listing reads the zone's name with the records
        "GET /v#/domains/#/records?page=#&page_size=#", // every record of the zone, 500 to a page
        "GET /v#/domains/#/records/#", // the deleted record, missing from the listing: its 404 says gone
      ].sort(),
    );
    expect(refresh.summary.resourceChanges).not.toHaveProperty("create");
    expect(testStack.resources().filter((r) => r.type.endsWith("DomainRecord"))).toHaveLength(N - 1);

    // up restores both: one request per change, and one read of the zone's name.
    emulator.control.clearRequests();
    const restore = await testStack.stack.up();
    expect(restore.summary.resourceChanges).toMatchObject({ create: 1, update: 1 });
    expect(requests(emulator).sort()).toEqual(
      [
        "GET /v#/domains/#",
        "GET /v#/domains/#/records?page=#&page_size=#",
        "POST /v#/domains/#/records",
        "PUT /v#/domains/#/records/#",
      ].sort(),
    );
    expect(Object.keys((await testStack.stack.preview()).changeSummary)).toEqual(["same"]);
  });
});

describe("rate limits", () => {
  const N = 300;
  /** 50 creates per 5 s per operation and 200 requests per 10 s in all: 300 creates need at least six windows. */
  const LIMITS = { general: { limit: 200, windowMs: 10_000 }, operation: { limit: 50, windowMs: 5_000 } };
  let emulator: RunningEmulator;
  let testStack: TestStack;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, rateLimits: LIMITS });
    testStack = await createTestStack({
      name: "paced",
      apiUrl: emulator.url,
      token: emulator.token,
      // 302 resources, each step a save of the whole state with checkpoints: the checks read the
      // requests, and without the saves the engine hands the creates to the provider faster.
      ephemeral: { checkpoints: false },
      program: async () => {
        const zone = new Domain("zone", { domain: "paced.example", type: "master", soaEmail: "admin@paced.example" });
        for (let i = 0; i < N; i++) new DomainRecord(`r${i}`, { domainId: zone.id, type: "TXT", name: `t${i}`, target: `v${i}` });
      },
    });
  });

  afterAll(async () => {
    await testStack?.stack.destroy().catch(() => undefined);
    testStack?.cleanup();
    await emulator?.close();
  });

  test(`an up of ${N} records succeeds first time, paced under the limits`, async () => {
    const started = Date.now();
    const up = await testStack.stack.up();
    const seconds = (Date.now() - started) / 1000;
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toMatchObject({ create: N + 2 });
    const log = emulator.control.listRequests();
    const creates = log.filter((r) => r.method === "POST" && r.path.endsWith("/records"));
    const accepted = creates.filter((r) => r.status === 200);
    expect(accepted).toHaveLength(N); // every record once: a refused create was retried, none doubled
    // Nothing beyond what retries of 429s need: one accepted POST per record; the domain's two
    // lookups (check's, the create's) and create; the zone's name and its listing (the records' natural-key lookups).
    expect(log.filter((r) => r.status !== 429).length).toBeLessThanOrEqual(N + 4 + Math.ceil(N / 500));
    const refused = log.filter((r) => r.status === 429).length;
    const times = accepted.map((r) => Date.parse(r.at));
    const rate = N / ((Math.max(...times) - Math.min(...times)) / 1000);
    console.log(
      `rate-limited up of ${N} records: ${seconds.toFixed(1)} s, ${refused} answers 429, ` +
        `${rate.toFixed(1)} creates/s against a limit of ${LIMITS.operation.limit / (LIMITS.operation.windowMs / 1000)}/s`,
    );
    // Fixed windows allow a little more than the average at their edges, never twice.
    expect(rate).toBeLessThan((2 * LIMITS.operation.limit) / (LIMITS.operation.windowMs / 1000));
  });
});
