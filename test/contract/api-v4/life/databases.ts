/** Managed databases, both engines: types, engines, create, wait, update, credentials, SSL, backups, patch, delete. */
import { v4, type Database, type Engine } from "../client";
import type { LifeContext } from "./context";
import * as S from "../shapes";

const {
  createDatabase,
  deleteDatabase,
  getDatabaseBackup,
  getDatabaseBackups,
  getDatabaseCredentials,
  getDatabaseEngine,
  getDatabaseEngines,
  getDatabaseType,
  getDatabaseTypes,
  getDatabases,
  getEngineDatabase,
  getEngineDatabases,
  getSSLFields,
  patchDatabase,
  resetDatabaseCredentials,
  updateDatabase,
} = v4;

export async function databasesLife(ctx: LifeContext): Promise<void> {
  const types = ctx.checkPage("database types", await getDatabaseTypes(), S.DATABASE_TYPE);
  const nanode = types.find((t) => t.class === "nanode") ?? types[0]!;
  expect(ctx.check("database type", await getDatabaseType(nanode.id), S.DATABASE_TYPE).id).toBe(nanode.id);
  const engines = ctx.checkPage("database engines", await getDatabaseEngines(), S.DATABASE_ENGINE);
  for (const engine of ["mysql", "postgresql"] as const) {
    const newest = engines.filter((e) => e.engine === engine).at(-1)!;
    expect(ctx.check(`database engine ${engine}`, await getDatabaseEngine(newest.id), S.DATABASE_ENGINE).id).toBe(newest.id);
    await engineLife(ctx, engine, newest.id, nanode.id);
  }
}

async function engineLife(ctx: LifeContext, engine: Engine, engineId: string, type: string): Promise<void> {
  const name = (what: string) => `${engine} ${what}`;
  const created = ctx.check(
    name("create"),
    // The client's payload types `engine` as the engine's name, but its own validation and the API
    // take `engine/version` (the id from the engines list), so the id is cast to the declared type.
    await createDatabase(engine, {
      label: `api-v4-${engine}`,
      region: ctx.region,
      type,
      engine: engineId as Engine,
      cluster_size: 1,
      allow_list: ["192.0.2.0/24"],
    }),
    S.DATABASE,
  );
  const active = (db: Database) => db.status === "active";
  const read = () => getEngineDatabase(engine, created.id);
  ctx.check(name("active"), await ctx.until(name("active"), read, active), S.DATABASE);
  expect(ctx.checkPage("databases", await getDatabases(), S.DATABASE_INSTANCE).map((d) => d.id)).toContain(created.id);
  expect(ctx.checkPage(name("list"), await getEngineDatabases(engine), S.DATABASE).map((d) => d.id)).toContain(created.id);

  ctx.check(
    name("update"),
    await updateDatabase(engine, created.id, {
      label: `api-v4-${engine}-2`,
      allow_list: ["192.0.2.0/24", "198.51.100.7"],
      updates: { frequency: "weekly", duration: 3, hour_of_day: 2, day_of_week: 6, week_of_month: null },
    }),
    S.DATABASE,
  );
  expect((await ctx.until(name("updated"), read, active)).label).toBe(`api-v4-${engine}-2`);

  const before = ctx.check(name("credentials"), await getDatabaseCredentials(engine, created.id), S.CREDENTIALS);
  await resetDatabaseCredentials(engine, created.id);
  await ctx.until(name("reset"), read, active);
  expect(ctx.check(name("credentials after reset"), await getDatabaseCredentials(engine, created.id), S.CREDENTIALS).password).not.toBe(
    before.password,
  );
  expect(ctx.check(name("ssl"), await getSSLFields(engine, created.id), S.SSL).ca_certificate.length).toBeGreaterThan(0);

  // A day later the nightly backup has been taken.
  ctx.advance(26 * 3600_000);
  const backups = ctx.checkPage(name("backups"), await getDatabaseBackups(engine, created.id), S.BACKUP);
  expect(backups.length).toBeGreaterThan(0);
  ctx.check(name("backup"), await getDatabaseBackup(engine, created.id, backups[0]!.id), S.BACKUP);

  await patchDatabase(engine, created.id);
  await ctx.until(name("patched"), read, active);
  await deleteDatabase(engine, created.id);
  expect((await getEngineDatabases(engine)).data.map((d) => d.id)).not.toContain(created.id);
}
