/**
 * Managed Databases (spec "Managed Database engine", "Managed Database instance", "Database
 * backup", "Database credentials and SSL certificate", endpoints "Managed Databases"; api-facts
 * P2-2, P3-1, P4-2): the engine catalog, MySQL and PostgreSQL instances, their backups, root
 * credentials, SSL CA certificate and patching, the all-engines instance list, and waiters on the
 * database status.
 *
 * Request schemas carry the API's rules and reason texts (the emulator validates with them, the
 * provider's `check` derives from them). Response schemas are tolerant: they also parse the later
 * platform's records (`fixtures/*.current.json`: `members`, `platform`, `hosts.standby`, no
 * `replication_type`), so a client pointed at a newer API keeps working.
 */
import { z } from "zod";
import { STAMPS, Timestamp, filterable } from "../core/schema";
import type { CallOptions, HttpClient, Sleep } from "../core/http";
import { endpoints, readWrite, verbs } from "../core/endpoint";
import { resource } from "../core/resource";
import { waitFor } from "../core/waiters";
import {
  DATABASE_UPDATE_REQUESTS,
  DatabaseBackupCreateRequest,
  MysqlDatabaseCreateRequest,
  PostgresqlDatabaseCreateRequest,
  orList,
  type DatabaseEngineType,
  type DatabaseUpdateRequest,
} from "../rules/databases";
export * from "../rules/databases";

// ---------------------------------------------------------------------------------------------
// Response schemas (tolerant)

/** An engine version. `total_disk_size_gb`/`used_disk_size_gb` were absent in 4.174 (feature-flagged). */
export const DatabaseEngine = z.looseObject({
  id: filterable(z.string()),
  engine: filterable(z.string()),
  version: filterable(z.string()),
  total_disk_size_gb: z.number().nullable().optional(),
  used_disk_size_gb: z.number().nullable().optional(),
});
export type DatabaseEngine = z.infer<typeof DatabaseEngine>;

/** The price of a cluster of `quantity` nodes, in US dollars. */
export const DatabaseTypeOffer = z.looseObject({
  quantity: z.number().int(),
  price: z.looseObject({ hourly: z.number(), monthly: z.number() }),
});

/**
 * A node type a database can run on (`GET /databases/types`): in the OpenAPI description of
 * 4.174, not in the spec's tables. `disk` and `memory` are in MB; `engines` prices each engine per
 * cluster size. `deprecated` is filterable in that description; `class` and the sizes too, as on
 * the compute types.
 */
export const DatabaseType = z.looseObject({
  id: filterable(z.string()),
  label: filterable(z.string()),
  class: filterable(z.string()),
  disk: filterable(z.number().int()),
  memory: filterable(z.number().int()),
  vcpus: filterable(z.number().int()),
  deprecated: filterable(z.boolean()),
  engines: z.looseObject({ mysql: z.array(DatabaseTypeOffer), postgresql: z.array(DatabaseTypeOffer) }),
});
export type DatabaseType = z.infer<typeof DatabaseType>;

/** Host names, null until provisioning completes. The later platform says `standby` instead of `secondary`. */
export const DatabaseHosts = z.looseObject({
  primary: z.string().nullable(),
  secondary: z.string().nullable().optional(),
  standby: z.string().nullable().optional(),
});

/** The maintenance window as returned: `day_of_week` is null while provisioning; the later platform drops `week_of_month` and adds `pending`. */
export const DatabaseUpdates = z.looseObject({
  frequency: z.string(),
  duration: z.number().int(),
  hour_of_day: z.number().int(),
  day_of_week: z.number().int().nullable(),
  week_of_month: z.number().int().nullable().optional(),
});

/**
 * A database instance of either engine. `ssl_connection` and `replication_type` are absent from
 * the all-engines list; `replication_commit_type` exists for PostgreSQL only; `instance_uri` only
 * in the all-engines list.
 */
export const Database = z.looseObject({
  id: z.number().int(),
  label: z.string(),
  type: z.string(),
  engine: z.string(),
  version: z.string(),
  region: z.string(),
  status: z.string(),
  encrypted: z.boolean(),
  allow_list: z.array(z.string()),
  cluster_size: z.number().int(),
  hosts: DatabaseHosts,
  ssl_connection: z.boolean().optional(),
  replication_type: z.string().optional(),
  replication_commit_type: z.string().optional(),
  port: z.number().int(),
  updates: DatabaseUpdates,
  ...STAMPS,
  /** The node type's disk. 4.174 describes both disk fields; its recordings lack them, so they stay optional here. */
  total_disk_size_gb: z.number().int().optional(),
  /** Null while provisioning. */
  used_disk_size_gb: z.number().int().nullable().optional(),
  instance_uri: z.string().optional(),
  /** Newer than 4.174: the engine's advanced parameters, as set (either engine's shape). */
  engine_config: z.record(z.string(), z.unknown()).optional(),
});
export type Database = z.infer<typeof Database>;

/**
 * An item of `GET /databases/instances`: a database plus `instance_uri`, the path of its detailed
 * record (4.174; the later platform leaves it out, so it stays optional).
 */
