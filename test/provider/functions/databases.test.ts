/**
 * The database data functions against the emulator: engines with the latest of each, databases of
 * every engine, filtered; one database by id or label with its root credentials and CA certificate
 * as secret Outputs (and an Output form that is secret as a whole); a database's backups, newest
 * first or only the latest. Refusals name the function and the arguments, bad ones before any request.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  getDatabaseBackups,
  getDatabaseEngines,
  getDatabases,
  getMysqlDatabase,
  getMysqlDatabaseOutput,
  getPostgresqlDatabase,
  type GetDatabaseArgs,
  type GetDatabaseBackupsArgs,
} from "../../../provider/functions/databases";
import { DATABASE_DURATIONS } from "../../../emulator/services/databases/machine";
import { useProviderHarness } from "../harness";

const harness = useProviderHarness();
const options = () => ({ apiUrl: harness.emulator.url, token: harness.emulator.token });

/** An Output's value, outside a Pulumi program (where every Output is known). */
const valueOf = <T>(output: pulumi.Output<T>) => new Promise<T>((resolve) => output.apply(resolve));

/** A MySQL database made through the API and left to finish provisioning. */
async function activeMysql(label: string) {
  const db = await harness.client.databases.mysql.create({ label, region: "us-iad", type: "g6-nanode-1", engine: "mysql/8" });
  harness.emulator.control.setClock({ advanceMs: DATABASE_DURATIONS.provisionMaxMs + 60_000 });
  return db;
}

describe("data functions", () => {
  test("getDatabaseEngines lists the versions (one per major, as today's API does) and the latest of each engine", async () => {
    const options = { apiUrl: harness.emulator.url, token: harness.emulator.token };
    const result = await getDatabaseEngines({}, options);
    expect(result.engines.map((e) => e.id)).toEqual([
      "mysql/8",
      "postgresql/13",
      "postgresql/14",
      "postgresql/15",
      "postgresql/16",
      "postgresql/17",
    ]);
    expect(result.latest).toEqual({
      mysql: { id: "mysql/8", engine: "mysql", version: "8" },
      postgresql: { id: "postgresql/17", engine: "postgresql", version: "17" },
    });
    const postgresql = (await getDatabaseEngines({ engine: "postgresql" }, options)).engines;
    expect(postgresql.length).toBeGreaterThan(0);
    expect(postgresql.every((e) => e.engine === "postgresql")).toBe(true);
  });

  test("getDatabases lists every engine's databases, filtered", async () => {
    const options = { apiUrl: harness.emulator.url, token: harness.emulator.token };
    await harness.client.databases.mysql.create({ label: "one-db", region: "us-iad", type: "g6-nanode-1", engine: "mysql/8.0.30" });
    await harness.client.databases.postgresql.create({ label: "two-db", region: "us-ord", type: "g6-nanode-1", engine: "postgresql/14.6" });
    expect((await getDatabases({}, options)).map((d) => d.label)).toEqual(["one-db", "two-db"]);
    expect((await getDatabases({ engine: "postgresql" }, options)).map((d) => [d.label, d.replicationCommitType])).toEqual([
      ["two-db", "local"],
    ]);
    expect((await getDatabases({ region: "us-iad" }, options))[0]).toMatchObject({
      label: "one-db",
      instanceUri: expect.stringContaining("/mysql/instances/"),
      allowList: [],
    });
  });
});

