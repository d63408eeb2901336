/**
 * The Output forms of the lookups end to end through the real Pulumi engine against the emulator
 * over HTTP, at time scale 600 (a database provisions in a few seconds): a program makes a VPC
 * with a subnet and a MySQL database, and exports what `getVpcOutput`, `getVpcSubnetOutput` (with
 * an Output `vpcId`) and `getMysqlDatabaseOutput` find of them.
 * - The first preview passes without calling the API with the ids it does not know yet.
 * - `up` exports the lookups; the database's password is a secret stack output and ciphertext in
 *   the state file.
 * - A preview after `up` (the ids now known, so the lookups run) changes nothing.
 */
import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { MysqlDatabase, Vpc, VpcSubnet, getMysqlDatabaseOutput, getVpcOutput, getVpcSubnetOutput } from "../../provider";
import { createTestStack, type TestStack } from "../support/engine";

jest.setTimeout(240_000);

let emulator: RunningEmulator;
let client: ComputeClient;
let testStack: TestStack;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, timeScale: 600 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  testStack = await createTestStack({
    name: "lookups",
    apiUrl: emulator.url,
    token: emulator.token,
    program: async () => {
      const vpc = new Vpc("net", { label: "lookup-net", region: "us-iad" });
      const web = new VpcSubnet("web", { vpcId: vpc.id, label: "web", ipv4: "10.0.1.0/24" });
      const db = new MysqlDatabase("db", { label: "lookup-db", region: "us-iad", type: "g6-nanode-1", engineId: "mysql/8" });
      const foundVpc = getVpcOutput({ id: vpc.id });
      // The subnet's own `vpcId` output: known only once the subnet exists, so the lookup finds it.
      const foundSubnet = getVpcSubnetOutput({ vpcId: web.vpcId, label: "web" });
      const foundDb = getMysqlDatabaseOutput({ id: db.id });
      return {
        vpc: foundVpc,
        subnet: foundSubnet,
        dbLabel: pulumi.unsecret(foundDb.label),
        dbUsername: pulumi.unsecret(foundDb.rootUsername),
        dbPassword: foundDb.rootPassword,
        samePassword: pulumi.unsecret(pulumi.all([foundDb.rootPassword, db.rootPassword]).apply(([found, own]) => found === own)),
      };
    },
  });
});

afterAll(async () => {
  await testStack?.stack.destroy().catch(() => undefined);
  testStack?.cleanup();
  await client?.close();
  await emulator?.close();
});

test("the lookups' Output forms wait for unknown ids in a preview and find the objects after up, the password secret", async () => {
  // preview: the ids are unknown, so no lookup reaches the API
  const reads = () =>
    emulator.control.listRequests().filter((r) => r.method === "GET" && /^\/v4\/(vpcs|databases\/mysql\/instances)\/[^/?]/.test(r.path));
  emulator.control.clearRequests();
  const preview = await testStack.stack.preview();
  expect(preview.changeSummary).toMatchObject({ create: 4 }); // the stack, the VPC, the subnet, the database
  expect(reads()).toEqual([]);

  // up
  const up = await testStack.stack.up();
  expect(up.summary.result).toBe("succeeded");
  expect(reads().length).toBeGreaterThan(0); // what the preview did not do
  const [vpc] = await client.vpcs.listAll({ filter: { label: "lookup-net" } });
  const [db] = await client.databases.mysql.listAll({ filter: { label: "lookup-db" } });
  // The VPC as it was when its id became known (its `subnets`: with or without the subnet, made meanwhile).
  expect(up.outputs.vpc).toMatchObject({ secret: false, value: { id: vpc!.id, label: "lookup-net", region: "us-iad", description: "" } });
  expect(up.outputs.subnet).toMatchObject({ secret: false, value: { id: vpc!.subnets[0]!.id, label: "web", ipv4: "10.0.1.0/24" } });
  const credentials = await client.databases.mysql.credentials(db!.id);
  expect(up.outputs.dbLabel).toEqual({ value: "lookup-db", secret: false });
  expect(up.outputs.dbUsername).toEqual({ value: credentials.username, secret: false });
  expect(up.outputs.dbPassword).toEqual({ value: credentials.password, secret: true });
  expect(up.outputs.samePassword).toEqual({ value: true, secret: false });
  expect(testStack.stateText()).not.toContain(credentials.password);

  // a preview with the ids known: the lookups run, and nothing changes
  const again = await testStack.stack.preview();
  expect(again.changeSummary).toEqual({ same: 4 });
});
