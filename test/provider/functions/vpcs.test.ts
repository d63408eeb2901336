/** `getVpcSubnets` against the emulator over HTTP. */
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { ComputeClient } from "../../../sdk/client";
import { getVpcSubnets } from "../../../provider/functions/vpcs";

let emulator: RunningEmulator;
let client: ComputeClient;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
});
afterAll(async () => {
  await client.close();
  await emulator.close();
});

test("getVpcSubnets lists a VPC's subnets as they are now, camelCase", async () => {
  const options = { apiUrl: emulator.url, token: emulator.token };
  const vpc = await client.vpcs.create({ label: "fn-net", region: "us-iad" });
  expect(await getVpcSubnets({ vpcId: vpc.id }, options)).toEqual([]);
  const web = await client.vpcs.subnets.create(vpc.id, { label: "web", ipv4: "10.0.1.0/24" });
  const db = await client.vpcs.subnets.create(vpc.id, { label: "db", ipv4: "10.0.2.0/24" });
  const subnets = await getVpcSubnets({ vpcId: String(vpc.id) }, options);
  expect(subnets.map((s) => [s.id, s.label, s.ipv4])).toEqual([
    [web.id, "web", "10.0.1.0/24"],
    [db.id, "db", "10.0.2.0/24"],
  ]);
  expect(subnets[0]).toMatchObject({ computes: [], created: web.created });
});
