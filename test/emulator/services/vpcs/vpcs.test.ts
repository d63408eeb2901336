/**
 * VPC and subnet rules (api-facts P2-1, P8-3, spec "Errors"), each asserted on status, field and
 * reason. Reason texts come from the sdk (`VPC_REASONS`) or from the sdk schema itself.
 */
import { Subnet, SubnetIpv4, SubnetUpdateRequest, VPC_REASONS, Vpc, VpcCreateRequest } from "../../../../sdk/resources/vpcs";
import { Collection } from "../../../../sdk/core/schema";
import { REASONS, SUBNETS_PER_VPC, VPCS_PER_REGION } from "../../../../emulator";
import { expectError, sdkErrors, startTestEmulator, vpcBody, type TestEmulator } from "../../helpers";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

async function createVpc(label = "vpc-1", extra: Record<string, unknown> = {}) {
  const r = await emu.post("/vpcs", vpcBody(label, extra));
  expect(r.status).toBe(200);
  return r.body as Vpc;
}

/** The schema's own message for an ipv4 value (used where the text embeds the value). */
function ipv4Message(value: string): string {
  const parsed = SubnetIpv4.safeParse(value);
  if (parsed.success) throw new Error(`${value} is valid`);
  return parsed.error.issues[0]!.message;
}

