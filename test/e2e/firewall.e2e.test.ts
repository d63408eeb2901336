/**
 * Firewalls end to end through the real Pulumi engine against the emulator over HTTP:
 * a firewall with 10 rules (written in natural spellings) and two seeded compute devices, a second
 * firewall without `devices` plus a `FirewallDevice` → up → preview shows no changes → a rule
 * edited and a device removed behind Pulumi's back are both reported by refresh → up restores them
 * → `status: disabled` is applied in place → destroy. Bad input fails at preview, naming the
 * field, before any request.
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { FIREWALL_REASONS, type FirewallRuleInput } from "../../sdk/resources/firewalls";
import { Firewall, FirewallDevice } from "../../provider";
import { driftFromEvents } from "../../provider/stack/refresh-drift";
import { createTestStack, eventRecorder, stepsByName, type TestStack } from "../support/engine";

jest.setTimeout(300_000);

let emulator: RunningEmulator;
let client: ComputeClient;
const stacks: TestStack[] = [];
let computes: number[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  computes = ["web-1", "web-2", "db-1"].map((label) => emulator.control.seedCompute({ label, region: "us-iad" }).id);
});

afterAll(async () => {
  for (const s of stacks) {
    await s.stack.destroy().catch(() => undefined);
    s.cleanup();
  }
  await client?.close();
  await emulator?.close();
});

async function stackFor(name: string, program: () => Promise<Record<string, unknown> | void>): Promise<TestStack> {
  const s = await createTestStack({ name, apiUrl: emulator.url, token: emulator.token, program });
  stacks.push(s);
  return s;
}

const all4 = { ipv4: ["0.0.0.0/0"], ipv6: ["::/0"] };
/** Ten rules, several in spellings the API stores differently (bare addresses, IPv6 case and zeroes, spaces in ports). */
const INBOUND: FirewallRuleInput[] = [
  { action: "ACCEPT", protocol: "TCP", ports: "22", addresses: { ipv4: ["203.0.113.7"], ipv6: ["2001:DB8::7"] }, label: "ssh-admin" },
  { action: "ACCEPT", protocol: "TCP", ports: "80, 443", addresses: all4, label: "web" },
  { action: "ACCEPT", protocol: "TCP", ports: "8000 - 8080", addresses: { ipv4: ["10.0.0.0/8"] }, label: "alt-http" },
  { action: "ACCEPT", protocol: "UDP", ports: "53", addresses: { ipv4: ["198.51.100.0/24", "192.0.2.0/24"] }, label: "dns" },
  { action: "ACCEPT", protocol: "ICMP", addresses: all4, label: "ping" },
  { action: "ACCEPT", protocol: "IPENCAP", addresses: { ipv4: ["192.0.2.10/32"] }, label: "tunnel" },
  {
    action: "ACCEPT",
    protocol: "TCP",
    ports: "25,465, 587",
    addresses: { ipv6: ["2001:0db8:0000::/48"] },
    label: "mail",
    description: "submission and relay",
  },
];
const OUTBOUND: FirewallRuleInput[] = [
  { action: "ACCEPT", protocol: "TCP", ports: "443", addresses: all4, label: "https-out" },
  { action: "ACCEPT", protocol: "UDP", ports: "123", addresses: { ipv4: ["0.0.0.0/0"] }, label: "ntp-out" },
  { action: "DROP", protocol: "ICMP", addresses: { ipv6: ["::/0"] }, label: "no-ping6" },
];

