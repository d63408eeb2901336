/**
 * Managed databases in the emulator, over real HTTP: records and their lifecycle on the clock
 * (api-facts P3-1), one test per rule and per row of the spec's status table, the limits
 * (3 snapshots, one backup at a time, unrestricted-only operations), grants and scopes, events
 * (P6-1/P6-2), daily backups, the CA certificate, the forced-failure switch and persistence of
 * pending transitions. The clock is frozen (scale 0) and pushed by hand, so every run is exact.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import "reflect-metadata";
import * as x509 from "@peculiar/x509";
import { Collection } from "../../../../sdk/core/schema";
import { DATABASE_REASONS, Database, DatabaseBackup, DatabaseInstance, DatabaseType } from "../../../../sdk/resources/databases";
import { DATABASE_TYPES } from "../../../../emulator/services/databases/catalog";
import { REASONS } from "../../../../emulator";
import { DATABASE_DURATIONS, provisioningMs } from "../../../../emulator/services/databases/machine";
import { expectError, startTestEmulator, type TestEmulator } from "../../helpers";
import { DATABASES } from "../../../../emulator/services/databases/store";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const MYSQL = "/databases/mysql/instances";
const PG = "/databases/postgresql/instances";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ timeScale: 0 });
});
afterAll(() => emu.close());
beforeEach(() => {
  emu.control.reset();
  // Start every test just after 00:00 UTC, so no nightly backup falls inside it by chance.
  const now = emu.control.getClock().epochMs;
  advance(Math.floor(now / DAY) * DAY + DAY + MINUTE - now);
});

const advance = (ms: number) => emu.control.setClock({ advanceMs: ms });

function mysqlBody(label = "db-one", extra: Record<string, unknown> = {}) {
  return { label, region: "us-iad", type: "g6-nanode-1", engine: "mysql/8.0.30", ...extra };
}
function pgBody(label = "pg-one", extra: Record<string, unknown> = {}) {
  return { label, region: "us-ord", type: "g6-standard-1", engine: "postgresql/14.6", ...extra };
}

async function create(base = MYSQL, body: Record<string, unknown> = base === MYSQL ? mysqlBody() : pgBody()): Promise<Database> {
  const r = await emu.post(base, body);
  expect(r.status).toBe(200);
  return Database.parse(r.body);
}

/** A database that finished provisioning. */
async function active(base = MYSQL, body?: Record<string, unknown>): Promise<Database> {
  const db = await create(base, body);
  advance(DATABASE_DURATIONS.provisionMaxMs);
  const got = await emu.get(`${base}/${db.id}`);
  expect(got.body.status).toBe("active");
  return Database.parse(got.body);
}

const status = async (base: string, id: number) => (await emu.get(`${base}/${id}`)).body.status as string;
const setStatus = (id: number, to: "failed" | "degraded" | "active") => emu.control.databases.setStatus(id, { status: to });
const events = async () => (await emu.get("/account/events")).body.data as Array<Record<string, any>>;