describe("one database the stack does not own", () => {
  test("getMysqlDatabase by id or by label: the record in camelCase, the root user, and the password and CA certificate as secrets", async () => {
    const db = await activeMysql("app-db");
    const byId = await getMysqlDatabase({ id: String(db.id) }, options());
    expect(byId).toMatchObject({ id: db.id, label: "app-db", engine: "mysql", status: "active", allowList: [], clusterSize: 1 });
    expect(byId.hosts.primary).toEqual(expect.any(String));
    expect(byId).not.toHaveProperty("allow_list");
    const credentials = await harness.client.databases.mysql.credentials(db.id);
    const ssl = await harness.client.databases.mysql.ssl(db.id);
    expect(byId.rootUsername).toBe(credentials.username);
    for (const [secret, value] of [
      [byId.rootPassword, credentials.password],
      [byId.caCert, ssl.ca_certificate],
    ] as const) {
      expect(pulumi.Output.isInstance(secret)).toBe(true);
      expect(await pulumi.isSecret(secret)).toBe(true);
      expect(await valueOf(secret)).toBe(value);
    }
    expect(JSON.stringify(byId)).not.toContain(credentials.password);

    const byLabel = await getMysqlDatabase({ label: "app-db" }, options());
    expect({ ...byLabel, rootPassword: undefined, caCert: undefined }).toEqual({ ...byId, rootPassword: undefined, caCert: undefined });
  });

  test("getMysqlDatabaseOutput takes an Output id and is secret as a whole; its password is a secret Output<string>", async () => {
    const db = await activeMysql("app-db");
    const found = getMysqlDatabaseOutput({ id: pulumi.output(db.id) }, options());
    expect(await pulumi.isSecret(found)).toBe(true);
    expect(await pulumi.isSecret(found.rootPassword)).toBe(true);
    expect(await valueOf(found.rootPassword)).toBe((await harness.client.databases.mysql.credentials(db.id)).password);
    expect(await valueOf(found.label)).toBe("app-db");
  });

  test("getPostgresqlDatabase finds a PostgreSQL database; each engine's lookup refuses the other's databases", async () => {
    const pg = await harness.client.databases.postgresql.create({
      label: "pg-db",
      region: "us-iad",
      type: "g6-nanode-1",
      engine: "postgresql/16",
    });
    harness.emulator.control.setClock({ advanceMs: DATABASE_DURATIONS.provisionMaxMs + 60_000 });
    expect(await getPostgresqlDatabase({ label: "pg-db" }, options())).toMatchObject({ id: pg.id, engine: "postgresql", port: 5432 });
    await expect(getMysqlDatabase({ id: pg.id }, options())).rejects.toThrow(`getMysqlDatabase: no MySQL database with id ${pg.id}`);
    await expect(getMysqlDatabase({ label: "pg-db" }, options())).rejects.toThrow('getMysqlDatabase: no MySQL database with label "pg-db"');
  });

  test("a database still provisioning is refused: its credentials can be read once it is active", async () => {
    const db = await harness.client.databases.mysql.create({ label: "new-db", region: "us-iad", type: "g6-nanode-1", engine: "mysql/8" });
    await expect(getMysqlDatabase({ label: "new-db" }, options())).rejects.toThrow(
      `getMysqlDatabase: MySQL database ${db.id} (new-db) is provisioning; its credentials can be read once it is active`,
    );
  });

  test("a label names at most one database (the API refuses a second); both or neither of id and label are refused before any request", async () => {
    await harness.client.databases.mysql.create({ label: "app-db", region: "us-iad", type: "g6-nanode-1", engine: "mysql/8" });
    await expect(
      harness.client.databases.postgresql.create({ label: "app-db", region: "us-iad", type: "g6-nanode-1", engine: "postgresql/16" }),
    ).rejects.toThrow("Label must be unique among your Managed Databases");
    harness.emulator.control.clearRequests();
    await expect(getMysqlDatabase({ id: 1, label: "app-db" } as unknown as GetDatabaseArgs, options())).rejects.toThrow(
      'getMysqlDatabase: give either id or label, not both (got id 1, label "app-db")',
    );
    await expect(getPostgresqlDatabase({} as GetDatabaseArgs, options())).rejects.toThrow(
      "getPostgresqlDatabase: give either id or label (got no arguments)",
    );
    expect(harness.emulator.control.listRequests()).toEqual([]);
  });
});

describe("getDatabaseBackups", () => {
  test("lists a database's backups newest first, or only the newest with latest", async () => {
    const db = await activeMysql("app-db");
    for (const label of ["first", "second"]) {
      await harness.client.databases.mysql.backups.create(db.id, { label });
      harness.emulator.control.setClock({ advanceMs: DATABASE_DURATIONS.snapshotMs + 60_000 });
    }
    const backups = await getDatabaseBackups({ engine: "mysql", databaseId: String(db.id) }, options());
    expect(backups.filter((b) => b.type === "snapshot").map((b) => b.label)).toEqual(["second", "first"]);
    expect(backups.map((b) => b.created)).toEqual(
      backups
        .map((b) => b.created)
        .sort()
        .reverse(),
    );
    expect(await getDatabaseBackups({ engine: "mysql", databaseId: db.id, latest: true }, options())).toEqual([backups[0]]);
    await expect(getDatabaseBackups({ engine: "postgresql", databaseId: db.id }, options())).rejects.toThrow(
      `getDatabaseBackups: no PostgreSQL database with id ${db.id}`,
    );
  });

  test("refuses an engine that is not one and a databaseId that is not an id, before any request", async () => {
    await expect(getDatabaseBackups({ engine: "redis", databaseId: 1 } as unknown as GetDatabaseBackupsArgs, options())).rejects.toThrow(
      'getDatabaseBackups: engine "redis" is not one of mysql, postgresql',
    );
    await expect(getDatabaseBackups({ engine: "mysql", databaseId: "db" }, options())).rejects.toThrow(
      'getDatabaseBackups: databaseId "db" is not an integer id',
    );
    expect(harness.emulator.control.listRequests()).toEqual([]);
  });
});
