/**
 * Managed Databases: the engines, statuses and what each operation requires, allow lists, and the request schemas with the API's rules and reason texts (re-exported by `databases.ts`).
 */
import { z } from "zod";
import { intField, requiredString } from "../core/schema";
import { formatIpv6, parseIpv4, parseIpv6 } from "../core/net";

// ---------------------------------------------------------------------------------------------
// Engines, statuses and what each operation requires

/** The capability a region lists when databases can be made in it (`GET /regions`). */
export const DATABASE_CAPABILITY = "Managed Databases";

/** The engine types, as they appear in paths (`/databases/{engine}/instances`). */
export const DATABASE_ENGINES = ["mysql", "postgresql"] as const;
/** A database engine: `mysql` or `postgresql`. */
export type DatabaseEngineType = (typeof DATABASE_ENGINES)[number];

/**
 * The major versions the API offers now, per engine: `GET /databases/engines` lists one id per
 * major (`mysql/8`, `postgresql/16`, version `8`, `16`), and today's clients create with those ids
 * (emulator/README.md, "Fields newer than the spec"). A major-only engine id must name one of them.
 */
export const CURRENT_ENGINE_MAJORS: Record<DatabaseEngineType, readonly string[]> = {
  mysql: ["8"],
  postgresql: ["13", "14", "15", "16", "17"],
};

/** The majors of the 4.174 catalog, whose ids carry the full version (`mysql/5.7.39` … `postgresql/14.6`). */
export const SPEC_ENGINE_MAJORS: Record<DatabaseEngineType, readonly string[]> = {
  mysql: ["5", "8"],
  postgresql: ["10", "11", "12", "13", "14"],
};

/** Compares dotted versions numerically (`8.0.30` > `8.0.4`; `14.6` > `10.23`). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map((p) => Number.parseInt(p, 10) || 0);
  const pb = b.split(".").map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** An engine id's parts: `mysql/8.0.30` → `{type: "mysql", version: "8.0.30", major: "8", majorOnly: false}`. */
export function parseEngineId(id: string): { type: string; version: string; major: string; majorOnly: boolean } {
  const [type = "", version = ""] = id.split("/");
  const major = version.split(".")[0] ?? "";
  return { type, version, major, majorOnly: version === major };
}

/**
 * Every status value known: the spec's list (States section) plus `resizing` (manager types,
 * api-facts P3-1). The response schema accepts any string, so a new status never breaks a read.
 */
export const DATABASE_STATUSES = [
  "provisioning",
  "active",
  "suspending",
  "suspended",
  "resuming",
  "restoring",
  "failed",
  "degraded",
  "updating",
  "backing_up",
  "resizing",
] as const;
/** A managed database's status (api-facts P3-1). */
export type DatabaseStatus = (typeof DATABASE_STATUSES)[number];

/** Operations with a status precondition (spec "Status required by operation"). */
export type DatabaseOperation = "update" | "delete" | "restore" | "backups" | "snapshot" | "credentials" | "ssl" | "patch";

/** The spec's table as data: the statuses an operation accepts (`allowed`) or refuses (`except`). */
export const DATABASE_STATUS_REQUIREMENTS: Record<
  DatabaseOperation,
  { allowed: readonly DatabaseStatus[] } | { except: readonly DatabaseStatus[] }
> = {
  update: { allowed: ["active"] },
  delete: { allowed: ["active", "failed", "degraded"] },
  restore: { allowed: ["active", "degraded", "failed"] },
  backups: { except: ["provisioning"] },
  snapshot: { allowed: ["active"] },
  credentials: { allowed: ["active"] },
  ssl: { allowed: ["active"] },
  patch: { allowed: ["active"] },
};

/** Whether a database in `status` may undergo `operation`. */
export function databaseStatusAllows(operation: DatabaseOperation, status: string): boolean {
  const rule = DATABASE_STATUS_REQUIREMENTS[operation];
  return "allowed" in rule ? (rule.allowed as readonly string[]).includes(status) : !(rule.except as readonly string[]).includes(status);
}

