/**
 * Managed databases of both engines: `/databases/*`, with their status machine and nightly
 * backups on the clock. Restricted users need `add_databases` and grants per database.
 */
import { defineService } from "../../core/service";
import { databasesControl } from "./control";
import { databaseDueSource } from "./machine";
import { databaseRoutes } from "./routes";
import { DATABASES, DATABASE_BACKUP_ID, DATABASE_ID, PROVISIONING_FAILURES } from "./store";

export const databasesModule = defineService({
  name: "databases",
  routes: databaseRoutes,
  slices: [DATABASES, PROVISIONING_FAILURES],
  counters: [DATABASE_ID, DATABASE_BACKUP_ID],
  grants: { objects: ["database"], global: ["add_databases"] },
  clock: databaseDueSource,
  control: databasesControl,
});
