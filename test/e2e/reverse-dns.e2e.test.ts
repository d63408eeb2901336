/**
 * ReverseDns end to end through the real Pulumi engine against the emulator over HTTP. The forward
 * A record is created in the emulator's DNS through the sdk (`client.domains`), then:
 * up → no-change preview (the program's `WWW.Example.org.` is the API's `www.example.org`) → the
 * name reset behind Pulumi's back → refresh reports exactly that drift → up restores it →
 * destroy restores the platform default. Then, with forward DNS delayed 20 s in the emulator, an A
 * record and its reverse DNS made in one `up`: the reverse DNS waits for forward DNS and succeeds.
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { Domain, DomainRecord, ReverseDns } from "../../provider";
import { driftFromEvents } from "../../provider/stack/refresh-drift";
import { createTestStack, eventRecorder, type TestStack } from "../support/engine";

jest.setTimeout(240_000);

const ADDRESS = "198.51.100.10";
const DEFAULT_RDNS = "198-51-100-10.ip.computeusercontent.com";

let emulator: RunningEmulator;
let client: ComputeClient;
let testStack: TestStack;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  emulator.control.seedCompute({ label: "web", region: "us-iad", ipv4: [ADDRESS] });
  const zone = await client.domains.create({ domain: "example.org", type: "master", soa_email: "admin@example.org" });
  await client.domains.records.create(zone.id, { type: "A", name: "www", target: ADDRESS });
  testStack = await createTestStack({
    name: "reverse-dns",
    apiUrl: emulator.url,
    token: emulator.token,
    program: async () => {
      const name = new ReverseDns("www", { address: ADDRESS, rdns: "WWW.Example.org." });
      return { rdns: name.rdns };
    },
  });
});

afterAll(async () => {
  await testStack?.stack.destroy().catch(() => undefined);
  testStack?.cleanup();
  await client?.close();
  await emulator?.close();
});

test("a reverse DNS name goes through its whole life, and destroy restores the default", async () => {
  expect((await client.networking.ips.get(ADDRESS)).rdns).toBe(DEFAULT_RDNS);

  // up
  const up = await testStack.stack.up();
  expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
  expect(up.outputs.rdns!.value).toBe("www.example.org");
  expect((await client.networking.ips.get(ADDRESS)).rdns).toBe("www.example.org");

  // preview shows no changes: case and the final dot are spellings, not changes
  expect(Object.keys((await testStack.stack.preview()).changeSummary)).toEqual(["same"]);

  // behind Pulumi's back
  await client.networking.ips.update(ADDRESS, { rdns: null });

  // refresh reports exactly that drift
  const recorder = eventRecorder();
  const refresh = await testStack.stack.refresh({ onEvent: recorder.onEvent });
  expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
  expect(driftFromEvents(recorder.events)).toEqual([
    { resource: "www", type: "ReverseDns", field: "rdns", state: "www.example.org", cloud: DEFAULT_RDNS },
  ]);

  // up restores it, in place
  const restore = await testStack.stack.up();
  expect(restore.summary.resourceChanges).toMatchObject({ update: 1 });
  expect((await client.networking.ips.get(ADDRESS)).rdns).toBe("www.example.org");
  expect(Object.keys((await testStack.stack.preview()).changeSummary)).toEqual(["same"]);

  // destroy: the platform default is back
  const destroyed = await testStack.stack.destroy();
  expect(destroyed.summary.resourceChanges).toMatchObject({ delete: 2 });
  expect((await client.networking.ips.get(ADDRESS)).rdns).toBe(DEFAULT_RDNS);
});

test("with forward DNS delayed 20 s, the A record and its reverse DNS in one up: up waits and succeeds, with no error and no retry by hand", async () => {
  const address = "198.51.100.11";
  emulator.control.seedCompute({ label: "app", region: "us-iad", ipv4: [address] });
  emulator.control.ips.delayForwardDns({ seconds: 20 });
  const s = await createTestStack({
    name: "reverse-dns-wait",
    apiUrl: emulator.url,
    token: emulator.token,
    program: async () => {
      const zone = new Domain("zone", { domain: "wait.example", type: "master", soaEmail: "admin@wait.example" });
      const record = new DomainRecord("app", { domainId: zone.id, type: "A", name: "app", target: address });
      const name = new ReverseDns("app", { address, rdns: "app.wait.example" }, { dependsOn: [record] });
      return { rdns: name.rdns };
    },
  });
  try {
    const recorder = eventRecorder();
    const up = await s.stack.up({ onEvent: recorder.onEvent });
    expect(up.summary.resourceChanges).toEqual({ create: 4 });
    expect(up.outputs.rdns!.value).toBe("app.wait.example");
    expect((await client.networking.ips.get(address)).rdns).toBe("app.wait.example");
    // It said what it waited for, on the ReverseDns row (a status, not a kept line).
    const waited = recorder.events.filter((e) => e.diagnosticEvent?.message.includes("waiting for forward DNS"));
    expect(waited.length).toBeGreaterThan(0);
    expect(waited.every((e) => e.diagnosticEvent!.ephemeral === true && e.diagnosticEvent!.urn?.endsWith("ReverseDns::app"))).toBe(true);
    expect(recorder.events.filter((e) => e.diagnosticEvent?.severity === "error")).toEqual([]);
    await s.stack.destroy();
  } finally {
    emulator.control.ips.delayForwardDns({ seconds: 0 });
    s.cleanup();
  }
});
