/**
 * The FirewallDevice provider: `check` of ids and type, and against the emulator create, read and
 * delete, and a move of an entity to another firewall that deletes the old device first.
 */
import { FIREWALL_REASONS } from "../../../sdk/resources/firewalls";
import { check } from "../../../provider/engine/engine";
import { firewallDeviceSpec } from "../../../provider/resources/firewall-device";
import { forgetSessions, provider } from "../../../provider/registry";
import { useProviderHarness } from "../harness";
import { args } from "../firewall-inputs";

const PROVIDER = { __provider: "exports.handler = …" };
const harness = useProviderHarness();
const firewalls = provider("Firewall");
const devices = provider("FirewallDevice");
const seed = (label: string) => harness.emulator.control.seedCompute({ label, region: "us-iad" }).id;
const deviceIds = async (id: string | number) =>
  (await harness.client.networking.firewalls.devices.listAll(Number(id))).map((d) => d.entity.id).sort();

test("FirewallDevice: ids and type", () => {
  expect(
    check(firewallDeviceSpec, { ...PROVIDER, firewallId: "228000", entityId: 52000000, entityType: "compute" }).failures,
  ).toBeUndefined();
  const failures = check(firewallDeviceSpec, { ...PROVIDER, firewallId: "x", entityId: 1, entityType: "linode" }).failures!;
  expect(failures.map((f) => f.property)).toEqual(["firewallId", "entityType"]);
  expect(FIREWALL_REASONS.typeInvalid).toBe("type must be compute or nodebalancer"); // the API's name for entityType
  expect(failures[1]!.reason).toBe("entityType must be compute or nodebalancer");
});

test("FirewallDevice: create, read, delete; moving an entity to another firewall deletes the old device first", async () => {
  const a = seed("web-1");
  const fw = await firewalls.create!(args());
  const device = await devices.create!({ firewallId: fw.id, entityId: a, entityType: "compute" });
  expect(device.outs).toMatchObject({
    firewallId: Number(fw.id),
    entityId: a,
    entityType: "compute",
    entity: { label: "web-1", url: `/v4/compute/instances/${a}` },
  });
  expect(await devices.read!(device.id, device.outs)).toEqual({ id: device.id, props: device.outs });
  expect(await devices.diff!(device.id, device.outs, { firewallId: "999", entityId: a, entityType: "compute" })).toMatchObject({
    changes: true,
    replaces: ["firewallId"],
    deleteBeforeReplace: true,
  });
  expect((await devices.diff!(device.id, device.outs, { firewallId: fw.id, entityId: String(a), entityType: "compute" })).changes).toBe(
    false,
  );
  await devices.delete!(device.id, device.outs);
  expect(await deviceIds(fw.id)).toEqual([]);
  expect(await devices.read!(device.id, device.outs)).toEqual({});
});

test("FirewallDevice: a refresh of a firewall's devices is one listing; a device removed behind Pulumi's back reads as gone", async () => {
  const fw = await firewalls.create!(args());
  const created = await Promise.all(
    ["d-1", "d-2", "d-3"].map((label) => devices.create!({ firewallId: fw.id, entityId: seed(label), entityType: "compute" })),
  );
  await harness.client.networking.firewalls.devices.delete(Number(fw.id), Number(created[2]!.id));
  forgetSessions(); // a refresh is a new provider process
  harness.emulator.control.clearRequests();
  const read = await Promise.all(created.map((d) => devices.read!(d.id, d.outs)));
  expect(read.map((r) => r.id)).toEqual([created[0]!.id, created[1]!.id, undefined]);
  expect(harness.emulator.control.listRequests().map((r) => `${r.method} ${r.path.replace(/\d+/g, "#")}`)).toEqual([
    "GET /v#/networking/firewalls/#/devices?page=#&page_size=#",
    "GET /v#/networking/firewalls/#/devices/#", // the removed one, missing from the listing: 404
  ]);
});
