/** The database data functions against the emulator: engines with the latest of each, databases of every engine, filtered. */
import { getDatabaseEngines, getDatabases } from "../../../provider/functions/databases";
import { useProviderHarness } from "../harness";

const harness = useProviderHarness();

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
    expect((await getDatabaseEngines({ engine: "postgresql" }, options)).engines.every((e) => e.engine === "postgresql")).toBe(true);
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
