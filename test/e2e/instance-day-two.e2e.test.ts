/**
 * Instances on day two, through the `pulumi` CLI in a project folder as a user runs it (one
 * project, one stack, one emulator whose clock runs 60× so a provisioning takes a second but is
 * still waited for): an `up` killed while two instances provision, recovered by the one command
 * the product names, with one instance per label; the exact preview of a resize and of an
 * interface change (the preview's plan is the up's, its reboot said, the VPC address the program
 * names known to the DNS record that reads it); a label changed by hand found by `pulumi-compute drift` and restored by `up`; and
 * a destroy that leaves nothing.
 */
import * as path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import type { RequestLogEntry } from "../../emulator";
import { REBOOT_FOR_INTERFACES } from "../../provider/resources/instance";
import { REPO_ROOT, plannedSteps as upSteps } from "../support/engine";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { linkedStack, type LinkedStack } from "../support/linked-stack";
import { plannedSteps } from "../support/own-pulumi";
import { killedRun } from "../support/killed-run";
import { runProcess, type ProcessResult } from "../support/process";
import { expectExit } from "../support/user-shell";

jest.setTimeout(600_000);

/** Two instances in a VPC's subnet; the type and web-1's VPC address come from the environment. */
const PROGRAM = `
const compute = require("pulumi-compute");
const net = new compute.Vpc("net", { label: "day2-net", region: "us-iad" });
const subnet = new compute.VpcSubnet("web", { vpcId: net.id, label: "web", ipv4: "10.0.1.0/24" });
const address = process.env.WEB_1_ADDRESS;
const made = ["web-1", "web-2"].map((label) =>
  new compute.Instance(label, {
    label,
    region: "us-iad",
    type: process.env.INSTANCE_TYPE || "g6-nanode-1",
    image: "public/debian12",
    rootPass: "a-day-two-root-password",
    interfaces: [
      { purpose: "public" },
      { purpose: "vpc", subnetId: subnet.id, ...(label === "web-1" && address ? { ipv4: { vpc: address } } : {}) },
    ],
  }),
);
const zone = new compute.Domain("zone", { domain: "day2.example", type: "master", soaEmail: "admin@day2.example" });
new compute.DomainRecord("private-web-1", { domainId: zone.id, type: "A", name: "web-1.private", target: made[0].vpcIpv4 });
exports.web1Address = made[0].vpcIpv4;
`;

let linked: LinkedStack;
/** The program's environment for the round. */
let round: NodeJS.ProcessEnv = {};

beforeAll(async () => {
  linked = await linkedStack({ name: "instance-day-two", program: PROGRAM, timeScale: 60 });
});

afterAll(async () => {
  await linked?.close();
});

const pulumi = (args: string): Promise<ProcessResult> => linked.pulumi(args, round);

/** `pulumi-compute <args>` in the project, as `npx pulumi-compute` runs it. */
const productCommand = (...args: string[]): Promise<ProcessResult> =>
  runProcess(process.execPath, [path.join(REPO_ROOT, "dist/provider/cli/main.js"), ...args], {
    cwd: linked.project,
    env: { ...linked.env, ...round },
    timeoutMs: 300_000,
  });

/** The instances by label, as the API holds them. */
async function instanceLabels(): Promise<string[]> {
  return (await linked.client.computes.instances.listAll()).map((i) => i.label).sort();
}

/** The emulator's writes since the log was cleared, ids as `N`. */
const writes = () =>
  linked.emulator.control
    .listRequests()
    .filter((r) => r.method !== "GET")
    .map((r) => `${r.method} ${r.path.split("?")[0]!.replace(/\d+/g, "N")}`);

/** The preview's JSON and the up's, with the writes the preview sent. */
async function previewThenUp(): Promise<{ preview: PreviewJson; previewWrites: string[]; up: Record<string, string>; upWrites: string[] }> {
  linked.emulator.control.clearRequests();
  const previewed = await pulumi("preview --json");
  expectExit(previewed, 0);
  const previewWrites = writes();
  linked.emulator.control.clearRequests();
  const done = await pulumi("up --yes --skip-preview --json");
  expectExit(done, 0);
  return {
    preview: JSON.parse(previewed.stdout) as PreviewJson,
    previewWrites,
    // `up --json` streams the engine's events, one per line: the steps it took.
    up: upSteps(
      done.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as EngineEvent),
    ),
    upWrites: writes(),
  };
}

interface PreviewJson {
  steps?: Array<{ op: string; urn: string; newState?: { outputs?: Record<string, unknown> } }>;
  diagnostics?: Array<{ urn?: string; message: string; severity: string }>;
}

const stepOf = (json: PreviewJson, name: string) => json.steps?.find((s) => s.urn.endsWith(`::${name}`));
const said = (json: PreviewJson, name: string) =>
  (json.diagnostics ?? []).filter((d) => d.urn?.endsWith(`::${name}`)).map((d) => d.message.trim());

