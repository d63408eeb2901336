/**
 * Databases and backups on the wire: key order of `fixtures/database_mysql.get.json` /
 * `database_postgresql.get.json` (api-facts P4-2).
 */
import type { Database, DatabaseBackup, DatabaseInstance } from "../../../sdk/resources/databases";
import { type StoredDatabase, type StoredDatabaseBackup, databaseUrl } from "./store";
import { diskGbOf, findDatabaseType } from "./catalog";

/** A stored database always has a catalog type (the create checked it); 0 only for a state file from elsewhere. */
function totalDiskGb(db: StoredDatabase): number {
  const type = findDatabaseType(db.type);
  return type ? diskGbOf(type) : 0;
}

/** The record of `GET /databases/{engine}/instances/{id}`, in the recorded key order. */
export function renderDatabase(db: StoredDatabase): Database {
  return {
    id: db.id,
    label: db.label,
    type: db.type,
    engine: db.engine,
    version: db.version,
    region: db.region,
    status: db.status,
    encrypted: db.encrypted,
    allow_list: [...db.allow_list],
    cluster_size: db.cluster_size,
    hosts: { ...db.hosts },
    ssl_connection: db.ssl_connection,
    replication_type: db.replication_type,
    ...(db.engine === "postgresql" ? { replication_commit_type: db.replication_commit_type ?? "local" } : {}),
    port: db.port,
    updates: { ...db.updates },
    created: db.created,
    updated: db.updated,
    // The description of 4.174 lists both; the later platform's recordings say null while provisioning, then 0.
    total_disk_size_gb: totalDiskGb(db),
    used_disk_size_gb: db.status === "provisioning" ? null : 0,
    ...(db.engine_config ? { engine_config: structuredClone(db.engine_config) } : {}),
  };
}

/** An item of `GET /databases/instances`: no SSL or replication fields, plus `instance_uri`. */
export function renderInstance(db: StoredDatabase): DatabaseInstance {
  const { ssl_connection: _ssl, replication_type: _type, replication_commit_type: _commit, ...rest } = renderDatabase(db);
  return { ...rest, instance_uri: databaseUrl(db) };
}

export function renderBackup(backup: StoredDatabaseBackup): DatabaseBackup {
  return { id: backup.id, type: backup.type, label: backup.label, created: backup.created };
}
