/**
 * What each database endpoint does to the state, with its events (api-facts P6-2): the create
 * event (`database_create`) starts as `notification` and the same event reads `finished` once the
 * database is active (P6-1); so do `database_update`, `database_resize`, `database_backup_create`
 * and `database_backup_restore`. Delete and credentials reset are instant notifications; patch
 * and backup deletion have no known event. Callers check the rules (`rules.ts`) first.
 */
import type {
  DatabaseBackupCreateRequest,
  DatabaseEngineType,
  DatabaseUpdateRequest,
  MysqlDatabaseCreateRequest,
  PostgresqlDatabaseCreateRequest,
} from "../../../sdk/resources/databases";
import type { EventEntity } from "../../../sdk/resources/events";
import type { Actor } from "../../core/runtime";
import { removeStored } from "../../core/state";
import { eventEntity, recordEvent } from "../events/operations";
import { ENGINE_TRAITS, findEngine } from "./catalog";
import { DATABASE_DURATIONS, provisioningMs, startJob } from "./machine";
import {
  DATABASES,
  DATABASE_ID,
  PROVISIONING_FAILURES,
  type EngineConfig,
  type StoredDatabase,
  type StoredDatabaseBackup,
  databaseUrl,
  nextMidnight,
  provisioningWindow,
  randomPassword,
  windowFromRequest,
} from "./store";

type CreateInput = MysqlDatabaseCreateRequest | PostgresqlDatabaseCreateRequest;

export function databaseEntity(db: StoredDatabase): EventEntity {
  return eventEntity("database", db.id, db.label, databaseUrl(db));
}

/** Records a database event; job events start as `notification` and are finished by the machine (P6-1). */
export function databaseEvent(actor: Actor, action: string, db: StoredDatabase): number {
  return recordEvent(actor, { action, entity: databaseEntity(db) }).id;
}

/** The replication a cluster gets when the body names none (spec: default `none` for one node). */
function defaultReplication(engine: DatabaseEngineType, clusterSize: number): string {
  if (clusterSize === 1) return "none";
  return engine === "mysql" ? "semi_synch" : "asynch";
}

/**
 * Creates a database in `provisioning` (hosts null, the default window) and stores its
 * provisioning transition. The account's failure switch, when armed, makes it end `failed`.
 */
export function createDatabase(actor: Actor, engine: DatabaseEngineType, input: CreateInput, caCertificate: string): StoredDatabase {
  const { runtime, account } = actor;
  const nowMs = runtime.clock.nowMs();
  const now = runtime.clock.timestamp();
  const clusterSize = input.cluster_size ?? 1;
  const traits = ENGINE_TRAITS[engine];
  const db: StoredDatabase = {
    id: runtime.nextId(DATABASE_ID),
    engine,
    version: findEngine(input.engine)!.version,
    label: input.label,
    type: input.type,
    region: input.region,
    status: "provisioning",
    encrypted: input.encrypted ?? false,
    // Echoed as sent in 4.174 (api-facts P4-2): no /32 added, no sorting.
    allow_list: [...(input.allow_list ?? [])],
    cluster_size: clusterSize,
    hosts: { primary: null, secondary: null },
    // Omitted → false, as recorded (api-facts P4-2; the documented default `true` is not what the API did).
    ssl_connection: input.ssl_connection ?? false,
    replication_type: input.replication_type ?? defaultReplication(engine, clusterSize),
    ...(engine === "postgresql"
      ? { replication_commit_type: (input as PostgresqlDatabaseCreateRequest).replication_commit_type ?? "local" }
      : {}),
    ...(input.engine_config ? { engine_config: mergeEngineConfig({}, input.engine_config) } : {}),
    port: traits.port,
    updates: provisioningWindow(),
    created: now,
    updated: now,
    root: { username: traits.rootUser, password: randomPassword() },
    ca_certificate: caCertificate,
    backups: [],
    pending: null,
    next_auto_backup_at: nextMidnight(nowMs),
    credentials_reset: false,
  };
  DATABASES.of(account).push(db);
  const event = databaseEvent(actor, "database_create", db);
  const failures = PROVISIONING_FAILURES.of(account);
  if (failures > 0) PROVISIONING_FAILURES.set(account, failures - 1);
  const fail = failures > 0;
  startJob(runtime, db, "provision", { durationMs: provisioningMs(db.id), to: fail ? "failed" : "active", events: [event] });
  return db;
}

