/**
 * `/databases/*` (spec "Managed Databases", api-facts P4-2). The engine catalog needs no token;
 * the instance lists and views `databases:read_only`; writes `databases:read_write`, and so do
 * the backup list and view (as the API advertises). Restricted users need `add_databases` to
 * create and a grant on the database (read_only to view, read_write to change); delete and
 * credentials reset are for unrestricted users only, whatever the scopes (403 `Unauthorized`).
 * Both engines get the same table, generated per engine.
 */
import { Collection, Empty } from "../../../sdk/core/schema";
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
import type { GrantRequirement, RouteContext, RouteSpec } from "../../core/routes";
import type { GrantPermission } from "../../core/state";
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

export const DATABASE_FILTERABLE = ["id", "label", "engine", "version", "region", "status", "type", "cluster_size", "created", "updated"] as const;
export const ENGINE_FILTERABLE = ["id", "engine", "version"] as const;
export const BACKUP_FILTERABLE = ["id", "label", "type", "created"] as const;

const READ = { service: "databases", auth: "token", scopes: ["databases:read_only"] } as const;
const WRITE = { service: "databases", auth: "token", scopes: ["databases:read_write"] } as const;

/** Restricted users may not call it, whatever their grants and scopes (spec "Authentication"). */
function requireUnrestricted(ctx: RouteContext): void {
  if (ctx.user.restricted) throw forbidden();
}

