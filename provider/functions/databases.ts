/** Read-only database data: the engine catalog (with the latest version of each engine) and the databases of the account. */
import { compareVersions, type Database, type DatabaseEngine, type DatabaseEngineType } from "../../sdk/resources/databases";
import { camelizeDeep } from "../engine/values";
import type { Camelized } from "../engine/values";
import { type FunctionOptions, withClient } from "./client";

/** An engine version new databases can use (`id` is an `engineId`), with camelCase keys. */
export type DatabaseEngineResult = Camelized<DatabaseEngine>;
/** A database of any engine as the all-engines list returns it, with camelCase keys. */
export type DatabaseResult = Camelized<Database>;

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
