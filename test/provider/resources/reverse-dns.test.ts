/**
 * The ReverseDns provider's methods against the emulator over HTTP: check refuses bad names and
 * addresses naming the input (and sends nothing); natural spellings never diff; create sets the
 * name (forward DNS through the DNS API), delete restores the platform default.
 */
import { IP_REASONS } from "../../../sdk/resources/ips";
import { provider } from "../../../provider/registry";
import { useProviderHarness } from "../harness";

const harness = useProviderHarness();
const rdns = provider("ReverseDns");

/** An instance with a public address, and forward records for `www.example.org` (A and AAAA). */
async function addressWithForwardDns() {
  const c = harness.emulator.control.seedCompute({ label: "web", region: "us-iad", ipv4: ["198.51.100.10"] });
  const zone = await harness.client.domains.create({ domain: "example.org", type: "master", soa_email: "admin@example.org" });
  await harness.client.domains.records.create(zone.id, { type: "A", name: "www", target: "198.51.100.10" });
  await harness.client.domains.records.create(zone.id, { type: "AAAA", name: "www", target: c.ipv6! });
  return c;
}

test.each([
  ["a name that is not a domain", { address: "198.51.100.10", rdns: "sample rdns" }, "rdns", IP_REASONS.rdnsInvalid],
  [
    "an address that is not an IP",
    { address: "198.51.100", rdns: "www.example.org" },
    "address",
    "address must be an IPv4 or IPv6 address",
  ],
  ["a missing name", { address: "198.51.100.10" }, "rdns", "rdns is required"],
])("check refuses %s, naming the input, without a request", async (_what, inputs, property, reason) => {
  const result = await rdns.check!({}, inputs);
  expect(result.failures).toEqual([{ property, reason }]);
  expect(harness.emulator.control.listRequests()).toEqual([]);
});

test("case, a final dot and IPv6 spellings never diff; the address replaces, the name changes in place", async () => {
  const olds = { address: "2001:db8:4::f03c:91ff:fe00:1", rdns: "www.example.org" };
  expect((await rdns.diff!("a", olds, { address: "2001:DB8:4:0:F03C:91FF:FE00:1", rdns: "WWW.Example.ORG." })).changes).toBe(false);
  expect(await rdns.diff!("a", olds, { address: olds.address, rdns: "web.example.org" })).toMatchObject({
    changes: true,
    replaces: [],
    deleteBeforeReplace: false,
  });
  expect((await rdns.diff!("a", olds, { address: "2001:db8:4::2", rdns: olds.rdns })).replaces).toMatchObject(["address"]);
});

test("create sets the name, read maps it back, update changes it, delete restores the default", async () => {
  await addressWithForwardDns();
  const created = await rdns.create({ address: "198.51.100.10", rdns: "WWW.example.org." });
  expect(created.id).toBe("198.51.100.10");
  expect(created.outs).toEqual({
    address: "198.51.100.10",
    rdns: "www.example.org",
    computeId: expect.any(Number),
    region: "us-iad",
    type: "ipv4",
  });
  expect((await rdns.diff!(created.id, created.outs, { address: "198.51.100.10", rdns: "WWW.example.org." })).changes).toBe(false);

  await harness.client.networking.ips.update("198.51.100.10", { rdns: null });
  const drifted = await rdns.read!(created.id, created.outs);
  expect(drifted.props).toMatchObject({ rdns: "198-51-100-10.ip.computeusercontent.com" });
  const restored = await rdns.update!(created.id, drifted.props, { address: "198.51.100.10", rdns: "www.example.org" });
  expect(restored.outs).toMatchObject({ rdns: "www.example.org" });

  await rdns.delete!(created.id, restored.outs!);
  expect((await harness.client.networking.ips.get("198.51.100.10")).rdns).toBe("198-51-100-10.ip.computeusercontent.com");
});

test("an IPv6 address in any spelling; delete clears its name", async () => {
  const c = await addressWithForwardDns();
  const created = await rdns.create({ address: c.ipv6!.toUpperCase(), rdns: "www.example.org" });
  expect(created.id).toBe(c.ipv6);
  expect(created.outs).toMatchObject({ address: c.ipv6, rdns: "www.example.org", type: "ipv6" });
  await rdns.delete!(created.id, created.outs);
  expect((await harness.client.networking.ips.get(c.ipv6!)).rdns).toBeNull();
});

test("without forward DNS it tries again until the deadline, which then names the API's last refusal and the rdns input", async () => {
  harness.emulator.control.seedCompute({ label: "web", region: "us-iad", ipv4: ["198.51.100.10"] });
  await expect(rdns.create({ address: "198.51.100.10", rdns: "www.example.org", timeouts: { create: "4s" } })).rejects.toThrow(
    "reverse DNS create did not finish within 4s (raise timeouts.create to wait longer); the last answer: " +
      `the API refused the reverse DNS create: rdns: ${IP_REASONS.rdnsNoForward} (HTTP 400 PUT /networking/ips/198.51.100.10)`,
  );
  const puts = harness.emulator.control.listRequests().filter((r) => r.method === "PUT");
  expect(puts.length).toBeGreaterThanOrEqual(2); // tried again, not only once
});

test("a forward record that resolves only after a while: create waits for it, saying so, then sets the name", async () => {
  const lines: string[] = [];
  const log = jest.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
  try {
    harness.emulator.control.seedCompute({ label: "web", region: "us-iad", ipv4: ["198.51.100.10"] });
    harness.emulator.control.ips.delayForwardDns({ seconds: 4 });
    const zone = await harness.client.domains.create({ domain: "example.org", type: "master", soa_email: "admin@example.org" });
    await harness.client.domains.records.create(zone.id, { type: "A", name: "www", target: "198.51.100.10" });
    const created = await rdns.create({ address: "198.51.100.10", rdns: "www.example.org" });
    expect(created.outs).toMatchObject({ rdns: "www.example.org" });
    expect(lines[0]).toMatch(
      /^reverse DNS of 198\.51\.100\.10: waiting for forward DNS, \d+s so far: www\.example\.org does not resolve to 198\.51\.100\.10 yet$/,
    );
  } finally {
    log.mockRestore();
  }
});
