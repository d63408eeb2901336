/**
 * The firewall data functions against the emulator: getFirewalls listed, filtered, with their
 * devices on request; getFirewall by id or label with its rules and devices, refusing a missing
 * match and bad argument combinations (before any request).
 */
import { getFirewall, getFirewallOutput, getFirewalls, type GetFirewallArgs } from "../../../provider/functions/firewalls";
import { provider } from "../../../provider/registry";
import { useProviderHarness } from "../harness";
import { args } from "../firewall-inputs";

const harness = useProviderHarness();
const firewalls = provider("Firewall");
const seed = (label: string) => harness.emulator.control.seedCompute({ label, region: "us-iad" }).id;

test("getFirewalls lists firewalls, filtered, with devices on request", async () => {
  const a = seed("web-1");
  await firewalls.create!(args({ label: "one", tags: ["web"], devices: { computes: [a] } }));
  await firewalls.create!(args({ label: "two" }));
  const options = { apiUrl: harness.emulator.url, token: harness.emulator.token };
  expect((await getFirewalls({}, options)).map((f) => f.label)).toEqual(["one", "two"]);
  const [one] = await getFirewalls({ tag: "web", includeDevices: true }, options);
  expect(one).toMatchObject({ label: "one", rules: { inboundPolicy: "DROP" }, devices: [{ entity: { id: a, type: "compute" } }] });
  expect(await getFirewalls({ label: "two", status: "disabled" }, options)).toEqual([]);
});

test("getFirewall finds one firewall by id or by label, with its rules and devices in camelCase", async () => {
  const a = seed("web-1");
  const b = seed("web-2");
  const created = await harness.client.networking.firewalls.create({
    label: "web-fw",
    rules: {
      inbound_policy: "DROP",
      outbound_policy: "ACCEPT",
      inbound: [{ action: "ACCEPT", protocol: "TCP", ports: "22", addresses: { ipv4: ["0.0.0.0/0"] }, label: "ssh-in" }],
    },
    devices: { computes: [a, b] },
  });
  await harness.client.networking.firewalls.create({ label: "other-fw", rules: { inbound_policy: "ACCEPT", outbound_policy: "ACCEPT" } });
  const options = { apiUrl: harness.emulator.url, token: harness.emulator.token };
  const byLabel = await getFirewall({ label: "web-fw" }, options);
  expect(byLabel).toMatchObject({
    id: created.id,
    label: "web-fw",
    status: "enabled",
    rules: {
      inboundPolicy: "DROP",
      outboundPolicy: "ACCEPT",
      inbound: [{ action: "ACCEPT", protocol: "TCP", ports: "22", addresses: { ipv4: ["0.0.0.0/0"] }, label: "ssh-in" }],
    },
  });
  expect(byLabel.devices.map((d) => [d.entity.id, d.entity.type])).toEqual([
    [a, "compute"],
    [b, "compute"],
  ]);
  expect(byLabel.rules).not.toHaveProperty("inbound_policy");
  expect(await getFirewall({ id: String(created.id) }, options)).toEqual(byLabel);
  const output = getFirewallOutput({ id: Promise.resolve(created.id) }, options);
  expect(await new Promise((resolve) => output.devices.apply(resolve))).toEqual(byLabel.devices);
});

test("getFirewall refuses a missing firewall naming what was asked, and both or neither of id and label before any request", async () => {
  const options = { apiUrl: harness.emulator.url, token: harness.emulator.token };
  await expect(getFirewall({ id: 1, label: "x" } as unknown as GetFirewallArgs, options)).rejects.toThrow(
    'getFirewall: give either id or label, not both (got id 1, label "x")',
  );
  await expect(getFirewall({} as GetFirewallArgs, options)).rejects.toThrow("getFirewall: give either id or label (got no arguments)");
  expect(harness.emulator.control.listRequests()).toEqual([]);
  await expect(getFirewall({ label: "web-fw" }, options)).rejects.toThrow('getFirewall: no firewall with label "web-fw"');
  await expect(getFirewall({ id: 424242 }, options)).rejects.toThrow("getFirewall: no firewall with id 424242");
});
