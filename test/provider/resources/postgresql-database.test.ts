/** The PostgresqlDatabase provider against the emulator: a cluster of three, with the commit type's default. */
import { provider } from "../../../provider/registry";
import { useProviderHarness } from "../harness";

jest.setTimeout(60_000);

const harness = useProviderHarness({ timeScale: 3000 });
const postgresql = provider("PostgresqlDatabase");
const requests = (method: string) =>
  harness.emulator.control
    .listRequests()
    .filter((r) => r.method === method)
    .map((r) => r.path);
const log = jest.spyOn(console, "log").mockImplementation(() => undefined);
afterAll(() => log.mockRestore());

test("a PostgreSQL cluster of three, with the commit type's default", async () => {
  const created = await postgresql.create({
    label: "pg-db",
    region: "us-ord",
    type: "g6-standard-1",
    engineId: "postgresql/14.6",
    clusterSize: 3,
  });
  expect(created.outs).toMatchObject({
    status: "active",
    port: 5432,
    engine: "postgresql",
    replicationType: "asynch",
    replicationCommitType: "local",
    rootUsername: "linpostgres",
  });
  expect(requests("PUT")).toEqual([]); // no window asked for: none applied
});
