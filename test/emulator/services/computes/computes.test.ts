/**
 * The compute endpoints over HTTP: the status machine on the emulated clock (stopped: it moves only
 * when a test advances it), configuration profiles and their interfaces, what depends on instances
 * (subnets, VPC IPs, VLANs, firewall devices, image captures) with created ones, scopes and grants,
 * label uniqueness and the types catalogue. Facts: docs/api-facts-computes.md.
 */
import { STEP_MS } from "../../../../emulator/services/computes/catalog";
import { COMPUTE_REASONS, Compute, ComputeIps, Config, ConfigInterface } from "../../../../sdk/resources/computes";
import { Collection } from "../../../../sdk/core/schema";
import { REASONS } from "../../../../emulator";
import { expectError, startTestEmulator, vpcBody, type TestEmulator } from "../../helpers";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ timeScale: 0 });
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

const REGION = "us-iad";
const advance = (ms: number) => emu.control.setClock({ advanceMs: ms });
const deploy = (label: string, extra: Record<string, unknown> = {}) => ({
  region: REGION,
  type: "g6-nanode-1",
  label,
  image: "public/debian12",
  root_pass: "a-long-secret-1",
  ...extra,
});

async function create(label: string, extra: Record<string, unknown> = {}): Promise<Compute> {
  const r = await emu.post("/compute/instances", deploy(label, extra));
  expect(r.status).toBe(200);
  return Compute.parse(r.body);
}
const statusOf = async (id: number) => (await emu.get(`/compute/instances/${id}`)).body.status as string;
async function running(label: string, extra: Record<string, unknown> = {}): Promise<Compute> {
  const compute = await create(label, extra);
  advance(STEP_MS.provisioning + STEP_MS.booting);
  expect(await statusOf(compute.id)).toBe("running");
  return compute;
}
/** The account's events about one instance, oldest first, as `action:status`. */
async function eventsOf(id: number): Promise<string[]> {
  const r = await emu.get("/account/events", { query: { page_size: 500 } });
  return (r.body.data as Array<{ action: string; status: string; entity: { id: number } | null }>)
    .filter((e) => e.entity?.id === id)
    .reverse()
    .map((e) => `${e.action}:${e.status}`);
}
async function vpcWithSubnet(label = "vpc-1", ipv4 = "10.0.0.0/24"): Promise<{ vpcId: number; subnetId: number }> {
  const r = await emu.post("/vpcs", vpcBody(label, { region: REGION, subnets: [{ label: "sub-1", ipv4 }] }));
  expect(r.status).toBe(200);
  return { vpcId: r.body.id, subnetId: r.body.subnets[0].id };
}

