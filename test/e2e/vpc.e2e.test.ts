/**
 * VPCs end to end through the real Pulumi engine against the emulator over HTTP:
 * up → a clean refresh (the VPC's outputs, recorded before its subnets existed, stay as they were:
 * its subnets are not its outputs) → no-change preview → out-of-band label change → refresh
 * reports exactly that drift →
 * up restores it → region change previews a replacement → destroy leaves no VPC.
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { Vpc, VpcSubnet } from "../../provider";
import { driftFromEvents } from "../../provider/stack/refresh-drift";
import { createTestStack, eventRecorder, stepsByName, type TestStack } from "../support/engine";

jest.setTimeout(240_000);

let emulator: RunningEmulator;
let client: ComputeClient;
let testStack: TestStack;
let region = "us-iad";

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  testStack = await createTestStack({
    name: "vpc",
    apiUrl: emulator.url,
    token: emulator.token,
    program: async () => {
      const vpc = new Vpc("net", { label: "e2e-net", region, description: "end to end" });
      const web = new VpcSubnet("web", { vpcId: vpc.id, label: "web", ipv4: "10.0.1.0/24" });
      const db = new VpcSubnet("db", { vpcId: vpc.id, label: "db", ipv4: "10.0.2.0/24" });
      return { vpcId: vpc.id, webId: web.id, dbId: db.id };
    },
  });
});

afterAll(async () => {
  await testStack?.stack.destroy().catch(() => undefined);
  testStack?.cleanup();
  await client?.close();
  await emulator?.close();
});

test("a VPC with two subnets goes through its whole life", async () => {
  // up
  const up = await testStack.stack.up();
  expect(up.summary.result).toBe("succeeded");
  expect(up.summary.resourceChanges).toMatchObject({ create: 4 }); // the stack, the VPC, two subnets
  const vpcId = Number(up.outputs.vpcId!.value);
  const vpc = await client.vpcs.get(vpcId);
  expect(vpc).toMatchObject({ label: "e2e-net", region: "us-iad", description: "end to end" });
  expect(vpc.subnets.map((s) => s.ipv4).sort()).toEqual(["10.0.1.0/24", "10.0.2.0/24"]);

  // the state file: the token nowhere; a small, implementation-free serialized provider
  const stateText = testStack.stateText();
  expect(stateText).not.toContain(emulator.token);
  const providers = new Set(
    testStack
      .resources()
      .filter((r) => r.type.includes("compute:"))
      .map((r) => r.outputs!.__provider as string),
  );
  expect(providers.size).toBe(2); // one shim per kind: Vpc and VpcSubnet
  for (const text of providers) {
    expect(text.length).toBeLessThan(100);
    expect(text).toContain("require('pulumi-compute/registry')");
    for (const implementationDetail of ["vpcs.create", "safeParse", "zod", "undici", "hooks"])
      expect(text).not.toContain(implementationDetail);
  }
  const [vpcShim, subnetShim] = [...providers].sort((x, y) => x.length - y.length);
  expect(subnetShim!.replace("'VpcSubnet'", "'Vpc'")).toBe(vpcShim); // nothing but the kind differs

  // A clean refresh right after the first up: the VPC was recorded before its subnets existed,
  // and its outputs do not list them (provider/README.md, "What a refresh compares"), so nothing
  // is reported and its outputs stay as recorded.
  const vpcOutputs = () => testStack.resources().find((r) => r.urn.endsWith("::net"))!.outputs!;
  const recorded = vpcOutputs();
  expect(recorded).not.toHaveProperty("subnets");
  const cleanRecorder = eventRecorder();
  const clean = await testStack.stack.refresh({ expectNoChanges: true, onEvent: cleanRecorder.onEvent });
  expect(clean.summary.resourceChanges).toEqual({ same: 4 });
  expect([...stepsByName(cleanRecorder.events).values()].map((step) => step.op)).toEqual(["same", "same", "same"]);
  expect(driftFromEvents(cleanRecorder.events)).toEqual([]);
  expect(vpcOutputs()).toEqual(recorded);

  // preview shows no changes
  const preview = await testStack.stack.preview();
  expect(Object.keys(preview.changeSummary)).toEqual(["same"]);

  // behind Pulumi's back
  await client.vpcs.update(vpcId, { label: "renamed-by-hand" });

  // refresh reports exactly that drift
  const recorder = eventRecorder();
  const refresh = await testStack.stack.refresh({ onEvent: recorder.onEvent });
  expect(refresh.summary.resourceChanges).toMatchObject({ update: 1, same: 3 });
  const steps = stepsByName(recorder.events);
  const netStep = steps.get("net")!;
  expect(netStep.op).toBe("update");
  expect(driftFromEvents(recorder.events)).toEqual([
    { resource: "net", type: "Vpc", field: "label", state: "e2e-net", cloud: "renamed-by-hand" },
  ]);
  for (const name of ["web", "db"]) expect(steps.get(name)!.op).toBe("same");

  // up restores it, in place
  const restore = await testStack.stack.up();
  expect(restore.summary.resourceChanges).toMatchObject({ update: 1, same: 3 });
  expect((await client.vpcs.get(vpcId)).label).toBe("e2e-net");
  expect(Object.keys((await testStack.stack.preview()).changeSummary)).toEqual(["same"]);

  // a region change is a replacement (and the subnets follow their VPC)
  region = "us-ord";
  const replacement = await testStack.stack.preview();
  expect(replacement.changeSummary.replace).toBe(3);
  region = "us-iad";

  // destroy
  const destroyed = await testStack.stack.destroy();
  expect(destroyed.summary.resourceChanges).toMatchObject({ delete: 4 });
  expect(await client.vpcs.listAll()).toEqual([]);
});