const OPERATION_VERBS: Record<DatabaseOperation, string> = {
  update: "update",
  delete: "delete",
  restore: "restore a backup of",
  backups: "access the backups of",
  snapshot: "create a snapshot of",
  credentials: "view the credentials of",
  ssl: "view the SSL certificate of",
  patch: "patch",
};

/** `a`, `a or b`, `a, b or c`: a list of statuses for messages. */
export function orList(items: readonly string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

/** Reason texts of the database rules, shared with the emulator and the tests. */
export const DATABASE_REASONS = {
  labelLength: "Label must be between 3 and 32 characters",
  labelUnique: "Label must be unique among your Managed Databases",
  regionRequired: "region is required",
  regionInvalid: "Region is not valid",
  regionNoDatabases: "Managed Databases are not available in this region",
  typeRequired: "type is required",
  typeInvalid: "Type is not a valid instance type",
  resizeSmaller: "A database can only be resized to an instance type with more disk space",
  engineFormat: "engine must be in engine/version form, such as mysql/8.0.30",
  engineWrongType: (engine: DatabaseEngineType) =>
    `engine must be a ${engine} version, such as ${engine === "mysql" ? "mysql/8.0.30" : "postgresql/14.6"}`,
  engineUnknown: "Engine version is not supported; see GET /databases/engines",
  clusterSize: "cluster_size must be 1 or 3",
  encrypted: "encrypted must be a boolean",
  sslConnection: "ssl_connection must be a boolean",
  allowListEntry: "Must be a single IPv4 or IPv6 address or a CIDR range, such as 203.0.113.1 or 192.0.2.0/24",
  allowListType: "allow_list must be an array of addresses and ranges",
  replicationTypeMysql: "replication_type must be none, asynch or semi_synch",
  replicationTypePostgresql: "replication_type must be none or asynch",
  replicationSingleNode: "replication_type must be none for a single node cluster",
  replicationCommitType: "replication_commit_type must be on, local, remote_write, remote_apply or off",
  frequency: "frequency must be weekly or monthly",
  duration: "duration must be an integer from 1 to 3 (hours)",
  hourOfDay: "hour_of_day must be an integer from 0 to 23 (UTC)",
  dayOfWeek: "day_of_week must be an integer from 1 (Monday) to 7 (Sunday)",
  weekOfMonth: "week_of_month must be an integer from 1 to 4",
  weekOfMonthRequired: "week_of_month is required when frequency is monthly",
  weekOfMonthWeekly: "week_of_month must be null when frequency is weekly",
  backupLabelLength: "Label must be between 1 and 30 characters",
  backupLabelChars: "Label must include only ASCII letters, numbers, and underscores",
  backupLabelUnique: "Label must be unique among the backups of this database",
  backupTarget: "target must be primary or secondary",
  snapshotLimit: "A database may have at most 3 snapshots; delete one first",
  backupInProgress: "Another backup of this database is in progress",
  // engine_config (newer than 4.174; emulator wording)
  engineParameters: "Engine parameters must be an object of names and string, number, boolean or null values",
  engineConfigInteger: "Must be an integer",
  engineConfigNumber: "Must be a number",
  engineConfigBoolean: "Must be a boolean",
  /** A status precondition of the spec's table is not met. */
  status: (operation: DatabaseOperation, status: string) => {
    const rule = DATABASE_STATUS_REQUIREMENTS[operation];
    const wanted = "allowed" in rule ? orList(rule.allowed) : `anything but ${orList(rule.except)}`;
    return `Cannot ${OPERATION_VERBS[operation]} a database that is ${status}; it must be ${wanted}`;
  },
} as const;

/** Snapshots a database may hold at once (spec "Limits"). */
export const DATABASE_SNAPSHOT_LIMIT = 3;

// ---------------------------------------------------------------------------------------------
// Allow lists

/** One allow-list entry, parsed: an address (`203.0.113.1`) or a range (`192.0.2.0/24`). */
export interface AllowListEntry {
  family: 4 | 6;
  /** The address as written, canonical text (IPv6 compressed and lower-cased). */
  address: string;
  /** Prefix length; a bare address is a /32 (IPv4) or /128 (IPv6). */
  prefix: number;
  /** True when the text had no prefix length. */
  bare: boolean;
}

/** Parses an allow-list entry; `undefined` when it is neither an address nor a CIDR range. */
export function parseAllowListEntry(text: string): AllowListEntry | undefined {
  const [address = "", prefixText, ...rest] = text.split("/");
  if (rest.length > 0) return undefined;
  if (prefixText !== undefined && !/^(0|[1-9][0-9]{0,2})$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? undefined : Number(prefixText);
  if (parseIpv4(address) !== undefined) {
    if (prefix !== undefined && prefix > 32) return undefined;
    return { family: 4, address, prefix: prefix ?? 32, bare: prefix === undefined };
  }
  const v6 = parseIpv6(address);
  if (v6 === undefined || (prefix !== undefined && prefix > 128)) return undefined;
  return { family: 6, address: formatIpv6(v6), prefix: prefix ?? 128, bare: prefix === undefined };
}

/**
 * The canonical spelling of an entry: a bare address becomes its one-address range, so
 * `203.0.113.1` and `203.0.113.1/32` compare equal (the later platform returns the latter for
 * the former; 4.174 echoes what was sent). Unparsable text is returned unchanged.
 */
export function canonicalAllowListEntry(text: string): string {
  const entry = parseAllowListEntry(text);
  return entry ? `${entry.address}/${entry.prefix}` : text;
}

/** One allow-list entry: an IPv4 address or network (or IPv6), as the API accepts it. */
export const DatabaseAllowListEntry = z
  .string({ error: DATABASE_REASONS.allowListEntry })
  .refine((text) => parseAllowListEntry(text) !== undefined, DATABASE_REASONS.allowListEntry);

/** The addresses and networks allowed to connect; empty blocks every connection. */
export const DatabaseAllowList = z.array(DatabaseAllowListEntry, { error: DATABASE_REASONS.allowListType });

// ---------------------------------------------------------------------------------------------
// Request schemas

/** A database label: 3–32 characters, unique among the account's databases. */
export const DatabaseLabel = requiredString("label").min(3, DATABASE_REASONS.labelLength).max(32, DATABASE_REASONS.labelLength);

/** `engine/version`, such as `mysql/8.0.30`; the path's engine type must match. */
export function databaseEngineId(engine: DatabaseEngineType) {
  return requiredString("engine")
    .regex(/^[a-z]+\/[0-9A-Za-z][0-9A-Za-z.-]*$/, DATABASE_REASONS.engineFormat)
    .refine((id) => id.split("/")[0] === engine, DATABASE_REASONS.engineWrongType(engine));
}

/** The number of nodes: 1, or 3 for a high-availability cluster. */
export const DatabaseClusterSize = z.union([z.literal(1), z.literal(3)], { error: DATABASE_REASONS.clusterSize });
/** MySQL replication between a cluster's nodes: `none`, `asynch` or `semi_synch`. */
export const MysqlReplicationType = z.enum(["none", "asynch", "semi_synch"], { error: DATABASE_REASONS.replicationTypeMysql });
/** PostgreSQL replication between a cluster's nodes: `none` or `asynch`. */
export const PostgresqlReplicationType = z.enum(["none", "asynch"], { error: DATABASE_REASONS.replicationTypePostgresql });
/** How a PostgreSQL commit waits for the replicas (`local` by default). */
export const PostgresqlReplicationCommitType = z.enum(["on", "local", "remote_write", "remote_apply", "off"], {
  error: DATABASE_REASONS.replicationCommitType,
});

const createFields = {
  label: DatabaseLabel,
  region: requiredString("region").min(1, DATABASE_REASONS.regionRequired),
  type: requiredString("type").min(1, DATABASE_REASONS.typeRequired),
  cluster_size: DatabaseClusterSize.optional(),
  encrypted: z.boolean({ error: DATABASE_REASONS.encrypted }).optional(),
  ssl_connection: z.boolean({ error: DATABASE_REASONS.sslConnection }).optional(),
  allow_list: DatabaseAllowList.optional(),
};

/** A single node cannot replicate: `replication_type` must be `none` when `cluster_size` is 1 (the default). */
function singleNodeReplication(
  body: { cluster_size?: number | undefined; replication_type?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if ((body.cluster_size ?? 1) === 1 && body.replication_type !== undefined && body.replication_type !== "none") {
    ctx.addIssue({ code: "custom", message: DATABASE_REASONS.replicationSingleNode, path: ["replication_type"] });
  }
}

// Newer than the spec (4.174): `engine_config`, the engines' advanced parameters. Clients of the
// later API send it on create and update (linodego's `MySQLCreateOptions.EngineConfig`; the bridged
// provider sends `{"pg":{},"pglookout":{}}` even when nothing is set), and the later API stores it
// and returns it in the record (linodego recording `TestDatabaseMySQL_EngineConfig_Suite.yaml`:
// the create's `engine_config` comes back as sent). Its groups and top-level settings are checked
// here; the parameters inside `mysql` and `pg` are any name with a scalar value, their documented
// ranges are not checked (emulator README, "Known differences").

/** An integer setting of `engine_config`. */
const ConfigInteger = z.number({ error: DATABASE_REASONS.engineConfigInteger }).int(DATABASE_REASONS.engineConfigInteger);

/** One engine's parameter group (`mysql`, `pg`): parameter name → value. */
const EngineParameters = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean(), z.null()], { error: DATABASE_REASONS.engineParameters }),
  { error: DATABASE_REASONS.engineParameters },
);

