/**
 * VPCs end to end through the real Pulumi engine against the emulator over HTTP:
 * up → no-change preview → out-of-band label change → refresh reports exactly that drift →
 * up restores it → region change previews a replacement → destroy leaves no VPC.
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { Vpc, VpcSubnet } from "../../provider";
import { managedDrift, specForType } from "../../provider/engine/drift";
import { createTestStack, eventRecorder, stepsByName, type TestStack } from "../support/engine";

jest.setTimeout(240_000);

let emulator: RunningEmulator;
let client: ComputeClient;
let test: TestStack;
let region = "us-iad";

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  test = await createTestStack({
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
  await test?.stack.destroy().catch(() => undefined);
  test?.cleanup();
  await client?.close();
  await emulator?.close();
});

test("a VPC with two subnets goes through its whole life", async () => {
  // up
  const up = await test.stack.up();
  expect(up.summary.result).toBe("succeeded");
  expect(up.summary.resourceChanges).toMatchObject({ create: 4 }); // the stack, the VPC, two subnets
  const vpcId = Number(up.outputs.vpcId!.value);
  const vpc = await client.vpcs.get(vpcId);
  expect(vpc).toMatchObject({ label: "e2e-net", region: "us-iad", description: "end to end" });
  expect(vpc.subnets.map((s) => s.ipv4).sort()).toEqual(["10.0.1.0/24", "10.0.2.0/24"]);

  // preview shows no changes
  const preview = await test.stack.preview();
  expect(Object.keys(preview.changeSummary)).toEqual(["same"]);

  // behind Pulumi's back
  await client.vpcs.update(vpcId, { label: "renamed-by-hand" });

  // refresh reports exactly that drift
  const recorder = eventRecorder();
  const refresh = await test.stack.refresh({ onEvent: recorder.onEvent });
  expect(refresh.summary.resourceChanges).toMatchObject({ update: 1, same: 3 });
  const steps = stepsByName(recorder.events);
  const netStep = steps.get("net")!;
  expect(netStep.op).toBe("update");
  const drift = managedDrift(specForType("pulumi-nodejs:dynamic/compute:Vpc")!, netStep.old!, netStep.new!);
  expect(drift).toEqual([{ field: "label", state: "e2e-net", cloud: "renamed-by-hand" }]);
  for (const name of ["web", "db"]) expect(steps.get(name)!.op).toBe("same");

  // up restores it, in place
  const restore = await test.stack.up();
  expect(restore.summary.resourceChanges).toMatchObject({ update: 1, same: 3 });
  expect((await client.vpcs.get(vpcId)).label).toBe("e2e-net");
  expect(Object.keys((await test.stack.preview()).changeSummary)).toEqual(["same"]);

  // a region change is a replacement (and the subnets follow their VPC)
  region = "us-ord";
  const replacement = await test.stack.preview();
  expect(replacement.changeSummary.replace).toBe(3);
  region = "us-iad";

  // destroy
  const destroyed = await test.stack.destroy();
  expect(destroyed.summary.resourceChanges).toMatchObject({ delete: 4 });
  expect(await client.vpcs.listAll()).toEqual([]);
});