describe("create, read and provisioning", () => {
  test("a MySQL database starts provisioning in the recorded shape and becomes active on the clock", async () => {
    const r = await emu.post(MYSQL, mysqlBody("db-one", { allow_list: ["203.0.113.1", "192.0.1.0/24"] }));
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual([
      "id",
      "label",
      "type",
      "engine",
      "version",
      "region",
      "status",
      "encrypted",
      "allow_list",
      "cluster_size",
      "hosts",
      "ssl_connection",
      "replication_type",
      "port",
      "updates",
      "created",
      "updated",
      "total_disk_size_gb",
      "used_disk_size_gb",
    ]);
    expect(r.body).toMatchObject({
      label: "db-one",
      type: "g6-nanode-1",
      engine: "mysql",
      version: "8.0.30",
      region: "us-iad",
      status: "provisioning",
      encrypted: false,
      allow_list: ["203.0.113.1", "192.0.1.0/24"],
      cluster_size: 1,
      hosts: { primary: null, secondary: null },
      ssl_connection: false,
      replication_type: "none",
      port: 3306,
      updates: { frequency: "weekly", duration: 3, hour_of_day: 0, day_of_week: null, week_of_month: null },
      // The node type's disk; nothing is used before the database exists (the later platform's recording).
      total_disk_size_gb: 25,
      used_disk_size_gb: null,
    });
    const id = r.body.id as number;
    expect((await emu.get(`${MYSQL}/${id}`)).body).toEqual(r.body);

    // 15–30 minutes, fixed per id: one millisecond before, it is still provisioning.
    const duration = provisioningMs(id);
    expect(duration).toBeGreaterThanOrEqual(15 * MINUTE);
    expect(duration).toBeLessThanOrEqual(30 * MINUTE);
    advance(duration - 1);
    expect(await status(MYSQL, id)).toBe("provisioning");
    advance(1);
    const done = (await emu.get(`${MYSQL}/${id}`)).body;
    expect(done.status).toBe("active");
    expect(done.hosts.primary).toMatch(new RegExp(`^lin-${id}-\\d+-mysql-primary\\.servers\\.computedb\\.net$`));
    expect(done.hosts.secondary).toMatch(new RegExp(`^lin-${id}-\\d+-mysql-primary-private\\.servers\\.computedb\\.net$`));
    // Once active the platform has filled in an hour and a day (api-facts P2-2).
    expect(done.updates.day_of_week).toEqual(expect.any(Number));
    expect(done.updated > done.created).toBe(true);
    expect(done).toMatchObject({ total_disk_size_gb: 25, used_disk_size_gb: 0 });
  });

  test("the create event is a notification, and the same event reads finished once active (P6-1)", async () => {
    const db = await create();
    const [created] = await events();
    expect(created).toMatchObject({
      action: "database_create",
      status: "notification",
      percent_complete: null,
      duration: null,
      username: "emulator-user",
      entity: { label: "db-one", id: db.id, type: "database", url: `/v4/databases/mysql/instances/${db.id}` },
    });
    advance(provisioningMs(db.id));
    const all = await events();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ id: created!.id, status: "finished", percent_complete: 100, duration: provisioningMs(db.id) / 1000 });
  });

  test("a PostgreSQL high-availability cluster: port 5432, asynch replication, commit type local, root linpostgres", async () => {
    const db = await active(PG, pgBody("pg-ha", { cluster_size: 3, ssl_connection: true }));
    expect(db).toMatchObject({
      engine: "postgresql",
      version: "14.6",
      port: 5432,
      cluster_size: 3,
      replication_type: "asynch",
      replication_commit_type: "local",
      ssl_connection: true,
    });
    expect(Object.keys(db)).toEqual([
      "id",
      "label",
      "type",
      "engine",
      "version",
      "region",
      "status",
      "encrypted",
      "allow_list",
      "cluster_size",
      "hosts",
      "ssl_connection",
      "replication_type",
      "replication_commit_type",
      "port",
      "updates",
      "created",
      "updated",
      "total_disk_size_gb",
      "used_disk_size_gb",
    ]);
    expect(db.hosts.primary).toContain("-pgsql-primary.");
    expect((await emu.get(`${PG}/${db.id}/credentials`)).body.username).toBe("linpostgres");
    const mysql = await active(MYSQL, mysqlBody("my-ha", { cluster_size: 3 }));
    expect(mysql.replication_type).toBe("semi_synch");
    expect((await emu.get(`${MYSQL}/${mysql.id}/credentials`)).body.username).toBe("linroot");
  });

  test("lists: per engine, and the all-engines list with instance_uri and without SSL or replication fields", async () => {
    const my = await create(MYSQL);
    const pg = await create(PG);
    expect(
      Collection(Database)
        .parse((await emu.get(MYSQL)).body)
        .data.map((d) => d.id),
    ).toEqual([my.id]);
    expect(
      Collection(Database)
        .parse((await emu.get(PG)).body)
        .data.map((d) => d.id),
    ).toEqual([pg.id]);
    const all = Collection(DatabaseInstance).parse((await emu.get("/databases/instances")).body);
    expect(all.data.map((d) => [d.id, d.instance_uri])).toEqual([
      [my.id, `/v4/databases/mysql/instances/${my.id}`],
      [pg.id, `/v4/databases/postgresql/instances/${pg.id}`],
    ]);
    for (const item of (await emu.get("/databases/instances")).body.data) {
      for (const key of ["ssl_connection", "replication_type", "replication_commit_type"]) expect(item).not.toHaveProperty(key);
    }
    // A database is found only under its own engine's path.
    expect((await emu.get(`${PG}/${my.id}`)).status).toBe(404);
  });

  test("the engine catalog needs no token, lists one id per major as today's API does, and looks ids up with their encoded slash", async () => {
    const list = await emu.get("/databases/engines", { token: null });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      { id: "mysql/8", engine: "mysql", version: "8" },
      ...["13", "14", "15", "16", "17"].map((v) => ({ id: `postgresql/${v}`, engine: "postgresql", version: v })),
    ]);
    expect((await emu.get("/databases/engines/postgresql%2F16", { token: null })).body).toEqual({
      id: "postgresql/16",
      engine: "postgresql",
      version: "16",
    });
    // The 4.174 catalog's ids (recorded: GET /databases/engines/mysql%2F5.7.39) are still found.
    expect((await emu.get("/databases/engines/mysql%2F8.0.30", { token: null })).body).toEqual({
      id: "mysql/8.0.30",
      engine: "mysql",
      version: "8.0.30",
    });
    expectError(await emu.get("/databases/engines/mysql%2F9.9"), 404, REASONS.notFound);
    expectError(await emu.get("/databases/engines/mysql%2F9"), 404, REASONS.notFound);
  });
});

describe("node types (GET /databases/types, in the OpenAPI description of 4.174)", () => {
  test("the list needs no token and is the catalog a create accepts, each type priced per engine for 1 and 3 nodes", async () => {
    const list = await emu.get("/databases/types", { token: null });
    expect(list.status).toBe(200);
    const types = Collection(DatabaseType).parse(list.body).data;
    expect(types.map((t) => t.id)).toEqual(DATABASE_TYPES.map((t) => t.id));
    // The description's example type.
    expect(types[0]).toEqual({
      id: "g6-nanode-1",
      label: "DBaaS - Nanode 1GB",
      class: "nanode",
      disk: 25600,
      memory: 1024,
      vcpus: 1,
      deprecated: false,
      engines: {
        mysql: [
          { quantity: 1, price: { hourly: 0.0225, monthly: 15 } },
          { quantity: 3, price: { hourly: 0.0525, monthly: 35 } },
        ],
        postgresql: [
          { quantity: 1, price: { hourly: 0.0225, monthly: 15 } },
          { quantity: 3, price: { hourly: 0.0525, monthly: 35 } },
        ],
      },
    });
    // Every listed type creates, of either engine; the record's disk is the type's.
    for (const type of [types[1]!, types[types.length - 1]!]) {
      const db = await create(PG, pgBody(`on-${type.id}`, { type: type.id }));
      expect(db.total_disk_size_gb).toBe(type.disk / 1024);
    }
  });

  test("one type by id, filters, and 404 for a type the catalog lacks", async () => {
    expect((await emu.get("/databases/types/g6-dedicated-2", { token: null })).body).toMatchObject({
      id: "g6-dedicated-2",
      class: "dedicated",
      engines: {
        mysql: [
          { quantity: 1, price: { monthly: 65 } },
          { quantity: 3, price: { monthly: 195 } },
        ],
      },
    });
    const dedicated = await emu.get("/databases/types", { headers: { "X-Filter": JSON.stringify({ class: "dedicated" }) } });
    expect(dedicated.body.results).toBe(5);
    expectError(await emu.get("/databases/types/g6-nanode-2"), 404, REASONS.notFound);
  });
});

