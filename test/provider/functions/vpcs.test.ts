/** The VPC data functions against the emulator over HTTP: getVpc, getVpcs, getVpcSubnet, getVpcSubnets, and their Output forms. */
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { ComputeClient } from "../../../sdk/client";
import { getVpc, getVpcOutput, getVpcs, getVpcSubnet, getVpcSubnetOutput, getVpcSubnets } from "../../../provider/functions/vpcs";
import type { GetVpcArgs, GetVpcSubnetArgs } from "../../../provider/functions/vpcs";

let emulator: RunningEmulator;
let client: ComputeClient;
let options: { apiUrl: string; token: string };

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  options = { apiUrl: emulator.url, token: emulator.token };
});
afterAll(async () => {
  await client.close();
  await emulator.close();
});
beforeEach(() => emulator.control.reset());

/** An Output's value, outside a Pulumi program (where every Output is known). */
const valueOf = <T>(output: { apply(f: (v: T) => void): unknown }) => new Promise<T>((resolve) => output.apply(resolve));

test("getVpcSubnets lists a VPC's subnets as they are now, camelCase", async () => {
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

test("getVpc finds one VPC by id or by label, with its subnets in camelCase; a missing one is refused naming what was asked", async () => {
  const vpc = await client.vpcs.create({ label: "app-net", region: "us-iad", subnets: [{ label: "web", ipv4: "10.0.1.0/24" }] });
  await client.vpcs.create({ label: "other-net", region: "us-iad" });
  const byId = await getVpc({ id: String(vpc.id) }, options);
  expect(byId).toEqual({
    id: vpc.id,
    label: "app-net",
    description: "",
    region: "us-iad",
    subnets: [
      { id: vpc.subnets[0]!.id, label: "web", ipv4: "10.0.1.0/24", ipv6: null, computes: [], created: vpc.created, updated: vpc.updated },
    ],
    created: vpc.created,
    updated: vpc.updated,
  });
  expect(await getVpc({ label: "app-net" }, options)).toEqual(byId);
  await expect(getVpc({ label: "app-net2" }, options)).rejects.toThrow('getVpc: no VPC with label "app-net2"');
  await expect(getVpc({ id: 9999 }, options)).rejects.toThrow("getVpc: no VPC with id 9999");
});

test("a label names at most one VPC: the API refuses a second VPC with it, so getVpc by label cannot be ambiguous", async () => {
  await client.vpcs.create({ label: "app-net", region: "us-iad" });
  await expect(client.vpcs.create({ label: "app-net", region: "us-ord" })).rejects.toThrow("Label must be unique among your VPCs");
  expect((await getVpc({ label: "app-net" }, options)).region).toBe("us-iad");
});

test("getVpc and getVpcSubnet refuse both or neither of id and label, and ids that are not ids, before any request", async () => {
  const refusals: [() => Promise<unknown>, string][] = [
    [
      () => getVpc({ id: 1, label: "x" } as unknown as GetVpcArgs, options),
      'getVpc: give either id or label, not both (got id 1, label "x")',
    ],
    [() => getVpc({} as GetVpcArgs, options), "getVpc: give either id or label (got no arguments)"],
    [() => getVpc({ id: "net" }, options), 'getVpc: id "net" is not an integer id'],
    [() => getVpcSubnet({ vpcId: 1 } as GetVpcSubnetArgs, options), "getVpcSubnet: give either id or label (got vpcId 1)"],
    [() => getVpcSubnet({ label: "web" } as GetVpcSubnetArgs, options), 'getVpcSubnet: vpcId is required (got label "web")'],
    [
      () => getVpcSubnet({ vpcId: 1, id: 2, label: "web" } as unknown as GetVpcSubnetArgs, options),
      'getVpcSubnet: give either id or label, not both (got vpcId 1, id 2, label "web")',
    ],
  ];
  for (const [call, message] of refusals) await expect(call()).rejects.toThrow(message);
  expect(emulator.control.listRequests()).toEqual([]);
});

test("getVpcs lists VPCs with their subnets, optionally by label or region", async () => {
  await client.vpcs.create({ label: "a-net", region: "us-iad" });
  await client.vpcs.create({ label: "b-net", region: "us-ord", subnets: [{ label: "web", ipv4: "10.0.1.0/24" }] });
  expect((await getVpcs({}, options)).map((v) => v.label)).toEqual(["a-net", "b-net"]);
  expect((await getVpcs({ region: "us-ord" }, options)).map((v) => [v.label, v.subnets.map((s) => s.label)])).toEqual([["b-net", ["web"]]]);
  expect(await getVpcs({ label: "b-net", region: "us-iad" }, options)).toEqual([]);
});

test("getVpcSubnet finds one subnet of a VPC by id or by label; a missing subnet or VPC is refused naming it", async () => {
  const vpc = await client.vpcs.create({ label: "app-net", region: "us-iad" });
  const other = await client.vpcs.create({ label: "other-net", region: "us-iad" });
  const web = await client.vpcs.subnets.create(vpc.id, { label: "web", ipv4: "10.0.1.0/24" });
  await client.vpcs.subnets.create(other.id, { label: "web", ipv4: "10.0.1.0/24" }); // the same label in another VPC
  const byLabel = await getVpcSubnet({ vpcId: String(vpc.id), label: "web" }, options);
  expect(byLabel).toEqual({
    id: web.id,
    label: "web",
    ipv4: "10.0.1.0/24",
    ipv6: null,
    computes: [],
    created: web.created,
    updated: web.updated,
  });
  expect(await getVpcSubnet({ vpcId: vpc.id, id: web.id }, options)).toEqual(byLabel);
  await expect(getVpcSubnet({ vpcId: vpc.id, label: "db" }, options)).rejects.toThrow(
    `getVpcSubnet: no subnet of VPC ${vpc.id} with label "db"`,
  );
  await expect(getVpcSubnet({ vpcId: other.id, id: web.id }, options)).rejects.toThrow(
    `getVpcSubnet: no subnet of VPC ${other.id} with id ${web.id}`,
  );
  await expect(getVpcSubnet({ vpcId: 9999, label: "web" }, options)).rejects.toThrow("getVpcSubnet: no VPC with id 9999");
});

test("the Output forms take Inputs (Outputs and promises) and answer an Output of the same result", async () => {
  const vpc = await client.vpcs.create({ label: "app-net", region: "us-iad", subnets: [{ label: "web", ipv4: "10.0.1.0/24" }] });
  const vpcOutput = getVpcOutput({ label: Promise.resolve("app-net") }, options);
  expect(await valueOf(vpcOutput)).toEqual(await getVpc({ id: vpc.id }, options));
  const subnet = getVpcSubnetOutput({ vpcId: vpcOutput.id, label: "web" }, options);
  expect(await valueOf(subnet.id)).toBe(vpc.subnets[0]!.id);
});
