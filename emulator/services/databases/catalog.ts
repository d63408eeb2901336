/**
 * What new databases can be made of: the engine versions of the recorded `GET /databases/engines`
 * (linodego v1.33.0 `TestDatabase_Engine.yaml`, 2024), and the instance types a database node can
 * use with their disk sizes (a resize must move to more disk). The API of 4.174 has no endpoint
 * for database types, so the type catalog is the emulator's own: the shared and dedicated plans
 * of that era and their disks, in GB.
 */
import type { DatabaseEngine, DatabaseEngineType } from "../../../sdk/resources/databases";

export const ENGINE_CATALOG: readonly DatabaseEngine[] = [
  { id: "mysql/5.7.39", engine: "mysql", version: "5.7.39" },
  { id: "mysql/8.0.30", engine: "mysql", version: "8.0.30" },
  { id: "postgresql/10.23", engine: "postgresql", version: "10.23" },
  { id: "postgresql/11.17", engine: "postgresql", version: "11.17" },
  { id: "postgresql/12.12", engine: "postgresql", version: "12.12" },
  { id: "postgresql/13.8", engine: "postgresql", version: "13.8" },
  { id: "postgresql/14.6", engine: "postgresql", version: "14.6" },
];

export function findEngine(id: string): DatabaseEngine | undefined {
  return ENGINE_CATALOG.find((e) => e.id === id);
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

/** The capability a region must list for databases to be created in it. */
export const DATABASE_CAPABILITY = "Managed Databases";

/** Per engine: the access port, the root user (api-facts P4-2) and the host-name tag. */
export const ENGINE_TRAITS: Record<DatabaseEngineType, { port: number; rootUser: string; hostTag: string }> = {
  mysql: { port: 3306, rootUser: "linroot", hostTag: "mysql" },
  postgresql: { port: 5432, rootUser: "linpostgres", hostTag: "pgsql" },
};
