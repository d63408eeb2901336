/**
 * `compute:PostgresqlDatabase`: a managed PostgreSQL cluster. The same life as `MysqlDatabase`
 * (`database-common.ts`), plus `replicationCommitType`; both replication fields replace it.
 */
import * as pulumi from "@pulumi/pulumi";
import { PostgresqlDatabaseCreateRequest, type Database } from "../../sdk/resources/databases";
import { type ArgsOf, type Camelized, TYPE_MODULE, dynamicProps, resourceOptions } from "../engine/resource";
import type { ResourceSpec } from "../engine/spec";
import { providerFor } from "../shim";
import {
  DATABASE_OUTPUTS,
  DATABASE_TIMEOUTS,
  type MaintenanceWindowArgs,
  commonInputs,
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

/** Constructor arguments of `PostgresqlDatabase`. */
export type PostgresqlDatabaseArgs = ArgsOf<typeof postgresqlDatabaseSpec>;

/**
 * A managed PostgreSQL database.
 *
 * ```ts
 * const db = new compute.PostgresqlDatabase("reports", {
 *   label: "reports-db", region: "us-ord", type: "g6-standard-1", engineId: "postgresql/14.6", clusterSize: 3,
 * });
 * ```
 */
export class PostgresqlDatabase extends pulumi.dynamic.Resource {
  /** The database's label. */
  declare readonly label: pulumi.Output<string>;
  /** Region id. */
  declare readonly region: pulumi.Output<string>;
  /** Instance type of the nodes. */
  declare readonly type: pulumi.Output<string>;
  /** `postgresql/<version>`. */
  declare readonly engineId: pulumi.Output<string>;
  /** 1 or 3 nodes. */
  declare readonly clusterSize: pulumi.Output<number>;
  declare readonly encrypted: pulumi.Output<boolean>;
  declare readonly sslConnection: pulumi.Output<boolean>;
  /** Addresses and ranges allowed to connect. */
  declare readonly allowList: pulumi.Output<string[]>;
  declare readonly replicationType: pulumi.Output<string>;
  declare readonly replicationCommitType: pulumi.Output<string>;
  /** The maintenance window. */
  declare readonly updates: pulumi.Output<Required<MaintenanceWindowArgs>>;
  /** `active` once usable. */
  declare readonly status: pulumi.Output<string>;
  /** Host names (null until provisioned). */
  declare readonly hosts: pulumi.Output<Camelized<Database["hosts"]>>;
  declare readonly port: pulumi.Output<number>;
  declare readonly version: pulumi.Output<string>;
  declare readonly engine: pulumi.Output<string>;
  declare readonly rootUsername: pulumi.Output<string>;
  /** Secret: encrypted in state. */
  declare readonly rootPassword: pulumi.Output<string>;
  /** Base64 PEM CA certificate; secret in state. */
  declare readonly caCert: pulumi.Output<string>;
  declare readonly created: pulumi.Output<string>;
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: PostgresqlDatabaseArgs, opts?: pulumi.CustomResourceOptions) {
    super(providerFor(postgresqlDatabaseSpec.name), name, dynamicProps(postgresqlDatabaseSpec, args), resourceOptions(postgresqlDatabaseSpec, opts), TYPE_MODULE, postgresqlDatabaseSpec.name);
  }
}
