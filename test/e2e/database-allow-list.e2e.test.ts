/**
 * A database's allow list shared by several stacks, end to end through the real Pulumi engine
 * against the emulator over HTTP (time scale 600: a database provisions in seconds, an update's
 * minute is 0.1 s): a data stack owns a MySQL database without `allowList` and one entry of its
 * own; two app stacks each add their address with DatabaseAllowListEntry, their `up`s at the same
 * time (two engines, two provider processes), while an address added in the console stays. The
 * list ends with every address once; no stack's preview sees another's address as a change; an
 * address removed by hand is found gone by a refresh of its stack and added again by the next
 * `up`; destroying one app stack removes exactly its address; a program that sets a database's
 * `allowList` and adds an entry to it fails before writing the entry, saying which to use.
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { DatabaseAllowListEntry, MysqlDatabase } from "../../provider";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { driftFromEvents } from "../../provider/stack/refresh-drift";
import { createTestStack, type TestStack } from "../support/engine";

jest.setTimeout(600_000);

let emulator: RunningEmulator;
let client: ComputeClient;
const stacks: TestStack[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, timeScale: 600 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
});

afterAll(async () => {
  for (const s of stacks.reverse()) {
    await s.stack.destroy().catch(() => undefined);
    s.cleanup();
  }
  await client?.close();
  await emulator?.close();
});

async function stackFor(name: string, program: () => Promise<Record<string, unknown> | void>): Promise<TestStack> {
  const s = await createTestStack({ name, apiUrl: emulator.url, token: emulator.token, program });
  stacks.push(s);
  return s;
}

const database = { region: "us-iad", type: "g6-nanode-1", engineId: "mysql/8" };
const allowList = async (id: number) => (await client.databases.mysql.get(id)).allow_list;
/** A change by hand, as in the console: once the database takes updates. */
async function byHand(id: number, change: (list: string[]) => string[]) {
  await client.databases.mysql.waitForStatus(id, { timeoutMs: 60_000 });
  await client.databases.mysql.update(id, { allow_list: change(await allowList(id)) });
  await client.databases.mysql.waitForStatus(id, { timeoutMs: 60_000 });
}

test("two app stacks add their addresses to the data stack's database at the same time; refresh and destroy touch only their own", async () => {
  const data = await stackFor("dal-data", async () => {
    const db = new MysqlDatabase("db", { label: "e2e-shared-db", ...database });
    new DatabaseAllowListEntry("ops", { engine: "mysql", databaseId: db.id, address: "203.0.113.10" });
    return { databaseId: db.id };
  });
  const up = await data.stack.up();
  const databaseId = Number(up.outputs.databaseId!.value);
  expect(await allowList(databaseId)).toEqual(["203.0.113.10"]);
  await byHand(databaseId, (list) => [...list, "198.51.100.77"]); // the console's

  const app = (n: number) =>
    stackFor(`dal-app${n}`, async () => {
      new DatabaseAllowListEntry("to-db", { engine: "mysql", databaseId, address: `10.0.${n}.0/24` });
    });
  const [app1, app2] = [await app(1), await app(2)];
  const ups = await Promise.all([app1.stack.up(), app2.stack.up()]);
  for (const result of ups) expect(result.summary.resourceChanges).toMatchObject({ create: 2 });
  expect([...(await allowList(databaseId))].sort()).toEqual(["10.0.1.0/24", "10.0.2.0/24", "198.51.100.77", "203.0.113.10"]);

  // No stack sees another's address as its own change: the database stack leaves the list alone.
  for (const s of [data, app1, app2]) {
    const preview = await s.stack.preview({ refresh: true });
    expect(preview.changeSummary).not.toHaveProperty("update");
    expect(preview.changeSummary).not.toHaveProperty("create");
    expect(preview.changeSummary).not.toHaveProperty("delete");
  }

  // app1's address removed by hand: a refresh of app1 finds its entry gone, the others nothing; its next up adds it again.
  await byHand(databaseId, (list) => list.filter((a) => a !== "10.0.1.0/24"));
  expect((await app2.stack.refresh()).summary.resourceChanges).not.toHaveProperty("delete");
  // The drift report (a refresh preview, as `pulumi-compute drift` runs it) names the entry gone.
  const events: EngineEvent[] = [];
  await app1.stack.previewRefresh({ onEvent: (e) => events.push(e) });
  expect(driftFromEvents(events)).toEqual([
    {
      resource: expect.any(String),
      type: "DatabaseAllowListEntry",
      field: "(the object)",
      state: expect.stringMatching(/^id /),
      cloud: "gone",
    },
  ]);
  expect((await app1.stack.refresh()).summary.resourceChanges).toMatchObject({ delete: 1 });
  expect((await app1.stack.up()).summary.resourceChanges).toMatchObject({ create: 1 });
  expect([...(await allowList(databaseId))].sort()).toEqual(["10.0.1.0/24", "10.0.2.0/24", "198.51.100.77", "203.0.113.10"]);

  // Destroying app2 removes exactly its address.
  await app2.stack.destroy();
  expect([...(await allowList(databaseId))].sort()).toEqual(["10.0.1.0/24", "198.51.100.77", "203.0.113.10"]);
});

test("a program that sets a database's allowList and adds an entry to it fails before writing the entry, saying which to use", async () => {
  const s = await stackFor("dal-both", async () => {
    const db = new MysqlDatabase("owned", { label: "e2e-owned-db", ...database, allowList: ["192.0.2.0/24"] });
    new DatabaseAllowListEntry("extra", { engine: "mysql", databaseId: db.id, address: "203.0.113.20" });
  });
  await s.stack.up().then(
    () => {
      throw new Error("the up should have failed");
    },
    (error: Error) => {
      expect(error.message).toMatch(/has its allow list set by a MysqlDatabase resource of this program/);
      expect(error.message).toMatch(/remove allowList from the MysqlDatabase/);
    },
  );
  const [db] = (await client.databases.mysql.listAll()).filter((d) => d.label === "e2e-owned-db");
  expect(db!.allow_list).toEqual(["192.0.2.0/24"]);
  // Once created, the conflict is known at preview.
  await expect(s.stack.preview()).rejects.toThrow(/has its allow list set by a MysqlDatabase resource of this program/);
});
