/**
 * Managed databases of an account as stored, with their pending status-machine transition and
 * backups. Long-running jobs (provisioning, updates, resizes, patches, snapshots, restores) are
 * started by `operations.ts` and finished by the status machine (`machine.ts`), which applies the
 * pending transition stored on the record. The wire rendering is `render.ts`.
 */
import { randomBytes } from "node:crypto";
import type { DatabaseEngineType, DatabaseStatus, DatabaseUpdatesRequest } from "../../../sdk/resources/databases";
import { type AccountState, type UserRecord, accountSlice, idCounter } from "../../core/state";
import { canSee } from "../../core/auth";
import { ENGINE_TRAITS } from "./catalog";

/** The maintenance window as stored (and rendered). */
export interface MaintenanceWindow {
  frequency: "weekly" | "monthly";
  duration: number;
  hour_of_day: number;
  day_of_week: number | null;
  week_of_month: number | null;
}

export interface StoredDatabaseBackup {
  id: number;
  type: "snapshot" | "auto";
  label: string;
  created: string;
  /** Emulated epoch ms of `created` (automatic backups are kept 7 days). */
  createdMs: number;
}

/** A job that ends with a status change. */
export type DatabaseJob = "provision" | "update" | "resize" | "patch" | "snapshot" | "restore";

/**
 * The pending transition of a database's status machine: at `at` (emulated epoch ms) the status
 * becomes `to` and the job's effects apply. Stored on the record, so a state file keeps it.
 */
export interface PendingTransition {
  to: DatabaseStatus;
  at: number;
  job: DatabaseJob;
  /** Events that finish (or fail) with the job. */
  events: number[];
  /** For a snapshot: the backup that appears once it is done. */
  snapshot?: { label: string; target: "primary" | "secondary" };
}

/** Either engine's `engine_config`: groups of parameters (`mysql`, `pg`, `pglookout`) and top-level settings. */
export type EngineConfig = Record<string, unknown>;

export interface StoredDatabase {
  id: number;
  engine: DatabaseEngineType;
  version: string;
  label: string;
  type: string;
  region: string;
  status: DatabaseStatus;
  encrypted: boolean;
  allow_list: string[];
  cluster_size: number;
  hosts: { primary: string | null; secondary: string | null };
  ssl_connection: boolean;
  replication_type: string;
  /** PostgreSQL only. */
  replication_commit_type?: string;
  /**
   * Newer than 4.174: the advanced parameters a client set (`engine_config`), kept and returned as
   * the later API does; absent until one is sent, so 4.174 records keep their recorded shape.
   */
  engine_config?: EngineConfig;
  port: number;
  updates: MaintenanceWindow;
  created: string;
  updated: string;
  /** The root user and its current password. */
  root: { username: string; password: string };
  /** Base64 of the CA certificate's PEM text. */
  ca_certificate: string;
  backups: StoredDatabaseBackup[];
  pending: PendingTransition | null;
  /** Emulated epoch ms of the next 00:00 UTC, when the daily automatic backup is taken. */
  next_auto_backup_at: number;
  /** A credentials reset happened: a later restore leaves the cluster `failed` (spec). */
  credentials_reset: boolean;
}

/** `accounts[id].databases`: databases of both engines, with their backups. */
export const DATABASES = accountSlice("databases", (): StoredDatabase[] => []);
/** `accounts[id].databaseProvisioningFailures`: how many of the next provisionings end `failed` (a control switch). */
export const PROVISIONING_FAILURES = accountSlice("databaseProvisioningFailures", () => 0);
export const DATABASE_ID = idCounter("database", 28_000);
export const DATABASE_BACKUP_ID = idCounter("database_backup", 805_000);

export const databaseUrl = (db: Pick<StoredDatabase, "engine" | "id">) => `/v4/databases/${db.engine}/instances/${db.id}`;

export function findDatabase(account: AccountState, engine: DatabaseEngineType, id: number): StoredDatabase | undefined {
  return DATABASES.of(account).find((d) => d.id === id && d.engine === engine);
}

/** Databases the user may see: all, or for a restricted user those with a grant. */
export function visibleDatabases(account: AccountState, user: UserRecord, engine?: DatabaseEngineType): StoredDatabase[] {
  return DATABASES.of(account).filter((d) => (engine === undefined || d.engine === engine) && canSee(user, "database", d.id));
}

/** Backups newest first. */
export function backupsNewestFirst(db: StoredDatabase): StoredDatabaseBackup[] {
  return [...db.backups].sort((a, b) => b.createdMs - a.createdMs || b.id - a.id);
}

/** The default window while provisioning (`fixtures/database_mysql.create.json`). */
export function provisioningWindow(): MaintenanceWindow {
  return { frequency: "weekly", duration: 3, hour_of_day: 0, day_of_week: null, week_of_month: null };
}

/** The window the platform picks once a database is active (it fills in an hour and a day). */
export function platformWindow(id: number): MaintenanceWindow {
  return { frequency: "weekly", duration: 3, hour_of_day: (id * 7) % 24, day_of_week: (id % 7) + 1, week_of_month: null };
}

/** A request's window as stored: frequency defaults to weekly, week_of_month to null. */
export function windowFromRequest(input: DatabaseUpdatesRequest): MaintenanceWindow {
  return {
    frequency: input.frequency ?? "weekly",
    duration: input.duration,
    hour_of_day: input.hour_of_day,
    day_of_week: input.day_of_week,
    week_of_month: input.week_of_month ?? null,
  };
}

/** Host names assigned when provisioning completes (the recorded `lin-<id>-<n>-mysql-primary…` form). */
export function assignedHosts(db: StoredDatabase): StoredDatabase["hosts"] {
  const serial = 10000 + ((db.id * 7919) % 9000);
  const base = `lin-${db.id}-${serial}-${ENGINE_TRAITS[db.engine].hostTag}-primary`;
  return { primary: `${base}.servers.computedb.net`, secondary: `${base}-private.servers.computedb.net` };
}

/** A random root password, like the platform's (letters and digits). */
export function randomPassword(): string {
  return randomBytes(24)
    .toString("base64")
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, 24)
    .padEnd(24, "x");
}

const DAY_MS = 24 * 3600 * 1000;

/** The first 00:00 UTC strictly after `epochMs`. */
export function nextMidnight(epochMs: number): number {
  return (Math.floor(epochMs / DAY_MS) + 1) * DAY_MS;
}

export { DAY_MS };
