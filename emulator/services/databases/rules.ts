/**
 * The database rules that need state: region, type and engine catalogs, unique labels, the
 * status preconditions of the spec's table ("Status required by operation"), resize to more disk
 * only, and the snapshot limits (3 per database, none while another backup runs). Field-level
 * rules (lengths, enums, the maintenance window, allow-list syntax) are the sdk schemas'. Status
 * refusals are 400 without a field (api-facts P7-1).
 */
import type { ErrorEntry } from "../../../sdk/core/schema";
import {
  DATABASE_CAPABILITY,
  DATABASE_REASONS,
  DATABASE_SNAPSHOT_LIMIT,
  type DatabaseBackupCreateRequest,
  type DatabaseOperation,
  type DatabaseUpdateRequest,
  databaseStatusAllows,
} from "../../../sdk/resources/databases";
import { ApiFailure, entry } from "../../core/errors";
import type { AccountState } from "../../core/state";
import { findRegion, regionHasCapability } from "../regions/catalog";
import { diskGbOf, findDatabaseType, findEngine } from "./catalog";
import { DATABASES, type StoredDatabase } from "./store";

/** Throws the API's 400 when the database's status does not allow the operation. */
export function requireStatus(db: StoredDatabase, operation: DatabaseOperation): void {
  if (!databaseStatusAllows(operation, db.status)) throw new ApiFailure(400, [entry(DATABASE_REASONS.status(operation, db.status))]);
}

export function checkDatabaseCreate(
  account: AccountState,
  input: { label: string; region: string; type: string; engine: string },
): ErrorEntry[] {
  const errors: ErrorEntry[] = [];
  const region = findRegion(input.region);
  if (!region) errors.push(entry(DATABASE_REASONS.regionInvalid, "region"));
  else if (!regionHasCapability(region, DATABASE_CAPABILITY)) errors.push(entry(DATABASE_REASONS.regionNoDatabases, "region"));
  if (!findDatabaseType(input.type)) errors.push(entry(DATABASE_REASONS.typeInvalid, "type"));
  if (!findEngine(input.engine)) errors.push(entry(DATABASE_REASONS.engineUnknown, "engine"));
  if (DATABASES.of(account).some((d) => d.label === input.label)) errors.push(entry(DATABASE_REASONS.labelUnique, "label"));
  return errors;
}

/** After the status check: unique label, a known type with more disk than the current one. */
export function checkDatabaseUpdate(account: AccountState, db: StoredDatabase, input: DatabaseUpdateRequest): ErrorEntry[] {
  const errors: ErrorEntry[] = [];
  if (input.label !== undefined && DATABASES.of(account).some((d) => d !== db && d.label === input.label)) {
    errors.push(entry(DATABASE_REASONS.labelUnique, "label"));
  }
  if (input.type !== undefined && input.type !== db.type) {
    const wanted = findDatabaseType(input.type);
    const current = findDatabaseType(db.type);
    if (!wanted) errors.push(entry(DATABASE_REASONS.typeInvalid, "type"));
    else if (current && diskGbOf(wanted) <= diskGbOf(current)) errors.push(entry(DATABASE_REASONS.resizeSmaller, "type"));
  }
  return errors;
}

/** A snapshot needs an active database with no backup running, fewer than 3 snapshots, and a new label. */
export function checkSnapshotCreate(db: StoredDatabase, input: DatabaseBackupCreateRequest): void {
  if (db.status === "backing_up") throw new ApiFailure(400, [entry(DATABASE_REASONS.backupInProgress)]);
  requireStatus(db, "snapshot");
  if (db.backups.filter((b) => b.type === "snapshot").length >= DATABASE_SNAPSHOT_LIMIT) {
    throw new ApiFailure(400, [entry(DATABASE_REASONS.snapshotLimit)]);
  }
  if (db.backups.some((b) => b.label === input.label)) throw new ApiFailure(400, [entry(DATABASE_REASONS.backupLabelUnique, "label")]);
}
