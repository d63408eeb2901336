/**
 * The firewall recordings (`firewall*.json`, `firewall_device*.json`, `firewall_rules*.json`, the
 * device 404) replayed with the recorded request bodies and seeded instances carrying the recorded
 * ids; and the recorded values that come back as sent.
 */
import { ok, type TestEmulator } from "../../helpers";
import { replayModule } from "../../replay";
import { load } from "../../../support/fixtures";

const RULES_VERSION = ["$.version: not in the recording", "$.fingerprint: not in the recording"];

function firewallSteps(emu: TestEmulator) {
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
  const deviceOf = async (): Promise<{ firewall: any; device: any }> => {
    const firewall = await withDevice();
    const [device] = (await ok(emu.get(`/networking/firewalls/${firewall.id}/devices`))).data;
    return { firewall, device };
  };
  return { created, withDevice, createdIpv4Only, deviceOf };
}

export const firewallReplays = replayModule({
  name: "firewalls",
  replays: (emu) => {
    const { created, withDevice, createdIpv4Only, deviceOf } = firewallSteps(emu);
    const FIREWALLS = "/networking/firewalls";
    return {
      "firewall.create.json": (f) => emu.post(FIREWALLS, f.request),
      "firewall.create.with_devices.json": (f) => {
        emu.control.seedCompute({ id: 49708338, label: "go-test-ins-mzar9128s81w", region: "us-iad" });
        return emu.post(FIREWALLS, f.request);
      },
      "firewall.get.json": async () => emu.get(`${FIREWALLS}/${(await created()).id}`),
      "firewall.list.json": async () => (await withDevice(), emu.get(FIREWALLS)),
      "firewall.update.json": async (f) => emu.put(`${FIREWALLS}/${(await createdIpv4Only()).id}`, f.request),
      "firewall.delete.json": async () => emu.del(`${FIREWALLS}/${(await created()).id}`),
      // The 4.174 recordings predate the rules' `version` and `fingerprint` (emulator README, "Fields newer than the spec").
      "firewall_rules.get.json": {
        replay: async () => emu.get(`${FIREWALLS}/${(await withDevice()).id}/rules`),
        documented: RULES_VERSION,
      },
      "firewall_rules.update.json": {
        replay: async (f) => emu.put(`${FIREWALLS}/${(await created()).id}/rules`, f.request),
        documented: RULES_VERSION,
      },
      "firewall_device.list.json": async () => emu.get(`${FIREWALLS}/${(await withDevice()).id}/devices`),
      "firewall_device.create.json": async (f) => {
        emu.control.seedCompute({ id: f.request.id, label: "go-test-ins-7u8728nv5shn", region: "us-iad" });
        return emu.post(`${FIREWALLS}/${(await created()).id}/devices`, f.request);
      },
      "firewall_device.get.json": async () => {
        const { firewall, device } = await deviceOf();
        return emu.get(`${FIREWALLS}/${firewall.id}/devices/${device.id}`);
      },
      "firewall_device.delete.json": async () => {
        const { firewall, device } = await deviceOf();
        return emu.del(`${FIREWALLS}/${firewall.id}/devices/${device.id}`);
      },
      "error.404.firewall_device.json": async () => {
        const { firewall, device } = await deviceOf();
        await ok(emu.del(`${FIREWALLS}/${firewall.id}/devices/${device.id}`));
        return emu.get(`${FIREWALLS}/${firewall.id}/devices/${device.id}`);
      },
    };
  },
  details: (emu) => ({
    "firewalls: the recorded values come back too: labels, rules as supplied, null rulesets, device entities": async () => {
      const body = await ok(emu.post("/networking/firewalls", load("firewall.create.json").request));
      const recorded = load("firewall.create.json").response;
      expect({ ...body, id: 0, created: "", updated: "" }).toEqual({ ...recorded, id: 0, created: "", updated: "" });
      const { device } = await firewallSteps(emu).deviceOf();
      const entity = { id: 49708338, type: "compute", label: "go-test-ins-mzar9128s81w", url: "/v4/compute/instances/49708338" };
      expect(device.entity).toEqual(entity);
    },
  }),
});
