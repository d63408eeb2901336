/**
 * `compute:MysqlDatabase`: a managed MySQL cluster. `up` waits until it is active (15–30 minutes
 * on the real API, with progress), then applies the maintenance window. Label, allow list,
 * maintenance window and type (a resize, waited for) change in place; region, engine version,
 * cluster size, encryption, SSL and replication replace it. The root password and CA certificate
 * are secret outputs. Shared behaviour lives in `database-common.ts`.
 */
import { MysqlDatabaseCreateRequest } from "../../sdk/resources/databases";
import { databaseSpec } from "./database-common";

export const mysqlDatabaseSpec = databaseSpec({
  engine: "mysql",
  name: "MysqlDatabase",
  noun: "MySQL database",
  description: "A managed MySQL database cluster.",
  example: [
    'const db = new compute.MysqlDatabase("app", {',
    '  label: "app-db", region: "us-iad", type: "g6-nanode-1", engineId: "mysql/8.0.30",',
    '  allowList: ["203.0.113.1"], updates: { frequency: "weekly", duration: 1, hourOfDay: 3, dayOfWeek: 7 },',
    "});",
    "export const host = db.hosts.apply((h) => h.primary);",
  ].join("\n"),
  api: (client) => client.databases.mysql,
  replication: {
    replicationType: {
      schema: MysqlDatabaseCreateRequest.shape.replication_type.unwrap(),
      replaceOnChange: true,
      description:
        "`none`, `asynch` or `semi_synch`; must be `none` for one node. When absent: `none` for one node, `semi_synch` for three. Changing it replaces the database.",
    },
  },
});