describe("the status machine, on the emulated clock", () => {
  test("a create deploys the image and walks provisioning → booting → running; its event finishes with it", async () => {
    const compute = await create("web-1");
    expect(compute).toMatchObject({
      status: "provisioning",
      region: REGION,
      type: "g6-nanode-1",
      image: "public/debian12",
      label: "web-1",
    });
    expect(compute.specs).toEqual({ disk: 25600, memory: 1024, vcpus: 1, transfer: 1000, gpus: 0, accelerated_devices: 0 });
    expect(compute.ipv4).toHaveLength(1);
    expect(compute.ipv6).toMatch(/\/128$/);
    expect(await eventsOf(compute.id)).toEqual(["compute_create:started"]);
    advance(STEP_MS.provisioning - 1);
    expect(await statusOf(compute.id)).toBe("provisioning");
    advance(1);
    expect(await statusOf(compute.id)).toBe("booting");
    advance(STEP_MS.booting);
    expect(await statusOf(compute.id)).toBe("running");
    expect(await eventsOf(compute.id)).toEqual(["compute_create:finished"]);
    const configs = Collection(Config).parse((await emu.get(`/compute/instances/${compute.id}/configs`)).body);
    expect(configs.data).toHaveLength(1);
    expect(configs.data[0]!.devices.sda).toMatchObject({ disk_id: expect.any(Number) });
  });

  test("booted: false ends offline; boot, reboot, shutdown, resize and rebuild each walk their statuses with their events", async () => {
    const compute = await create("web-1", { booted: false });
    advance(STEP_MS.provisioning);
    expect(await statusOf(compute.id)).toBe("offline");

    expect((await emu.post(`/compute/instances/${compute.id}/boot`, {})).status).toBe(200);
    expect(await statusOf(compute.id)).toBe("booting");
    advance(STEP_MS.booting);
    expect(await statusOf(compute.id)).toBe("running");

    expect((await emu.post(`/compute/instances/${compute.id}/reboot`, {})).status).toBe(200);
    expect(await statusOf(compute.id)).toBe("rebooting");
    advance(STEP_MS.rebooting);
    expect(await statusOf(compute.id)).toBe("running");

    expect((await emu.post(`/compute/instances/${compute.id}/resize`, { type: "g6-standard-2" })).status).toBe(200);
    expect(await statusOf(compute.id)).toBe("resizing");
    advance(STEP_MS.resizing);
    expect(await statusOf(compute.id)).toBe("booting");
    advance(STEP_MS.booting);
    const resized = (await emu.get(`/compute/instances/${compute.id}`)).body;
    expect(resized).toMatchObject({ status: "running", type: "g6-standard-2", specs: { memory: 4096, vcpus: 2 } });

    expect((await emu.post(`/compute/instances/${compute.id}/shutdown`)).status).toBe(200);
    expect(await statusOf(compute.id)).toBe("shutting_down");
    advance(STEP_MS.shutting_down);
    expect(await statusOf(compute.id)).toBe("offline");

    const rebuilt = await emu.post(`/compute/instances/${compute.id}/rebuild`, {
      image: "public/ubuntu22.04",
      root_pass: "another-secret-2",
      booted: false,
    });
    expect(rebuilt.status).toBe(200);
    expect(rebuilt.body).toMatchObject({ status: "rebuilding", image: "public/ubuntu22.04" });
    advance(STEP_MS.rebuilding);
    expect(await statusOf(compute.id)).toBe("offline");

    expect(await eventsOf(compute.id)).toEqual([
      "compute_create:finished",
      "compute_boot:finished",
      "compute_reboot:finished",
      "compute_resize:finished",
      "compute_shutdown:finished",
      "compute_rebuild:finished",
    ]);
  });

  test("delete shows `deleting`, then the instance is gone", async () => {
    const compute = await running("web-1");
    expect((await emu.del(`/compute/instances/${compute.id}`)).status).toBe(200);
    expect(await statusOf(compute.id)).toBe("deleting");
    advance(STEP_MS.deleting);
    expect((await emu.get(`/compute/instances/${compute.id}`)).status).toBe(404);
    expect((await emu.get("/compute/instances")).body.results).toBe(0);
    expect((await eventsOf(compute.id)).slice(-1)).toEqual(["compute_delete:finished"]);
  });

  test("an action while another is under way is refused `Compute busy.`; a resize to the same type is refused", async () => {
    const compute = await create("web-1");
    expectError(await emu.post(`/compute/instances/${compute.id}/shutdown`), 400, COMPUTE_REASONS.busy);
    expectError(await emu.post(`/compute/instances/${compute.id}/resize`, { type: "g6-standard-1" }), 400, COMPUTE_REASONS.busy);
    advance(STEP_MS.provisioning + STEP_MS.booting);
    expectError(await emu.post(`/compute/instances/${compute.id}/resize`, { type: "g6-nanode-1" }), 400, COMPUTE_REASONS.sameType, "type");
    expectError(await emu.post(`/compute/instances/${compute.id}/resize`, { type: "g9-huge" }), 400, COMPUTE_REASONS.typeInvalid, "type");
  });
});

