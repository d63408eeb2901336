/**
 * What new databases can be made of: engine versions, and the node types a database can run on
 * with their disks (a resize must move to more disk) and prices, which `GET /databases/types`
 * lists (in the OpenAPI description of 4.174, not in the spec's tables).
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
  type DatabaseType,
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

/** One node type's record before its engines' prices (`GET /databases/types`). */
interface NodeType {
  id: string;
  label: string;
  class: string;
  disk: number;
  memory: number;
  vcpus: number;
  monthly: { single: number; cluster: number };
}

const nodeType = (
  id: string,
  label: string,
  cls: string,
  diskGb: number,
  memory: number,
  vcpus: number,
  single: number,
  cluster: number,
): NodeType => ({
  id,
  label: `DBaaS - ${label}`,
  class: cls,
  disk: diskGb * 1024,
  memory,
  vcpus,
  monthly: { single, cluster },
});

/**
 * The node types of 4.174 (`GET /databases/types`, the OpenAPI description's `DatabaseType`): the
 * shared and dedicated plans of that era with their compute disks (the description's example:
 * `g6-nanode-1`, `DBaaS - Nanode 1GB`, 25600 MB, 1024 MB, 1 vCPU). Monthly prices of 1 and 3
 * nodes are the public price list of managed databases of that era, the same for both engines;
 * hourly is monthly × 0.0015, the platform's rule (a $5 plan is $0.0075 an hour).
 */
const NODE_TYPES: readonly NodeType[] = [
  nodeType("g6-nanode-1", "Nanode 1GB", "nanode", 25, 1024, 1, 15, 35),
  nodeType("g6-standard-1", "Linode 2GB", "standard", 50, 2048, 1, 30, 70),
  nodeType("g6-standard-2", "Linode 4GB", "standard", 80, 4096, 2, 60, 140),
  nodeType("g6-standard-4", "Linode 8GB", "standard", 160, 8192, 4, 120, 280),
  nodeType("g6-standard-6", "Linode 16GB", "standard", 320, 16384, 6, 240, 560),
  nodeType("g6-standard-8", "Linode 32GB", "standard", 640, 32768, 8, 480, 1120),
  nodeType("g6-standard-16", "Linode 64GB", "standard", 1280, 65536, 16, 960, 2240),
  nodeType("g6-dedicated-2", "Dedicated 4GB", "dedicated", 80, 4096, 2, 65, 195),
  nodeType("g6-dedicated-4", "Dedicated 8GB", "dedicated", 160, 8192, 4, 130, 390),
  nodeType("g6-dedicated-8", "Dedicated 16GB", "dedicated", 320, 16384, 8, 260, 780),
  nodeType("g6-dedicated-16", "Dedicated 32GB", "dedicated", 640, 32768, 16, 520, 1560),
  nodeType("g6-dedicated-32", "Dedicated 64GB", "dedicated", 1280, 65536, 32, 1040, 3120),
];

const price = (monthly: number) => ({ hourly: Math.round(monthly * 0.0015 * 10_000) / 10_000, monthly });

/** What a create accepts as `type` and what `GET /databases/types` lists: one catalog for both. */
export const DATABASE_TYPES: readonly DatabaseType[] = NODE_TYPES.map(({ monthly, ...type }) => {
  const offers = [
    { quantity: 1, price: price(monthly.single) },
    { quantity: 3, price: price(monthly.cluster) },
  ];
  return { ...type, deprecated: false, engines: { mysql: offers, postgresql: offers } };
});

export function findDatabaseType(id: string): DatabaseType | undefined {
  return DATABASE_TYPES.find((t) => t.id === id);
}

/** A node type's disk in GB: what a resize must grow, and the record's `total_disk_size_gb`. */
export function diskGbOf(type: DatabaseType): number {
  return type.disk / 1024;
}

/** Per engine: the access port, the root user (api-facts P4-2) and the host-name tag. */
export const ENGINE_TRAITS: Record<DatabaseEngineType, { port: number; rootUser: string; hostTag: string }> = {
  mysql: { port: 3306, rootUser: "linroot", hostTag: "mysql" },
  postgresql: { port: 5432, rootUser: "linpostgres", hostTag: "pgsql" },
};
