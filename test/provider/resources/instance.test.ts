/**
 * The Instance provider called directly against the emulator (its clock at 3000×, so provisioning
 * takes 20 ms): check refuses bad input before any request, diff says what changes in place
 * and what replaces, and the life — create waiting until running, resize, interfaces with a
 * reboot, shutdown, delete — with the requests each step sends.
 */
import { provider } from "../../../provider/registry";
import { UNKNOWN, diff, previewUpdate } from "../../../provider/engine/engine";
import { REBOOT_FOR_INTERFACES, ROOT_PASS_TO_DEPLOY, instanceSpec } from "../../../provider/resources/instance";
import { MAX_CREATE_ATTEMPTS } from "../../../provider/engine/natural-key";
import type { FaultKind } from "../../../emulator/core/faults";
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

  test("the root password goes with each deployment of the image: a new instance, a replacement, a rebuild; an adopted one goes without", async () => {
    const { rootPass: _none, ...adopted } = base;
    const refused = [{ property: "", reason: `rootPass: ${ROOT_PASS_TO_DEPLOY}` }];
    expect(await failures(adopted)).toEqual(refused);
    // Adopted (pulumi-compute import writes no password), then managed: no refusal, and no diff.
    expect(await failures({ ...adopted, adoptId: 123 })).toEqual([]);
    const checked = { ...adopted, adoptId: 123 };
    expect(await failures({ ...adopted, tags: ["a"], type: "g6-standard-1" }, checked)).toEqual([]);
    expect(diff(instanceSpec, { ...adopted, status: "running" }, adopted)).toMatchObject({ changes: false });
    // A change that deploys the image again needs it: a replacement, or a rebuild.
    expect(await failures({ ...adopted, region: "us-ord" }, checked)).toEqual(refused);
    expect(await failures({ ...adopted, image: "public/ubuntu24.04", rebuildOnImageChange: true }, checked)).toEqual(refused);
    expect(await failures({ ...adopted, region: "us-ord", rootPass: "a-long-root-password" }, checked)).toEqual([]);
    expect(harness.writes()).toEqual([]);
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
  test("with rebuildOnImageChange, an image change (with its password and keys) is an update that says the rebuild; without it, a replacement", () => {
    const rebuild = { ...recorded, rebuildOnImageChange: true };
    expect(diff(instanceSpec, rebuild, { ...rebuild, image: "public/ubuntu24.04", rootPass: "another-long-one" })).toMatchObject({
      changes: true,
      replaces: [],
      diffs: ["image", "rootPass"],
    });
    expect(instanceSpec.updateEffects!(rebuild, { ...rebuild, image: "public/ubuntu24.04" }, ["image"])).toEqual([
      "the instance is rebuilt from public/ubuntu24.04: its disks are erased and deployed again, and it boots from them",
    ]);
    // The password alone still replaces: a rebuild happens only for a new image.
    expect(diff(instanceSpec, rebuild, { ...rebuild, rootPass: "another-long-one" }).replaces).toEqual(["rootPass"]);
    expect(diff(instanceSpec, recorded, { ...recorded, image: "public/ubuntu24.04", rebuildOnImageChange: false }).replaces).toEqual([
      "image",
    ]);
  });
  test("an interface change of a running instance says its reboot; of an offline one, none", () => {
    const news = { ...recorded, interfaces: [{ purpose: "public" }] };
    expect(instanceSpec.updateEffects!(recorded, news, ["interfaces"])).toEqual([REBOOT_FOR_INTERFACES]);
    expect(instanceSpec.updateEffects!({ ...recorded, status: "offline" }, { ...news, booted: false }, ["interfaces"])).toEqual([]);
    expect(instanceSpec.updateEffects!(recorded, { ...recorded, label: "web-2" }, ["label"])).toEqual([]);
  });
  test("a previewed interface change shows the vpc address the program names, null without a vpc interface, unknown when the API assigns it", () => {
    const recordedOuts = { ...recorded, vpcIpv4: "10.0.1.2", updated: "2026-01-01T00:00:00" };
    const named = previewUpdate(instanceSpec, recordedOuts, {
      ...recorded,
      interfaces: [{ purpose: "public" }, { purpose: "vpc", subnetId: 7, ipv4: { vpc: "10.0.1.50" } }],
    });
    expect(named.vpcIpv4).toBe("10.0.1.50");
    expect(previewUpdate(instanceSpec, recordedOuts, { ...recorded, interfaces: [{ purpose: "public" }] }).vpcIpv4).toBeNull();
    const assigned = previewUpdate(instanceSpec, recordedOuts, { ...recorded, interfaces: [{ purpose: "vpc", subnetId: 7 }] });
    expect(assigned.vpcIpv4).toBe(UNKNOWN);
    // A change that leaves the interfaces alone keeps the recorded address.
    expect(previewUpdate(instanceSpec, recordedOuts, { ...recorded, label: "web-2" }).vpcIpv4).toBe("10.0.1.2");
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
  // Found by fuzz seed 307 (classes, shrunk to 7 steps): an instance deleted by hand shows
  // `deleting` for a while. A refresh then read it as present, so the next up updated an instance
  // that was gone by then (404); and a create of its label met the dying instance as "taken".
  test("an instance deleted by hand reads as gone while it is deleting, and a new one of its label waits for it to go", async () => {
    harness.emulator.control.setClock({ scale: 20 });
    try {
      const made = await instances.create({ ...base, label: "web-dying", interfaces: [{ purpose: "public" }] });
      await harness.client.computes.instances.delete(Number(made.id));
      expect((await harness.client.computes.instances.get(Number(made.id))).status).toBe("deleting");
      expect(await instances.read!(made.id, made.outs)).toEqual({});
      expect(await failures({ ...base, label: "web-dying", interfaces: [{ purpose: "public" }] })).toEqual([]);
      const again = await instances.create({ ...base, label: "web-dying", interfaces: [{ purpose: "public" }] });
      expect(again.id).not.toBe(made.id);
      expect(
        (await harness.client.computes.instances.listAll()).filter((i) => i.label === "web-dying").map((i) => [i.id, i.status]),
      ).toEqual([[Number(again.id), "running"]]);
      await instances.delete!(again.id, again.outs);
    } finally {
      harness.emulator.control.setClock({ scale: 3000 });
    }
  });

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

    // A new image with rebuildOnImageChange: rebuilt in place (same id), waited for, offline as the program asks.
    const rebuildFrom = harness.emulator.control.listRequests().length;
    const rebuilt = await instances.update!(made.id, off.outs!, {
      ...base,
      type: "g6-standard-1",
      booted: false,
      image: "public/ubuntu22.04",
      rebuildOnImageChange: true,
      interfaces: [{ purpose: "public" }],
    });
    expect(rebuilt.outs).toMatchObject({ image: "public/ubuntu22.04", status: "offline", rebuildOnImageChange: true });
    const rebuildWrites = harness.emulator.control
      .listRequests()
      .slice(rebuildFrom)
      .filter((r) => r.method !== "GET")
      .map((r) => `${r.method} ${r.path.replace(/\d+/g, "N")}`);
    expect(rebuildWrites).toEqual(["POST /vN/compute/instances/N/rebuild"]);
    expect(JSON.stringify(rebuilt.outs)).not.toContain("another");

    await instances.delete!(made.id, rebuilt.outs!);
    expect(await instances.read!(made.id, off.outs!)).toEqual({});
  });

  test("a vpc interface's 1:1 NAT: nat11 any goes as nat_1_1, maps the public address, and reads back as the program wrote it", async () => {
    const { subnetId } = await subnet();
    const interfaces = [{ purpose: "public" }, { purpose: "vpc", subnetId: String(subnetId), ipv4: { nat11: "any" } }];
    const made = await instances.create({ ...base, interfaces });
    const [config] = await harness.client.computes.instances.configs.listAll(Number(made.id));
    expect(config!.interfaces[1]!.ipv4).toEqual({ vpc: "10.0.1.2", nat_1_1: made.outs.ipv4[0] });
    expect(made.outs.interfaces).toEqual([{ purpose: "public" }, { purpose: "vpc", subnetId, ipv4: { nat11: "any" } }]);
    expect(diff(instanceSpec, made.outs, { ...base, interfaces })).toMatchObject({ changes: false });
    expect(await failures({ ...base, label: "web-2", interfaces: [{ purpose: "public", ipv4: { nat11: "any" } }] })).toEqual([
      { property: "interfaces[0].ipv4.nat11", reason: expect.stringContaining("ipv4.nat11") },
    ]);
    await instances.delete!(made.id, made.outs);
  });
});

