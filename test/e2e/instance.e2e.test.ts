/**
 * A workload through the real engine with the TypeScript classes, the emulator's clock jumped by the
 * provider's waits (provisioning costs no wall time): a VPC and its subnet, a firewall attached by
 * a `FirewallDevice` to an `Instance` with a `vpc` interface, and a DNS record at its address. One
 * stack, in rounds: the exact preview of a resize and of an interface change (preview steps == up
 * steps, no write at preview), a label changed by hand found by `pulumi-compute drift` and restored
 * by `up --refresh`, and a destroy that leaves nothing.
 */
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { Domain, DomainRecord, Firewall, FirewallDevice, Instance, Vpc, VpcSubnet } from "../../provider";
import { REPO_ROOT, createTestStack, eventRecorder, plannedSteps, type TestStack } from "../support/engine";
import { runProcess } from "../support/process";
import { writesSince } from "../support/requests";

jest.setTimeout(300_000);

let emulator: RunningEmulator;
let client: ComputeClient;
let testStack: TestStack;
/** The program's instance arguments that change round by round. */
let shape = { type: "g6-nanode-1", address: undefined as string | undefined, label: "web-1" };
/** Set: the program is only an instance brought in by Pulumi's `import` option (no root password). */
let importId: string | undefined;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  testStack = await createTestStack({
    name: "instance",
    apiUrl: emulator.url,
    token: emulator.token,
    credentials: "env",
    ephemeral: { checkpoints: false, clock: emulator.emulator.clock },
    program: async () => {
      if (importId !== undefined) {
        new Instance("found", { label: "found-1", region: "us-iad", type: "g6-nanode-1", image: "public/debian12" }, { import: importId });
        return {};
      }
      const vpc = new Vpc("net", { label: "web-net", region: "us-iad" });
      const subnet = new VpcSubnet("web", { vpcId: vpc.id, label: "web", ipv4: "10.0.1.0/24" });
      const edge = new Firewall("edge", { label: "web-edge", inboundPolicy: "DROP", outboundPolicy: "ACCEPT" });
      const web = new Instance("web-1", {
        label: shape.label,
        region: "us-iad",
        type: shape.type,
        image: "public/debian12",
        rootPass: "an-e2e-root-password",
        tags: ["web"],
        interfaces: [
          { purpose: "public" },
          { purpose: "vpc", subnetId: subnet.id, ...(shape.address !== undefined && { ipv4: { vpc: shape.address } }) },
        ],
      });
      new FirewallDevice("edge-web-1", { firewallId: edge.id, entityId: web.id, entityType: "compute" });
      const zone = new Domain("zone", { domain: "web.example", type: "master", soaEmail: "admin@web.example" });
      new DomainRecord("www", { domainId: zone.id, type: "A", name: "www", target: web.ipv4.apply((a) => a[0]!) });
      return { vpcAddress: web.vpcIpv4, vcpus: web.specs.apply((s) => s.vcpus) };
    },
  });
});

afterAll(async () => {
  await testStack?.stack.destroy().catch(() => undefined);
  testStack?.cleanup();
  await client?.close();
  await emulator?.close();
});

/** A preview, then an up: what each planned, and the writes the preview sent. */
async function previewThenUp(): Promise<{ previewed: Record<string, string>; done: Record<string, string>; previewWrites: string[] }> {
  const mark = emulator.control.listRequests().length;
  const previewEvents = eventRecorder();
  await testStack.stack.preview({ onEvent: previewEvents.onEvent });
  const previewWrites = writesSince(emulator, mark);
  const upEvents = eventRecorder();
  const up = await testStack.stack.up({ onEvent: upEvents.onEvent });
  expect(up.summary.result).toBe("succeeded");
  return { previewed: plannedSteps(previewEvents.events), done: plannedSteps(upEvents.events), previewWrites };
}

const drift = (...args: string[]) =>
  runProcess(
    process.execPath,
    [path.join(REPO_ROOT, "dist/provider/cli/main.js"), "drift", "--cwd", testStack.workDir, "--stack", "test", ...args],
    {
      env: { ...process.env, ...testStack.env, COMPUTE_TOKEN: emulator.token, COMPUTE_API_URL: emulator.url },
      timeoutMs: 120_000,
    },
  );