describe("engine ids: today's major-only form and the 4.174 catalog's full versions", () => {
  test.each([
    [MYSQL, "mysql/8", "8.0.35"],
    [PG, "postgresql/13", "13.18"],
    [PG, "postgresql/14", "14.15"],
    [PG, "postgresql/15", "15.10"],
    [PG, "postgresql/16", "16.6"],
    [PG, "postgresql/17", "17.2"],
  ])("%s with engine %s provisions the newest version of that major, %s", async (base, engine, version) => {
    const body = base === MYSQL ? mysqlBody("major", { engine }) : pgBody("major", { engine });
    const created = await create(base, body);
    expect(created.version).toBe(version);
    expect((await emu.get(`${base}/${created.id}`)).body.version).toBe(version);
  });

  test.each([
    [MYSQL, "mysql/8.0.30"],
    [MYSQL, "mysql/5.7.39"],
    [PG, "postgresql/14.6"],
    [PG, "postgresql/10.23"],
  ])("%s with the 4.174 id %s provisions exactly that version", async (base, engine) => {
    const body = base === MYSQL ? mysqlBody("full", { engine }) : pgBody("full", { engine });
    expect((await create(base, body)).version).toBe(engine.split("/")[1]);
  });

  test.each([
    [MYSQL, "mysql/5"],
    [MYSQL, "mysql/9"],
    [PG, "postgresql/12"],
    [PG, "postgresql/18"],
    [PG, "postgresql/16.99"],
  ])("%s refuses %s: not a major on offer, nor a catalog version", async (base, engine) => {
    const body = base === MYSQL ? mysqlBody("none", { engine }) : pgBody("none", { engine });
    expectError(await emu.post(base, body), 400, DATABASE_REASONS.engineUnknown, "engine");
  });
});

describe("engine_config, newer than 4.174 (linodego recording TestDatabaseMySQL_EngineConfig_Suite.yaml)", () => {
  test("a database created without it has no engine_config, as recorded in 4.174", async () => {
    const db = await create();
    expect(db).not.toHaveProperty("engine_config");
  });

  test("MySQL: stored as sent on create, returned by reads, merged by an update that goes updating", async () => {
    const engine_config = {
      mysql: { connect_timeout: 10, sql_mode: "TRADITIONAL", sql_require_primary_key: true },
      binlog_retention_period: 600,
    };
    const created = await create(MYSQL, mysqlBody("cfg-my", { engine_config }));
    expect(created.engine_config).toEqual(engine_config);
    advance(DATABASE_DURATIONS.provisionMaxMs);
    expect((await emu.get(`${MYSQL}/${created.id}`)).body.engine_config).toEqual(engine_config);

    const r = await emu.put(`${MYSQL}/${created.id}`, { engine_config: { mysql: { connect_timeout: 20 } } });
    expect(r.status).toBe(200);
    expect(r.body.engine_config).toEqual({ ...engine_config, mysql: { ...engine_config.mysql, connect_timeout: 20 } });
    expect(await status(MYSQL, created.id)).toBe("updating");
  });

  test("PostgreSQL: the groups the bridged provider sends empty are accepted and kept", async () => {
    const created = await create(PG, pgBody("cfg-pg", { engine_config: { pg: {}, pglookout: {} } }));
    expect(created.engine_config).toEqual({ pg: {}, pglookout: {} });
    advance(DATABASE_DURATIONS.provisionMaxMs);
    const r = await emu.put(`${PG}/${created.id}`, { engine_config: { work_mem: 4, pg: { jit: true } } });
    expect(r.body.engine_config).toEqual({ pg: { jit: true }, pglookout: {}, work_mem: 4 });
  });

  test("each engine accepts only its own groups, and settings of the right type", async () => {
    expectError(await emu.post(MYSQL, mysqlBody("x-my", { engine_config: { pg: {} } })), 400, "Unknown field: pg", "engine_config");
    expectError(await emu.post(PG, pgBody("x-pg", { engine_config: { mysql: {} } })), 400, "Unknown field: mysql", "engine_config");
    expectError(
      await emu.post(MYSQL, mysqlBody("x-my", { engine_config: { binlog_retention_period: 1.5 } })),
      400,
      DATABASE_REASONS.engineConfigInteger,
      "engine_config.binlog_retention_period",
    );
    expectError(
      await emu.post(PG, pgBody("x-pg", { engine_config: { pg: { jit: { nested: 1 } } } })),
      400,
      DATABASE_REASONS.engineParameters,
      "engine_config.pg.jit",
    );
  });
});