/** MySQL's `engine_config` (newer than 4.174): `mysql` parameters and `binlog_retention_period` (seconds). */
export const MysqlEngineConfig = z.strictObject({
  mysql: EngineParameters.optional(),
  binlog_retention_period: ConfigInteger.optional(),
});

/** PostgreSQL's `engine_config` (newer than 4.174): `pg` parameters, `pglookout`, and three settings of their own. */
export const PostgresqlEngineConfig = z.strictObject({
  pg: EngineParameters.optional(),
  pglookout: z.strictObject({ max_failover_replication_time_lag: ConfigInteger.optional() }).optional(),
  pg_stat_monitor_enable: z.boolean({ error: DATABASE_REASONS.engineConfigBoolean }).optional(),
  shared_buffers_percentage: z.number({ error: DATABASE_REASONS.engineConfigNumber }).optional(),
  work_mem: ConfigInteger.optional(),
});

/** The create body of one engine: the common fields, its engine id and its own fields; one node cannot replicate. */
function createRequest<const E extends "mysql" | "postgresql", S extends z.ZodRawShape>(engine: E, own: S) {
  const body = z.strictObject({ ...createFields, engine: databaseEngineId(engine), ...own });
  return body.superRefine((value, ctx) => singleNodeReplication(value as Parameters<typeof singleNodeReplication>[0], ctx));
}