export const DatabaseInstance = Database;
export type DatabaseInstance = z.infer<typeof DatabaseInstance>;

/** A database backup: a snapshot taken on request or a daily automatic one. */
export const DatabaseBackup = z.looseObject({
  id: z.number().int(),
  /** `snapshot` (on request) or `auto` (daily at 00:00 UTC, kept 7 days). */
  type: z.string(),
  label: z.string(),
  created: Timestamp,
});
export type DatabaseBackup = z.infer<typeof DatabaseBackup>;

/** A database's root user name and password. */
export const DatabaseCredentials = z.looseObject({ username: z.string(), password: z.string() });
export type DatabaseCredentials = z.infer<typeof DatabaseCredentials>;

/** `ca_certificate`: base64 of the PEM CA certificate (null in the 2023 recordings). */
export const DatabaseSsl = z.looseObject({ ca_certificate: z.string().nullable() });

// ---------------------------------------------------------------------------------------------
// Waiters

/** Options of `waitForDatabaseStatus`. */
export interface DatabaseWaitOptions {
  /** Statuses that end the wait (default `["active"]`). */
  until?: readonly string[];
  /** Statuses that end it with a `WaitError` at once (default `failed` and `degraded`, minus `until`). */
  failOn?: readonly string[];
  timeoutMs: number;
  /** Longest delay between polls (default 15 s); polling starts faster and backs off to it. */
  intervalMs?: number;
  /** First delay between polls (default 1 s); each next one is 1.5× longer, up to `intervalMs`. */
  firstIntervalMs?: number;
  /** Every polled record and the time elapsed. */
  progress?: (database: Database, elapsedMs: number) => void;
  signal?: AbortSignal;
  sleep?: Sleep;
  now?: () => number;
}

/**
 * Polls a database until its status is one of `until`, failing fast on `failed`/`degraded`.
 * Polling starts at `firstIntervalMs` and backs off to `intervalMs`, so a quick transition (an
 * update takes about a minute) is seen quickly and a long one (provisioning, 15–30 minutes) costs
 * few requests.
 */
export function waitForDatabaseStatus(
  poll: (signal?: AbortSignal) => Promise<Database>,
  options: DatabaseWaitOptions & { what?: string },
): Promise<Database> {
  const until = options.until ?? ["active"];
  const failOn = (options.failOn ?? ["failed", "degraded"]).filter((s) => !until.includes(s));
  return waitFor({
    poll,
    done: (db) => until.includes(db.status),
    failed: (db) => (failOn.includes(db.status) ? `database ${db.id} (${db.label}) is ${db.status}` : undefined),
    progress: options.progress,
    intervalMs: options.intervalMs ?? 15_000,
    firstIntervalMs: options.firstIntervalMs ?? 1_000,
    timeoutMs: options.timeoutMs,
    what: options.what ?? `a database to become ${orList(until)}`,
    sleep: options.sleep,
    signal: options.signal,
    now: options.now,
  });
}

// ---------------------------------------------------------------------------------------------
// Endpoints

const [READ, WRITE] = readWrite("databases", "databases");
/** No token needed for the engine catalog (spec: "none listed"). */
const CATALOG = verbs({ service: "databases", auth: "none", scopes: [] });

/**
 * The endpoints of one engine, `/databases/{engine}/instances…` (spec "Managed Databases"; the
 * backup, credentials, patch and SSL endpoints are listed for MySQL, and PostgreSQL has their
 * equivalents, api-facts P4-2). `createRequest` is the engine's create body.
 */
export function databaseEngineEndpoints<const E extends DatabaseEngineType, C extends z.ZodType>(engine: E, createRequest: C) {
  const updateRequest = DATABASE_UPDATE_REQUESTS[engine] as (typeof DATABASE_UPDATE_REQUESTS)[E];
  const all = `/databases/${engine}/instances` as const;
  const one = `${all}/{instanceId}` as const;
  const backup = `${one}/backups/{backupId}` as const;
  return endpoints(`databases.${engine}`, {
    list: { ...READ.list, path: all, summary: `${engine} databases`, response: Database },
    create: {
      ...WRITE.post,
      path: all,
      summary: `Create a ${engine} database (provisioning, 15–30 minutes)`,
      body: createRequest,
      response: Database,
    },
    get: { ...READ.get, path: one, summary: `One ${engine} database`, response: Database },
    update: {
      ...WRITE.put,
      path: one,
      summary: "Update label, allow list, maintenance window, or resize (type); status active",
      body: updateRequest,
      response: Database,
    },
    delete: { ...WRITE.delete, path: one, summary: "Delete a database (unrestricted users; status active, failed or degraded)" },
    credentials: { ...READ.get, path: `${one}/credentials`, summary: "Root username and password (active)", response: DatabaseCredentials },
    resetCredentials: { ...WRITE.action, path: `${one}/credentials/reset`, summary: "New random root password (unrestricted users)" },
    ssl: { ...READ.get, path: `${one}/ssl`, summary: "The CA certificate, base64 PEM (active)", response: DatabaseSsl },
    patch: { ...WRITE.action, path: `${one}/patch`, summary: "Apply operating system patches now (active → updating → active)" },
    /** `/databases/{engine}/instances/{id}/backups`: snapshots and daily automatic backups. */
    backups: {
      list: {
        ...WRITE.list,
        path: `${one}/backups`,
        summary: "Backups of a database, newest first (not while provisioning)",
        response: DatabaseBackup,
      },
      create: {
        ...WRITE.action,
        path: `${one}/backups`,
        summary: "Take a snapshot (active; at most 3; none while another backup runs)",
        body: DatabaseBackupCreateRequest,
      },
      get: { ...WRITE.get, path: backup, summary: "One backup (not while provisioning)", response: DatabaseBackup },
      delete: { ...WRITE.delete, path: backup, summary: "Delete a backup (not while provisioning)" },
      restore: { ...WRITE.action, path: `${backup}/restore`, summary: "Restore a backup (active, degraded or failed)" },
    },
  });
}