describe("request rules, each with status, field and reason", () => {
  const cases: Array<[string, string, Record<string, unknown>, string, string | undefined]> = [
    ["label too short", MYSQL, mysqlBody("ab"), DATABASE_REASONS.labelLength, "label"],
    ["label too long", MYSQL, mysqlBody("x".repeat(33)), DATABASE_REASONS.labelLength, "label"],
    ["label missing", MYSQL, { ...mysqlBody(), label: undefined }, "label is required", "label"],
    ["unknown region", MYSQL, mysqlBody("db-x", { region: "xx-nowhere" }), DATABASE_REASONS.regionInvalid, "region"],
    ["region without Managed Databases", MYSQL, mysqlBody("db-x", { region: "es-mad" }), DATABASE_REASONS.regionNoDatabases, "region"],
    ["unknown type", MYSQL, mysqlBody("db-x", { type: "g6-huge-99" }), DATABASE_REASONS.typeInvalid, "type"],
    ["engine not in engine/version form", MYSQL, mysqlBody("db-x", { engine: "mysql" }), DATABASE_REASONS.engineFormat, "engine"],
    [
      "engine of the other type",
      MYSQL,
      mysqlBody("db-x", { engine: "postgresql/14.6" }),
      DATABASE_REASONS.engineWrongType("mysql"),
      "engine",
    ],
    ["engine version not offered", MYSQL, mysqlBody("db-x", { engine: "mysql/9.9.9" }), DATABASE_REASONS.engineUnknown, "engine"],
    ["cluster_size 2", MYSQL, mysqlBody("db-x", { cluster_size: 2 }), DATABASE_REASONS.clusterSize, "cluster_size"],
    [
      "MySQL replication_type unknown",
      MYSQL,
      mysqlBody("db-x", { cluster_size: 3, replication_type: "sync" }),
      DATABASE_REASONS.replicationTypeMysql,
      "replication_type",
    ],
    [
      "replication on a single node",
      MYSQL,
      mysqlBody("db-x", { replication_type: "asynch" }),
      DATABASE_REASONS.replicationSingleNode,
      "replication_type",
    ],
    [
      "PostgreSQL replication_type semi_synch",
      PG,
      pgBody("pg-x", { cluster_size: 3, replication_type: "semi_synch" }),
      DATABASE_REASONS.replicationTypePostgresql,
      "replication_type",
    ],
    [
      "replication_commit_type unknown",
      PG,
      pgBody("pg-x", { replication_commit_type: "sometimes" }),
      DATABASE_REASONS.replicationCommitType,
      "replication_commit_type",
    ],
    [
      "replication_commit_type on MySQL",
      MYSQL,
      mysqlBody("db-x", { replication_commit_type: "local" }),
      "Unknown field: replication_commit_type",
      undefined,
    ],
    [
      "allow_list entry that is no address",
      MYSQL,
      mysqlBody("db-x", { allow_list: ["203.0.113.1", "not-an-ip"] }),
      DATABASE_REASONS.allowListEntry,
      "allow_list[1]",
    ],
    [
      "allow_list prefix out of range",
      MYSQL,
      mysqlBody("db-x", { allow_list: ["10.0.0.0/33"] }),
      DATABASE_REASONS.allowListEntry,
      "allow_list[0]",
    ],
    ["encrypted not a boolean", MYSQL, mysqlBody("db-x", { encrypted: "yes" }), DATABASE_REASONS.encrypted, "encrypted"],
  ];
  test.each(cases)("create: %s", async (_name, base, body, reason, field) => {
    expectError(await emu.post(base, body), 400, reason, field);
    expect((await emu.get("/databases/instances")).body.results).toBe(0);
  });

  test("create: the label is unique among the account's databases of both engines", async () => {
    await create(MYSQL, mysqlBody("taken"));
    expectError(await emu.post(PG, pgBody("taken")), 400, DATABASE_REASONS.labelUnique, "label");
  });

  const windows: Array<[string, Record<string, unknown>, string, string]> = [
    ["duration 4", { duration: 4, hour_of_day: 1, day_of_week: 1 }, DATABASE_REASONS.duration, "updates.duration"],
    ["hour_of_day 24", { duration: 1, hour_of_day: 24, day_of_week: 1 }, DATABASE_REASONS.hourOfDay, "updates.hour_of_day"],
    ["day_of_week 0", { duration: 1, hour_of_day: 1, day_of_week: 0 }, DATABASE_REASONS.dayOfWeek, "updates.day_of_week"],
    [
      "frequency daily",
      { frequency: "daily", duration: 1, hour_of_day: 1, day_of_week: 1 },
      DATABASE_REASONS.frequency,
      "updates.frequency",
    ],
    [
      "monthly without week_of_month",
      { frequency: "monthly", duration: 1, hour_of_day: 1, day_of_week: 1 },
      DATABASE_REASONS.weekOfMonthRequired,
      "updates.week_of_month",
    ],
    [
      "weekly with week_of_month",
      { frequency: "weekly", duration: 1, hour_of_day: 1, day_of_week: 1, week_of_month: 2 },
      DATABASE_REASONS.weekOfMonthWeekly,
      "updates.week_of_month",
    ],
    [
      "week_of_month 5",
      { frequency: "monthly", duration: 1, hour_of_day: 1, day_of_week: 1, week_of_month: 5 },
      DATABASE_REASONS.weekOfMonth,
      "updates.week_of_month",
    ],
  ];
  test.each(windows)("update: maintenance window with %s", async (_name, updates, reason, field) => {
    const db = await active();
    expectError(await emu.put(`${MYSQL}/${db.id}`, { updates }), 400, reason, field);
    expect(await status(MYSQL, db.id)).toBe("active");
  });

  test("update: a valid monthly window is stored and echoed (fixtures/database_mysql.update.json)", async () => {
    const db = await active();
    const updates = { day_of_week: 3, duration: 1, frequency: "monthly", hour_of_day: 8, week_of_month: 3 };
    const r = await emu.put(`${MYSQL}/${db.id}`, { updates });
    expect(r.status).toBe(200);
    expect(r.body.updates).toEqual({ frequency: "monthly", duration: 1, hour_of_day: 8, day_of_week: 3, week_of_month: 3 });
  });

  test("update: the label stays unique", async () => {
    await create(MYSQL, mysqlBody("other"));
    const db = await active(MYSQL, mysqlBody("mine"));
    expectError(await emu.put(`${MYSQL}/${db.id}`, { label: "other" }), 400, DATABASE_REASONS.labelUnique, "label");
  });

  test("update: fields that cannot change are unknown to the update body", async () => {
    const db = await active();
    expectError(await emu.put(`${MYSQL}/${db.id}`, { region: "us-ord" }), 400, "Unknown field: region");
  });

  test("resize: only to a known type with more disk space", async () => {
    const db = await active(MYSQL, mysqlBody("db-r", { type: "g6-standard-2" }));
    expectError(await emu.put(`${MYSQL}/${db.id}`, { type: "g6-standard-1" }), 400, DATABASE_REASONS.resizeSmaller, "type");
    expectError(await emu.put(`${MYSQL}/${db.id}`, { type: "g6-dedicated-2" }), 400, DATABASE_REASONS.resizeSmaller, "type"); // same disk
    expectError(await emu.put(`${MYSQL}/${db.id}`, { type: "g6-nonesuch" }), 400, DATABASE_REASONS.typeInvalid, "type");
    expect(await status(MYSQL, db.id)).toBe("active");
  });

  const backupLabels: Array<[string, Record<string, unknown>, string, string]> = [
    ["an empty label", { label: "" }, DATABASE_REASONS.backupLabelLength, "label"],
    ["a label of 31 characters", { label: "a".repeat(31) }, DATABASE_REASONS.backupLabelLength, "label"],
    ["a label with a dash", { label: "nightly-1" }, DATABASE_REASONS.backupLabelChars, "label"],
    ["an unknown target", { label: "snap", target: "replica" }, DATABASE_REASONS.backupTarget, "target"],
  ];
  test.each(backupLabels)("snapshot: %s", async (_name, body, reason, field) => {
    const db = await active();
    expectError(await emu.post(`${MYSQL}/${db.id}/backups`, body), 400, reason, field);
  });

  test("snapshot: the label is unique among the database's backups", async () => {
    const db = await active();
    expect((await emu.post(`${MYSQL}/${db.id}/backups`, { label: "snap_1" })).status).toBe(200);
    advance(DATABASE_DURATIONS.snapshotMs);
    expectError(await emu.post(`${MYSQL}/${db.id}/backups`, { label: "snap_1" }), 400, DATABASE_REASONS.backupLabelUnique, "label");
  });
});

