/**
 * What new databases can be made of: engine versions and the instance types a database node can
 * use with their disk sizes (a resize must move to more disk). The API of 4.174 has no endpoint
 * for database types, so the type catalog is the emulator's own: the shared and dedicated plans
 * of that era and their disks, in GB.
 *
 * Engines come in two forms (emulator/README.md, "Fields newer than the spec"):
 * - the 4.174 catalog's ids name a full version (`mysql/8.0.30`), as recorded in linodego v1.33.0
 *   `TestDatabase_Engine.yaml` (2024); a create with one provisions exactly it;
 * - today's API lists one id per major (`mysql/8`, `postgresql/16`, version `8`, `16`) and
 *   provisions the newest version of that major: the HEAD recordings create with `mysql/8` and read
 *   back `8.0.35`, and read PostgreSQL `14.15`.
 * `GET /databases/engines` lists today's ids; both forms create.
 */
import {
  CURRENT_ENGINE_MAJORS,
  DATABASE_ENGINES,
  compareVersions,
  parseEngineId,
  type DatabaseEngine,
  type DatabaseEngineType,
} from "../../../sdk/resources/databases";

const version = (engine: DatabaseEngineType, v: string): DatabaseEngine => ({ id: `${engine}/${v}`, engine, version: v });

/**
 * Every version the emulator provisions: the 4.174 catalog, and the newest of each current major
 * (8.0.35 and 14.15 recorded; 13.18, 15.10, 16.6 and 17.2 are their PostgreSQL release of the same
 * day, November 2024, as no recording names them).
 */
export const ENGINE_VERSIONS: readonly DatabaseEngine[] = [
  version("mysql", "5.7.39"),
  version("mysql", "8.0.30"),
  version("mysql", "8.0.35"),
  version("postgresql", "10.23"),
  version("postgresql", "11.17"),
  version("postgresql", "12.12"),
  version("postgresql", "13.8"),
  version("postgresql", "13.18"),
  version("postgresql", "14.6"),
  version("postgresql", "14.15"),
  version("postgresql", "15.10"),
  version("postgresql", "16.6"),
  version("postgresql", "17.2"),
];

/** What `GET /databases/engines` lists, as today's API does: one id per current major (`mysql/8`, version `8`). */
export const ENGINE_CATALOG: readonly DatabaseEngine[] = DATABASE_ENGINES.flatMap((engine) =>
  CURRENT_ENGINE_MAJORS[engine].map((major) => version(engine, major)),
);

/**
 * The version a create with engine `id` provisions: a listed major (`mysql/8`) → the newest
 * version of that major; a full version of the catalog (`mysql/8.0.30`) → itself; else none.
 */
export function findEngine(id: string): DatabaseEngine | undefined {
  if (ENGINE_CATALOG.some((e) => e.id === id)) {
    const { type, major } = parseEngineId(id);
    return ENGINE_VERSIONS.filter((e) => e.engine === type && parseEngineId(e.id).major === major).sort((a, b) =>
      compareVersions(b.version, a.version),
    )[0];
  }
  return ENGINE_VERSIONS.find((e) => e.id === id);
}

/** `GET /databases/engines/{id}`: a listed id, or a full version the emulator provisions (the 4.174 recording reads `mysql/5.7.39`). */
export function engineRecord(id: string): DatabaseEngine | undefined {
  return ENGINE_CATALOG.find((e) => e.id === id) ?? ENGINE_VERSIONS.find((e) => e.id === id);
}

/** An instance type a database node can run on. */
export interface DatabaseType {
  id: string;
  diskGb: number;
}

export const DATABASE_TYPES: readonly DatabaseType[] = [
  { id: "g6-nanode-1", diskGb: 25 },
  { id: "g6-standard-1", diskGb: 50 },
  { id: "g6-standard-2", diskGb: 80 },
  { id: "g6-standard-4", diskGb: 160 },
  { id: "g6-standard-6", diskGb: 320 },
  { id: "g6-standard-8", diskGb: 640 },
  { id: "g6-standard-16", diskGb: 1280 },
  { id: "g6-dedicated-2", diskGb: 80 },
  { id: "g6-dedicated-4", diskGb: 160 },
  { id: "g6-dedicated-8", diskGb: 320 },
  { id: "g6-dedicated-16", diskGb: 640 },
  { id: "g6-dedicated-32", diskGb: 1280 },
];

export function findDatabaseType(id: string): DatabaseType | undefined {
  return DATABASE_TYPES.find((t) => t.id === id);
}

/** Per engine: the access port, the root user (api-facts P4-2) and the host-name tag. */
export const ENGINE_TRAITS: Record<DatabaseEngineType, { port: number; rootUser: string; hostTag: string }> = {
  mysql: { port: 3306, rootUser: "linroot", hostTag: "mysql" },
  postgresql: { port: 5432, rootUser: "linpostgres", hostTag: "pgsql" },
};