describe("create, read, update", () => {
  test("create refuses an unknown region, type or image, an image without root_pass and an unknown firewall, all at once", async () => {
    const r = await emu.post("/compute/instances", { region: "xx-nowhere", type: "g9-huge", image: "public/nope", firewall_id: 1 });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([
      { reason: COMPUTE_REASONS.regionInvalid, field: "region" },
      { reason: COMPUTE_REASONS.typeInvalid, field: "type" },
      { reason: COMPUTE_REASONS.imageInvalid, field: "image" },
      { reason: COMPUTE_REASONS.rootPassRequired, field: "root_pass" },
      { reason: COMPUTE_REASONS.firewallInvalid, field: "firewall_id" },
    ]);
    expectError(await emu.post("/compute/instances", deploy("ab")), 400, COMPUTE_REASONS.labelLength, "label");
  });

  test("labels are unique per account (case-insensitively), on create and on update; another account may use the label", async () => {
    const first = await create("web-1");
    const second = await create("web-2");
    expectError(await emu.post("/compute/instances", deploy("WEB-1")), 400, COMPUTE_REASONS.labelUnique, "label");
    expectError(await emu.put(`/compute/instances/${second.id}`, { label: "web-1" }), 400, COMPUTE_REASONS.labelUnique, "label");
    const other = emu.control.createAccount({ id: "other" });
    const elsewhere = await emu.post("/compute/instances", deploy("web-1"), { token: other.token });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.id).not.toBe(first.id);
  });

  test("update changes label, tags and group (tags sorted, once each) and records compute_update", async () => {
    const compute = await running("web-1");
    advance(1000);
    const r = await emu.put(`/compute/instances/${compute.id}`, { label: "web-renamed", tags: ["b", "a", "b"], group: "g" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ label: "web-renamed", tags: ["a", "b"], group: "g", created: compute.created });
    expect(r.body.updated > compute.created).toBe(true);
    expect((await eventsOf(compute.id)).slice(-1)).toEqual(["compute_update:notification"]);
  });

  test("the list is paginated and takes X-Filter as the other areas do", async () => {
    await create("web-1", { tags: ["prod"] });
    await create("web-2");
    const all = Collection(Compute).parse((await emu.get("/compute/instances")).body);
    expect(all.results).toBe(2);
    const filtered = await emu.get("/compute/instances", { headers: { "x-filter": JSON.stringify({ label: "web-2" }) } });
    expect(filtered.body.data.map((c: Compute) => c.label)).toEqual(["web-2"]);
    const bad = await emu.get("/compute/instances", { headers: { "x-filter": JSON.stringify({ root_pass: "x" }) } });
    expect(bad.status).toBe(400);
  });

  test("seeded instances are served too: running, with the seeded type's specs", async () => {
    const seeded = emu.control.seedCompute({ label: "seeded", region: REGION, configs: [] });
    const r = await emu.get(`/compute/instances/${seeded.id}`);
    expect(Compute.parse(r.body)).toMatchObject({ status: "running", label: "seeded", image: null, type: "g6-standard-1" });
  });

  test("the types catalogue needs no token and answers the type of each instance", async () => {
    const list = await emu.get("/compute/types", { token: null });
    expect(list.status).toBe(200);
    expect(list.body.data.map((t: { id: string }) => t.id)).toContain("g6-nanode-1");
    const one = await emu.get("/compute/types/g6-standard-2", { token: null });
    expect(one.body).toMatchObject({ id: "g6-standard-2", memory: 4096, vcpus: 2, price: { monthly: 24 } });
    expect((await emu.get("/compute/types/g9-huge")).status).toBe(404);
  });
});

