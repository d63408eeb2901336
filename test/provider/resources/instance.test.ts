/**
 * The Instance provider called directly against the emulator (its clock at 3000×, so provisioning
 * takes 20 ms): check refuses bad input before any request, diff says what changes in place
 * and what replaces, and the life — create waiting until running, resize, interfaces with a
 * reboot, shutdown, delete — with the requests each step sends.
 */
import { provider } from "../../../provider/registry";
import { diff } from "../../../provider/engine/engine";
import { instanceSpec } from "../../../provider/resources/instance";
import { useProviderHarness } from "../harness";

jest.setTimeout(60_000);
const harness = useProviderHarness({ timeScale: 3000 });
const instances = provider("Instance");

const base = {
  label: "web-1",
  region: "us-iad",
  type: "g6-nanode-1",
  image: "public/debian12",
  rootPass: "a-long-root-password",
};
const failures = async (inputs: Record<string, unknown>, olds: Record<string, unknown> = {}) =>
  (await instances.check!(olds, inputs)).failures ?? [];
async function subnet(region = "us-iad"): Promise<{ vpcId: number; subnetId: number }> {
  const vpc = await harness.client.vpcs.create({ label: `net-${region}`, region, subnets: [{ label: "web", ipv4: "10.0.1.0/24" }] });
  return { vpcId: vpc.id, subnetId: vpc.subnets[0]!.id };
}

describe("check", () => {
  test("refuses a vpc interface without a subnet, and a vlan without a label, naming the program's fields, before any request", async () => {
    expect(
      await failures({ ...base, interfaces: [{ purpose: "public" }, { purpose: "vpc" }, { purpose: "vlan", primary: true }] }),
    ).toEqual([
      { property: "interfaces[1].subnetId", reason: "Subnet is required." },
      { property: "interfaces[2].primary", reason: "VLAN interfaces can't be the primary interface" },
      { property: "interfaces[2].label", reason: "VLAN label is required." },
    ]);
    expect(harness.writes()).toEqual([]);
  });

  test("refuses an unknown type or image and a subnet of another region, with reads only", async () => {
    const { subnetId } = await subnet("us-ord");
    const found = await failures({
      ...base,
      type: "g6-huge-99",
      image: "public/nothing-such",
      interfaces: [{ purpose: "vpc", subnetId: String(subnetId) }],
    });
    expect(found.map((f) => f.property)).toEqual(["type", "image", "interfaces[0].subnetId"]);
    expect(found[0]!.reason).toContain("type g6-huge-99 is not a plan the API offers");
    expect(found[1]!.reason).toContain("public/nothing-such is not an image");
    expect(found[2]!.reason).toContain("not the instance's region us-iad");
    expect(harness.writes()).toEqual(["POST /v4/vpcs"]);
  });

  test("finds a taken label at preview", async () => {
    await harness.client.computes.instances.create({ region: "us-iad", type: "g6-nanode-1", label: "web-1" });
    const found = await failures(base);
    expect(found).toEqual([expect.objectContaining({ property: "label", reason: expect.stringContaining('label "web-1"') })]);
  });

  test("the root password is never printed in a failure", async () => {
    const found = await failures({ ...base, rootPass: "short" });
    expect(found).toEqual([{ property: "", reason: "rootPass: Password must be between 7 and 128 characters." }]);
    expect(JSON.stringify(found)).not.toContain("short");
  });
});

describe("diff", () => {
  const recorded = {
    ...base,
    booted: true,
    privateIp: false,
    tags: [],
    interfaces: [{ purpose: "public" }, { purpose: "vpc", subnetId: 7 }],
    status: "running",
  };
  test("label, tags, type, booted and interfaces change in place; region, image and the root password replace", () => {
    expect(diff(instanceSpec, recorded, { ...recorded, label: "web-2", tags: ["a"] })).toMatchObject({ changes: true, replaces: [] });
    expect(diff(instanceSpec, recorded, { ...recorded, type: "g6-standard-1" })).toMatchObject({ replaces: [], diffs: ["type"] });
    expect(diff(instanceSpec, recorded, { ...recorded, booted: false })).toMatchObject({ replaces: [], diffs: ["booted"] });
    expect(diff(instanceSpec, recorded, { ...recorded, interfaces: [{ purpose: "public" }] })).toMatchObject({
      replaces: [],
      diffs: ["interfaces"],
    });
    expect(diff(instanceSpec, recorded, { ...recorded, region: "us-ord" }).replaces).toEqual(["region"]);
    expect(diff(instanceSpec, recorded, { ...recorded, image: "public/ubuntu24.04" }).replaces).toEqual(["image"]);
    expect(diff(instanceSpec, recorded, { ...recorded, rootPass: "another-long-one" }).replaces).toEqual(["rootPass"]);
  });
  test("the same interfaces spelled otherwise (a subnet id as a string, empty fields) are no change", () => {
    const same = {
      ...recorded,
      interfaces: [
        { purpose: "public", ipRanges: [] },
        { purpose: "vpc", subnetId: "7", primary: false },
      ],
    };
    expect(diff(instanceSpec, recorded, same)).toMatchObject({ changes: false });
  });
});

describe("the life of an instance", () => {
  test("create waits until running; resize, interfaces (with a reboot), shutdown and delete each wait; rootPass is secret", async () => {
    const { subnetId } = await subnet();
    const made = await instances.create({ ...base, interfaces: [{ purpose: "public" }, { purpose: "vpc", subnetId: String(subnetId) }] });
    expect(made.outs).toMatchObject({
      label: "web-1",
      status: "running",
      booted: true,
      vpcIpv4: "10.0.1.2",
      specs: { vcpus: 1 },
      interfaces: [{ purpose: "public" }, { purpose: "vpc", subnetId }],
    });
    expect(made.outs.ipv4).toEqual([expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/)]);
    expect(instanceSpec.inputs.rootPass.secret).toBe(true);

    const read = await instances.read!(made.id, made.outs);
    expect(read.props).toEqual(made.outs);

    const resized = await instances.update!(made.id, made.outs, { ...base, type: "g6-standard-1", interfaces: made.outs.interfaces });
    expect(resized.outs).toMatchObject({ type: "g6-standard-1", status: "running", specs: { vcpus: 1, memory: 2048 } });
    expect(harness.writes().filter((w) => w.startsWith("POST"))).toEqual(
      expect.arrayContaining([`POST /v4/compute/instances/${made.id}/resize`]),
    );

    const before = harness.emulator.control.listRequests().length;
    const moved = await instances.update!(made.id, resized.outs!, { ...base, type: "g6-standard-1", interfaces: [{ purpose: "public" }] });
    expect(moved.outs).toMatchObject({ interfaces: [{ purpose: "public" }], vpcIpv4: null, status: "running" });
    const writes = harness.emulator.control
      .listRequests()
      .slice(before)
      .filter((r) => r.method !== "GET")
      .map((r) => `${r.method} ${r.path.replace(/\d+/g, "N")}`);
    expect(writes).toEqual(["PUT /vN/compute/instances/N/configs/N", "POST /vN/compute/instances/N/reboot"]);

    const off = await instances.update!(made.id, moved.outs!, {
      ...base,
      type: "g6-standard-1",
      booted: false,
      interfaces: [{ purpose: "public" }],
    });
    expect(off.outs).toMatchObject({ status: "offline", booted: false });

    await instances.delete!(made.id, off.outs!);
    expect(await instances.read!(made.id, off.outs!)).toEqual({});
  });
});