describe("create and read", () => {
  test("a VPC with subnets is returned in the recorded shape and parses with the sdk schema", async () => {
    const r = await emu.post("/vpcs", vpcBody("vpc-1", { subnets: [{ label: "sub-1", ipv4: "192.168.0.0/25" }] }));
    expect(r.status).toBe(200);
    const vpc = Vpc.parse(r.body);
    expect(Object.keys(r.body)).toEqual(["id", "label", "description", "region", "subnets", "created", "updated"]);
    expect(Object.keys(r.body.subnets[0])).toEqual(["id", "label", "ipv4", "ipv6", "computes", "created", "updated"]);
    expect(vpc.description).toBe("");
    expect(vpc.updated).toBe(vpc.created);
    expect(vpc.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(vpc.subnets[0]).toMatchObject({ label: "sub-1", ipv4: "192.168.0.0/25", ipv6: null, computes: [] });
    expect(vpc.id).toBeGreaterThanOrEqual(10000);
    expect(vpc.subnets[0]!.id).toBeGreaterThanOrEqual(11000);

    const got = await emu.get(`/vpcs/${vpc.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(r.body);
    const list = await emu.get("/vpcs");
    expect(Collection(Vpc).parse(list.body).data).toEqual([r.body]);
    const subnets = await emu.get(`/vpcs/${vpc.id}/subnets`);
    expect(Collection(Subnet).parse(subnets.body)).toEqual({ data: r.body.subnets, page: 1, pages: 1, results: 1 });
    const subnet = await emu.get(`/vpcs/${vpc.id}/subnets/${vpc.subnets[0]!.id}`);
    expect(subnet.body).toEqual(r.body.subnets[0]);
  });

  test("update changes label and description and moves `updated`", async () => {
    const vpc = await createVpc();
    emu.control.setClock({ advanceMs: 5000 });
    const r = await emu.put(`/vpcs/${vpc.id}`, { label: "renamed", description: "now described" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: vpc.id, label: "renamed", description: "now described", created: vpc.created });
    expect(r.body.updated > vpc.created).toBe(true);
    expect(vpc.updated).toBe(vpc.created);
  });

  test("a subnet update changes only the label; ipv4 cannot be changed", async () => {
    const vpc = await createVpc("vpc-1", { subnets: [{ label: "sub-1", ipv4: "10.0.0.0/24" }] });
    const subnetId = vpc.subnets[0]!.id;
    emu.control.setClock({ advanceMs: 2000 });
    const ok = await emu.put(`/vpcs/${vpc.id}/subnets/${subnetId}`, { label: "sub-renamed" });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ label: "sub-renamed", ipv4: "10.0.0.0/24" });
    expect(ok.body.updated > ok.body.created).toBe(true);
    const body = { label: "x", ipv4: "10.1.0.0/24" };
    const r = await emu.put(`/vpcs/${vpc.id}/subnets/${subnetId}`, body);
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual(sdkErrors(SubnetUpdateRequest, body));
    expect(r.body.errors[0].reason).toContain("ipv4");
  });

  test("a subnet create returns the subnet", async () => {
    const vpc = await createVpc();
    const r = await emu.post(`/vpcs/${vpc.id}/subnets`, { label: "sub-2", ipv4: "10.0.1.0/24" });
    expect(r.status).toBe(200);
    expect(Subnet.parse(r.body)).toMatchObject({ label: "sub-2", ipv4: "10.0.1.0/24", ipv6: null, computes: [] });
  });

  test("missing required fields name the field, with the sdk schema's entries", async () => {
    for (const body of [{}, undefined]) {
      const r = await emu.post("/vpcs", body);
      expect(r.status).toBe(400);
      expect(r.body.errors).toEqual(sdkErrors(VpcCreateRequest, {}));
      expect(r.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["label", "region"]);
    }
  });
});

describe("labels", () => {
  test.each([
    ["an underscore", "bad_label", VPC_REASONS.labelChars],
    ["two dashes in a row", "bad--label", VPC_REASONS.labelDashes],
    ["65 characters", "a".repeat(65), VPC_REASONS.labelLength],
    ["no characters", "", VPC_REASONS.labelLength],
  ])("a VPC label with %s is refused on create and update", async (_what, label, reason) => {
    expectError(await emu.post("/vpcs", vpcBody(label)), 400, reason, "label");
    const vpc = await createVpc();
    expectError(await emu.put(`/vpcs/${vpc.id}`, { label }), 400, reason, "label");
  });

  test.each([
    ["an underscore", "bad_label", VPC_REASONS.labelChars],
    ["two dashes in a row", "bad--label", VPC_REASONS.labelDashes],
    ["65 characters", "b".repeat(65), VPC_REASONS.labelLength],
  ])("a subnet label with %s is refused on create, update and inside a VPC create", async (_what, label, reason) => {
    const vpc = await createVpc("vpc-1", { subnets: [{ label: "sub-1", ipv4: "10.0.0.0/24" }] });
    expectError(await emu.post(`/vpcs/${vpc.id}/subnets`, { label, ipv4: "10.0.1.0/24" }), 400, reason, "label");
    expectError(await emu.put(`/vpcs/${vpc.id}/subnets/${vpc.subnets[0]!.id}`, { label }), 400, reason, "label");
    expectError(await emu.post("/vpcs", vpcBody("vpc-2", { subnets: [{ label, ipv4: "10.0.0.0/24" }] })), 400, reason, "subnets[0].label");
  });

  test("a 64-character label with dashes and digits is accepted", async () => {
    const label = `a-1${"b".repeat(61)}`;
    expect(label).toHaveLength(64);
    expect((await emu.post("/vpcs", vpcBody(label))).status).toBe(200);
  });

  test("VPC labels are unique among the account's VPCs, on create and update", async () => {
    await createVpc("taken");
    expectError(await emu.post("/vpcs", vpcBody("taken", { region: "us-iad" })), 400, VPC_REASONS.labelUniqueVpc, "label");
    const other = await createVpc("other");
    expectError(await emu.put(`/vpcs/${other.id}`, { label: "taken" }), 400, VPC_REASONS.labelUniqueVpc, "label");
    // Keeping one's own label is no conflict.
    expect((await emu.put(`/vpcs/${other.id}`, { label: "other" })).status).toBe(200);
  });

  test("subnet labels are unique within their VPC (create, update, create body), not across VPCs", async () => {
    const vpc = await createVpc("vpc-1", {
      subnets: [
        { label: "dup", ipv4: "10.0.0.0/24" },
        { label: "two", ipv4: "10.0.1.0/24" },
      ],
    });
    expectError(
      await emu.post(`/vpcs/${vpc.id}/subnets`, { label: "dup", ipv4: "10.0.2.0/24" }),
      400,
      VPC_REASONS.labelUniqueSubnet,
      "label",
    );
    expectError(
      await emu.put(`/vpcs/${vpc.id}/subnets/${vpc.subnets[1]!.id}`, { label: "dup" }),
      400,
      VPC_REASONS.labelUniqueSubnet,
      "label",
    );
    const body = vpcBody("vpc-2", {
      subnets: [
        { label: "same", ipv4: "10.0.0.0/24" },
        { label: "same", ipv4: "10.0.1.0/24" },
      ],
    });
    expectError(await emu.post("/vpcs", body), 400, VPC_REASONS.labelUniqueSubnet, "subnets[1].label");
    const other = await createVpc("vpc-3", { subnets: [{ label: "dup", ipv4: "10.0.0.0/24" }] });
    expect(other.subnets[0]!.label).toBe("dup");
  });
});

describe("subnet IPv4 ranges", () => {
  test.each([
    ["not a CIDR", "not-a-cidr", VPC_REASONS.ipv4Invalid],
    ["prefix 33", "10.0.0.0/33", VPC_REASONS.ipv4Invalid],
    ["a bare address", "10.0.0.0", VPC_REASONS.ipv4Invalid],
    ["a non-canonical range", "10.0.0.1/24", ipv4Message("10.0.0.1/24")],
    ["a public range", "8.8.8.0/24", VPC_REASONS.ipv4Private],
    ["prefix /30", "10.0.0.0/30", VPC_REASONS.ipv4Prefix],
    ["an overlap with 192.168.128.0/17", "192.168.128.0/24", VPC_REASONS.ipv4Classic],
    ["a range containing 192.168.128.0/17", "192.168.0.0/16", VPC_REASONS.ipv4Classic],
  ])("%s is refused on subnet create (field ipv4) and VPC create (field subnets[0].ipv4)", async (_what, ipv4, reason) => {
    const vpc = await createVpc();
    expectError(await emu.post(`/vpcs/${vpc.id}/subnets`, { label: "s", ipv4 }), 400, reason, "ipv4");
    expectError(await emu.post("/vpcs", vpcBody("vpc-2", { subnets: [{ label: "s", ipv4 }] })), 400, reason, "subnets[0].ipv4");
  });

  test("the non-canonical reason names the canonical form", () => {
    expect(ipv4Message("10.0.0.1/24")).toContain("10.0.0.0/24");
  });

  test("a subnet may not overlap a sibling subnet", async () => {
    const vpc = await createVpc("vpc-1", { subnets: [{ label: "a", ipv4: "10.0.0.0/16" }] });
    expectError(await emu.post(`/vpcs/${vpc.id}/subnets`, { label: "b", ipv4: "10.0.5.0/24" }), 400, VPC_REASONS.ipv4Overlap, "ipv4");
    expectError(await emu.post(`/vpcs/${vpc.id}/subnets`, { label: "c", ipv4: "10.0.0.0/8" }), 400, VPC_REASONS.ipv4Overlap, "ipv4");
    // Adjacent ranges and other VPCs' ranges are fine.
    expect((await emu.post(`/vpcs/${vpc.id}/subnets`, { label: "d", ipv4: "10.1.0.0/16" })).status).toBe(200);
    expect((await emu.post("/vpcs", vpcBody("vpc-2", { subnets: [{ label: "a", ipv4: "10.0.0.0/16" }] }))).status).toBe(200);
  });

  test("subnets inside one VPC create body may not overlap each other", async () => {
    const body = vpcBody("vpc-1", {
      subnets: [
        { label: "a", ipv4: "10.0.0.0/24" },
        { label: "b", ipv4: "10.0.1.0/24" },
        { label: "c", ipv4: "10.0.0.128/25" },
      ],
    });
    expectError(await emu.post("/vpcs", body), 400, VPC_REASONS.ipv4Overlap, "subnets[2].ipv4");
    expect((await emu.get("/vpcs")).body.results).toBe(0);
  });
});

describe("regions", () => {
  test("an unknown region is refused", async () => {
    expectError(await emu.post("/vpcs", vpcBody("v", { region: "xx-nowhere" })), 400, VPC_REASONS.regionInvalid, "region");
  });

  test("a region without the VPCs capability is refused", async () => {
    // ap-west lists no `VPCs` capability in the recorded catalog.
    const region = (await emu.get("/regions/ap-west")).body;
    expect(region.capabilities).not.toContain("VPCs");
    expectError(await emu.post("/vpcs", vpcBody("v", { region: "ap-west" })), 400, VPC_REASONS.regionNoVpcs, "region");
  });
});

describe("limits", () => {
  test(`the ${VPCS_PER_REGION + 1}th VPC in a region is refused; other regions are unaffected`, async () => {
    for (let i = 0; i < VPCS_PER_REGION; i++) await createVpc(`vpc-${i}`);
    expectError(await emu.post("/vpcs", vpcBody("one-too-many")), 400, VPC_REASONS.vpcLimit, "region");
    expect((await emu.post("/vpcs", vpcBody("elsewhere", { region: "us-iad" }))).status).toBe(200);
  });

  test(`the ${SUBNETS_PER_VPC + 1}th subnet of a VPC is refused`, async () => {
    const subnets = Array.from({ length: SUBNETS_PER_VPC }, (_, i) => ({ label: `s${i}`, ipv4: `10.0.${i}.0/24` }));
    const vpc = await createVpc("full", { subnets });
    expect(vpc.subnets).toHaveLength(SUBNETS_PER_VPC);
    expectError(await emu.post(`/vpcs/${vpc.id}/subnets`, { label: "s10", ipv4: "10.0.10.0/24" }), 400, VPC_REASONS.subnetLimit);
  });

  test(`a VPC create body with ${SUBNETS_PER_VPC + 1} subnets is refused`, async () => {
    const subnets = Array.from({ length: SUBNETS_PER_VPC + 1 }, (_, i) => ({ label: `s${i}`, ipv4: `10.0.${i}.0/24` }));
    expectError(await emu.post("/vpcs", vpcBody("too-many", { subnets })), 400, VPC_REASONS.subnetLimit, "subnets");
  });
});

describe("deletion", () => {
  async function vpcWithInstance() {
    const vpc = await createVpc("vpc-1", {
      subnets: [
        { label: "used", ipv4: "10.0.0.0/24" },
        { label: "free", ipv4: "10.0.1.0/24" },
      ],
    });
    const compute = emu.control.seedCompute({
      label: "web-1",
      region: "es-mad",
      configs: [{ interfaces: [{ purpose: "vpc", subnet_id: vpc.subnets[0]!.id }] }],
    });
    return { vpc, compute };
  }

  test("a subnet with an assigned interface cannot be deleted until the interface is gone", async () => {
    const { vpc, compute } = await vpcWithInstance();
    const used = vpc.subnets[0]!.id;
    expectError(await emu.del(`/vpcs/${vpc.id}/subnets/${used}`), 400, VPC_REASONS.subnetInUse);
    expect((await emu.get(`/vpcs/${vpc.id}/subnets/${used}`)).status).toBe(200);
    const config = compute.configs[0]!;
    emu.control.deleteInterface(compute.id, config.id, config.interfaces[0]!.id);
    const r = await emu.del(`/vpcs/${vpc.id}/subnets/${used}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    expectError(await emu.get(`/vpcs/${vpc.id}/subnets/${used}`), 404, REASONS.notFound);
  });

  test("a free subnet of the same VPC can be deleted", async () => {
    const { vpc } = await vpcWithInstance();
    expect((await emu.del(`/vpcs/${vpc.id}/subnets/${vpc.subnets[1]!.id}`)).status).toBe(200);
  });

  test("VPC delete is all or nothing: one used subnet keeps the VPC, every subnet and emits no event", async () => {
    const { vpc } = await vpcWithInstance();
    const eventsBefore = (await emu.get("/account/events")).body.results;
    expectError(await emu.del(`/vpcs/${vpc.id}`), 400, VPC_REASONS.vpcInUse);
    const after = await emu.get(`/vpcs/${vpc.id}`);
    expect(after.status).toBe(200);
    expect(after.body.subnets.map((s: { id: number }) => s.id)).toEqual(vpc.subnets.map((s) => s.id));
    expect((await emu.get("/account/events")).body.results).toBe(eventsBefore);
  });

  test("a VPC without used subnets is deleted with its subnets", async () => {
    const vpc = await createVpc("vpc-1", { subnets: [{ label: "a", ipv4: "10.0.0.0/24" }] });
    const r = await emu.del(`/vpcs/${vpc.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    expectError(await emu.get(`/vpcs/${vpc.id}`), 404, REASONS.notFound);
    expectError(await emu.get(`/vpcs/${vpc.id}/subnets/${vpc.subnets[0]!.id}`), 404, REASONS.notFound);
  });
});

describe("unknown objects", () => {
  test.each([
    ["GET", "/vpcs/99999"],
    ["PUT", "/vpcs/99999"],
    ["DELETE", "/vpcs/99999"],
    ["GET", "/vpcs/99999/subnets"],
    ["POST", "/vpcs/99999/subnets"],
    ["GET", "/vpcs/99999/ips"],
    ["GET", "/vpcs/not-a-number"],
  ])("%s %s is 404 Not found", async (method, path) => {
    expectError(
      await emu.api(method, path, { body: method === "GET" || method === "DELETE" ? undefined : { label: "x" } }),
      404,
      REASONS.notFound,
    );
  });

  test("an unknown subnet of a known VPC is 404", async () => {
    const vpc = await createVpc();
    expectError(await emu.get(`/vpcs/${vpc.id}/subnets/99999`), 404, REASONS.notFound);
    expectError(await emu.put(`/vpcs/${vpc.id}/subnets/99999`, { label: "x" }), 404, REASONS.notFound);
    expectError(await emu.del(`/vpcs/${vpc.id}/subnets/99999`), 404, REASONS.notFound);
  });
});

describe("subnet.computes", () => {
  test("lists each instance with a vpc interface on the subnet, with its interfaces", async () => {
    const vpc = await createVpc("vpc-1", {
      subnets: [
        { label: "a", ipv4: "10.0.0.0/24" },
        { label: "b", ipv4: "10.0.1.0/24" },
      ],
    });
    const [a, b] = vpc.subnets.map((s) => s.id) as [number, number];
    const one = emu.control.seedCompute({
      label: "one",
      region: "es-mad",
      configs: [
        { interfaces: [{ purpose: "public" }, { purpose: "vpc", subnet_id: a, active: true }] },
        { interfaces: [{ purpose: "vpc", subnet_id: a }] },
      ],
    });
    emu.control.seedCompute({ label: "two", region: "es-mad", configs: [{ interfaces: [{ purpose: "vpc", subnet_id: b }] }] });
    const subnet = (await emu.get(`/vpcs/${vpc.id}/subnets/${a}`)).body;
    expect(subnet.computes).toEqual([
      {
        id: one.id,
        interfaces: [
          { id: one.configs[0]!.interfaces[1]!.id, active: true },
          { id: one.configs[1]!.interfaces[0]!.id, active: false },
        ],
      },
    ]);
    expect(Object.keys(subnet.computes[0])).toEqual(["id", "interfaces"]);
    expect(Object.keys(subnet.computes[0].interfaces[0])).toEqual(["id", "active"]);
  });
});

describe("events", () => {
  async function actions(): Promise<string[]> {
    const r = await emu.get("/account/events", { query: { page_size: 500 } });
    return (r.body.data as Array<{ action: string }>).map((e) => e.action).reverse(); // oldest first
  }

  test("each operation emits exactly the events of the spec's table", async () => {
    const vpc = await createVpc("vpc-1", {
      subnets: [
        { label: "a", ipv4: "10.0.0.0/24" },
        { label: "b", ipv4: "10.0.1.0/24" },
      ],
    });
    expect(await actions()).toEqual(["vpc_create", "subnet_create", "subnet_create"]);
    await emu.put(`/vpcs/${vpc.id}`, { description: "d" });
    const subnet = (await emu.post(`/vpcs/${vpc.id}/subnets`, { label: "c", ipv4: "10.0.2.0/24" })).body;
    await emu.put(`/vpcs/${vpc.id}/subnets/${subnet.id}`, { label: "c2" });
    await emu.del(`/vpcs/${vpc.id}/subnets/${subnet.id}`);
    expect((await actions()).slice(3)).toEqual(["vpc_update", "subnet_create", "subnet_update", "subnet_delete"]);
    await emu.del(`/vpcs/${vpc.id}`);
    expect((await actions()).slice(7)).toEqual(["subnet_delete", "subnet_delete", "vpc_delete"]);
  });

  test("failed operations emit nothing", async () => {
    await emu.post("/vpcs", vpcBody("bad_label"));
    await emu.post("/vpcs", vpcBody("v", { region: "nowhere" }));
    expect(await actions()).toEqual([]);
  });

  test("entities name the VPC or subnet with its API url", async () => {
    const vpc = await createVpc("vpc-1", { subnets: [{ label: "a", ipv4: "10.0.0.0/24" }] });
    const events = (await emu.get("/account/events")).body.data;
    const subnetId = vpc.subnets[0]!.id;
    expect(events.map((e: { entity: unknown }) => e.entity)).toEqual([
      { label: "a", id: subnetId, type: "subnet", url: `/v4/vpcs/${vpc.id}/subnets/${subnetId}` },
      { label: "vpc-1", id: vpc.id, type: "vpc", url: `/v4/vpcs/${vpc.id}` },
    ]);
    for (const e of events) expect(e).toMatchObject({ status: "notification", username: "emulator-user", seen: false, read: false });
  });
});
