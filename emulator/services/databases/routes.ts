/**
 * `/databases/*` (spec "Managed Databases", api-facts P4-2). The engine catalog needs no token;
 * the instance lists and views `databases:read_only`; writes `databases:read_write`, and so do
 * the backup list and view (as the API advertises). Restricted users need `add_databases` to
 * create and a grant on the database (read_only to view, read_write to change); delete and
 * credentials reset are for unrestricted users only, whatever the scopes (403 `Unauthorized`).
 * Both engines get the same table, generated per engine.
 */
import {
  DATABASE_CREATE_REQUESTS,
  DATABASE_ENGINES,
  Database,
  DatabaseBackup,
  DatabaseBackupCreateRequest,
  DatabaseCredentials,
  DatabaseEngine,
  type DatabaseEngineType,
  DatabaseInstance,
  DatabaseSsl,
  DatabaseUpdateRequest,
} from "../../../sdk/resources/databases";
import { grantCreator } from "../../core/auth";
import { forbidden, found, throwIfAny } from "../../core/errors";
import { globalGrant, objectGrant, routeTable } from "../../core/route-table";
import type { RouteContext, RouteSpec } from "../../core/routes";
import type { AccountState } from "../../core/state";
import { ENGINE_CATALOG } from "./catalog";
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

export const DATABASE_FILTERABLE = [
  "id", "label", "engine", "version", "region", "status", "type", "cluster_size", "created", "updated",
] as const;
export const ENGINE_FILTERABLE = ["id", "engine", "version"] as const;
export const BACKUP_FILTERABLE = ["id", "label", "type", "created"] as const;

const api = routeTable("databases", {
  open: { auth: "none", scopes: [] },
  read: ["databases:read_only"],
  write: ["databases:read_write"],
});

const creation = { grant: globalGrant("add_databases"), response: Database };

/** Restricted users may not call it, whatever their grants and scopes (spec "Authentication"). */
function requireUnrestricted(ctx: RouteContext): void {
  if (ctx.user.restricted) throw forbidden();
}

