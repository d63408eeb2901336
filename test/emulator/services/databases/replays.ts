/**
 * The database recordings of the 4.174 platform replayed (and the database event listings),
 * bringing the database to the recorded status first on an emulator whose clock moves only by
 * hand; besides the shape, a replayed record must have the recorded status. The `*.current.json`
 * recordings belong to a later platform (`members`, `platform`, `hosts.standby`): the sdk schemas
 * parse them (test/sdk/fixtures.test.ts), the emulator mirrors 4.174.
 */
import { DATABASE_DURATIONS } from "../../../../emulator/services/databases/machine";
import { ok, type ApiResponse, type TestEmulator } from "../../helpers";
import { type Replay, replayModule } from "../../replay";
import { expectMatchesRecording, load, shapeDifferences } from "../../../support/fixtures";

const DISK_FIELDS = /\.(total|used)_disk_size_gb: not in the recording$/;

type Engine = "mysql" | "postgresql";
const base = (engine: Engine) => `/databases/${engine}/instances`;

/** The recorded create body of the engine (a 3-node cluster in ap-west with an allow list). */
const createBody = (engine: Engine) => load(`database_${engine}.create.json`).request;

/** Recorded status of the records that carry one, which the replay must reproduce too. */
function recordedStatuses(value: any): unknown {
  if (Array.isArray(value?.data)) return value.data.map((item: any) => item.status);
  return value?.status;
}

function databaseSteps(emu: TestEmulator) {
  const advance = (ms: number) => emu.control.setClock({ advanceMs: ms });
  const provisioning = (engine: Engine) => ok(emu.post(base(engine), createBody(engine)));
  const active = async (engine: Engine) => {
    const db = await provisioning(engine);
    advance(DATABASE_DURATIONS.provisionMaxMs);
    return db;
  };
  const withSnapshot = async (engine: Engine) => {
    const db = await active(engine);
    await ok(emu.post(`${base(engine)}/${db.id}/backups`, load(`database_${engine}.backup_create.json`).request));
    advance(DATABASE_DURATIONS.snapshotMs);
    const [backup] = (await ok(emu.get(`${base(engine)}/${db.id}/backups`))).data;
    return { db, backup };
  };
  return { advance, provisioning, active, withSnapshot };
}

/** Replays shared by both engines. */
function engineReplays(emu: TestEmulator, engine: Engine): Record<string, Replay> {
  const { active, withSnapshot } = databaseSteps(emu);
  const b = base(engine);
  return {
    [`database_${engine}.create.json`]: (f) => emu.post(b, f.request),
    [`database_${engine}.list.json`]: async (f) => {
      // The recorded listing starts with a single-node database without an allow list.
      const first = { ...createBody(engine), label: "first-db", cluster_size: 1, replication_type: undefined, allow_list: [] };
      if (f.response.data.length > 1) await ok(emu.post(b, first));
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

export const databaseReplays = replayModule({
  name: "databases",
  options: { timeScale: 0 },
  replays: (emu) => {
    const { advance, provisioning, active } = databaseSteps(emu);
    const mysql = base("mysql");
    const events = () => emu.get("/account/events", { query: { page: 1 } });
    const updateEvents = () =>
      emu.get("/account/events", { query: { page: 1 }, headers: { "X-Filter": JSON.stringify({ action: "database_update" }) } });
    return {
      ...engineReplays(emu, "mysql"),
      ...engineReplays(emu, "postgresql"),
      "database_engine.list.json": () => emu.get("/databases/engines"),
      "database_engine.get.json": (f) => emu.get(f.path),
      "database_instance.list.json": async () => {
        await ok(emu.post(mysql, { label: "first-db", region: "us-iad", type: "g6-nanode-1", engine: "mysql/5.7.39" }));
        await active("postgresql");
        return emu.get("/databases/instances");
      },
      "database_mysql.get.after_update.json": async () => {
        const db = await active("mysql");
        await ok(emu.put(`${mysql}/${db.id}`, load("database_mysql.update.json").request));
        advance(DATABASE_DURATIONS.updateMs);
        return emu.get(`${mysql}/${db.id}`);
      },
      "database_mysql.get.during_patch.json": async () => {
        const db = await active("mysql");
        await ok(emu.post(`${mysql}/${db.id}/patch`));
        return emu.get(`${mysql}/${db.id}`);
      },
      "database_mysql.get.during_backup.json": async () => {
        const db = await active("mysql");
        await ok(emu.post(`${mysql}/${db.id}/backups`, { label: "snap" }));
        return emu.get(`${mysql}/${db.id}`);
      },
      "database_mysql.backup.list.empty.json": async () => {
        const db = await active("mysql");
        await ok(emu.post(`${mysql}/${db.id}/backups`, { label: "snap" }));
        return emu.get(`${mysql}/${db.id}/backups`);
      },
      "event.list.database_create.notification.json": async () => (await provisioning("mysql"), events()),
      "event.list.database_create.finished.json": async () => (await active("mysql"), events()),
      "event.list.database_update.notification.json": async () => {
        const db = await active("mysql");
        await ok(emu.put(`${mysql}/${db.id}`, { label: "renamed" }));
        return updateEvents();
      },
      "event.list.database_update.finished.json": async () => {
        const db = await active("mysql");
        await ok(emu.put(`${mysql}/${db.id}`, { label: "renamed" }));
        advance(DATABASE_DURATIONS.updateMs);
        return updateEvents();
      },
    };
  },
  compare: (name: string, response: ApiResponse, fixture) => {
    // The description of 4.174 lists both disk fields on every record; its recordings lack them.
    const documented = shapeDifferences(response.body, fixture.response).filter((d) => DISK_FIELDS.test(d));
    expectMatchesRecording(response, fixture, documented);
    if (!name.startsWith("database_instance") && !name.endsWith("list.json")) {
      expect(recordedStatuses(response.body)).toEqual(recordedStatuses(fixture.response));
    }
  },
});