describe("the spec's status table, one row each", () => {
  test("database update requires active", async () => {
    const db = await create();
    expectError(await emu.put(`${MYSQL}/${db.id}`, { label: "renamed" }), 400, DATABASE_REASONS.status("update", "provisioning"));
    advance(DATABASE_DURATIONS.provisionMaxMs);
    const r = await emu.put(`${MYSQL}/${db.id}`, { label: "renamed", allow_list: ["128.173.205.21"] });
    expect(r.body).toMatchObject({ status: "updating", label: "renamed", allow_list: ["128.173.205.21"] });
    expectError(await emu.put(`${MYSQL}/${db.id}`, { label: "again" }), 400, DATABASE_REASONS.status("update", "updating"));
    advance(DATABASE_DURATIONS.updateMs);
    expect(await status(MYSQL, db.id)).toBe("active");
    const update = (await events()).find((e) => e.action === "database_update")!;
    expect(update).toMatchObject({ status: "finished", percent_complete: 100, duration: 60, entity: { label: "renamed" } });
  });

  test("database delete requires active, failed or degraded", async () => {
    const a = await create(MYSQL, mysqlBody("del-a"));
    expectError(await emu.del(`${MYSQL}/${a.id}`), 400, DATABASE_REASONS.status("delete", "provisioning"));
    advance(DATABASE_DURATIONS.provisionMaxMs);
    const b = await create(MYSQL, mysqlBody("del-b"));
    const c = await create(MYSQL, mysqlBody("del-c"));
    const d = await create(MYSQL, mysqlBody("del-d"));
    advance(DATABASE_DURATIONS.provisionMaxMs);
    expect((await emu.put(`${MYSQL}/${d.id}`, { label: "del-d2" })).body.status).toBe("updating");
    expectError(await emu.del(`${MYSQL}/${d.id}`), 400, DATABASE_REASONS.status("delete", "updating"));
    setStatus(b.id, "failed");
    setStatus(c.id, "degraded");
    for (const id of [a.id, b.id, c.id]) expect((await emu.del(`${MYSQL}/${id}`)).status).toBe(200);
    expect((await emu.get(`${MYSQL}/${a.id}`)).status).toBe(404);
    expect(
      (await events())
        .filter((e) => e.action === "database_delete")
        .map((e) => e.entity.id)
        .sort(),
    ).toEqual([a.id, b.id, c.id].sort());
  });

  test("backup restore requires active, degraded or failed", async () => {
    const db = await create();
    expectError(await emu.post(`${MYSQL}/${db.id}/backups/1/restore`), 400, DATABASE_REASONS.status("restore", "provisioning"));
    advance(DATABASE_DURATIONS.provisionMaxMs);
    await emu.post(`${MYSQL}/${db.id}/backups`, { label: "snap" });
    expectError(await emu.post(`${MYSQL}/${db.id}/backups/1/restore`), 400, DATABASE_REASONS.status("restore", "backing_up"));
    advance(DATABASE_DURATIONS.snapshotMs);
    const [backup] = (await emu.get(`${MYSQL}/${db.id}/backups`)).body.data;
    for (const from of ["active", "degraded", "failed"] as const) {
      if (from !== "active") setStatus(db.id, from);
      expect((await emu.post(`${MYSQL}/${db.id}/backups/${backup.id}/restore`)).status).toBe(200);
      expect(await status(MYSQL, db.id)).toBe("restoring");
      advance(DATABASE_DURATIONS.restoreMs);
      expect(await status(MYSQL, db.id)).toBe("active");
    }
    expect((await events()).filter((e) => e.action === "database_backup_restore").map((e) => e.status)).toEqual([
      "finished",
      "finished",
      "finished",
    ]);
    expectError(await emu.post(`${MYSQL}/${db.id}/backups/999999/restore`), 404, REASONS.notFound);
  });

  test("backups list, view and delete accept anything except provisioning", async () => {
    const db = await create();
    for (const [method, suffix] of [
      ["GET", "/backups"],
      ["GET", "/backups/1"],
      ["DELETE", "/backups/1"],
    ] as const) {
      expectError(await emu.api(method, `${MYSQL}/${db.id}${suffix}`), 400, DATABASE_REASONS.status("backups", "provisioning"));
    }
    advance(DATABASE_DURATIONS.provisionMaxMs);
    await emu.post(`${MYSQL}/${db.id}/backups`, { label: "snap" });
    advance(DATABASE_DURATIONS.snapshotMs);
    setStatus(db.id, "degraded");
    const list = Collection(DatabaseBackup).parse((await emu.get(`${MYSQL}/${db.id}/backups`)).body);
    expect(list.data).toEqual([expect.objectContaining({ type: "snapshot", label: "snap" })]);
    const id = list.data[0]!.id;
    expect((await emu.get(`${MYSQL}/${db.id}/backups/${id}`)).body).toEqual(list.data[0]);
    expect((await emu.del(`${MYSQL}/${db.id}/backups/${id}`)).status).toBe(200);
    expectError(await emu.get(`${MYSQL}/${db.id}/backups/${id}`), 404, REASONS.notFound);
  });

  test("snapshot create requires active (and no other backup in progress, below)", async () => {
    const db = await create();
    expectError(await emu.post(`${MYSQL}/${db.id}/backups`, { label: "snap" }), 400, DATABASE_REASONS.status("snapshot", "provisioning"));
    advance(DATABASE_DURATIONS.provisionMaxMs);
    await emu.post(`${MYSQL}/${db.id}/patch`);
    expectError(await emu.post(`${MYSQL}/${db.id}/backups`, { label: "snap" }), 400, DATABASE_REASONS.status("snapshot", "updating"));
  });

  test("credentials view, SSL certificate view and patch require active", async () => {
    const db = await create();
    expectError(await emu.get(`${MYSQL}/${db.id}/credentials`), 400, DATABASE_REASONS.status("credentials", "provisioning"));
    expectError(await emu.get(`${MYSQL}/${db.id}/ssl`), 400, DATABASE_REASONS.status("ssl", "provisioning"));
    expectError(await emu.post(`${MYSQL}/${db.id}/patch`), 400, DATABASE_REASONS.status("patch", "provisioning"));
    advance(DATABASE_DURATIONS.provisionMaxMs);
    expect((await emu.get(`${MYSQL}/${db.id}/credentials`)).status).toBe(200);
    expect((await emu.get(`${MYSQL}/${db.id}/ssl`)).status).toBe(200);
    expect((await emu.post(`${MYSQL}/${db.id}/patch`)).body).toEqual({});
    expect(await status(MYSQL, db.id)).toBe("updating");
    expectError(await emu.post(`${MYSQL}/${db.id}/patch`), 400, DATABASE_REASONS.status("patch", "updating"));
    advance(DATABASE_DURATIONS.patchMs);
    expect(await status(MYSQL, db.id)).toBe("active");
  });
});

