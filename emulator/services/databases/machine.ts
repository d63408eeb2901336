/**
 * The database status machine (api-facts P3-1) and the daily automatic backups, as data on the
 * clock. A job sets the in-between status and stores the pending transition `{to, at, job}` on
 * the record; `databaseDueSource` hands the clock the earliest due time and applies transitions
 * when it comes, lazily before each request and on the clock's timer. Since nothing lives in a
 * callback, a persisted state file keeps every pending transition and the backup schedule.
 *
 * | job | in between | ends | also |
 * |---|---|---|---|
 * | provision | provisioning (15–30 min) | active (or failed when forced) | hosts assigned, window filled in |
 * | update | updating (1 min) | active | |
 * | resize | resizing (10 min) | active | |
 * | patch | updating (3 min) | active | |
 * | snapshot | backing_up (5 min) | active | the snapshot is listed |
 * | restore | restoring (10 min) | active, or failed after a credentials reset | |
 */
import type { DatabaseStatus } from "../../../sdk/resources/databases";
import type { DueSource } from "../../core/clock";
import { formatTimestamp } from "../../core/clock";
import type { EmulatorRuntime } from "../../core/runtime";
import type { AccountState } from "../../core/state";
import { closeEvents } from "../events/operations";
import {
  DATABASES,
  DATABASE_BACKUP_ID,
  DAY_MS,
  type DatabaseJob,
  type PendingTransition,
  type StoredDatabase,
  assignedHosts,
  platformWindow,
} from "./store";

const MINUTE = 60_000;

/** How long each job takes, in emulated time. */
export const DATABASE_DURATIONS = {
  provisionMinMs: 15 * MINUTE,
  provisionMaxMs: 30 * MINUTE,
  updateMs: 1 * MINUTE,
  resizeMs: 10 * MINUTE,
  patchMs: 3 * MINUTE,
  snapshotMs: 5 * MINUTE,
  restoreMs: 10 * MINUTE,
} as const;

/** Automatic backups are kept this long (spec "Database backup"). */
export const AUTO_BACKUP_RETENTION_MS = 7 * DAY_MS;

/** Provisioning time of one database: 15–30 minutes, fixed per id so runs are reproducible. */
export function provisioningMs(id: number): number {
  const { provisionMinMs: min, provisionMaxMs: max } = DATABASE_DURATIONS;
  const hash = Math.imul(id ^ 0x9e3779b9, 0x85ebca6b) >>> 0;
  const fraction = (hash % 1000) / 999;
  return Math.round((min + fraction * (max - min)) / 1000) * 1000; // whole seconds, like event durations
}

/** The status a database shows while a job runs. */
const IN_BETWEEN: Record<DatabaseJob, DatabaseStatus> = {
  provision: "provisioning",
  update: "updating",
  resize: "resizing",
  patch: "updating",
  snapshot: "backing_up",
  restore: "restoring",
};

/** Starts a job: the in-between status now, the transition stored for `durationMs` later. */
export function startJob(
  runtime: EmulatorRuntime,
  db: StoredDatabase,
  job: DatabaseJob,
  options: { durationMs: number; to?: DatabaseStatus; events?: number[]; snapshot?: PendingTransition["snapshot"] },
): void {
  const nowMs = runtime.clock.nowMs();
  db.status = IN_BETWEEN[job];
  db.updated = formatTimestamp(nowMs);
  db.pending = { to: options.to ?? "active", at: nowMs + options.durationMs, job, events: options.events ?? [] };
  if (options.snapshot) db.pending.snapshot = options.snapshot;
}

/** Applies a database's pending transition (the clock reads the transition's due time). */
export function completeJob(runtime: EmulatorRuntime, account: AccountState, db: StoredDatabase): void {
  const pending = db.pending;
  if (!pending) return;
  db.pending = null;
  db.status = pending.to;
  db.updated = runtime.clock.timestamp();
  if (pending.job === "provision" && pending.to === "active") {
    db.hosts = assignedHosts(db);
    // The platform fills in an hour and a day once the cluster is up (api-facts P2-2).
    if (db.updates.day_of_week === null) db.updates = platformWindow(db.id);
  }
  if (pending.job === "snapshot" && pending.snapshot && pending.to === "active") {
    const createdMs = runtime.clock.nowMs();
    db.backups.push({
      id: runtime.nextId(DATABASE_BACKUP_ID),
      type: "snapshot",
      label: pending.snapshot.label,
      created: formatTimestamp(createdMs),
      createdMs,
    });
  }
  closeEvents(account, pending.events, pending.to === "failed" ? "failed" : "finished", runtime.clock.nowMs());
}

/** Statuses in which the nightly backup is skipped: there is no usable data to back up. */
const NO_AUTO_BACKUP: readonly DatabaseStatus[] = ["provisioning", "failed"];

/** The 00:00 UTC run: takes the automatic backup, drops those older than 7 days, schedules the next. */
export function runAutoBackup(runtime: EmulatorRuntime, db: StoredDatabase, dueMs: number): void {
  if (!NO_AUTO_BACKUP.includes(db.status)) {
    const day = formatTimestamp(dueMs).slice(0, 10).replace(/-/g, "");
    db.backups.push({
      id: runtime.nextId(DATABASE_BACKUP_ID),
      type: "auto",
      label: `auto_${day}`,
      created: formatTimestamp(dueMs),
      createdMs: dueMs,
    });
  }
  db.backups = db.backups.filter((b) => b.type !== "auto" || b.createdMs > dueMs - AUTO_BACKUP_RETENTION_MS);
  db.next_auto_backup_at = dueMs + DAY_MS;
}

function* allDatabases(runtime: EmulatorRuntime): Generator<{ account: AccountState; db: StoredDatabase }> {
  // The state is replaced on reset and may not be loaded yet when the clock first ticks.
  for (const account of Object.values(runtime.state?.accounts ?? {})) {
    for (const db of DATABASES.of(account)) yield { account, db };
  }
}

/** The clock's view of every database's pending work: transitions and nightly backups. */
export function databaseDueSource(runtime: EmulatorRuntime): DueSource {
  return {
    nextDueMs() {
      let earliest: number | undefined;
      for (const { db } of allDatabases(runtime)) {
        for (const at of [db.pending?.at, db.next_auto_backup_at]) {
          if (at !== undefined && (earliest === undefined || at < earliest)) earliest = at;
        }
      }
      return earliest;
    },
    runDue(dueMs) {
      for (const { account, db } of [...allDatabases(runtime)]) {
        if (db.pending && db.pending.at <= dueMs) completeJob(runtime, account, db);
        if (db.next_auto_backup_at <= dueMs) runAutoBackup(runtime, db, db.next_auto_backup_at);
      }
    },
  };
}