describe("configuration profiles and their interfaces", () => {
  test("a vpc interface on create: the subnet lists the instance, VPC IPs and the instance's IPs carry its address, active once running", async () => {
    const { vpcId, subnetId } = await vpcWithSubnet();
    const compute = await create("web-1", {
      interfaces: [{ purpose: "public" }, { purpose: "vpc", subnet_id: subnetId, ipv4: { nat_1_1: "any" } }],
    });
    const subnet = (await emu.get(`/vpcs/${vpcId}/subnets/${subnetId}`)).body;
    const ifaceId = subnet.computes[0].interfaces[0].id;
    expect(subnet.computes).toEqual([{ id: compute.id, interfaces: [{ id: ifaceId, active: false }] }]);
    advance(STEP_MS.provisioning + STEP_MS.booting);
    expect((await emu.get(`/vpcs/${vpcId}/subnets/${subnetId}`)).body.computes[0].interfaces[0].active).toBe(true);
    const vpcIps = (await emu.get(`/vpcs/${vpcId}/ips`)).body.data;
    expect(vpcIps).toEqual([
      expect.objectContaining({ compute_id: compute.id, address: "10.0.0.2", nat_1_1: compute.ipv4[0], active: true }),
    ]);
    const ips = ComputeIps.parse((await emu.get(`/compute/instances/${compute.id}/ips`)).body);
    expect(ips.ipv4.public.map((a) => a.address)).toEqual(compute.ipv4);
    expect(ips.ipv4.vpc).toEqual(vpcIps);
    expect(ips.ipv6?.slaac?.address).toBe(compute.ipv6!.replace("/128", ""));
  });

  test("profiles: create, read, update (interfaces replaced whole), delete; interfaces added, read, updated, reordered, deleted", async () => {
    const { vpcId, subnetId } = await vpcWithSubnet();
    const compute = await create("web-1", { booted: false });
    advance(STEP_MS.provisioning);
    const created = await emu.post(`/compute/instances/${compute.id}/configs`, {
      label: "second",
      devices: { sda: { disk_id: null } },
      interfaces: [{ purpose: "vlan", label: "backend", ipam_address: "10.8.0.1/24" }],
    });
    expect(created.status).toBe(200);
    const config = Config.parse(created.body);
    expect(config.interfaces).toEqual([
      expect.objectContaining({ purpose: "vlan", label: "backend", ipam_address: "10.8.0.1/24", active: false }),
    ]);
    expect((await emu.get("/networking/vlans")).body.data.map((v: { label: string }) => v.label)).toEqual(["backend"]);

    const path = `/compute/instances/${compute.id}/configs/${config.id}`;
    const updated = await emu.put(path, {
      label: "second-renamed",
      interfaces: [{ purpose: "public" }, { purpose: "vpc", subnet_id: subnetId, ipv4: { vpc: "10.0.0.9" } }],
    });
    expect(updated.status).toBe(200);
    expect(updated.body.interfaces.map((i: ConfigInterface) => i.purpose)).toEqual(["public", "vpc"]);
    expect(updated.body.interfaces[1]).toMatchObject({ vpc_id: vpcId, subnet_id: subnetId, ipv4: { vpc: "10.0.0.9", nat_1_1: null } });
    expect((await emu.get("/networking/vlans")).body.data).toEqual([]);
    // `interfaces: null` (linodego's update without interfaces) keeps them.
    expect(
      (await emu.put(path, { label: "kept", interfaces: null, comments: "", memory_limit: 0, init_rd: null })).body.interfaces,
    ).toHaveLength(2);

    const added = await emu.post(`${path}/interfaces`, { purpose: "vlan", label: "storage" });
    expect(added.status).toBe(200);
    const list = (await emu.get(`${path}/interfaces`)).body as ConfigInterface[];
    expect(list.map((i) => i.purpose)).toEqual(["public", "vpc", "vlan"]);
    expectError(
      await emu.post(`${path}/interfaces`, { purpose: "vlan", label: "fourth" }),
      400,
      COMPUTE_REASONS.tooManyInterfaces,
      "interfaces",
    );
    const vpcIface = list[1]!;
    expect((await emu.get(`${path}/interfaces/${vpcIface.id}`)).body).toEqual(vpcIface);
    const moved = await emu.put(`${path}/interfaces/${vpcIface.id}`, { ipv4: { vpc: "10.0.0.10" }, ip_ranges: ["10.0.0.64/28"] });
    expect(moved.body).toMatchObject({ ipv4: { vpc: "10.0.0.10" }, ip_ranges: ["10.0.0.64/28"] });
    const reversed = list.map((i) => i.id).reverse();
    expect((await emu.post(`${path}/interfaces/order`, { ids: reversed })).status).toBe(200);
    expect(((await emu.get(`${path}/interfaces`)).body as ConfigInterface[]).map((i) => i.id)).toEqual(reversed);
    expect((await emu.del(`${path}/interfaces/${vpcIface.id}`)).status).toBe(200);
    expect((await emu.get(`/vpcs/${vpcId}/subnets/${subnetId}`)).body.computes).toEqual([]);

    expect((await emu.del(path)).status).toBe(200);
    expect((await emu.get(path)).status).toBe(404);
    expect((await eventsOf(compute.id)).filter((e) => e.startsWith("compute_config"))).toEqual([
      "compute_config_create:notification",
      "compute_config_update:notification",
      "compute_config_update:notification",
      "compute_config_delete:notification",
    ]);
  });

  test("interface rules: a vpc interface needs a subnet of the instance's region with a free, in-range address; vpc fields only on vpc interfaces", async () => {
    const { subnetId } = await vpcWithSubnet("vpc-1", "10.0.0.0/29");
    const other = await emu.post("/vpcs", vpcBody("vpc-2", { region: "us-ord", subnets: [{ label: "s", ipv4: "10.1.0.0/24" }] }));
    const elsewhere = other.body.subnets[0].id;
    const cases: Array<[unknown, string, string]> = [
      [{ purpose: "vpc" }, COMPUTE_REASONS.subnetRequired, "interfaces[0].subnet_id"],
      [{ purpose: "vpc", subnet_id: 999 }, COMPUTE_REASONS.subnetInvalid, "interfaces[0].subnet_id"],
      [{ purpose: "vpc", subnet_id: elsewhere }, COMPUTE_REASONS.subnetRegion, "interfaces[0].subnet_id"],
      [{ purpose: "vpc", subnet_id: subnetId, ipv4: { vpc: "10.0.0.1" } }, COMPUTE_REASONS.vpcAddressInvalid, "interfaces[0].ipv4.vpc"],
      [{ purpose: "vpc", subnet_id: subnetId, ip_ranges: ["10.9.0.0/28"] }, COMPUTE_REASONS.ipRangeInvalid, "interfaces[0].ip_ranges[0]"],
      [{ purpose: "public", subnet_id: subnetId }, COMPUTE_REASONS.onlyForPurpose("subnet_id", "vpc"), "interfaces[0].subnet_id"],
      [{ purpose: "vlan" }, COMPUTE_REASONS.vlanLabelRequired, "interfaces[0].label"],
    ];
    for (const [iface, reason, field] of cases) {
      expectError(await emu.post("/compute/instances", deploy("web-1", { interfaces: [iface] })), 400, reason, field);
    }
    expectError(
      await emu.post("/compute/instances", deploy("web-1", { interfaces: [{ purpose: "public" }, { purpose: "public" }] })),
      400,
      COMPUTE_REASONS.onePublic,
      "interfaces",
    );
    // A /29 has five assignable addresses after the gateway; the sixth instance finds none.
    for (let i = 1; i <= 5; i++) await create(`web-${i}`, { interfaces: [{ purpose: "vpc", subnet_id: subnetId }] });
    expectError(
      await emu.post("/compute/instances", deploy("web-6", { interfaces: [{ purpose: "vpc", subnet_id: subnetId }] })),
      400,
      COMPUTE_REASONS.subnetFull,
      "interfaces[0].subnet_id",
    );
    expect(await emu.get("/compute/instances").then((r) => r.body.results)).toBe(5);
  });

  test("an active interface is not deleted; a subnet with a created instance's interface is not deleted until the instance is gone", async () => {
    const { vpcId, subnetId } = await vpcWithSubnet();
    const compute = await running("web-1", { interfaces: [{ purpose: "vpc", subnet_id: subnetId }] });
    const config = (await emu.get(`/compute/instances/${compute.id}/configs`)).body.data[0];
    const iface = config.interfaces[0];
    expectError(
      await emu.del(`/compute/instances/${compute.id}/configs/${config.id}/interfaces/${iface.id}`),
      400,
      COMPUTE_REASONS.interfaceDeleteActive,
    );
    expect((await emu.del(`/vpcs/${vpcId}/subnets/${subnetId}`)).status).toBe(400);
    await emu.del(`/compute/instances/${compute.id}`);
    advance(STEP_MS.deleting);
    expect((await emu.del(`/vpcs/${vpcId}/subnets/${subnetId}`)).status).toBe(200);
  });
});