function engineRoutes(engine: DatabaseEngineType): RouteSpec[] {
  const base = `/databases/${engine}/instances`;
  const one = `${base}/{instanceId}`;
  const backup = `${one}/backups/{backupId}`;
  const find = (account: AccountState, id: number) => findDatabase(account, engine, id);
  const { read_only: readGrant, read_write: writeGrant } = objectGrant("database", "instanceId", find);
  const dbOf = (ctx: RouteContext) => ctx.lookup("instanceId", find);
  const backupOf = (ctx: RouteContext) => {
    const db = dbOf(ctx);
    requireStatus(db, "backups");
    return { db, backup: found(db.backups.find((b) => b.id === ctx.intParam("backupId"))) };
  };
  const createSchema = DATABASE_CREATE_REQUESTS[engine];
  const database = { grant: writeGrant, response: Database };
  const change = { grant: writeGrant };
  const credentials = { grant: readGrant, response: DatabaseCredentials };
  const databaseList = { item: Database, filterable: DATABASE_FILTERABLE };
  const backupList = { grant: readGrant, item: DatabaseBackup, filterable: BACKUP_FILTERABLE };

  return [
    api.read.list(base, `${engine} databases`, databaseList, (ctx) => visibleDatabases(ctx.account, ctx.user, engine).map(renderDatabase)),
    api.write.post(base, `Create a ${engine} database (provisioning, 15–30 minutes)`, creation, async (ctx) => {
      const input = ctx.body(createSchema);
      throwIfAny(checkDatabaseCreate(ctx.account, input));
      const ca = await createCaCertificate(ctx.runtime.clock.nowMs());
      // Checked again after the await: a concurrent request may have taken the label meanwhile.
      throwIfAny(checkDatabaseCreate(ctx.account, input));
      const db = createDatabase(ctx.actor, engine, input, ca);
      grantCreator(ctx.user, "database", db.id);
      return renderDatabase(db);
    }),
    api.read.get(one, `One ${engine} database`, { grant: readGrant, response: Database }, (ctx) => renderDatabase(dbOf(ctx))),
    api.write.put(one, "Update label, allow list, maintenance window, or resize (type); status active", database, (ctx) => {
      const db = dbOf(ctx);
      const input = ctx.body(DatabaseUpdateRequest);
      requireStatus(db, "update");
      throwIfAny(checkDatabaseUpdate(ctx.account, db, input));
      return renderDatabase(updateDatabase(ctx.actor, db, input));
    }),
    api.write.delete(one, "Delete a database (unrestricted users; status active, failed or degraded)", change, (ctx) => {
      const db = dbOf(ctx);
      requireUnrestricted(ctx);
      requireStatus(db, "delete");
      deleteDatabase(ctx.actor, db);
    }),
    // The backup list and view need read_write, as the API advertises.
    api.write.list(`${one}/backups`, "Backups of a database, newest first (not while provisioning)", backupList, (ctx) => {
      const db = dbOf(ctx);
      requireStatus(db, "backups");
      return backupsNewestFirst(db).map(renderBackup);
    }),
    api.write.post(`${one}/backups`, "Take a snapshot (active; at most 3; none while another backup runs)", change, (ctx) => {
      const db = dbOf(ctx);
      const input = ctx.body(DatabaseBackupCreateRequest);
      checkSnapshotCreate(db, input);
      createSnapshot(ctx.actor, db, input);
    }),
    api.write.get(backup, "One backup (not while provisioning)", { grant: readGrant, response: DatabaseBackup }, (ctx) =>
      renderBackup(backupOf(ctx).backup),
    ),
    api.write.delete(backup, "Delete a backup (not while provisioning)", change, (ctx) => {
      const { db, backup } = backupOf(ctx);
      deleteBackup(db, backup);
    }),
    api.write.post(`${backup}/restore`, "Restore a backup (active, degraded or failed)", change, (ctx) => {
      const db = dbOf(ctx);
      requireStatus(db, "restore");
      const backup = found(db.backups.find((b) => b.id === ctx.intParam("backupId")));
      restoreBackup(ctx.actor, db, backup);
    }),
    api.read.get(`${one}/credentials`, "Root username and password (active)", credentials, (ctx) => {
      const db = dbOf(ctx);
      requireStatus(db, "credentials");
      return { username: db.root.username, password: db.root.password };
    }),
    api.write.post(`${one}/credentials/reset`, "New random root password (unrestricted users)", change, (ctx) => {
      const db = dbOf(ctx);
      requireUnrestricted(ctx);
      resetCredentials(ctx.actor, db);
    }),
    api.read.get(`${one}/ssl`, "The CA certificate, base64 PEM (active)", { grant: readGrant, response: DatabaseSsl }, (ctx) => {
      const db = dbOf(ctx);
      requireStatus(db, "ssl");
      return { ca_certificate: db.ca_certificate };
    }),
    api.write.post(`${one}/patch`, "Apply operating system patches now (active → updating → active)", change, (ctx) => {
      const db = dbOf(ctx);
      requireStatus(db, "patch");
      patchDatabase(ctx.actor, db);
    }),
  ];
}

const engineList = { item: DatabaseEngine, filterable: ENGINE_FILTERABLE };
const instanceList = { item: DatabaseInstance, filterable: DATABASE_FILTERABLE };

export const databaseRoutes: RouteSpec[] = [
  api.open.list("/databases/engines", "Engine versions", engineList, () => ENGINE_CATALOG.map((e) => ({ ...e }))),
  api.open.get("/databases/engines/{engineId}", "One engine version (`mysql%2F8.0.30`)", { response: DatabaseEngine }, (ctx) => ({
    ...found(ENGINE_CATALOG.find((e) => e.id === ctx.param("engineId"))),
  })),
  api.read.list("/databases/instances", "Databases of every engine, with instance_uri", instanceList, (ctx) =>
    visibleDatabases(ctx.account, ctx.user).map(renderInstance),
  ),
  ...DATABASE_ENGINES.flatMap(engineRoutes),
];