function engineRoutes(engine: DatabaseEngineType): RouteSpec[] {
  const base = `/databases/${engine}/instances`;
  const one = `${base}/{instanceId}`;
  const grant = (level: GrantPermission): GrantRequirement => ({
    kind: "object",
    object: "database",
    param: "instanceId",
    level,
    exists: (account, id) => findDatabase(account, engine, id) !== undefined,
  });
  const dbOf = (ctx: RouteContext) => found(findDatabase(ctx.account, engine, ctx.intParam("instanceId")));
  const backupOf = (ctx: RouteContext) => {
    const db = dbOf(ctx);
    requireStatus(db, "backups");
    return { db, backup: found(db.backups.find((b) => b.id === ctx.intParam("backupId"))) };
  };
  const createSchema = DATABASE_CREATE_REQUESTS[engine];

  return [
    {
      ...READ,
      method: "GET",
      path: base,
      summary: `${engine} databases`,
      filterable: DATABASE_FILTERABLE,
      response: Collection(Database),
      handler: (ctx) => ctx.collection(visibleDatabases(ctx.account, ctx.user, engine).map(renderDatabase)),
    },
    {
      ...WRITE,
      method: "POST",
      path: base,
      summary: `Create a ${engine} database (provisioning, 15–30 minutes)`,
      grant: { kind: "global", grant: "add_databases" },
      response: Database,
      handler: async (ctx) => {
        const input = ctx.body(createSchema);
        throwIfAny(checkDatabaseCreate(ctx.account, input));
        const ca = await createCaCertificate(ctx.runtime.clock.nowMs());
        // Checked again after the await: a concurrent request may have taken the label meanwhile.
        throwIfAny(checkDatabaseCreate(ctx.account, input));
        const db = createDatabase(ctx.actor, engine, input, ca);
        grantCreator(ctx.user, "database", db.id);
        return renderDatabase(db);
      },
    },
    {
      ...READ,
      method: "GET",
      path: one,
      summary: `One ${engine} database`,
      grant: grant("read_only"),
      response: Database,
      handler: (ctx) => renderDatabase(dbOf(ctx)),
    },
    {
      ...WRITE,
      method: "PUT",
      path: one,
      summary: "Update label, allow list, maintenance window, or resize (type); status active",
      grant: grant("read_write"),
      response: Database,
      handler: (ctx) => {
        const db = dbOf(ctx);
        const input = ctx.body(DatabaseUpdateRequest);
        requireStatus(db, "update");
        throwIfAny(checkDatabaseUpdate(ctx.account, db, input));
        return renderDatabase(updateDatabase(ctx.actor, db, input));
      },
    },
    {
      ...WRITE,
      method: "DELETE",
      path: one,
      summary: "Delete a database (unrestricted users; status active, failed or degraded)",
      grant: grant("read_write"),
      response: Empty,
      handler: (ctx) => {
        const db = dbOf(ctx);
        requireUnrestricted(ctx);
        requireStatus(db, "delete");
        deleteDatabase(ctx.actor, db);
        return {};
      },
    },
    {
      ...WRITE,
      method: "GET",
      path: `${one}/backups`,
      summary: "Backups of a database, newest first (not while provisioning)",
      grant: grant("read_only"),
      filterable: BACKUP_FILTERABLE,
      response: Collection(DatabaseBackup),
      handler: (ctx) => {
        const db = dbOf(ctx);
        requireStatus(db, "backups");
        return ctx.collection(backupsNewestFirst(db).map(renderBackup));
      },
    },
    {
      ...WRITE,
      method: "POST",
      path: `${one}/backups`,
      summary: "Take a snapshot (active; at most 3; none while another backup runs)",
      grant: grant("read_write"),
      response: Empty,
      handler: (ctx) => {
        const db = dbOf(ctx);
        const input = ctx.body(DatabaseBackupCreateRequest);
        checkSnapshotCreate(db, input);
        createSnapshot(ctx.actor, db, input);
        return {};
      },
    },
    {
      ...WRITE,
      method: "GET",
      path: `${one}/backups/{backupId}`,
      summary: "One backup (not while provisioning)",
      grant: grant("read_only"),
      response: DatabaseBackup,
      handler: (ctx) => renderBackup(backupOf(ctx).backup),
    },
    {
      ...WRITE,
      method: "DELETE",
      path: `${one}/backups/{backupId}`,
      summary: "Delete a backup (not while provisioning)",
      grant: grant("read_write"),
      response: Empty,
      handler: (ctx) => {
        const { db, backup } = backupOf(ctx);
        deleteBackup(db, backup);
        return {};
      },
    },
    {
      ...WRITE,
      method: "POST",
      path: `${one}/backups/{backupId}/restore`,
      summary: "Restore a backup (active, degraded or failed)",
      grant: grant("read_write"),
      response: Empty,
      handler: (ctx) => {
        const db = dbOf(ctx);
        requireStatus(db, "restore");
        const backup = found(db.backups.find((b) => b.id === ctx.intParam("backupId")));
        restoreBackup(ctx.actor, db, backup);
        return {};
      },
    },
    {
      ...READ,
      method: "GET",
      path: `${one}/credentials`,
      summary: "Root username and password (active)",
      grant: grant("read_only"),
      response: DatabaseCredentials,
      handler: (ctx) => {
        const db = dbOf(ctx);
        requireStatus(db, "credentials");
        return { username: db.root.username, password: db.root.password };
      },
    },
    {
      ...WRITE,
      method: "POST",
      path: `${one}/credentials/reset`,
      summary: "New random root password (unrestricted users)",
      grant: grant("read_write"),
      response: Empty,
      handler: (ctx) => {
        const db = dbOf(ctx);
        requireUnrestricted(ctx);
        resetCredentials(ctx.actor, db);
        return {};
      },
    },
    {
      ...READ,
      method: "GET",
      path: `${one}/ssl`,
      summary: "The CA certificate, base64 PEM (active)",
      grant: grant("read_only"),
      response: DatabaseSsl,
      handler: (ctx) => {
        const db = dbOf(ctx);
        requireStatus(db, "ssl");
        return { ca_certificate: db.ca_certificate };
      },
    },
    {
      ...WRITE,
      method: "POST",
      path: `${one}/patch`,
      summary: "Apply operating system patches now (active → updating → active)",
      grant: grant("read_write"),
      response: Empty,
      handler: (ctx) => {
        const db = dbOf(ctx);
        requireStatus(db, "patch");
        patchDatabase(ctx.actor, db);
        return {};
      },
    },
  ];
}

export const databaseRoutes: RouteSpec[] = [
  {
    service: "databases",
    auth: "none",
    scopes: [],
    method: "GET",
    path: "/databases/engines",
    summary: "Engine versions",
    filterable: ENGINE_FILTERABLE,
    response: Collection(DatabaseEngine),
    handler: (ctx) => ctx.collection(ENGINE_CATALOG.map((e) => ({ ...e }))),
  },
  {
    service: "databases",
    auth: "none",
    scopes: [],
    method: "GET",
    path: "/databases/engines/{engineId}",
    summary: "One engine version (`mysql%2F8.0.30`)",
    response: DatabaseEngine,
    handler: (ctx) => ({ ...found(ENGINE_CATALOG.find((e) => e.id === ctx.param("engineId"))) }),
  },
  {
    ...READ,
    method: "GET",
    path: "/databases/instances",
    summary: "Databases of every engine, with instance_uri",
    filterable: DATABASE_FILTERABLE,
    response: Collection(DatabaseInstance),
    handler: (ctx) => ctx.collection(visibleDatabases(ctx.account, ctx.user).map(renderInstance)),
  },
  ...DATABASE_ENGINES.flatMap(engineRoutes),
];
