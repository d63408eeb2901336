/**
 * Regions at preview, against the API's list (`regionOnOffer`): a region that does not exist, or
 * lacks the capability the create needs, is refused by `check` in the program's words, naming the
 * data function that lists the choices, with reads only; an existing object's region is not read.
 */
import { provider } from "../../../provider/registry";
import { useProviderHarness } from "../harness";

const harness = useProviderHarness();
const failures = async (kind: string, inputs: Record<string, unknown>, olds: Record<string, unknown> = {}) =>
  (await provider(kind).check!(olds, inputs)).failures ?? [];
const writes = () => harness.emulator.control.listRequests().filter((r) => r.method !== "GET");

test("a VPC's region must offer VPCs: the API's list says which do", async () => {
  expect(await failures("Vpc", { label: "app", region: "us-iad" })).toEqual([]);
  expect(await failures("Vpc", { label: "app", region: "us-east" })).toEqual([
    { property: "region", reason: 'region us-east does not offer VPCs; getRegions({ capability: "VPCs" }) lists the regions that do' },
  ]);
  expect(await failures("Vpc", { label: "app", region: "mars-1" })).toEqual([
    { property: "region", reason: "region mars-1 is not one of the API's regions; getRegions lists them" },
  ]);
  expect(writes()).toEqual([]);
  // The list is read once per process; the inputs that pass have their label looked up (a taken one is found at preview).
  expect(harness.emulator.control.listRequests().map((r) => r.path.replace(/\?.*/, ""))).toEqual(["/v4/regions", "/v4/vpcs"]);
});

test("a database's region must offer Managed Databases", async () => {
  const db = { label: "app-db", type: "g6-nanode-1", engineId: "mysql/8" };
  expect(await failures("MysqlDatabase", { ...db, region: "us-east" })).toEqual([]);
  expect((await failures("MysqlDatabase", { ...db, region: "us-sea" }))[0]?.reason).toBe(
    'region us-sea does not offer Managed Databases; getRegions({ capability: "Managed Databases" }) lists the regions that do',
  );
  expect((await failures("PostgresqlDatabase", { ...db, engineId: "postgresql/16", region: "nowhere" }))[0]?.property).toBe("region");
  expect(writes()).toEqual([]);
});

test("an object that already has its region is not checked again: no request", async () => {
  const inputs = { label: "app", region: "us-east" };
  expect(await failures("Vpc", inputs, inputs)).toEqual([]);
  expect(harness.emulator.control.listRequests()).toEqual([]);
});