test("an up killed while two instances provision: the one command the product names recovers it, one instance per label", async () => {
  const { emulator } = linked;
  emulator.control.clearRequests();
  // The waits' first polls are held until both instances have been created and are being waited for.
  emulator.control.addFault({ method: "GET", pathPattern: "/v4/compute/instances/*", kind: "latency", latencyMs: 4_000 });
  const polls = (log: RequestLogEntry[]) =>
    new Set(log.filter((r) => r.method === "GET" && /^\/v4\/compute\/instances\/\d+$/.test(r.path.split("?")[0]!)).map((r) => r.path)).size;
  await killedRun({
    args: "up --yes --skip-preview",
    cwd: linked.project,
    env: { ...linked.env, ...round },
    emulator,
    ready: (log) => polls(log) >= 2,
    point: "the instances' waits",
  });
  await delay(5_000); // the held polls are answered to no one
  emulator.control.clearFaults();
  // Both creates had landed, and were being waited for.
  expect(await instanceLabels()).toEqual(["web-1", "web-2"]);

  // The product says the one command to run.
  const drift = await productCommand("drift");
  expectExit(drift, 1);
  expect(drift.out).toMatch(
    /stack dev has 2 pending operation\(s\) \((web-[12] creating(, )?){2}\).*run `npx pulumi-compute recover` first/s,
  );
  emulator.control.clearRequests();
  const recover = await productCommand("recover", "--yes");
  expectExit(recover, 0);
  expect(recover.stdout.split("\n").filter((l) => /^Instance web-[12]: adopted id \d+/.test(l))).toHaveLength(2);
  expect(writes()).toEqual([]);

  // Recovered: the next up makes what the killed one had not reached (the record at web-1's address), no twin, and both run.
  expectExit(await pulumi("up --yes --skip-preview"), 0);
  expectExit(await pulumi("preview --expect-no-changes"), 0);
  const instances = await linked.client.computes.instances.listAll();
  expect(instances.map((i) => [i.label, i.status]).sort()).toEqual([
    ["web-1", "running"],
    ["web-2", "running"],
  ]);
  expect(linked.stateText()).not.toContain("a-day-two-root-password");
});

test("the exact preview of a resize and of an interface change: the up's plan, nothing sent, the reboot said, the address known", async () => {
  round = { INSTANCE_TYPE: "g6-standard-2" };
  const resize = await previewThenUp();
  expect(plannedSteps(JSON.stringify(resize.preview))).toEqual({ "web-1": "update", "web-2": "update" });
  expect(resize.up).toEqual(plannedSteps(JSON.stringify(resize.preview)));
  expect(resize.previewWrites).toEqual([]);
  expect(resize.upWrites.sort()).toEqual(["POST /vN/compute/instances/N/resize", "POST /vN/compute/instances/N/resize"]);
  expect(said(resize.preview, "web-1")).toEqual([expect.stringContaining("the resize takes the instance offline")]);
  for (const i of await linked.client.computes.instances.listAll()) expect(i).toMatchObject({ type: "g6-standard-2", status: "running" });

  round = { ...round, WEB_1_ADDRESS: "10.0.1.50" };
  const readdress = await previewThenUp();
  expect(plannedSteps(JSON.stringify(readdress.preview))).toEqual({ "web-1": "update", "private-web-1": "update" });
  expect(readdress.up).toEqual({ "web-1": "update", "private-web-1": "update" });
  expect(readdress.previewWrites).toEqual([]);
  expect(said(readdress.preview, "web-1")).toEqual([REBOOT_FOR_INTERFACES]);
  // The address the program names is known at preview: the record that reads it plans its new target, not an unknown.
  expect(stepOf(readdress.preview, "private-web-1")).toMatchObject({ op: "update", newState: { inputs: { target: "10.0.1.50" } } });
  expect(readdress.upWrites).toEqual([
    "PUT /vN/compute/instances/N/configs/N",
    "POST /vN/compute/instances/N/reboot",
    "PUT /vN/domains/N/records/N",
  ]);
  const outputs = await pulumi("stack output --json");
  expect(JSON.parse(outputs.stdout)).toEqual({ web1Address: "10.0.1.50" });
  expectExit(await pulumi("preview --expect-no-changes"), 0);
});

test("a label changed by hand: drift finds it, up --refresh restores it; destroy leaves nothing", async () => {
  expectExit(await productCommand("drift"), 0);
  const [web1] = (await linked.client.computes.instances.listAll()).filter((i) => i.label === "web-1");
  await linked.client.computes.instances.update(web1!.id, { label: "renamed-by-hand" });
  const found = await productCommand("drift", "--json");
  expectExit(found, 2);
  expect(JSON.parse(found.stdout).drift).toEqual([
    { resource: "web-1", type: "Instance", field: "label", state: "web-1", cloud: "renamed-by-hand" },
  ]);
  expectExit(await pulumi("up --yes --refresh --skip-preview"), 0);
  expect(await instanceLabels()).toEqual(["web-1", "web-2"]);
  expectExit(await productCommand("drift"), 0);

  expectExit(await pulumi("destroy --yes --skip-preview"), 0);
  expect(await linked.client.computes.instances.listAll()).toEqual([]);
  expect(await linked.client.vpcs.listAll()).toEqual([]);
  expect(await linked.client.domains.listAll()).toEqual([]);
});