describe("limits", () => {
  test("a database holds at most 3 snapshots", async () => {
    const db = await active();
    for (const label of ["s1", "s2", "s3"]) {
      expect((await emu.post(`${MYSQL}/${db.id}/backups`, { label })).status).toBe(200);
      advance(DATABASE_DURATIONS.snapshotMs);
    }
    expectError(await emu.post(`${MYSQL}/${db.id}/backups`, { label: "s4" }), 400, DATABASE_REASONS.snapshotLimit);
    const [newest] = (await emu.get(`${MYSQL}/${db.id}/backups`)).body.data;
    await emu.del(`${MYSQL}/${db.id}/backups/${newest.id}`);
    expect((await emu.post(`${MYSQL}/${db.id}/backups`, { label: "s4" })).status).toBe(200);
  });

  test("one backup at a time: a snapshot while another runs is refused, and it is listed only once done", async () => {
    const db = await active();
    expect((await emu.post(`${MYSQL}/${db.id}/backups`, { label: "first", target: "primary" })).body).toEqual({});
    expect(await status(MYSQL, db.id)).toBe("backing_up");
    expect((await emu.get(`${MYSQL}/${db.id}/backups`)).body).toEqual({ data: [], page: 1, pages: 1, results: 0 });
    expectError(await emu.post(`${MYSQL}/${db.id}/backups`, { label: "second" }), 400, DATABASE_REASONS.backupInProgress);
    advance(DATABASE_DURATIONS.snapshotMs);
    expect(await status(MYSQL, db.id)).toBe("active");
    expect((await emu.get(`${MYSQL}/${db.id}/backups`)).body.data).toEqual([expect.objectContaining({ type: "snapshot", label: "first" })]);
    expect((await events()).find((e) => e.action === "database_backup_create")).toMatchObject({
      status: "finished",
      percent_complete: 100,
    });
  });

  test("delete and credentials reset are for unrestricted users only, whatever the scopes and grants", async () => {
    const db = await active();
    const restricted = emu.control.createToken({
      restricted: true,
      scopes: ["databases:read_write"],
      grants: { database: [{ id: db.id, permissions: "read_write" }] },
    });
    const as = { token: restricted.token };
    expect((await emu.put(`${MYSQL}/${db.id}`, { label: "granted-edit" }, as)).status).toBe(200); // the grant works…
    advance(DATABASE_DURATIONS.updateMs);
    expectError(await emu.del(`${MYSQL}/${db.id}`, as), 403, REASONS.unauthorized); // …but not for these
    expectError(await emu.post(`${MYSQL}/${db.id}/credentials/reset`, undefined, as), 403, REASONS.unauthorized);
    const scoped = emu.control.createToken({ scopes: ["databases:read_write"] }); // unrestricted, same scope
    expect((await emu.post(`${MYSQL}/${db.id}/credentials/reset`, undefined, { token: scoped.token })).status).toBe(200);
    expect((await emu.del(`${MYSQL}/${db.id}`, { token: scoped.token })).status).toBe(200);
  });
});

