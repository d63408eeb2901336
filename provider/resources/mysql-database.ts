/**
 * `compute:MysqlDatabase`: a managed MySQL cluster. `up` waits until it is active (15–30 minutes
 * on the real API, with progress), then applies the maintenance window. Label, allow list,
 * maintenance window and type (a resize, waited for) change in place; region, engine version,
 * cluster size, encryption, SSL and replication replace it. The root password and CA certificate
 * are secret outputs. Shared behaviour lives in `database-common.ts`.
 */
import * as pulumi from "@pulumi/pulumi";
import { MysqlDatabaseCreateRequest } from "../../sdk/resources/databases";
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

const fields = MysqlDatabaseCreateRequest.shape;

export const mysqlDatabaseSpec = {
  name: "MysqlDatabase",
  noun: "MySQL database",
  description: "A managed MySQL database cluster.",
  inputs: {
    ...commonInputs("mysql"),
    replicationType: {
      schema: fields.replication_type.unwrap(),
      replaceOnChange: true,
      description: "`none`, `asynch` or `semi_synch`; must be `none` for one node. When absent: `none` for one node, `semi_synch` for three. Changing it replaces the database.",
    },
  },
  outputs: DATABASE_OUTPUTS,
  timeouts: DATABASE_TIMEOUTS,
  uniqueInputs: ["label"],
  validate: validateReplication,
  replaceBroken: replaceFailed,
  hooks: databaseHooks({
    engine: "mysql",
    noun: "MySQL database",
    extraCreateFields: (inputs) => ({ replication_type: inputs.replicationType }),
  }),
} satisfies ResourceSpec;

/** Constructor arguments, documented per input (generated from the spec: `provider/args.generated.ts`). */
export type MysqlDatabaseArgs = import("../args.generated").MysqlDatabaseArgs;

/**
 * A managed MySQL database.
 *
 * ```ts
 * const db = new compute.MysqlDatabase("app", {
 *   label: "app-db", region: "us-iad", type: "g6-nanode-1", engineId: "mysql/8.0.30",
 *   allowList: ["203.0.113.1"], updates: { frequency: "weekly", duration: 1, hourOfDay: 3, dayOfWeek: 7 },
 * });
 * export const host = db.hosts.apply((h) => h.primary);
 * ```
 */
export class MysqlDatabase extends DatabaseResource {
  constructor(name: string, args: MysqlDatabaseArgs, opts?: pulumi.CustomResourceOptions) {
    super(mysqlDatabaseSpec, name, args, opts);
  }
}