/** The endpoints of one engine (`DATABASE_ENDPOINTS.mysql`). */
export type DatabaseEngineEndpoints<E extends DatabaseEngineType = DatabaseEngineType, C extends z.ZodType = z.ZodType> = ReturnType<
  typeof databaseEngineEndpoints<E, C>
>;

/** The `/databases` endpoints: the engine catalog, the all-engines list, and each engine's (`mysql`, `postgresql`). */
export const DATABASE_ENDPOINTS = {
  ...endpoints("databases", {
    /** `/databases/engines`: the engine versions new databases can use. No token needed. */
    engines: {
      list: { ...CATALOG.list, path: "/databases/engines", summary: "Engine versions", response: DatabaseEngine },
      get: {
        ...CATALOG.get,
        path: "/databases/engines/{engineId}",
        summary: "One engine version (`mysql%2F8.0.30`)",
        response: DatabaseEngine,
      },
    },
    /** `GET /databases/types` and `GET /databases/types/{typeId}`. */
    types: {
      list: {
        ...CATALOG.list,
        path: "/databases/types",
        summary: "Node types with their prices per engine and cluster size",
        response: DatabaseType,
      },
      get: { ...CATALOG.get, path: "/databases/types/{typeId}", summary: "One node type", response: DatabaseType },
    },
    /** `GET /databases/instances`. */
    instances: {
      list: {
        ...READ.list,
        path: "/databases/instances",
        summary: "Databases of every engine, with instance_uri",
        response: DatabaseInstance,
      },
    },
  }),
  mysql: databaseEngineEndpoints("mysql", MysqlDatabaseCreateRequest),
  postgresql: databaseEngineEndpoints("postgresql", PostgresqlDatabaseCreateRequest),
};

// Resource classes

/** The class of `EngineDatabases`: one engine's table, and its waiter. */
export class EngineDatabaseResource extends resource(DATABASE_ENDPOINTS.mysql as DatabaseEngineEndpoints) {
  constructor(
    http: HttpClient,
    readonly engine: DatabaseEngineType,
  ) {
    super(http, DATABASE_ENDPOINTS[engine] as DatabaseEngineEndpoints);
  }

  /** Polls `get(id)` until the status is one of `until` (default `active`); fails fast on `failed`/`degraded`. */
  waitForStatus(id: number, options: DatabaseWaitOptions): Promise<Database> {
    const until = options.until ?? ["active"];
    return waitForDatabaseStatus((signal) => this.get(id, { signal }), {
      ...options,
      what: `${this.engine} database ${id} to become ${orList(until)}`,
    });
  }
}

/**
 * `/databases/{engine}/instances` for one engine: instances, their backups (`backups`), root
 * credentials, SSL CA certificate, patching, and status waiters. Create is a POST without an
 * idempotency key: it is never retried after an ambiguous failure.
 */
export type EngineDatabases<C extends z.ZodType = z.ZodType> = Omit<EngineDatabaseResource, "create" | "update"> & {
  /** Starts provisioning (status `provisioning`, hosts null); about 15–30 minutes until `active`. */
  create(body: z.input<C>, options?: CallOptions): Promise<Database>;
  /** Label, allow list, maintenance window, and `type` (a resize to more disk). Status must be `active`. */
  update(id: number, body: DatabaseUpdateRequest, options?: CallOptions): Promise<Database>;
};

/** `/databases`: the engine catalog, the all-engines list, and one collection per engine. */
export class Databases extends resource(DATABASE_ENDPOINTS, { own: ["mysql", "postgresql"] }) {
  /** `/databases/mysql/instances`. */
  readonly mysql: EngineDatabases<typeof MysqlDatabaseCreateRequest> = new EngineDatabaseResource(this.http, "mysql");
  /** `/databases/postgresql/instances`. */
  readonly postgresql: EngineDatabases<typeof PostgresqlDatabaseCreateRequest> = new EngineDatabaseResource(this.http, "postgresql");

  /** The collection of one engine type. */
  of(
    engine: DatabaseEngineType,
  ): EngineDatabases<typeof MysqlDatabaseCreateRequest> | EngineDatabases<typeof PostgresqlDatabaseCreateRequest> {
    return engine === "mysql" ? this.mysql : this.postgresql;
  }
}