describe("authorization", () => {
  test("restricted users need add_databases to create, and then get read_write on what they created", async () => {
    const without = emu.control.createToken({ restricted: true });
    expectError(await emu.post(MYSQL, mysqlBody(), { token: without.token }), 403, REASONS.unauthorized);
    const withGrant = emu.control.createToken({ restricted: true, grants: { global: { add_databases: true } } });
    const r = await emu.post(MYSQL, mysqlBody("mine"), { token: withGrant.token });
    expect(r.status).toBe(200);
    await create(MYSQL, mysqlBody("not-mine"));
    const listed = await emu.get("/databases/instances", { token: withGrant.token });
    expect(listed.body.data.map((d: { label: string }) => d.label)).toEqual(["mine"]);
    advance(DATABASE_DURATIONS.provisionMaxMs);
    expect((await emu.put(`${MYSQL}/${r.body.id}`, { label: "mine-2" }, { token: withGrant.token })).status).toBe(200);
  });

  test("a read_only grant views but does not change; no grant is 403; a missing database is 404", async () => {
    const db = await active();
    const reader = emu.control.createToken({ restricted: true, grants: { database: [{ id: db.id, permissions: "read_only" }] } });
    const as = { token: reader.token };
    expect((await emu.get(`${MYSQL}/${db.id}`, as)).status).toBe(200);
    expect((await emu.get(`${MYSQL}/${db.id}/credentials`, as)).status).toBe(200);
    expectError(await emu.put(`${MYSQL}/${db.id}`, { label: "nope" }, as), 403, REASONS.unauthorized);
    expectError(await emu.post(`${MYSQL}/${db.id}/backups`, { label: "nope" }, as), 403, REASONS.unauthorized);
    const stranger = emu.control.createToken({ restricted: true });
    expectError(await emu.get(`${MYSQL}/${db.id}`, { token: stranger.token }), 403, REASONS.unauthorized);
    expectError(await emu.get(`${MYSQL}/999999`, { token: stranger.token }), 404, REASONS.notFound);
  });

  test("scopes: databases:read_only reads, writes need databases:read_write, backups list advertises read_write", async () => {
    const db = await active();
    const reader = emu.control.createToken({ scopes: ["databases:read_only"] });
    const as = { token: reader.token };
    const got = await emu.get(`${MYSQL}/${db.id}`, as);
    expect(got.status).toBe(200);
    expect(got.headers["x-accepted-oauth-scopes"]).toBe("databases:read_only");
    expectError(await emu.post(MYSQL, mysqlBody("x-scope"), as), 401, REASONS.oauthScope);
    const backups = await emu.get(`${MYSQL}/${db.id}/backups`, as);
    expectError(backups, 401, REASONS.oauthScope);
    expect(backups.headers["x-accepted-oauth-scopes"]).toBe("databases:read_write");
    expect((await emu.get("/databases/engines")).headers["x-accepted-oauth-scopes"]).toBe("*");
  });
});

describe("jobs on the clock", () => {
  test("a type change resizes (resizing → active, event database_resize)", async () => {
    const db = await active();
    const r = await emu.put(`${MYSQL}/${db.id}`, { type: "g6-standard-2" });
    expect(r.body).toMatchObject({ type: "g6-standard-2", status: "resizing" });
    advance(DATABASE_DURATIONS.resizeMs - 1);
    expect(await status(MYSQL, db.id)).toBe("resizing");
    advance(1);
    expect(await status(MYSQL, db.id)).toBe("active");
    const actions = (await events()).map((e) => `${e.action}:${e.status}`);
    expect(actions).toContain("database_resize:finished");
    expect(actions).not.toContain("database_update:finished");
  });

  test("credentials: the root user, a reset changes the password, and a restore afterwards leaves the cluster failed", async () => {
    const db = await active();
    const before = (await emu.get(`${MYSQL}/${db.id}/credentials`)).body;
    expect(before).toEqual({ username: "linroot", password: expect.stringMatching(/^[A-Za-z0-9]{16,}$/) });
    await emu.post(`${MYSQL}/${db.id}/backups`, { label: "before_reset" });
    advance(DATABASE_DURATIONS.snapshotMs);
    expect((await emu.post(`${MYSQL}/${db.id}/credentials/reset`)).body).toEqual({});
    const after = (await emu.get(`${MYSQL}/${db.id}/credentials`)).body;
    expect(after.password).not.toBe(before.password);
    expect(await status(MYSQL, db.id)).toBe("active"); // a reset does not change the status (P3-1)
    expect((await events()).some((e) => e.action === "database_credentials_reset" && e.status === "notification")).toBe(true);
    const [backup] = (await emu.get(`${MYSQL}/${db.id}/backups`)).body.data;
    await emu.post(`${MYSQL}/${db.id}/backups/${backup.id}/restore`);
    advance(DATABASE_DURATIONS.restoreMs);
    expect(await status(MYSQL, db.id)).toBe("failed");
    expect((await events()).find((e) => e.action === "database_backup_restore")).toMatchObject({ status: "failed" });
  });

  test("the SSL certificate is a real self-signed CA, base64-encoded PEM", async () => {
    const db = await active(PG);
    const { ca_certificate } = (await emu.get(`${PG}/${db.id}/ssl`)).body;
    const pem = Buffer.from(ca_certificate, "base64").toString("utf8");
    expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+\n-----END CERTIFICATE-----\n$/);
    const certificate = new x509.X509Certificate(pem);
    expect(certificate.subject).toBe(certificate.issuer);
    expect(certificate.subject).toMatch(/^CN=[0-9a-f-]{36} Project CA$/);
    expect(await certificate.isSelfSigned()).toBe(true);
    expect(certificate.getExtension(x509.BasicConstraintsExtension)?.ca).toBe(true);
    expect(certificate.getExtension(x509.KeyUsagesExtension)!.usages & x509.KeyUsageFlags.keyCertSign).toBeTruthy();
    expect(certificate.notAfter.getTime() - certificate.notBefore.getTime()).toBeGreaterThan(9 * 365 * 24 * 3600 * 1000);
  });

  test("automatic backups at 00:00 UTC every day, kept 7 days, none while provisioning", async () => {
    // Start just before midnight: the first midnight falls inside provisioning, so it is skipped.
    const now = emu.control.getClock().epochMs;
    const day = DAY;
    advance(Math.ceil(now / day) * day - now - MINUTE);
    const db = await create();
    advance(10 * day);
    const backups = Collection(DatabaseBackup).parse((await emu.get(`${MYSQL}/${db.id}/backups`)).body).data;
    expect(backups.map((b) => b.type)).toEqual(new Array(7).fill("auto"));
    for (const b of backups) expect(b.created).toMatch(/T00:00:00$/);
    const days = backups.map((b) => Date.parse(`${b.created}Z`));
    expect(days[0]! - days[6]!).toBe(6 * day); // the last seven midnights, newest first
    expect(days[0]! > Date.parse(`${db.created}Z`) + 9 * day).toBe(true);
  });

  test("the clock's timer applies transitions without any request arriving", async () => {
    const fast = await startTestEmulator({ timeScale: 50_000 }); // 30 minutes ≈ 36 ms
    try {
      const db = (await fast.post(MYSQL, mysqlBody())).body;
      await new Promise((resolve) => setTimeout(resolve, 400));
      const stored = DATABASES.of(fast.control.dumpState().accounts.primary!).find((d) => d.id === db.id)!;
      expect(stored.status).toBe("active");
      expect(stored.pending).toBeNull();
    } finally {
      await fast.close();
    }
  });
});