describe("what depends on instances, with created ones", () => {
  test("firewall_id on create attaches the firewall; a device can be added to a created instance; delete removes the devices", async () => {
    const rules = { inbound: [], inbound_policy: "DROP", outbound: [], outbound_policy: "ACCEPT" };
    const fw = (await emu.post("/networking/firewalls", { label: "fw-1", rules })).body;
    const fw2 = (await emu.post("/networking/firewalls", { label: "fw-2", rules })).body;
    await emu.put(`/networking/firewalls/${fw2.id}`, { status: "disabled" });
    const compute = await create("web-1", { firewall_id: fw.id });
    const devices = (await emu.get(`/networking/firewalls/${fw.id}/devices`)).body.data;
    expect(devices).toEqual([
      expect.objectContaining({ entity: expect.objectContaining({ id: compute.id, type: "compute", label: "web-1" }) }),
    ]);
    const added = await emu.post(`/networking/firewalls/${fw2.id}/devices`, { id: compute.id, type: "compute" });
    expect(added.status).toBe(200);
    await emu.del(`/compute/instances/${compute.id}`);
    advance(STEP_MS.deleting);
    expect((await emu.get(`/networking/firewalls/${fw.id}/devices`)).body.data).toEqual([]);
    expect((await emu.get(`/networking/firewalls/${fw2.id}/devices`)).body.data).toEqual([]);
  });

  test("an image captures a created instance's root disk", async () => {
    const compute = await running("web-1");
    const disk = (await emu.get(`/compute/instances/${compute.id}/configs`)).body.data[0].devices.sda.disk_id;
    const r = await emu.post("/images", { disk_id: disk, label: "golden" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ label: "golden", size: 25600 - 512 });
  });
});

