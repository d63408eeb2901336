/** getFirewalls against the emulator: firewalls listed, filtered, with their devices on request. */
import { getFirewalls } from "../../../provider/functions/firewalls";
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
