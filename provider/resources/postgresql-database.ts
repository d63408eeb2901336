/**
 * `compute:PostgresqlDatabase`: a managed PostgreSQL cluster. The same life as `MysqlDatabase`
 * (`database-common.ts`), plus `replicationCommitType`; both replication fields replace it.
 */
import { PostgresqlDatabaseCreateRequest } from "../../sdk/resources/databases";
import { databaseSpec } from "./database-common";

const fields = PostgresqlDatabaseCreateRequest.shape;

export const postgresqlDatabaseSpec = databaseSpec({
  engine: "postgresql",
  name: "PostgresqlDatabase",
  noun: "PostgreSQL database",
  description: "A managed PostgreSQL database cluster.",
  example: [
    'const db = new compute.PostgresqlDatabase("reports", {',
    '  label: "reports-db", region: "us-ord", type: "g6-standard-1", engineId: "postgresql/14.6", clusterSize: 3,',
    "});",
  ].join("\n"),
  api: (client) => client.databases.postgresql,
  replication: {
    replicationType: {
      schema: fields.replication_type.unwrap(),
      replaceOnChange: true,
      description:
        "`none` or `asynch`; must be `none` for one node. When absent: `none` for one node, `asynch` for three. Changing it replaces the database.",
    },
    replicationCommitType: {
      schema: fields.replication_commit_type.unwrap(),
      default: "local",
      replaceOnChange: true,
      description: "`on`, `local` (default), `remote_write`, `remote_apply` or `off`. Changing it replaces the database.",
    },
  },
});