describe("control switches and persistence", () => {
  test("the forced-failure switch makes the next provisioning end failed, and only that one", async () => {
    expect(emu.control.databases.failNextProvisioning()).toEqual({ account: "primary", remaining: 1 });
    const doomed = await create(MYSQL, mysqlBody("doomed"));
    const fine = await create(MYSQL, mysqlBody("fine"));
    advance(DATABASE_DURATIONS.provisionMaxMs);
    const failed = (await emu.get(`${MYSQL}/${doomed.id}`)).body;
    expect(failed).toMatchObject({ status: "failed", hosts: { primary: null, secondary: null } });
    expect(await status(MYSQL, fine.id)).toBe("active");
    const createEvents = (await events()).filter((e) => e.action === "database_create");
    expect(createEvents.find((e) => e.entity.id === doomed.id)).toMatchObject({ status: "failed" });
    expect(createEvents.find((e) => e.entity.id === fine.id)).toMatchObject({ status: "finished" });
    expect((await emu.del(`${MYSQL}/${doomed.id}`)).status).toBe(200); // a failed database can be deleted
    // Over HTTP too, with a count.
    const r = await emu.ctl("POST", "/databases/fail-next-provisioning", { count: 2 });
    expect(r.body).toEqual({ account: "primary", remaining: 2 });
  });

  test("simulated internal failures: degraded and failed, with their events", async () => {
    const db = await active();
    const r = await emu.ctl("POST", `/databases/${db.id}/status`, { status: "degraded" });
    expect(r.body.status).toBe("degraded");
    setStatus(db.id, "failed");
    expect((await events()).map((e) => e.action).slice(0, 2)).toEqual(["database_failed", "database_degraded"]);
    expect((await emu.ctl("POST", "/databases/999999/status", { status: "failed" })).status).toBe(404);
  });

  test("a pending transition is data: it survives a restart from the state file", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pc-db-state-"));
    const stateFile = path.join(dir, "state.json");
    try {
      const first = await startTestEmulator({ stateFile, timeScale: 0 });
      const db = (await first.post(MYSQL, mysqlBody("durable"))).body;
      await first.close();
      const saved = JSON.parse(fs.readFileSync(stateFile, "utf8")).accounts.primary.databases[0];
      expect(saved.pending).toMatchObject({ to: "active", job: "provision", at: expect.any(Number) });

      const second = await startTestEmulator({ stateFile, timeScale: 0 });
      try {
        expect((await second.get(`${MYSQL}/${db.id}`, { token: first.token })).body.status).toBe("provisioning");
        second.control.setClock({ advanceMs: DATABASE_DURATIONS.provisionMaxMs });
        const after = (await second.get(`${MYSQL}/${db.id}`, { token: first.token })).body;
        expect(after.status).toBe("active");
        expect(after.hosts.primary).not.toBeNull();
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the PostgreSQL equivalents (api-facts P4-2)", () => {
  test("list, snapshot, backups list/view/restore/delete, credentials reset, patch and delete", async () => {
    const db = await active(PG);
    expect((await emu.get(PG)).body.data.map((d: Database) => d.id)).toEqual([db.id]);

    expect((await emu.post(`${PG}/${db.id}/backups`, { label: "pg_snap" })).status).toBe(200);
    expect(await status(PG, db.id)).toBe("backing_up");
    advance(DATABASE_DURATIONS.snapshotMs);
    expect(await status(PG, db.id)).toBe("active");
    const list = await emu.get(`${PG}/${db.id}/backups`);
    expect(list.status).toBe(200);
    const [backup] = Collection(DatabaseBackup)
      .parse(list.body)
      .data.filter((b) => b.type === "snapshot");
    expect(backup).toMatchObject({ label: "pg_snap", type: "snapshot" });
    expect((await emu.get(`${PG}/${db.id}/backups/${backup!.id}`)).body).toMatchObject({ id: backup!.id, label: "pg_snap" });

    expect((await emu.post(`${PG}/${db.id}/backups/${backup!.id}/restore`)).status).toBe(200);
    expect(await status(PG, db.id)).toBe("restoring");
    advance(DATABASE_DURATIONS.restoreMs);
    expect(await status(PG, db.id)).toBe("active");

    const before = (await emu.get(`${PG}/${db.id}/credentials`)).body;
    expect(before.username).toBe("linpostgres");
    expect((await emu.post(`${PG}/${db.id}/credentials/reset`)).status).toBe(200);
    expect((await emu.get(`${PG}/${db.id}/credentials`)).body.password).not.toBe(before.password);

    expect((await emu.post(`${PG}/${db.id}/patch`)).status).toBe(200);
    expect(await status(PG, db.id)).toBe("updating");
    advance(DATABASE_DURATIONS.patchMs);
    expect(await status(PG, db.id)).toBe("active");

    expect((await emu.del(`${PG}/${db.id}/backups/${backup!.id}`)).status).toBe(200);
    expect((await emu.get(`${PG}/${db.id}/backups/${backup!.id}`)).status).toBe(404);
    expect((await emu.del(`${PG}/${db.id}`)).status).toBe(200);
    expect((await emu.get(`${PG}/${db.id}`)).status).toBe(404);
  });
});