describe("scopes and grants", () => {
  test("reads need computes:read_only, writes computes:read_write", async () => {
    const compute = await create("web-1");
    const reader = emu.control.createToken({ scopes: ["computes:read_only"] });
    const other = emu.control.createToken({ scopes: ["vpc:read_only"] });
    expect((await emu.get(`/compute/instances/${compute.id}`, { token: reader.token })).status).toBe(200);
    expect((await emu.get(`/compute/instances/${compute.id}/configs`, { token: reader.token })).status).toBe(200);
    expectError(await emu.put(`/compute/instances/${compute.id}`, { label: "x-y-z" }, { token: reader.token }), 401, REASONS.oauthScope);
    expectError(await emu.post("/compute/instances", deploy("web-2"), { token: reader.token }), 401, REASONS.oauthScope);
    expectError(await emu.get("/compute/instances", { token: other.token }), 401, REASONS.oauthScope);
    const writer = emu.control.createToken({ scopes: ["computes:read_write"] });
    expect((await emu.post("/compute/instances", deploy("web-2"), { token: writer.token })).status).toBe(200);
  });

  test("a restricted user needs add_computes to create and a grant per instance; the creator gets read_write on what it made", async () => {
    const theirs = await create("web-1");
    const without = emu.control.createToken({ restricted: true });
    expectError(await emu.post("/compute/instances", deploy("web-2"), { token: without.token }), 403, REASONS.unauthorized);
    expectError(await emu.get(`/compute/instances/${theirs.id}`, { token: without.token }), 403, REASONS.unauthorized);
    const maker = emu.control.createToken({ restricted: true, grants: { global: { add_computes: true } } });
    const mine = await emu.post("/compute/instances", deploy("web-2"), { token: maker.token });
    expect(mine.status).toBe(200);
    const visible = (await emu.get("/compute/instances", { token: maker.token })).body.data.map((c: Compute) => c.id);
    expect(visible).toEqual([mine.body.id]);
    expect((await emu.put(`/compute/instances/${mine.body.id}`, { tags: ["x"] }, { token: maker.token })).status).toBe(200);
  });

  test("the rate limiter counts compute requests as any other operation", async () => {
    emu.control.setRateLimits({ enabled: true, limits: { operation: { limit: 2, windowMs: 60_000 } } });
    const compute = await create("web-1");
    expect((await emu.get(`/compute/instances/${compute.id}`)).status).toBe(200);
    expect((await emu.get(`/compute/instances/${compute.id}`)).status).toBe(200);
    expect((await emu.get(`/compute/instances/${compute.id}`)).status).toBe(429);
  });
});
