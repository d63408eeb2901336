/**
 * `compute:PostgresqlDatabase`: a managed PostgreSQL cluster. The same life as `MysqlDatabase`
 * (`database-common.ts`), plus `replicationCommitType`; both replication fields replace it.
 */
import * as pulumi from "@pulumi/pulumi";
import { PostgresqlDatabaseCreateRequest } from "../../sdk/resources/databases";
import type { ResourceSpec } from "../engine/spec";
import {
  DATABASE_OUTPUTS,
  DATABASE_TIMEOUTS,
  commonInputs,
  DatabaseResource,
  databaseHooks,
  replaceFailed,
  validateReplication,
} from "./database-common";

const fields = PostgresqlDatabaseCreateRequest.shape;

export const postgresqlDatabaseSpec = {
  name: "PostgresqlDatabase",
  noun: "PostgreSQL database",
  description: "A managed PostgreSQL database cluster.",
  inputs: {
    ...commonInputs("postgresql"),
    replicationType: {
      schema: fields.replication_type.unwrap(),
      replaceOnChange: true,
      description: "`none` or `asynch`; must be `none` for one node. When absent: `none` for one node, `asynch` for three. Changing it replaces the database.",
    },
    replicationCommitType: {
      schema: fields.replication_commit_type.unwrap(),
      default: "local",
      replaceOnChange: true,
      description: "`on`, `local` (default), `remote_write`, `remote_apply` or `off`. Changing it replaces the database.",
    },
  },
  outputs: DATABASE_OUTPUTS,
  timeouts: DATABASE_TIMEOUTS,
  uniqueInputs: ["label"],
  validate: validateReplication,
  replaceBroken: replaceFailed,
  hooks: databaseHooks({
    engine: "postgresql",
    noun: "PostgreSQL database",
    extraCreateFields: (inputs) => ({ replication_type: inputs.replicationType, replication_commit_type: inputs.replicationCommitType }),
  }),
} satisfies ResourceSpec;

/** Constructor arguments, documented per input (generated from the spec: `provider/args.generated.ts`). */
export type PostgresqlDatabaseArgs = import("../args.generated").PostgresqlDatabaseArgs;

/**
 * A managed PostgreSQL database.
 *
 * ```ts
 * const db = new compute.PostgresqlDatabase("reports", {
 *   label: "reports-db", region: "us-ord", type: "g6-standard-1", engineId: "postgresql/14.6", clusterSize: 3,
 * });
 * ```
 */
export class PostgresqlDatabase extends DatabaseResource {
  /** How a commit waits for the replicas (PostgreSQL). */
  declare readonly replicationCommitType: pulumi.Output<string>;

  constructor(name: string, args: PostgresqlDatabaseArgs, opts?: pulumi.CustomResourceOptions) {
    super(postgresqlDatabaseSpec, name, args, opts);
  }
}
