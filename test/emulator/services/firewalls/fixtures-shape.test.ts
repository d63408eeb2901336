/**
 * Replays the call behind every recorded firewall fixture (`firewall*.json`, `firewall_device*.json`,
 * `firewall_rules*.json`, the device 404) against the emulator, with the recorded request bodies and
 * seeded instances carrying the recorded ids, and compares the answers' shapes with the recordings:
 * the same keys, recursively through nested objects and the first item of arrays. The recorded
 * error body must match exactly. (Same comparison as `fixtures-shape.test.ts`, which covers the
 * other areas.)
 */
import * as fs from "node:fs";
import { startTestEmulator, type ApiResponse, type TestEmulator } from "../../helpers";
import { FIXTURES, type Fixture, expectMatchesRecording, load } from "../../../support/fixtures";


let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

async function ok(r: Promise<ApiResponse>): Promise<any> {
  const response = await r;
  expect(response.status).toBe(200);
  return response.body;
}

/**
 * The recorded create bodies; `with_devices` names instance 49708338, seeded here under that id,
 * and gets its own label (both recordings used one label, in separate runs).
 */
const created = () => ok(emu.post("/networking/firewalls", load("firewall.create.json").request));
const withDevice = () => {
  emu.control.seedCompute({ id: 49708338, label: "go-test-ins-mzar9128s81w", region: "us-iad" });
  return ok(emu.post("/networking/firewalls", { ...load("firewall.create.with_devices.json").request, label: "computego-fw-devices" }));
};
/** The recorded update was made on a firewall whose rule carried only ipv4 (see its response). */
const createdIpv4Only = () => {
  const request = load("firewall.create.json").request;
  request.rules.inbound[0].addresses = { ipv4: ["0.0.0.0/0"] };
  return ok(emu.post("/networking/firewalls", request));
};
async function deviceOf(): Promise<{ firewall: any; device: any }> {
  const firewall = await withDevice();
  const [device] = (await ok(emu.get(`/networking/firewalls/${firewall.id}/devices`))).data;
  return { firewall, device };
}

const REPLAYS: Record<string, (f: Fixture) => Promise<ApiResponse>> = {
  "firewall.create.json": (f) => emu.post("/networking/firewalls", f.request),
  "firewall.create.with_devices.json": (f) => {
    emu.control.seedCompute({ id: 49708338, label: "go-test-ins-mzar9128s81w", region: "us-iad" });
    return emu.post("/networking/firewalls", f.request);
  },
  "firewall.get.json": async () => emu.get(`/networking/firewalls/${(await created()).id}`),
  "firewall.list.json": async () => (await withDevice(), emu.get("/networking/firewalls")),
  "firewall.update.json": async (f) => emu.put(`/networking/firewalls/${(await createdIpv4Only()).id}`, f.request),
  "firewall.delete.json": async () => emu.del(`/networking/firewalls/${(await created()).id}`),
  "firewall_rules.get.json": async () => emu.get(`/networking/firewalls/${(await withDevice()).id}/rules`),
  "firewall_rules.update.json": async (f) => emu.put(`/networking/firewalls/${(await created()).id}/rules`, f.request),
  "firewall_device.list.json": async () => emu.get(`/networking/firewalls/${(await withDevice()).id}/devices`),
  "firewall_device.create.json": async (f) => {
    emu.control.seedCompute({ id: f.request.id, label: "go-test-ins-7u8728nv5shn", region: "us-iad" });
    return emu.post(`/networking/firewalls/${(await created()).id}/devices`, f.request);
  },
  "firewall_device.get.json": async () => {
    const { firewall, device } = await deviceOf();
    return emu.get(`/networking/firewalls/${firewall.id}/devices/${device.id}`);
  },
  "firewall_device.delete.json": async () => {
    const { firewall, device } = await deviceOf();
    return emu.del(`/networking/firewalls/${firewall.id}/devices/${device.id}`);
  },
  "error.404.firewall_device.json": async () => {
    const { firewall, device } = await deviceOf();
    await ok(emu.del(`/networking/firewalls/${firewall.id}/devices/${device.id}`));
    return emu.get(`/networking/firewalls/${firewall.id}/devices/${device.id}`);
  },
};

const inArea = fs.readdirSync(FIXTURES).filter((name) => /^(firewall|firewall_device|firewall_rules)\./.test(name) || name === "error.404.firewall_device.json");

test("every firewall fixture has a replay", () => {
  expect(inArea).toHaveLength(13);
  expect(inArea.filter((name) => !(name in REPLAYS))).toEqual([]);
});

test.each(Object.keys(REPLAYS))("%s", async (name) => {
  const fixture = load(name);
  expectMatchesRecording(await REPLAYS[name]!(fixture), fixture);
});

test("the recorded values come back too: labels, rules as supplied, null rulesets, device entities", async () => {
  const body = await ok(emu.post("/networking/firewalls", load("firewall.create.json").request));
  const recorded = load("firewall.create.json").response;
  expect({ ...body, id: 0, created: "", updated: "" }).toEqual({ ...recorded, id: 0, created: "", updated: "" });
  const { device } = await deviceOf();
  expect(device.entity).toEqual({ id: 49708338, type: "compute", label: "go-test-ins-mzar9128s81w", url: "/v4/compute/instances/49708338" });
});
