/**
 * Replays the call behind every recorded database fixture of the 4.174 platform (and the
 * database event listings) against the emulator, bringing the database to the recorded status
 * first, and compares the answer's shape with the recording: the same keys, recursively. The
 * `*.current.json` fixtures belong to a later platform (`members`, `platform`, `hosts.standby`):
 * the sdk schemas parse them (test/sdk/resources/databases.test.ts), the emulator mirrors 4.174.
 */
import * as fs from "node:fs";
import { DATABASE_DURATIONS } from "../../../../emulator/services/databases/machine";
import { startTestEmulator, type ApiResponse, type TestEmulator } from "../../helpers";
import { FIXTURES, load, shapeDifferences, type Fixture } from "../../../support/fixtures";


let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ timeScale: 0 });
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

const advance = (ms: number) => emu.control.setClock({ advanceMs: ms });

async function ok(r: Promise<ApiResponse>): Promise<any> {
  const response = await r;
  expect(response.status).toBe(200);
  return response.body;
}

type Engine = "mysql" | "postgresql";
const base = (engine: Engine) => `/databases/${engine}/instances`;

/** The recorded create body of the engine (a 3-node cluster in ap-west with an allow list). */
const createBody = (engine: Engine) => load(`database_${engine}.create.json`).request;

async function provisioning(engine: Engine) {
  return ok(emu.post(base(engine), createBody(engine)));
}

async function active(engine: Engine) {
  const db = await provisioning(engine);
  advance(DATABASE_DURATIONS.provisionMaxMs);
  return db;
}

async function withSnapshot(engine: Engine) {
  const db = await active(engine);
  await ok(emu.post(`${base(engine)}/${db.id}/backups`, load(`database_${engine}.backup_create.json`).request));
  advance(DATABASE_DURATIONS.snapshotMs);
  const [backup] = (await ok(emu.get(`${base(engine)}/${db.id}/backups`))).data;
  return { db, backup };
}

/** Replays shared by both engines, keyed by the fixture name's suffix. */
function engineReplays(engine: Engine): Record<string, (f: Fixture) => Promise<ApiResponse>> {
  const b = base(engine);
  return {
    [`database_${engine}.create.json`]: (f) => emu.post(b, f.request),
    [`database_${engine}.list.json`]: async (f) => {
      // The recorded listing starts with a single-node database without an allow list.
      if (f.response.data.length > 1) await ok(emu.post(b, { ...createBody(engine), label: "first-db", cluster_size: 1, replication_type: undefined, allow_list: [] }));
      await active(engine);
      return emu.get(b);
    },
    [`database_${engine}.get.json`]: async () => emu.get(`${b}/${(await active(engine)).id}`),
    [`database_${engine}.update.json`]: async (f) => emu.put(`${b}/${(await active(engine)).id}`, f.request),
    [`database_${engine}.ssl.json`]: async () => emu.get(`${b}/${(await active(engine)).id}/ssl`),
    [`database_${engine}.credentials.json`]: async () => emu.get(`${b}/${(await active(engine)).id}/credentials`),
    [`database_${engine}.credentials_reset.json`]: async () => emu.post(`${b}/${(await active(engine)).id}/credentials/reset`),
    [`database_${engine}.patch.json`]: async () => emu.post(`${b}/${(await active(engine)).id}/patch`),
    [`database_${engine}.backup_create.json`]: async (f) => emu.post(`${b}/${(await active(engine)).id}/backups`, f.request),
    [`database_${engine}.backup.list.json`]: async () => emu.get(`${b}/${(await withSnapshot(engine)).db.id}/backups`),
    [`database_${engine}.backup.get.json`]: async () => {
      const { db, backup } = await withSnapshot(engine);
      return emu.get(`${b}/${db.id}/backups/${backup.id}`);
    },
    [`database_${engine}.delete.json`]: async () => emu.del(`${b}/${(await active(engine)).id}`),
  };
}

const REPLAYS: Record<string, (f: Fixture) => Promise<ApiResponse>> = {
  ...engineReplays("mysql"),
  ...engineReplays("postgresql"),
  "database_engine.list.json": () => emu.get("/databases/engines"),
  "database_engine.get.json": (f) => emu.get(f.path),
  "database_instance.list.json": async () => {
    await ok(emu.post(base("mysql"), { label: "first-db", region: "us-iad", type: "g6-nanode-1", engine: "mysql/5.7.39" }));
    await active("postgresql");
    return emu.get("/databases/instances");
  },
  "database_mysql.get.after_update.json": async () => {
    const db = await active("mysql");
    await ok(emu.put(`${base("mysql")}/${db.id}`, load("database_mysql.update.json").request));
    advance(DATABASE_DURATIONS.updateMs);
    return emu.get(`${base("mysql")}/${db.id}`);
  },
  "database_mysql.get.during_patch.json": async () => {
    const db = await active("mysql");
    await ok(emu.post(`${base("mysql")}/${db.id}/patch`));
    return emu.get(`${base("mysql")}/${db.id}`);
  },
  "database_mysql.get.during_backup.json": async () => {
    const db = await active("mysql");
    await ok(emu.post(`${base("mysql")}/${db.id}/backups`, { label: "snap" }));
    return emu.get(`${base("mysql")}/${db.id}`);
  },
  "database_mysql.backup.list.empty.json": async () => {
    const db = await active("mysql");
    await ok(emu.post(`${base("mysql")}/${db.id}/backups`, { label: "snap" }));
    return emu.get(`${base("mysql")}/${db.id}/backups`);
  },
  "event.list.database_create.notification.json": async () => (await provisioning("mysql"), emu.get("/account/events", { query: { page: 1 } })),
  "event.list.database_create.finished.json": async () => (await active("mysql"), emu.get("/account/events", { query: { page: 1 } })),
  "event.list.database_update.notification.json": async () => {
    const db = await active("mysql");
    await ok(emu.put(`${base("mysql")}/${db.id}`, { label: "renamed" }));
    return emu.get("/account/events", { query: { page: 1 }, headers: { "X-Filter": JSON.stringify({ action: "database_update" }) } });
  },
  "event.list.database_update.finished.json": async () => {
    const db = await active("mysql");
    await ok(emu.put(`${base("mysql")}/${db.id}`, { label: "renamed" }));
    advance(DATABASE_DURATIONS.updateMs);
    return emu.get("/account/events", { query: { page: 1 }, headers: { "X-Filter": JSON.stringify({ action: "database_update" }) } });
  },
};

/** Recorded status of the records that carry one, which the replay must reproduce too. */
function recordedStatuses(value: any): unknown {
  if (Array.isArray(value?.data)) return value.data.map((item: any) => item.status);
  return value?.status;
}

const FOUR_174 = fs.readdirSync(FIXTURES).filter((name) => /^database_/.test(name) && !name.includes(".current."));

test("every 4.174 database fixture has a replay", () => {
  expect(FOUR_174.length).toBeGreaterThanOrEqual(30);
  expect(FOUR_174.filter((name) => !(name in REPLAYS))).toEqual([]);
});

test.each(Object.keys(REPLAYS))("%s", async (name) => {
  const fixture = load(name);
  const response = await REPLAYS[name]!(fixture);
  expect(response.status).toBe(fixture.status);
  expect(shapeDifferences(response.body, fixture.response)).toEqual([]);
  if (!name.startsWith("database_instance") && !name.endsWith("list.json")) {
    expect(recordedStatuses(response.body)).toEqual(recordedStatuses(fixture.response));
  }
});