/** `POST /databases/mysql/instances`. */
export const MysqlDatabaseCreateRequest = createRequest("mysql", {
  replication_type: MysqlReplicationType.optional(),
  engine_config: MysqlEngineConfig.optional(),
});
export type MysqlDatabaseCreateRequest = z.infer<typeof MysqlDatabaseCreateRequest>;

/** `POST /databases/postgresql/instances`: MySQL's body plus `replication_commit_type`. */
export const PostgresqlDatabaseCreateRequest = createRequest("postgresql", {
  replication_type: PostgresqlReplicationType.optional(),
  replication_commit_type: PostgresqlReplicationCommitType.optional(),
  engine_config: PostgresqlEngineConfig.optional(),
});
export type PostgresqlDatabaseCreateRequest = z.infer<typeof PostgresqlDatabaseCreateRequest>;

/** The create schema of each engine. */
export const DATABASE_CREATE_REQUESTS = { mysql: MysqlDatabaseCreateRequest, postgresql: PostgresqlDatabaseCreateRequest } as const;

/**
 * The maintenance window (api-facts P2-2): `frequency` weekly (default) or monthly, `duration`
 * 1–3 hours, `hour_of_day` 0–23 UTC, `day_of_week` 1 (Monday)–7, `week_of_month` 1–4, required
 * when monthly and null when weekly.
 */
