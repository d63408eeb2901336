/**
 * Read-only database data: the engine catalog (with the latest version of each engine), the
 * databases of the account, one database the stack does not own with its root credentials and CA
 * certificate (secrets), and a database's backups.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  DATABASE_ENGINES,
  compareVersions,
  databaseStatusAllows,
  type Database,
  type DatabaseBackup,
  type DatabaseEngine,
  type DatabaseEngineType,
} from "../../sdk/resources/databases";
import { camelizeDeep } from "../engine/values";
import type { Camelized } from "../engine/values";
import { type FunctionOptions, outputForm, withClient } from "./client";
import { type ByIdOrLabel, type Noun, idArgument, noMatch, onlyMatch, orMissing, refuseUnlessOneWay } from "./lookup";

/** An engine version new databases can use (`id` is an `engineId`), with camelCase keys. */
export type DatabaseEngineResult = Camelized<DatabaseEngine>;
/** A database of any engine as the all-engines list returns it, with camelCase keys. */
export type DatabaseResult = Camelized<Database>;

/**
 * One database as `getMysqlDatabase` and `getPostgresqlDatabase` return it: the record, its root
 * user, and its root password and CA certificate (base64 PEM, null where the API has none) as
 * secret Outputs, so they never print.
 */
export type DatabaseWithSecretsResult = DatabaseResult & {
  rootUsername: string;
  rootPassword: pulumi.Output<string>;
  caCert: pulumi.Output<string | null>;
};
/** A backup of a database (`type` `snapshot` or `auto`), with camelCase keys. */
export type DatabaseBackupResult = Camelized<DatabaseBackup>;

/** Arguments of `getMysqlDatabase` and `getPostgresqlDatabase`: its `id`, or its `label` (unique among the account's databases). */
export type GetDatabaseArgs = ByIdOrLabel;

/** Arguments of `getDatabaseBackups`. */
export interface GetDatabaseBackupsArgs {
  /** The database's engine: `mysql` or `postgresql`. */
  engine: DatabaseEngineType;
  databaseId: string | number;
  /** Only the most recently created backup (a list of at most one). */
  latest?: boolean;
}

const NOUNS: Record<DatabaseEngineType, Noun> = {
  mysql: { one: "MySQL database", many: "MySQL databases" },
  postgresql: { one: "PostgreSQL database", many: "PostgreSQL databases" },
};

/** What `getDatabaseEngines` returns. */
export interface DatabaseEnginesResult {
  /** Every engine version offered, as the API lists them. */
  engines: DatabaseEngineResult[];
  /** The newest version of each engine type, by numeric comparison of the version (`mysql` → `mysql/8`). */
  latest: Record<string, DatabaseEngineResult>;
}

/**
 * The engine versions new databases can use, optionally of one engine type, and the latest
 * version of each: `(await getDatabaseEngines()).latest.mysql.id` is an `engineId`.
 *
 * @example
 * ```ts
 * const engines = compute.getDatabaseEnginesOutput();
 * export const newestPostgres = engines.apply((e) => e.latest.postgresql);
 * ```
 */
export function getDatabaseEngines(
  args: { engine?: DatabaseEngineType } = {},
  options: FunctionOptions = {},
): Promise<DatabaseEnginesResult> {
  return withClient("getDatabaseEngines", options, async (client) => {
    const engines = (await client.databases.engines.listAll()).filter((e) => !args.engine || e.engine === args.engine);
    const latest: Record<string, DatabaseEngineResult> = {};
    for (const engine of engines) {
      const best = latest[engine.engine];
      if (!best || compareVersions(engine.version, best.version) > 0) latest[engine.engine] = camelizeDeep(engine) as DatabaseEngineResult;
    }
    return { engines: engines.map((e) => camelizeDeep(e) as DatabaseEngineResult), latest };
  });
}

/**
 * The account's databases of every engine (or of one), optionally only those with a label,
 * region or status.
 *
 * @example
 * ```ts
 * export const databaseLabels = compute.getDatabasesOutput().apply((dbs) => dbs.map((db) => db.label));
 * ```
 */
export function getDatabases(
  args: { engine?: DatabaseEngineType; label?: string; region?: string; status?: string } = {},
  options: FunctionOptions = {},
): Promise<DatabaseResult[]> {
  return withClient("getDatabases", options, async (client) => {
    const all = args.engine ? await client.databases[args.engine].listAll() : await client.databases.instances.listAll();
    return all
      .filter((d) => (!args.engine || d.engine === args.engine) && (!args.label || d.label === args.label))
      .filter((d) => (!args.region || d.region === args.region) && (!args.status || d.status === args.status))
      .map((d) => camelizeDeep(d) as DatabaseResult);
  });
}

/**
 * One MySQL database the stack does not own, by `id` or by `label`, with its root credentials and CA certificate (secrets).
 *
 * @example
 * ```ts
 * // A database another stack owns (made here, so the example runs on its own); found once it exists.
 * const shared = new compute.MysqlDatabase("shared", { label: "shared-db", region: "us-iad", type: "g6-nanode-1", engineId: "mysql/8" });
 * const db = compute.getMysqlDatabaseOutput({ label: shared.label });
 * export const dbHost = db.hosts.primary;
 * export const dbPassword = db.rootPassword; // a secret, as the whole result is
 * ```
 */