test("a firewall with 10 rules and two devices goes through its whole life", async () => {
  const [c1, c2, c3] = computes as [number, number, number];
  let status: "enabled" | "disabled" = "enabled";
  const s = await stackFor("firewall", async () => {
    const web = new Firewall("web", {
      label: "e2e-web",
      status,
      tags: ["web", "e2e"],
      inboundPolicy: "DROP",
      outboundPolicy: "ACCEPT",
      inbound: INBOUND,
      outbound: OUTBOUND,
      devices: { computes: [c1, c2] },
    });
    const db = new Firewall("db", {
      label: "e2e-db",
      inboundPolicy: "DROP",
      outboundPolicy: "ACCEPT",
      inbound: [{ action: "ACCEPT", protocol: "TCP", ports: "5432", addresses: { ipv4: ["10.0.0.0/8"] }, label: "postgres" }],
    });
    const device = new FirewallDevice("db-1", { firewallId: db.id, entityId: c3, entityType: "compute" });
    return { webId: web.id, dbId: db.id, deviceId: device.id };
  });

  // up
  const up = await s.stack.up();
  expect(up.summary.resourceChanges).toMatchObject({ create: 4 }); // the stack, two firewalls, one device
  const webId = Number(up.outputs.webId!.value);
  const dbId = Number(up.outputs.dbId!.value);
  const web = await client.networking.firewalls.get(webId);
  expect(web).toMatchObject({ label: "e2e-web", status: "enabled", rules: { inbound_policy: "DROP", outbound_policy: "ACCEPT" } });
  expect(web.rules.inbound!.length + web.rules.outbound!.length).toBe(10);
  expect(web.rules.inbound![0]!.addresses).toEqual({ ipv4: ["203.0.113.7/32"], ipv6: ["2001:db8::7/128"] });
  const webDevices = async () => (await client.networking.firewalls.devices.listAll(webId)).map((d) => d.entity.id).sort();
  expect(await webDevices()).toEqual([c1, c2].sort());
  expect((await client.networking.firewalls.devices.listAll(dbId)).map((d) => d.entity.id)).toEqual([c3]);

  // preview shows no changes: every natural spelling matches what the API stored
  expect(Object.keys((await s.stack.preview()).changeSummary)).toEqual(["same"]);

  // behind Pulumi's back: a rule edited, a device removed
  const rules = await client.networking.firewalls.rules.get(webId);
  rules.inbound![1]!.ports = "80,443,8443";
  await client.networking.firewalls.rules.update(webId, { inbound: rules.inbound as never, outbound: rules.outbound as never });
  const removed = (await client.networking.firewalls.devices.listAll(webId)).find((d) => d.entity.id === c2)!;
  await client.networking.firewalls.devices.delete(webId, removed.id);

  // refresh reports exactly that drift, on the web firewall only
  const recorder = eventRecorder();
  const refresh = await s.stack.refresh({ onEvent: recorder.onEvent });
  expect(refresh.summary.resourceChanges).toMatchObject({ update: 1, same: 3 });
  const steps = stepsByName(recorder.events);
  expect(steps.get("web")!.op).toBe("update");
  for (const name of ["db", "db-1"]) expect(steps.get(name)!.op).toBe("same");
  const drift = driftFromEvents(recorder.events);
  expect(drift.map((d) => `${d.resource}.${d.field}`)).toEqual(["web.inbound", "web.devices"]);
  const inboundDrift = drift[0]!;
  expect((inboundDrift.state as any[])[1].ports).toBe("80,443");
  expect((inboundDrift.cloud as any[])[1].ports).toBe("80,443,8443");
  expect(drift[1]).toMatchObject({ state: { computes: [c1, c2] }, cloud: { computes: [c1] } });

  // up restores both, in place
  const restore = await s.stack.up();
  expect(restore.summary.resourceChanges).toMatchObject({ update: 1, same: 3 });
  expect((await client.networking.firewalls.rules.get(webId)).inbound![1]!.ports).toBe("80,443");
  expect(await webDevices()).toEqual([c1, c2].sort());
  expect(Object.keys((await s.stack.preview()).changeSummary)).toEqual(["same"]);

  // status: disabled is an in-place update
  status = "disabled";
  const disable = await s.stack.up();
  expect(disable.summary.resourceChanges).toMatchObject({ update: 1, same: 3 });
  expect((await client.networking.firewalls.get(webId)).status).toBe("disabled");
  expect(await webDevices()).toEqual([c1, c2].sort());
  expect((await client.networking.firewalls.get(webId)).id).toBe(webId);

  // destroy
  const destroyed = await s.stack.destroy();
  expect(destroyed.summary.resourceChanges).toMatchObject({ delete: 4 });
  expect(await client.networking.firewalls.listAll()).toEqual([]);
});

test("bad input fails at preview, naming the field, and sends no request", async () => {
  let bad: "label" | "ports" = "label";
  const rule: FirewallRuleInput = { action: "DROP", protocol: "ICMP", addresses: { ipv4: ["0.0.0.0/0"] } };
  const s = await stackFor("firewall-bad", async () => {
    new Firewall("fw", {
      label: bad === "label" ? "bad label" : "good-label",
      inboundPolicy: "DROP",
      outboundPolicy: "ACCEPT",
      inbound: [bad === "ports" ? { ...rule, ports: "22" } : rule],
    });
  });
  for (const [which, expected] of [
    ["label", [`property label`, FIREWALL_REASONS.labelChars]],
    ["ports", [`inbound[0].ports: ${FIREWALL_REASONS.portsNotAllowed}`]],
  ] as const) {
    bad = which;
    emulator.control.clearRequests();
    const recorder = eventRecorder();
    await expect(s.stack.preview({ onEvent: recorder.onEvent })).rejects.toThrow();
    for (const text of expected) expect(recorder.diagnostics()).toContain(text);
    expect(emulator.control.listRequests()).toEqual([]);
  }
});