export const DatabaseUpdatesRequest = z
  .strictObject({
    frequency: z.enum(["weekly", "monthly"], { error: DATABASE_REASONS.frequency }).optional(),
    duration: intField(DATABASE_REASONS.duration, 1, 3),
    hour_of_day: intField(DATABASE_REASONS.hourOfDay, 0, 23),
    day_of_week: intField(DATABASE_REASONS.dayOfWeek, 1, 7),
    week_of_month: intField(DATABASE_REASONS.weekOfMonth, 1, 4).nullable().optional(),
  })
  .superRefine((window, ctx) => {
    const monthly = window.frequency === "monthly";
    const week = window.week_of_month ?? null;
    if (monthly && week === null) ctx.addIssue({ code: "custom", message: DATABASE_REASONS.weekOfMonthRequired, path: ["week_of_month"] });
    if (!monthly && week !== null) ctx.addIssue({ code: "custom", message: DATABASE_REASONS.weekOfMonthWeekly, path: ["week_of_month"] });
  });
export type DatabaseUpdatesRequest = z.infer<typeof DatabaseUpdatesRequest>;

const updateFields = {
  label: DatabaseLabel.optional(),
  allow_list: DatabaseAllowList.optional(),
  type: z.string({ error: DATABASE_REASONS.typeInvalid }).min(1, DATABASE_REASONS.typeInvalid).optional(),
  updates: DatabaseUpdatesRequest.optional(),
};

/** `PUT /databases/mysql/instances/{id}`: `type` asks for a resize (to more disk only); `engine_config` is newer than 4.174. */
export const MysqlDatabaseUpdateRequest = z.strictObject({ ...updateFields, engine_config: MysqlEngineConfig.optional() });
export type MysqlDatabaseUpdateRequest = z.infer<typeof MysqlDatabaseUpdateRequest>;

/** `PUT /databases/postgresql/instances/{id}`: MySQL's body with PostgreSQL's `engine_config`. */
export const PostgresqlDatabaseUpdateRequest = z.strictObject({ ...updateFields, engine_config: PostgresqlEngineConfig.optional() });
export type PostgresqlDatabaseUpdateRequest = z.infer<typeof PostgresqlDatabaseUpdateRequest>;

/** The update schema of each engine. */
export const DATABASE_UPDATE_REQUESTS = { mysql: MysqlDatabaseUpdateRequest, postgresql: PostgresqlDatabaseUpdateRequest } as const;

/** The fields 4.174 documents for an update, the same for both engines. */
export const DatabaseUpdateRequest = z.strictObject(updateFields);
/** An update of either engine. */
export type DatabaseUpdateRequest = MysqlDatabaseUpdateRequest | PostgresqlDatabaseUpdateRequest;

/** `POST .../backups`: a snapshot. Label 1–30 ASCII letters, digits, `_` (api-facts P4-2). */
export const DatabaseBackupCreateRequest = z.strictObject({
  label: requiredString("label")
    .min(1, DATABASE_REASONS.backupLabelLength)
    .max(30, DATABASE_REASONS.backupLabelLength)
    .regex(/^[A-Za-z0-9_]*$/, DATABASE_REASONS.backupLabelChars),
  target: z.enum(["primary", "secondary"], { error: DATABASE_REASONS.backupTarget }).optional(),
});
export type DatabaseBackupCreateRequest = z.infer<typeof DatabaseBackupCreateRequest>;
