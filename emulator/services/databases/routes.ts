/**
 * `/databases/*` (spec "Managed Databases", api-facts P4-2). The engine catalog needs no token;
 * the instance lists and views `databases:read_only`; writes `databases:read_write`, and so do
 * the backup list and view (as the API advertises). Restricted users need `add_databases` to
 * create and a grant on the database (read_only to view, read_write to change); delete and
 * credentials reset are for unrestricted users only, whatever the scopes (403 `Unauthorized`).
 * Both engines get the same table, generated per engine.
 */
import { filterableFields } from "../../../sdk/core/schema";
import {
  DATABASE_ENDPOINTS,
  DATABASE_ENGINES,
  DatabaseEngine,
  DatabaseType,
  type DatabaseEngineType,
} from "../../../sdk/resources/databases";
import { grantCreator } from "../../core/auth";
import { forbidden, found, throwIfAny } from "../../core/errors";
import { globalGrant, objectGrant, route } from "../../core/route-table";
import type { RouteContext, RouteSpec } from "../../core/routes";
import type { AccountState } from "../../core/state";
import { DATABASE_TYPES, ENGINE_CATALOG, engineRecord, findDatabaseType } from "./catalog";
import { backupsNewestFirst, findDatabase, visibleDatabases } from "./store";
import { renderBackup, renderDatabase, renderInstance } from "./render";
import {
  createDatabase,
  createSnapshot,
  deleteBackup,
  deleteDatabase,
  patchDatabase,
  resetCredentials,
  restoreBackup,
  updateDatabase,
} from "./operations";
import { checkDatabaseCreate, checkDatabaseUpdate, checkSnapshotCreate, requireStatus } from "./rules";
import { createCaCertificate } from "./ssl";

export const TYPE_FILTERABLE = filterableFields(DatabaseType);

export const DATABASE_FILTERABLE = [
  "id",
  "label",
  "engine",
  "version",
  "region",
  "status",
  "type",
  "cluster_size",
  "created",
  "updated",
] as const;
export const ENGINE_FILTERABLE = filterableFields(DatabaseEngine);
export const BACKUP_FILTERABLE = ["id", "label", "type", "created"] as const;

/** Restricted users may not call it, whatever their grants and scopes (spec "Authentication"). */
function requireUnrestricted(ctx: RouteContext): void {
  if (ctx.user.restricted) throw forbidden();
}

function engineRoutes(engine: DatabaseEngineType): RouteSpec[] {
  const endpoints = DATABASE_ENDPOINTS[engine];
  const find = (account: AccountState, id: number) => findDatabase(account, engine, id);
  const { read_only: readGrant, read_write: writeGrant } = objectGrant("database", "instanceId", find);
  const reading = { grant: readGrant };
  const writing = { grant: writeGrant };
  const dbOf = (ctx: RouteContext) => ctx.lookup("instanceId", find);
  const backupOf = (ctx: RouteContext) => {
    const db = dbOf(ctx);
    requireStatus(db, "backups");
    return { db, backup: found(db.backups.find((b) => b.id === ctx.intParam("backupId"))) };
  };

  return [
    route(endpoints.list, { filterable: DATABASE_FILTERABLE }, (ctx) =>
      visibleDatabases(ctx.account, ctx.user, engine).map(renderDatabase),
    ),
    route(endpoints.create, { grant: globalGrant("add_databases") }, async (ctx) => {
      const input = ctx.body();
      throwIfAny(checkDatabaseCreate(ctx.account, input));
      const ca = await createCaCertificate(ctx.runtime.clock.nowMs());
      // Checked again after the await: a concurrent request may have taken the label meanwhile.
      throwIfAny(checkDatabaseCreate(ctx.account, input));
      const db = createDatabase(ctx.actor, engine, input, ca);
      grantCreator(ctx.user, "database", db.id);
      return renderDatabase(db);
    }),
    route(endpoints.get, reading, (ctx) => renderDatabase(dbOf(ctx))),
    route(endpoints.update, writing, (ctx) => {
      const db = dbOf(ctx);
      const input = ctx.body();
      requireStatus(db, "update");
      throwIfAny(checkDatabaseUpdate(ctx.account, db, input));
      return renderDatabase(updateDatabase(ctx.actor, db, input));
    }),
    route(endpoints.delete, writing, (ctx) => {
      const db = dbOf(ctx);
      requireUnrestricted(ctx);
      requireStatus(db, "delete");
      deleteDatabase(ctx.actor, db);
    }),
    // The backup list and view need read_write, as the API advertises.
    route(endpoints.backups.list, { ...reading, filterable: BACKUP_FILTERABLE }, (ctx) => {
      const db = dbOf(ctx);
      requireStatus(db, "backups");
      return backupsNewestFirst(db).map(renderBackup);
    }),
    route(endpoints.backups.create, writing, (ctx) => {
      const db = dbOf(ctx);
      const input = ctx.body();
      checkSnapshotCreate(db, input);
      createSnapshot(ctx.actor, db, input);
    }),
    route(endpoints.backups.get, reading, (ctx) => renderBackup(backupOf(ctx).backup)),
    route(endpoints.backups.delete, writing, (ctx) => {
      const { db, backup } = backupOf(ctx);
      deleteBackup(db, backup);
    }),
    route(endpoints.backups.restore, writing, (ctx) => {
      const db = dbOf(ctx);
      requireStatus(db, "restore");
      const backup = found(db.backups.find((b) => b.id === ctx.intParam("backupId")));
      restoreBackup(ctx.actor, db, backup);
    }),
    route(endpoints.credentials, reading, (ctx) => {
      const db = dbOf(ctx);
      requireStatus(db, "credentials");
      return { username: db.root.username, password: db.root.password };
    }),
    route(endpoints.resetCredentials, writing, (ctx) => {
      const db = dbOf(ctx);
      requireUnrestricted(ctx);
      resetCredentials(ctx.actor, db);
    }),
    route(endpoints.ssl, reading, (ctx) => {
      const db = dbOf(ctx);
      requireStatus(db, "ssl");
      return { ca_certificate: db.ca_certificate };
    }),
    route(endpoints.patch, writing, (ctx) => {
      const db = dbOf(ctx);
      requireStatus(db, "patch");
      patchDatabase(ctx.actor, db);
    }),
  ];
}

export const databaseRoutes: RouteSpec[] = [
  route(DATABASE_ENDPOINTS.engines.list, { filterable: ENGINE_FILTERABLE }, () => ENGINE_CATALOG.map((e) => ({ ...e }))),
  route(DATABASE_ENDPOINTS.engines.get, (ctx) => ({ ...found(engineRecord(ctx.param("engineId"))) })),
  route(DATABASE_ENDPOINTS.types.list, { filterable: TYPE_FILTERABLE }, () => DATABASE_TYPES.map((t) => structuredClone(t))),
  route(DATABASE_ENDPOINTS.types.get, (ctx) => structuredClone(found(findDatabaseType(ctx.param("typeId"))))),
  route(DATABASE_ENDPOINTS.instances.list, { filterable: DATABASE_FILTERABLE }, (ctx) =>
    visibleDatabases(ctx.account, ctx.user).map(renderInstance),
  ),
  ...DATABASE_ENGINES.flatMap(engineRoutes),
];
