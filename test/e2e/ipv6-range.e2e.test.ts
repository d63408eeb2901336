/**
 * Ipv6Range end to end through the real Pulumi engine against the emulator over HTTP:
 * up → no-change preview → the range re-assigned to another instance behind Pulumi's back →
 * refresh reports exactly that drift → up moves it back in place (the same block) → destroy
 * leaves no range. A program that moves its range to another instance keeps the range's address,
 * in one assign and no delete, and an AAAA record built on it plans no change. A program naming
 * both targets is refused at preview, naming both inputs, before any request.
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import * as pulumi from "@pulumi/pulumi";
import { Domain, DomainRecord, Ipv6Range } from "../../provider";
import { driftFromEvents } from "../../provider/stack/refresh-drift";
import { createTestStack, eventRecorder, type TestStack } from "../support/engine";

jest.setTimeout(240_000);

let emulator: RunningEmulator;
let client: ComputeClient;
const stacks: TestStack[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
});

afterAll(async () => {
  for (const s of stacks) {
    await s.stack.destroy().catch(() => undefined);
    s.cleanup();
  }
  await client?.close();
  await emulator?.close();
});

test("a range routed to an instance goes through its whole life", async () => {
  const a = emulator.control.seedCompute({ label: "a", region: "us-iad" });
  const b = emulator.control.seedCompute({ label: "b", region: "us-iad" });
  const s = await createTestStack({
    name: "ipv6-range",
    apiUrl: emulator.url,
    token: emulator.token,
    program: async () => {
      const range = new Ipv6Range("v6", { prefixLength: 64, computeId: String(a.id) });
      return { range: range.range, routeTarget: range.routeTarget };
    },
  });
  stacks.push(s);

  // up
  const up = await s.stack.up();
  expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
  const first = up.outputs.range!.value as string;
  expect(up.outputs.routeTarget!.value).toBe(a.ipv6);
  expect(await client.networking.ipv6.ranges.listAll()).toEqual([{ range: first, prefix: 64, region: "us-iad", route_target: a.ipv6 }]);

  // preview shows no changes
  expect(Object.keys((await s.stack.preview()).changeSummary)).toEqual(["same"]);

  // behind Pulumi's back: the range is assigned to the other instance
  await client.networking.ips.assign({ region: "us-iad", assignments: [{ address: `${first}/64`, compute_id: b.id }] });

  // refresh reports exactly that drift, on the field the program manages (it gave `computeId`,
  // not `routeTarget`, the same target in the API's spelling)
  const recorder = eventRecorder();
  const refresh = await s.stack.refresh({ onEvent: recorder.onEvent });
  expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
  expect(driftFromEvents(recorder.events)).toEqual([{ resource: "v6", type: "Ipv6Range", field: "computeId", state: a.id, cloud: b.id }]);

  // up moves it back to `a` in place: the same block
  const restore = await s.stack.up();
  expect(restore.summary.resourceChanges).toMatchObject({ update: 1 });
  const ranges = await client.networking.ipv6.ranges.listAll();
  expect(ranges).toEqual([{ range: first, prefix: 64, region: "us-iad", route_target: a.ipv6 }]);
  expect(Object.keys((await s.stack.preview()).changeSummary)).toEqual(["same"]);

  // destroy
  const destroyed = await s.stack.destroy();
  expect(destroyed.summary.resourceChanges).toMatchObject({ delete: 2 });
  expect(await client.networking.ipv6.ranges.listAll()).toEqual([]);
});

test("a program that moves its range to another instance keeps the block, and an AAAA record on it plans no change", async () => {
  const a = emulator.control.seedCompute({ label: "move-a", region: "us-ord" });
  const b = emulator.control.seedCompute({ label: "move-b", region: "us-ord" });
  let target = a.id;
  const s = await createTestStack({
    name: "ipv6-move",
    apiUrl: emulator.url,
    token: emulator.token,
    program: async () => {
      const range = new Ipv6Range("v6", { prefixLength: 64, computeId: String(target) });
      const zone = new Domain("zone", { domain: "move.example", type: "master", soaEmail: "admin@move.example" });
      new DomainRecord("host", { domainId: zone.id, type: "AAAA", name: "host", target: pulumi.interpolate`${range.range}1` });
      return { range: range.range, routeTarget: range.routeTarget };
    },
  });
  stacks.push(s);
  const first = (await s.stack.up()).outputs.range!.value as string;

  target = b.id;
  const plan = await s.stack.preview();
  expect(plan.changeSummary).toEqual({ same: 3, update: 1 }); // the range; the record and the zone are untouched
  emulator.control.clearRequests();
  const moved = await s.stack.up();
  expect(moved.summary.resourceChanges).toEqual({ same: 3, update: 1 });
  expect(moved.outputs.range!.value).toBe(first);
  expect(moved.outputs.routeTarget!.value).toBe(b.ipv6);
  const writes = emulator.control.listRequests().filter((r) => r.method !== "GET");
  expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /v4/networking/ips/assign"]);
  expect(await client.networking.ipv6.ranges.listAll()).toEqual([{ range: first, prefix: 64, region: "us-ord", route_target: b.ipv6 }]);
  expect((await s.stack.preview()).changeSummary).toEqual({ same: 4 });
});

test("both targets given: preview refuses, naming both inputs, and sends no request", async () => {
  const s = await createTestStack({
    name: "ipv6-range-bad",
    apiUrl: emulator.url,
    token: emulator.token,
    program: async () => {
      new Ipv6Range("v6", { prefixLength: 64, computeId: 52000001, routeTarget: "2001:db8:4::1" });
    },
  });
  stacks.push(s);
  emulator.control.clearRequests();
  const recorder = eventRecorder();
  await expect(s.stack.preview({ onEvent: recorder.onEvent })).rejects.toThrow();
  const diagnostics = recorder.diagnostics();
  expect(diagnostics).toContain("property computeId");
  expect(diagnostics).toContain("property routeTarget");
  // The API's text (IP_REASONS.rangeTargetBoth) in the program's names.
  expect(diagnostics).toContain("Specify either computeId or routeTarget, not both");
  expect(diagnostics).not.toMatch(/compute_id|route_target/);
  expect(emulator.control.listRequests()).toEqual([]);
});