export function getMysqlDatabase(args: GetDatabaseArgs, options: FunctionOptions = {}): Promise<DatabaseWithSecretsResult> {
  return getDatabase("getMysqlDatabase", "mysql", args, options);
}

/**
 * One PostgreSQL database the stack does not own, by `id` or by `label`, with its root credentials and CA certificate (secrets).
 *
 * @example
 * ```ts
 * const reports = new compute.PostgresqlDatabase("reports", { label: "reports-db", region: "us-iad", type: "g6-nanode-1", engineId: "postgresql/16" });
 * export const reportsPort = compute.getPostgresqlDatabaseOutput({ id: reports.id }).port;
 * ```
 */
export function getPostgresqlDatabase(args: GetDatabaseArgs, options: FunctionOptions = {}): Promise<DatabaseWithSecretsResult> {
  return getDatabase("getPostgresqlDatabase", "postgresql", args, options);
}

async function getDatabase(
  fn: string,
  engine: DatabaseEngineType,
  args: GetDatabaseArgs,
  options: FunctionOptions,
): Promise<DatabaseWithSecretsResult> {
  refuseUnlessOneWay(fn, args, [["id"], ["label"]]);
  const id = args.id === undefined ? undefined : idArgument(fn, "id", args.id);
  const noun = NOUNS[engine];
  return withClient(fn, options, async (client) => {
    const api = client.databases[engine];
    let db: Database;
    if (id !== undefined) db = await orMissing(() => api.get(id), noMatch(fn, noun, `id ${id}`));
    else {
      const label = args.label!;
      db = onlyMatch(
        fn,
        noun,
        `label ${JSON.stringify(label)}`,
        (await api.listAll({ filter: { label } })).filter((d) => d.label === label),
      );
    }
    // The API answers the credentials and the certificate only in these statuses; say so in the program's terms.
    if (!databaseStatusAllows("credentials", db.status) || !databaseStatusAllows("ssl", db.status))
      throw new Error(`${fn}: ${noun.one} ${db.id} (${db.label}) is ${db.status}; its credentials can be read once it is active`);
    const [credentials, ssl] = await Promise.all([api.credentials(db.id), api.ssl(db.id)]);
    return {
      ...(camelizeDeep(db) as DatabaseResult),
      rootUsername: credentials.username,
      rootPassword: pulumi.secret(credentials.password),
      caCert: pulumi.secret(ssl.ca_certificate),
    };
  });
}

/**
 * The backups of a database (snapshots and daily automatic ones), newest first, or only the newest
 * with `latest`.
 *
 * @example
 * ```ts
 * const db = new compute.MysqlDatabase("app", { label: "app-db", region: "us-iad", type: "g6-nanode-1", engineId: "mysql/8" });
 * export const latestBackup = compute.getDatabaseBackupsOutput({ engine: "mysql", databaseId: db.id, latest: true });
 * ```
 */
export async function getDatabaseBackups(args: GetDatabaseBackupsArgs, options: FunctionOptions = {}): Promise<DatabaseBackupResult[]> {
  if (!(DATABASE_ENGINES as readonly string[]).includes(args.engine))
    throw new Error(`getDatabaseBackups: engine ${JSON.stringify(args.engine)} is not one of ${DATABASE_ENGINES.join(", ")}`);
  const databaseId = idArgument("getDatabaseBackups", "databaseId", args.databaseId);
  return withClient("getDatabaseBackups", options, async (client) => {
    const missing = noMatch("getDatabaseBackups", NOUNS[args.engine], `id ${databaseId}`);
    const backups = await orMissing(() => client.databases[args.engine].backups.listAll(databaseId), missing);
    const newestFirst = [...backups].sort((a, b) => (a.created === b.created ? b.id - a.id : a.created < b.created ? 1 : -1));
    return (args.latest ? newestFirst.slice(0, 1) : newestFirst).map((b) => camelizeDeep(b) as DatabaseBackupResult);
  });
}

/** `getDatabaseEngines` taking Inputs and answering an Output. */
export const getDatabaseEnginesOutput = outputForm(getDatabaseEngines);
/** `getDatabases` taking Inputs and answering an Output. */
export const getDatabasesOutput = outputForm(getDatabases);
/**
 * `getMysqlDatabase` taking Inputs and answering an Output, secret as a whole since it holds the
 * password: `getMysqlDatabaseOutput({ id: db.id }).rootPassword` is a secret `Output<string>`.
 */
export const getMysqlDatabaseOutput = outputForm(getMysqlDatabase);
/** `getPostgresqlDatabase` taking Inputs and answering an Output, secret as a whole since it holds the password. */
export const getPostgresqlDatabaseOutput = outputForm(getPostgresqlDatabase);
/** `getDatabaseBackups` taking Inputs and answering an Output. */
export const getDatabaseBackupsOutput = outputForm(getDatabaseBackups);