/**
 * PUT: label, allow list and window change at once and the cluster goes `updating` for about a
 * minute (recorded); a new `type` is a resize (`resizing`).
 */
export function updateDatabase(actor: Actor, db: StoredDatabase, input: DatabaseUpdateRequest): StoredDatabase {
  const resize = input.type !== undefined && input.type !== db.type;
  const other =
    input.label !== undefined || input.allow_list !== undefined || input.updates !== undefined || input.engine_config !== undefined;
  if (input.label !== undefined) db.label = input.label;
  if (input.engine_config !== undefined) db.engine_config = mergeEngineConfig(db.engine_config ?? {}, input.engine_config);
  if (input.allow_list !== undefined) db.allow_list = [...input.allow_list];
  if (input.updates !== undefined) db.updates = windowFromRequest(input.updates);
  const events: number[] = [];
  if (other || !resize) events.push(databaseEvent(actor, "database_update", db));
  if (resize) {
    db.type = input.type!;
    events.push(databaseEvent(actor, "database_resize", db));
    startJob(actor.runtime, db, "resize", { durationMs: DATABASE_DURATIONS.resizeMs, events });
  } else {
    startJob(actor.runtime, db, "update", { durationMs: DATABASE_DURATIONS.updateMs, events });
  }
  return db;
}

/**
 * An update's `engine_config` changes what it names and keeps the rest: a parameter group
 * (`mysql`, `pg`, `pglookout`) is merged parameter by parameter, a top-level setting replaced.
 */
export function mergeEngineConfig(stored: EngineConfig, change: EngineConfig): EngineConfig {
  const merged: EngineConfig = structuredClone(stored);
  for (const [key, value] of Object.entries(change)) {
    const before = merged[key];
    const isGroup = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
    merged[key] = isGroup(value) && isGroup(before) ? { ...before, ...structuredClone(value) } : structuredClone(value);
  }
  return merged;
}

export function deleteDatabase(actor: Actor, db: StoredDatabase): void {
  removeStored(DATABASES, actor.account, db);
  databaseEvent(actor, "database_delete", db);
}

/** A new random root password; remembered, because a later restore then fails (spec). */
export function resetCredentials(actor: Actor, db: StoredDatabase): void {
  db.root.password = randomPassword();
  db.credentials_reset = true;
  databaseEvent(actor, "database_credentials_reset", db);
}

export function patchDatabase(actor: Actor, db: StoredDatabase): void {
  startJob(actor.runtime, db, "patch", { durationMs: DATABASE_DURATIONS.patchMs });
}

/** Starts a snapshot; the backup is listed once it is done (`fixtures/database_mysql.backup.list.empty.json`). */
export function createSnapshot(actor: Actor, db: StoredDatabase, input: DatabaseBackupCreateRequest): void {
  const event = databaseEvent(actor, "database_backup_create", db);
  startJob(actor.runtime, db, "snapshot", {
    durationMs: DATABASE_DURATIONS.snapshotMs,
    events: [event],
    snapshot: { label: input.label, target: input.target ?? "primary" },
  });
}

export function deleteBackup(db: StoredDatabase, backup: StoredDatabaseBackup): void {
  db.backups = db.backups.filter((b) => b !== backup);
}

/** Replaces the data with the backup's; after a credentials reset the cluster ends `failed` (spec). */
export function restoreBackup(actor: Actor, db: StoredDatabase, _backup: StoredDatabaseBackup): void {
  const event = databaseEvent(actor, "database_backup_restore", db);
  startJob(actor.runtime, db, "restore", {
    durationMs: DATABASE_DURATIONS.restoreMs,
    to: db.credentials_reset ? "failed" : "active",
    events: [event],
  });
}