// Fuzz seed 325 (test/e2e/instance-lost-answer.e2e.test.ts holds its resize through the engine):
// an action's POST whose answer is lost is not repeated by the sdk, as it may have been applied.
describe("an action whose answer is lost: the instance is read, and the action waited for or sent once more", () => {
  /** Runs `update` with the answer of `action`'s POST lost `count` times by `kind`: the action's sends, as a count. */
  async function losing<T>(
    action: string,
    kind: FaultKind,
    update: () => Promise<T>,
    count = 1,
  ): Promise<{ result?: T; sends: number; error?: Error }> {
    harness.emulator.control.addFault({ pathPattern: `^/v4/compute/instances/\\d+/${action}$`, method: "POST", kind, count });
    const mark = harness.emulator.control.listRequests().length;
    try {
      return { result: await update(), sends: sendsOf(action, mark) };
    } catch (error) {
      return { sends: sendsOf(action, mark), error: error as Error };
    } finally {
      harness.emulator.control.clearFaults();
    }
  }
  const sendsOf = (action: string, mark: number) =>
    harness.emulator.control
      .listRequests()
      .slice(mark)
      .filter((r) => r.method === "POST" && r.path.endsWith(`/${action}`)).length;

  test("a shutdown, a boot, a reboot and a rebuild: applied ones are not sent twice, lost ones are sent again", async () => {
    const made = await instances.create({ ...base, interfaces: [{ purpose: "public" }] });
    const inputs = { ...base, interfaces: [{ purpose: "public" }] };

    // Applied, then the answer lost: the read shows it shutting down (or offline), and it is waited for.
    const off = await losing("shutdown", "reset-after", () => instances.update!(made.id, made.outs, { ...inputs, booted: false }));
    expect(off).toMatchObject({ sends: 1, result: { outs: { status: "offline", booted: false } } });

    // Lost before it was applied: the read shows it offline, and the boot is sent once more.
    const on = await losing("boot", "reset", () => instances.update!(made.id, off.result!.outs!, inputs));
    expect(on).toMatchObject({ sends: 2, result: { outs: { status: "running", booted: true } } });

    // The reboot that applies new interfaces, applied and its answer lost: not sent twice.
    const { subnetId } = await subnet();
    const vpc = [{ purpose: "public" }, { purpose: "vpc", subnetId: String(subnetId) }];
    const rebooted = await losing("reboot", "reset-after", () =>
      instances.update!(made.id, on.result!.outs!, { ...inputs, interfaces: vpc }),
    );
    expect(rebooted).toMatchObject({ sends: 1, result: { outs: { status: "running", vpcIpv4: "10.0.1.2" } } });

    // The rebuild, applied and its answer lost: not sent twice (it would erase the disks again).
    const image = { ...inputs, interfaces: vpc, image: "public/ubuntu22.04", rebuildOnImageChange: true };
    const rebuilt = await losing("rebuild", "reset-after", () => instances.update!(made.id, rebooted.result!.outs!, image));
    expect(rebuilt).toMatchObject({ sends: 1, result: { outs: { image: "public/ubuntu22.04", status: "running" } } });

    // Every send lost: the failure names the instance, the action and its input, and what to do, not a REST path.
    const lost = await losing(
      "shutdown",
      "reset",
      () => instances.update!(made.id, rebuilt.result!.outs!, { ...image, booted: false }),
      99,
    );
    expect(lost.sends).toBe(MAX_CREATE_ATTEMPTS);
    expect(lost.error?.message).toBe(
      `instance ${made.id}: the shutdown (its booted) got no answer ${MAX_CREATE_ATTEMPTS} times (the last: connection failed (ECONNRESET)), ` +
        "and whether the last one was applied is not known: run `pulumi up` again: it reads the instance first and sends only what is not yet applied",
    );
    expect((await harness.client.computes.instances.get(Number(made.id))).status).toBe("running");
    await instances.delete!(made.id, rebuilt.result!.outs!);
  });
});