test("the workload's life: up, an exact preview of a resize and of an interface change, drift restored, destroy leaves nothing", async () => {
  const first = await testStack.stack.up();
  expect(first.summary.result).toBe("succeeded");
  expect(first.outputs.vpcAddress!.value).toBe("10.0.1.2");
  const [instance] = await client.computes.instances.listAll();
  expect(instance).toMatchObject({ label: "web-1", status: "running", type: "g6-nanode-1", tags: ["web"] });
  const [zone] = await client.domains.listAll();
  const records = await client.domains.records.listAll(zone!.id);
  expect(records.find((r) => r.name === "www")).toMatchObject({ type: "A", target: instance!.ipv4[0] });
  const [firewall] = await client.networking.firewalls.listAll();
  expect((await client.networking.firewalls.devices.listAll(firewall!.id)).map((d) => d.entity.id)).toEqual([instance!.id]);

  // A resize: the instance is updated in place (its address unchanged: the record stays).
  shape = { ...shape, type: "g6-standard-2" };
  const resize = await previewThenUp();
  expect(resize).toEqual({ previewed: { "web-1": "update" }, done: { "web-1": "update" }, previewWrites: [] });
  expect(await client.computes.instances.get(instance!.id)).toMatchObject({
    type: "g6-standard-2",
    status: "running",
    specs: { vcpus: 2 },
  });

  // An interface change: the vpc interface takes the address the program names (a reboot applies it).
  shape = { ...shape, address: "10.0.1.50" };
  const readdress = await previewThenUp();
  expect(readdress).toEqual({ previewed: { "web-1": "update" }, done: { "web-1": "update" }, previewWrites: [] });
  const outputs = await testStack.stack.outputs();
  expect(outputs.vpcAddress!.value).toBe("10.0.1.50");
  expect((await client.computes.instances.get(instance!.id)).status).toBe("running");
  expect(
    emulator.control.listRequests().some((r) => r.method === "POST" && r.path.endsWith(`/compute/instances/${instance!.id}/reboot`)),
  ).toBe(true);

  // A label changed by hand: drift names it, and `up --refresh` restores it.
  expect((await drift()).code).toBe(0);
  await client.computes.instances.update(instance!.id, { label: "renamed-by-hand" });
  const found = await drift("--json");
  expect(found.code).toBe(2);
  expect(JSON.parse(found.out).drift).toEqual([
    { resource: "web-1", type: "Instance", field: "label", state: "web-1", cloud: "renamed-by-hand" },
  ]);
  const restore = await testStack.stack.up({ refresh: true });
  expect(restore.summary.resourceChanges).toMatchObject({ update: 1 });
  expect((await client.computes.instances.get(instance!.id)).label).toBe("web-1");

  // The root password is recorded as a secret: never in the state in the clear.
  expect(testStack.stateText()).not.toContain("an-e2e-root-password");

  await testStack.stack.destroy();
  expect(await client.computes.instances.listAll()).toEqual([]);
  expect(await client.vpcs.listAll()).toEqual([]);
  expect(await client.networking.firewalls.listAll()).toEqual([]);
  expect(await client.domains.listAll()).toEqual([]);
});

test("a replacement is a create: `--replace` of an imported instance without its root password is refused at preview, naming rootPass, with nothing sent", async () => {
  const found = await client.computes.instances.create({
    label: "found-1",
    region: "us-iad",
    type: "g6-nanode-1",
    image: "public/debian12",
    root_pass: "a-password-set-by-hand",
  });
  importId = String(found.id);
  const imported = await testStack.stack.up();
  expect(imported.summary.resourceChanges).toMatchObject({ import: 1 });
  await testStack.stack.preview({ expectNoChanges: true });

  // The check sees the old object (nothing deploys), but the replacement creates a new one from the image.
  const mark = emulator.control.listRequests().length;
  const urn = (await testStack.stack.exportStack()).deployment.resources.find((r: { urn: string }) => r.urn.endsWith("::found")).urn;
  const refused = await testStack.stack.preview({ replace: [urn] }).then(
    () => "",
    (error: Error) => String(error),
  );
  expect(refused).toMatch(/rootPass: required when this up deploys the instance from its image/);
  expect(writesSince(emulator, mark)).toEqual([]);
  expect((await client.computes.instances.get(found.id)).label).toBe("found-1");
});
