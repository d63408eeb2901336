/**
 * A parent's outputs are its own (issue 22, part 2; provider/README.md, "What a refresh compares"):
 * through the real engine, one stack adopts a VPC, a firewall and a domain made outside Pulumi
 * (`adoptId`) and, in the same `up`, gives each a child managed by its own resource — a
 * `VpcSubnet`, a `FirewallDevice`, a `DomainRecord`. The refresh after it must change nothing:
 * `--expect-no-changes` passes, no drift is reported, and each parent's recorded outputs stay
 * exactly as the `up` wrote them (the VPC's used to gain the new subnet in `subnets`). They set
 * `deleteAdopted: true`, so destroy deletes them.
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { Domain, DomainRecord, Firewall, FirewallDevice, Vpc, VpcSubnet } from "../../provider";
import { driftFromEvents } from "../../provider/stack/refresh-drift";
import { createTestStack, eventRecorder, type TestStack } from "../support/engine";

jest.setTimeout(300_000);

let emulator: RunningEmulator;
let client: ComputeClient;
let testStack: TestStack | undefined;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
});

afterAll(async () => {
  await testStack?.stack.destroy().catch(() => undefined);
  testStack?.cleanup();
  await client?.close();
  await emulator?.close();
});

test("adopted parents with children added in the same up: the refresh after it changes nothing", async () => {
  // Made outside Pulumi, each without the child the program adds.
  const vpc = await client.vpcs.create({ label: "adopted-net", region: "us-iad" });
  const policies = { inbound_policy: "DROP", outbound_policy: "ACCEPT" } as const;
  const firewall = await client.networking.firewalls.create({ label: "adopted-fw", rules: policies });
  const domain = await client.domains.create({ domain: "adopted.example", type: "master", soa_email: "admin@adopted.example" });
  const compute = emulator.control.seedCompute({ label: "web-1", region: "us-iad" }).id;

  testStack = await createTestStack({
    name: "parents",
    apiUrl: emulator.url,
    token: emulator.token,
    program: async () => {
      const net = new Vpc("net", { adoptId: vpc.id, deleteAdopted: true, label: "adopted-net", region: "us-iad" });
      new VpcSubnet("web", { vpcId: net.id, label: "web", ipv4: "10.0.1.0/24" });
      const fw = new Firewall("fw", {
        adoptId: firewall.id,
        deleteAdopted: true,
        label: "adopted-fw",
        inboundPolicy: "DROP",
        outboundPolicy: "ACCEPT",
      });
      new FirewallDevice("web-1", { firewallId: fw.id, entityId: compute, entityType: "compute" });
      const zone = new Domain("zone", {
        adoptId: domain.id,
        deleteAdopted: true,
        domain: "adopted.example",
        type: "master",
        soaEmail: "admin@adopted.example",
      });
      new DomainRecord("www", { domainId: zone.id, type: "A", name: "www", target: "192.0.2.10" });
    },
  });
  const up = await testStack.stack.up();
  expect(up.summary.resourceChanges).toEqual({ create: 7 }); // the stack, three parents, three children
  // The children exist in the API, so each parent's record has changed since the parent was recorded.
  expect((await client.vpcs.get(vpc.id)).subnets.map((s) => s.label)).toEqual(["web"]);
  expect((await client.networking.firewalls.devices.listAll(firewall.id)).map((d) => d.entity.id)).toEqual([compute]);
  expect((await client.domains.records.listAll(domain.id)).map((r) => r.name)).toContain("www");

  const parents = ["net", "fw", "zone"];
  const outputsOf = () =>
    Object.fromEntries(
      testStack!
        .resources()
        .filter((r) => parents.includes(r.urn.split("::").pop()!))
        .map((r) => [r.urn.split("::").pop()!, r.outputs]),
    );
  const before = outputsOf();
  expect(Object.keys(before).sort()).toEqual(["fw", "net", "zone"]);

  const recorder = eventRecorder();
  const refresh = await testStack.stack.refresh({ expectNoChanges: true, onEvent: recorder.onEvent });
  expect(refresh.summary.resourceChanges).toEqual({ same: 7 });
  expect(driftFromEvents(recorder.events)).toEqual([]);
  expect(outputsOf()).toEqual(before);
  expect(before.net).not.toHaveProperty("subnets");

  await testStack.stack.destroy();
  expect(await client.vpcs.listAll()).toEqual([]);
  expect(await client.networking.firewalls.listAll()).toEqual([]);
  expect(await client.domains.listAll()).toEqual([]);
});
