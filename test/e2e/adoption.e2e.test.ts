/**
 * Adoption through the real engine: a VPC made outside Pulumi, with subnets of its own, is adopted
 * with `adoptId`; its subnets are read with the data function `getVpcSubnets` (a VPC has no
 * `subnets` output); the first refresh after it reports no change at all. The stack did not create
 * it, so destroy releases it (it stays, and the destroy's row says so); with `deleteAdopted: true`,
 * recorded by an `up` that sends nothing, destroy deletes it.
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { Vpc, getVpcSubnets } from "../../provider";
import { driftFromEvents } from "../../provider/stack/refresh-drift";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { createTestStack, eventRecorder, type TestStack } from "../support/engine";

jest.setTimeout(240_000);

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

test("a VPC with subnets, adopted: the first refresh shows no change", async () => {
  const existing = await client.vpcs.create({
    label: "made-elsewhere",
    region: "us-iad",
    subnets: [
      { label: "a", ipv4: "10.0.1.0/24" },
      { label: "b", ipv4: "10.0.2.0/24" },
    ],
  });
  testStack = await createTestStack({
    name: "adoption",
    apiUrl: emulator.url,
    token: emulator.token,
    program: async () => {
      const vpc = new Vpc("net", { adoptId: existing.id, label: "made-elsewhere", region: "us-iad" });
      return { subnets: vpc.id.apply((vpcId) => getVpcSubnets({ vpcId })) };
    },
  });
  const up = await testStack.stack.up();
  expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
  expect(up.outputs.subnets!.value).toEqual([
    expect.objectContaining({ label: "a", ipv4: "10.0.1.0/24" }),
    expect.objectContaining({ label: "b", ipv4: "10.0.2.0/24" }),
  ]);

  const refresh = eventRecorder();
  const refreshed = await testStack.stack.refresh({ onEvent: refresh.onEvent });
  expect(refreshed.summary.resourceChanges).toEqual({ same: 2 });
  expect(driftFromEvents(refresh.events)).toEqual([]);
  expect(Object.keys((await testStack.stack.preview()).changeSummary)).toEqual(["same"]);

  const mark = emulator.control.listRequests().length;
  const writes = () =>
    emulator.control
      .listRequests()
      .slice(mark)
      .filter((r) => r.method !== "GET")
      .map((r) => `${r.method} ${r.path}`);
  const destroy = eventRecorder();
  await testStack.stack.destroy({ onEvent: destroy.onEvent });
  expect(writes()).toEqual([]);
  expect(destroy.diagnostics()).toContain(`VPC ${existing.id} was adopted (adoptId), not created by this stack: released, the VPC stays`);
  expect((await client.vpcs.listAll()).map((v) => v.label)).toEqual(["made-elsewhere"]);
});

test("deleteAdopted: true, added after the adoption, is recorded by an up that sends nothing; destroy then deletes the VPC", async () => {
  const [existing] = await client.vpcs.listAll({ filter: { label: "made-elsewhere" } });
  const program = (deleteAdopted?: boolean) => async () => {
    new Vpc("net", { adoptId: existing!.id, label: "made-elsewhere", region: "us-iad", ...(deleteAdopted ? { deleteAdopted } : {}) });
  };
  testStack?.cleanup();
  testStack = await createTestStack({ name: "adoption-delete", apiUrl: emulator.url, token: emulator.token, program: program() });
  await testStack.stack.up();
  (testStack.stack.workspace as LocalWorkspace).program = program(true);
  const preview = await testStack.stack.preview();
  expect(preview.changeSummary).toEqual({ same: 1, update: 1 });
  const mark = emulator.control.listRequests().length;
  await testStack.stack.up();
  expect(emulator.control.listRequests().slice(mark)).toEqual([]);
  expect(Object.keys((await testStack.stack.preview()).changeSummary)).toEqual(["same"]);
  await testStack.stack.destroy();
  expect(await client.vpcs.listAll()).toEqual([]);
});
