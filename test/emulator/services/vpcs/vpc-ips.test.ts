/**
 * VPC IP address records derived from seeded instance interfaces, served on all three paths
 * (`/vpcs/ips`, `/networking/vpcs/ips`, `/vpcs/{id}/ips`), plus address allocation.
 */
import { VpcIp, type Vpc } from "../../../../sdk/resources/vpcs";
import { Collection } from "../../../../sdk/core/schema";
import { startTestEmulator, vpcBody, type TestEmulator } from "../../helpers";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

async function createVpc(label: string, region: string, ipv4: string): Promise<Vpc> {
  const r = await emu.post("/vpcs", vpcBody(label, { region, subnets: [{ label: "main", ipv4 }] }));
  expect(r.status).toBe(200);
  return r.body;
}

test("records carry the recorded fields: first address after the gateway, gateway, prefix, mask, 1:1 NAT", async () => {
  const vpc = await createVpc("vpc-1", "us-iad", "192.168.0.0/25");
  const subnetId = vpc.subnets[0]!.id;
  const compute = emu.control.seedCompute({
    label: "web-1",
    region: "us-iad",
    ipv4: ["139.144.221.98"],
    configs: [{ interfaces: [{ purpose: "vpc", subnet_id: subnetId, ipv4: { nat_1_1: "any" } }] }],
  });
  const config = compute.configs[0]!;
  const expected = {
    address: "192.168.0.2",
    address_range: null,
    vpc_id: vpc.id,
    subnet_id: subnetId,
    region: "us-iad",
    compute_id: compute.id,
    config_id: config.id,
    interface_id: config.interfaces[0]!.id,
    active: false,
    nat_1_1: "139.144.221.98",
    gateway: "192.168.0.1",
    prefix: 25,
    subnet_mask: "255.255.255.128",
  };
  for (const path of ["/vpcs/ips", "/networking/vpcs/ips", `/vpcs/${vpc.id}/ips`]) {
    const r = await emu.get(path);
    expect(r.status).toBe(200);
    expect(Collection(VpcIp).parse(r.body)).toEqual({ data: [expected], page: 1, pages: 1, results: 1 });
    // Key order as recorded (fixtures/vpc_ip.list.json).
    expect(Object.keys(r.body.data[0])).toEqual(Object.keys(expected));
  }
});

test("the per-VPC list holds only that VPC; the account lists hold all, once per profile", async () => {
  const a = await createVpc("vpc-a", "us-iad", "10.0.0.0/24");
  const b = await createVpc("vpc-b", "us-iad", "10.1.0.0/24");
  const compute = emu.control.seedCompute({
    label: "multi",
    region: "us-iad",
    configs: [
      { interfaces: [{ purpose: "vpc", subnet_id: a.subnets[0]!.id, ipv4: { vpc: "10.0.0.10" } }] },
      {
        interfaces: [
          { purpose: "vpc", subnet_id: a.subnets[0]!.id, ipv4: { vpc: "10.0.0.11" } },
          { purpose: "vlan", label: "vlan-1" },
        ],
      },
    ],
  });
  emu.control.seedCompute({
    label: "other",
    region: "us-iad",
    configs: [{ interfaces: [{ purpose: "vpc", subnet_id: b.subnets[0]!.id }] }],
  });

  const all = (await emu.get("/vpcs/ips")).body;
  expect(all.results).toBe(3);
  expect((await emu.get("/networking/vpcs/ips")).body).toEqual(all);
  const ofA = (await emu.get(`/vpcs/${a.id}/ips`)).body;
  expect(ofA.data.map((r: VpcIp) => [r.compute_id, r.config_id, r.address])).toEqual([
    [compute.id, compute.configs[0]!.id, "10.0.0.10"],
    [compute.id, compute.configs[1]!.id, "10.0.0.11"],
  ]);
  const ofB = (await emu.get(`/vpcs/${b.id}/ips`)).body;
  expect(ofB.data.map((r: VpcIp) => r.address)).toEqual(["10.1.0.2"]);
});

test("routed ranges are listed as records with address null and address_range set", async () => {
  const vpc = await createVpc("vpc-1", "us-iad", "10.0.0.0/24");
  emu.control.seedCompute({
    label: "router",
    region: "us-iad",
    configs: [{ interfaces: [{ purpose: "vpc", subnet_id: vpc.subnets[0]!.id, ip_ranges: ["10.0.0.64/28"] }] }],
  });
  const data = (await emu.get(`/vpcs/${vpc.id}/ips`)).body.data as VpcIp[];
  expect(data.map((r) => [r.address, r.address_range])).toEqual([
    ["10.0.0.2", null],
    [null, "10.0.0.64/28"],
  ]);
});

test("addresses are allocated in order and freed by deleting the interface", async () => {
  const vpc = await createVpc("vpc-1", "us-iad", "10.0.0.0/29"); // .1 gateway, .2–.6 assignable, .7 broadcast
  const subnet_id = vpc.subnets[0]!.id;
  const seeded = [1, 2, 3].map((n) =>
    emu.control.seedCompute({ label: `c${n}`, region: "us-iad", configs: [{ interfaces: [{ purpose: "vpc", subnet_id }] }] }),
  );
  const addresses = async () => ((await emu.get("/vpcs/ips")).body.data as VpcIp[]).map((r) => r.address);
  expect(await addresses()).toEqual(["10.0.0.2", "10.0.0.3", "10.0.0.4"]);
  const middle = seeded[1]!;
  emu.control.deleteInterface(middle.id, middle.configs[0]!.id, middle.configs[0]!.interfaces[0]!.id);
  const next = emu.control.seedCompute({ label: "c4", region: "us-iad", configs: [{ interfaces: [{ purpose: "vpc", subnet_id }] }] });
  expect(next.configs[0]!.interfaces[0]!.ipv4).toEqual({ vpc: "10.0.0.3", nat_1_1: null });
});

test("X-Filter works on the records", async () => {
  const a = await createVpc("vpc-a", "us-iad", "10.0.0.0/24");
  const b = await createVpc("vpc-b", "us-iad", "10.1.0.0/24");
  for (const vpc of [a, b])
    emu.control.seedCompute({
      label: `c-${vpc.id}`,
      region: "us-iad",
      configs: [{ interfaces: [{ purpose: "vpc", subnet_id: vpc.subnets[0]!.id }] }],
    });
  const r = await emu.get("/vpcs/ips", { headers: { "X-Filter": JSON.stringify({ vpc_id: b.id }) } });
  expect(r.body.data.map((x: VpcIp) => x.vpc_id)).toEqual([b.id]);
});

test("the IP lists need ips:read_only; the VPC reads do not", async () => {
  const vpc = await createVpc("vpc-1", "us-iad", "10.0.0.0/24");
  const { token } = emu.control.createToken({ scopes: ["vpc:read_only"] });
  expect((await emu.get(`/vpcs/${vpc.id}`, { token })).status).toBe(200);
  for (const path of ["/vpcs/ips", "/networking/vpcs/ips", `/vpcs/${vpc.id}/ips`]) {
    const r = await emu.get(path, { token });
    expect(r.status).toBe(401);
    expect(r.headers["x-accepted-oauth-scopes"]).toBe("ips:read_only");
  }
  const ips = emu.control.createToken({ scopes: ["ips:read_only"] });
  expect((await emu.get("/vpcs/ips", { token: ips.token })).status).toBe(200);
});
