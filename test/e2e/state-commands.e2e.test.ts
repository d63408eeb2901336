/**
 * Pulumi's state commands on stacks of the package, through both doors (the generated classes, and
 * `compute:index:<Kind>` through the provider plugin), through the real engine against the emulator
 * over HTTP. After each command and the matching change of the program: no write, an empty preview.
 * - `pulumi state rename` of a VPC whose subnet depends on it, the program renamed the same way;
 * - `pulumi state delete` of a VPC, then the program adopts it with `adoptId`: a create that sends
 *   nothing, as the object already is what the program says;
 * - `pulumi state move` of a VPC and its subnet to another stack of the project: both stacks preview
 *   empty, and a change made by hand is drift that `pulumi-compute drift` finds in the stack that
 *   now holds them.
 */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { createTestStack, eventRecorder, REPO_ROOT, type TestStack } from "../support/engine";
import { DOORS, resourceThrough } from "../support/plugin-resource";
import { runProcess } from "../support/process";
import { writesSince } from "../support/requests";
import { expectExit } from "../support/user-shell";

jest.setTimeout(900_000);

const REGION = "us-iad";
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});

afterAll(async () => {
  await emulator?.close();
});

/** Resource name → planned operation, `same` omitted. */
function planned(events: EngineEvent[]): Record<string, string> {
  const steps: Record<string, string> = {};
  for (const e of events) {
    const meta = e.resourcePreEvent?.metadata;
    if (meta && !meta.type.startsWith("pulumi:") && meta.op !== "same") steps[meta.urn.split("::").pop()!] = meta.op;
  }
  return steps;
}

describe.each(DOORS)("through the %s", (door) => {
  let client: ComputeClient;
  let token: string;
  let dev: TestStack;
  let other: TestStack;
  /** What the `dev` program declares. */
  const shape = { netName: "net", adopt: undefined as number | undefined, moving: true };
  const name = door === "provider plugin" ? "state-plugin" : "state";

  const make = (kind: string, resource: string, args: object, opts?: pulumi.CustomResourceOptions) =>
    resourceThrough(door, kind, resource, args, opts);
  /** A VPC and its subnet, as both stacks declare them. */
  const pair = () => {
    const moving = make("Vpc", "moving", { label: "moving", region: REGION, description: "moves" });
    make("VpcSubnet", "moving-web", { vpcId: moving.id, label: "web", ipv4: "10.0.3.0/24" });
  };

  /** A preview of `stack` that plans nothing and sends no write. */
  async function expectEmptyPreview(stack: TestStack): Promise<void> {
    const events = eventRecorder();
    const mark = emulator.control.listRequests().length;
    await stack.stack.preview({ onEvent: events.onEvent });
    expect(planned(events.events)).toEqual({});
    expect(writesSince(emulator, mark)).toEqual([]);
  }

  const urnOf = (stack: TestStack, resource: string) => stack.resources().find((r) => r.urn.endsWith(`::${resource}`))!.urn;
  const ok = async (stack: TestStack, args: string[]) => {
    const result = await stack.cli(args);
    expectExit(result, 0);
    return result;
  };

  beforeAll(async () => {
    token = emulator.control.createAccount().token;
    client = new ComputeClient({ baseUrl: emulator.url, token });
    dev = await createTestStack({
      name,
      stackName: "dev",
      apiUrl: emulator.url,
      token,
      program: async () => {
        const net = make("Vpc", shape.netName, { label: "net", region: REGION });
        make("VpcSubnet", "web", { vpcId: net.id, label: "web", ipv4: "10.0.1.0/24" });
        make("Vpc", "solo", { label: "solo", region: REGION, ...(shape.adopt === undefined ? {} : { adoptId: shape.adopt }) });
        if (shape.moving) pair();
      },
    });
    other = await createTestStack({ name, stackName: "other", besides: dev, apiUrl: emulator.url, token, program: async () => pair() });
    const up = await dev.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ create: 6 });
  });

  afterAll(async () => {
    // No destroy: the emulator, and the account with it, goes at the end of the file.
    other?.cleanup();
    dev?.cleanup();
    await client?.close();
  });

  test("`pulumi state rename`, the program renamed the same way: no write, an empty preview", async () => {
    const mark = emulator.control.listRequests().length;
    await ok(dev, ["state", "rename", urnOf(dev, "net"), "network", "--stack", "dev", "--yes"]);
    shape.netName = "network";
    await expectEmptyPreview(dev);
    expect(writesSince(emulator, mark)).toEqual([]);
    expect(dev.resources().some((r) => r.urn.endsWith("::network"))).toBe(true);
  });

  test("`pulumi state delete`, then `adoptId`: the object managed again without a write", async () => {
    const [solo] = await client.vpcs.listAll({ filter: { label: "solo" } });
    await ok(dev, ["state", "delete", urnOf(dev, "solo"), "--stack", "dev", "--yes"]);
    shape.adopt = solo!.id;
    const mark = emulator.control.listRequests().length;
    const up = await dev.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ create: 1 });
    expect(writesSince(emulator, mark)).toEqual([]);
    expect(dev.resources().find((r) => r.urn.endsWith("::solo"))!.id).toBe(String(solo!.id));
    await expectEmptyPreview(dev);
  });

  test("`pulumi state move` to another stack: both preview empty without a write, and drift is found where they now are", async () => {
    const mark = emulator.control.listRequests().length;
    const moved = await ok(dev, [
      "state",
      "move",
      "--source",
      "dev",
      "--dest",
      "other",
      urnOf(dev, "moving"),
      urnOf(dev, "moving-web"),
      "--yes",
    ]);
    expect(moved.out).not.toMatch(/error/i);
    shape.moving = false;
    await expectEmptyPreview(dev);
    await expectEmptyPreview(other);
    expect(writesSince(emulator, mark)).toEqual([]);
    expect(other.resources().filter((r) => /::moving(-web)?$/.test(r.urn))).toHaveLength(2);

    const [vpc] = await client.vpcs.listAll({ filter: { label: "moving" } });
    await client.vpcs.update(vpc!.id, { description: "changed by hand" });
    const drift = await runProcess(
      process.execPath,
      [path.join(REPO_ROOT, "dist/provider/cli/main.js"), "drift", "--cwd", other.workDir, "--stack", "other", "--json"],
      { env: { ...process.env, ...other.env, COMPUTE_TOKEN: token, COMPUTE_API_URL: emulator.url }, timeoutMs: 180_000 },
    );
    expect(drift.code).toBe(2);
    expect(JSON.parse(drift.stdout).drift).toEqual([
      { resource: "moving", type: "Vpc", field: "description", state: "moves", cloud: "changed by hand" },
    ]);
    // The stack that gave them up knows nothing of them.
    expect(dev.resources().some((r) => r.urn.includes("::moving"))).toBe(false);
  });
});
