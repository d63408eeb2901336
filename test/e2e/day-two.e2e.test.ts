/**
 * Day two through the real engine: what a user does to a stack in the weeks after its first
 * deploy, and every message of ours followed as written. No object is lost:
 *
 * - a rename without aliases is refused at preview, naming the old resource and the `aliases`
 *   that keep the object; following it plans and does nothing;
 * - `adoptId` followed anyway (the message names it for objects made by hand) adopts the object
 *   under the new name, and the old resource's delete drops it from state only — also when the run
 *   was cut between the adopt and the delete (a run targeted at the new resource leaves exactly
 *   that state), in the next run;
 * - a move of several resources into a component is refused by one preview that names the alias
 *   (`{ parent: pulumi.rootStackResource }`, never a URN with the stack's name) and every other
 *   resource that may have moved with it; pasted unchanged, it works in dev and in staging;
 * - a stack of another backend (a folder the provider never sees) is told that no stack of its
 *   backend manages the VPC and what it cannot see; following it (`adoptId`) and destroying
 *   leaves the first stack's VPC in place;
 * - the same program deployed as a second stack is refused at preview, naming the stack that
 *   manages the object and never `adoptId`; an `adoptId` of that object is refused too; a label
 *   per stack deploys, and destroying the second stack leaves the first's objects;
 * - `ignoreChanges` keeps a value changed by hand after `refresh`, while `up` restores the other
 *   fields;
 * - through the provider plugin (a Pulumi YAML project from a shell): the rename refused at preview
 *   naming the old resource, followed with `pulumi state rename`; `ignoreChanges` after `refresh`.
 *
 * Each preview is held to sending no write (the emulator's request log).
 */
import type { LocalWorkspace, PulumiFn } from "@pulumi/pulumi/automation";
import * as pulumi from "@pulumi/pulumi";
import { Firewall, Vpc, VpcSubnet } from "../../provider";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PROVIDER_PLUGIN_YAML } from "../../provider/launch/plugins";
import { useEmulatedAccount } from "../support/account";
import { eventRecorder, stepsByName, type TestStack } from "../support/engine";
import { writesSince } from "../support/requests";
import { expectExit } from "../support/user-shell";
import { yamlProject, type YamlProject } from "../support/yaml-project";

jest.setTimeout(600_000);

const account = useEmulatedAccount();
/** The quickstart's network: a VPC and a subnet that reads its id. */
function network(name: string, label = "app-net", opts?: pulumi.CustomResourceOptions, adoptId?: number) {
  return async () => {
    const vpc = new Vpc(name, { label, region: "us-iad", ...(adoptId === undefined ? {} : { adoptId }) }, opts);
    new VpcSubnet("data", { vpcId: vpc.id, label: "data", ipv4: "10.0.2.0/24" });
    return { vpcId: vpc.id };
  };
}

const setProgram = (s: TestStack, program: PulumiFn) => ((s.stack.workspace as LocalWorkspace).program = program);
const mark = () => account.emulator.control.listRequests().length;

/** A preview that must fail: its message, after asserting it sent no write. */
async function refusedPreview(s: TestStack): Promise<string> {
  const before = mark();
  const error = await s.stack.preview().then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  expect(error).toBeInstanceOf(Error);
  expect(writesSince(account.emulator, before)).toEqual([]);
  return error!.message.replace(/\s+/g, " ");
}

/** Both objects in the cloud, and a refresh that finds no drift. */
async function intact(s: TestStack, vpcId: number, label: string): Promise<void> {
  expect((await account.client.vpcs.get(vpcId)).label).toBe(label);
  expect((await account.client.vpcs.subnets.listAll(vpcId)).map((x) => x.label)).toEqual(["data"]);
  const refresh = await s.stack.previewRefresh();
  expect(Object.keys(refresh.changeSummary)).toEqual(["same"]);
}

test("a rename: the preview names the old resource and the aliases that keep the VPC; following it changes nothing", async () => {
  const s = await account.stack({ name: "rename", program: network("app") });
  const up = await s.stack.up();
  const vpcId = Number(up.outputs.vpcId!.value);

  setProgram(s, network("network"));
  const message = await refusedPreview(s);
  expect(message).toContain(`label "app-net" is taken by VPC ${vpcId}, which this stack manages as resource "app"`);
  expect(message).toContain('add aliases: [{ name: "app" }] to this resource\'s options');
  expect(message).toContain("pulumi state rename");
  expect(message).not.toContain("adoptId");

  // Followed as written.
  setProgram(s, network("network", "app-net", { aliases: [{ name: "app" }] }));
  const preview = await s.stack.preview();
  expect(preview.changeSummary).toEqual({ same: 3 });
  const before = mark();
  const again = await s.stack.up();
  expect(again.summary.resourceChanges).toEqual({ same: 3 });
  expect(writesSince(account.emulator, before)).toEqual([]);
  expect(s.resources().map((r) => r.urn.split("::").pop())).toEqual(expect.arrayContaining(["network", "data"]));
  await intact(s, vpcId, "app-net");
});

test("adoptId followed anyway: the new name adopts the VPC, the old name's delete drops it from state only, also in the run after a cut", async () => {
  const s = await account.stack({
    name: "adopt-rename",
    program: network("app", "adopt-net"),
  });
  const vpcId = Number((await s.stack.up()).outputs.vpcId!.value);
  const appUrn = s.resources().find((r) => r.urn.endsWith("::app"))!.urn;
  const networkUrn = appUrn.replace(/::app$/, "::network");

  // The run cut between the adopt and the delete: a run targeted at the new resource adopts and stops there.
  setProgram(s, network("network", "adopt-net", undefined, vpcId));
  const cut = await s.stack.up({ target: [networkUrn] });
  expect(cut.summary.resourceChanges).toMatchObject({ create: 1 });
  expect(
    s
      .resources()
      .filter((r) => r.id === String(vpcId))
      .map((r) => r.urn.split("::").pop())
      .sort(),
  ).toEqual(["app", "network"]);

  // The next run: `app` leaves state, the VPC stays, and its row says so.
  const before = mark();
  const events = eventRecorder();
  const next = await s.stack.up({ onEvent: events.onEvent });
  expect(next.summary.resourceChanges).toMatchObject({ delete: 1 });
  expect(writesSince(account.emulator, before)).toEqual([]);
  expect(events.diagnostics()).toContain(`VPC ${vpcId} is managed by resource "network" now: this resource is dropped from state only`);
  expect(
    s
      .resources()
      .filter((r) => r.id === String(vpcId))
      .map((r) => r.urn.split("::").pop()),
  ).toEqual(["network"]);
  await intact(s, vpcId, "adopt-net");
  expect(Object.keys((await s.stack.preview()).changeSummary)).toEqual(["same"]);
});

/** A network, its subnet and a firewall with labels per stack, at the top level or moved into a component with each one's options. */
function estate(moved: boolean, options: (resource: string) => pulumi.CustomResourceOptions = () => ({})) {
  return async () => {
    const stack = pulumi.getStack();
    const parent = moved ? new Estate("estate") : undefined;
    const opts = (resource: string) => ({ ...(parent ? { parent } : {}), ...options(resource) });
    const vpc = new Vpc("app", { label: `estate-${stack}`, region: "us-iad" }, opts("app"));
    new VpcSubnet("data", { vpcId: vpc.id, label: "data", ipv4: "10.0.2.0/24" }, opts("data"));
    new Firewall("fw", { label: `estate-fw-${stack}`, inboundPolicy: "DROP", outboundPolicy: "ACCEPT" }, opts("fw"));
  };
}

class Estate extends pulumi.ComponentResource {
  constructor(name: string) {
    super("acme:network:Estate", name);
    this.registerOutputs({});
  }
}

test("a move of several resources into a component: one preview names every alias, in a form that, pasted, works in every stack", async () => {
  const dev = await account.stack({ name: "estate", stackName: "dev", program: estate(false) });
  await dev.stack.up();
  const staging = await account.stack({ name: "estate", stackName: "staging", besides: dev, program: estate(false) });
  await staging.stack.up();

  setProgram(dev, estate(true));
  const started = Date.now();
  const message = await refusedPreview(dev);
  console.log(`  the move's one refused preview: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  // The first resource the engine checks is refused (the Node SDK registers them in no fixed order); its message names the others.
  const refused = /which this stack manages as resource "([^"]+)"\. If this resource is "\1" moved into or out of a component/.exec(
    message,
  )?.[1];
  expect(["app", "fw"]).toContain(refused);
  // A form that holds in every stack: no URN with this stack's name, and nothing for a stack that holds nobody's object.
  expect(message).not.toContain("urn:pulumi");
  expect(message).not.toContain("adoptId");
  expect(message).not.toContain("recover");

  // The advice pasted unchanged: the alias text as a resource option, on the resource and each one it names.
  const alias = /add (aliases: \[.*?\]) to this resource's options/.exec(message)![1]!;
  expect(alias).toBe("aliases: [{ parent: pulumi.rootStackResource }]");
  const others = [
    ...message
      .split("moved too:")[1]!
      .split(". With them all")[0]!
      .matchAll(/"([^"]+)" \((\w+)\)/g),
  ];
  const named = [refused!, ...others.map((m) => m[1]!)];
  expect(named.sort()).toEqual(["app", "data", "fw"]);
  const pasted = new Function("pulumi", `return { ${alias} };`) as (p: typeof pulumi) => pulumi.CustomResourceOptions;
  const followed = estate(true, (resource) => (named.includes(resource) ? pasted(pulumi) : {}));

  // One preview after it shows the move, in dev and in staging alike: the component is new, nothing else changes.
  for (const s of [dev, staging]) {
    setProgram(s, followed);
    expect((await s.stack.preview()).changeSummary).toEqual({ create: 1, same: 4 });
    const before = mark();
    expect((await s.stack.up()).summary.resourceChanges).toEqual({ create: 1, same: 4 });
    expect(writesSince(account.emulator, before)).toEqual([]);
  }
  const vpcs = (await account.client.vpcs.listAll()).filter((v) => v.label.startsWith("estate-"));
  expect(vpcs.map((v) => v.label).sort()).toEqual(["estate-dev", "estate-staging"]);
});

test("a stack of another backend that follows the messages leaves the first stack's VPC in place", async () => {
  const program = (adoptId?: number) => async () => {
    const vpc = new Vpc("app", { label: "w-kept", region: "us-iad", ...(adoptId === undefined ? {} : { adoptId }) });
    return { vpcId: vpc.id };
  };
  const first = await account.stack({ name: "w-kept", stackName: "dev", program: program() });
  const vpcId = Number((await first.stack.up()).outputs.vpcId!.value);
  // The same project and stack name in another folder: a backend the first's provider never sees.
  const second = await account.stack({ name: "w-kept", stackName: "dev", program: program() });
  expect(second.stateDir).not.toBe(first.stateDir);

  const message = await refusedPreview(second);
  expect(message).toContain(`label "w-kept" is taken by VPC ${vpcId}, which no stack of this backend manages.`);
  expect(message).toContain("The provider reads only this backend's stacks: a stack of another backend");
  expect(message).toContain(`set adoptId: ${vpcId} on this resource`);
  expect(message).toContain("an adopted VPC is released, not deleted, when this resource is deleted or its stack destroyed");

  // Followed as written: the adoptId it names.
  setProgram(second, program(Number(/set adoptId: (\d+)/.exec(message)![1])));
  const preview = eventRecorder();
  await second.stack.preview({ onEvent: preview.onEvent });
  expect(preview.diagnostics()).toContain(
    `adopts VPC ${vpcId}: a delete of this resource (pulumi destroy, or removing it from the program) releases`,
  );
  const before = mark();
  await second.stack.up();
  const destroy = eventRecorder();
  await second.stack.destroy({ onEvent: destroy.onEvent });
  expect(writesSince(account.emulator, before)).toEqual([]);
  expect(destroy.diagnostics()).toContain(`VPC ${vpcId} was adopted (adoptId), not created by this stack: released, the VPC stays`);

  // The first stack's VPC is where it was, and its stack sees no change.
  expect((await account.client.vpcs.get(vpcId)).label).toBe("w-kept");
  expect(Object.keys((await first.stack.previewRefresh()).changeSummary)).toEqual(["same"]);
  expect(Object.keys((await first.stack.preview()).changeSummary)).toEqual(["same"]);
});

test("a second stack of the same program never takes the first's VPC, whatever it follows", async () => {
  const dev = await account.stack({
    name: "stacks",
    stackName: "dev",
    program: network("app", "shared-net"),
  });
  const vpcId = Number((await dev.stack.up()).outputs.vpcId!.value);
  const staging = await account.stack({
    name: "stacks",
    stackName: "staging",
    besides: dev,
    program: network("app", "shared-net"),
  });

  const message = await refusedPreview(staging);
  expect(message).toContain(`label "shared-net" is taken by VPC ${vpcId}, which stack "dev" manages as resource "app"`);
  expect(message).toContain("Do not set adoptId to it");
  expect(message).toContain("pulumi.getStack()");

  // adoptId anyway: refused at preview, naming the stack.
  setProgram(staging, network("app", "shared-net", undefined, vpcId));
  const adopted = await refusedPreview(staging);
  expect(adopted).toContain(
    `property adoptId value {${vpcId}} has a problem: VPC ${vpcId} is managed by stack "dev" as resource "app": two stacks must not manage one VPC`,
  );
  // And at up, which checks again before anything is written.
  const before = mark();
  await expect(staging.stack.up()).rejects.toThrow(/managed by stack "dev"/);
  expect(writesSince(account.emulator, before)).toEqual([]);

  // A label per stack, as the message says: deployed, then destroyed, and dev's VPC stays.
  setProgram(staging, async () => network("app", `shared-net-${pulumi.getStack()}`)());
  await staging.stack.up();
  await staging.stack.destroy();
  await intact(dev, vpcId, "shared-net");
});

test("ignoreChanges holds after a refresh; up still restores the other fields", async () => {
  const program = async () => {
    const vpc = new Vpc("app", { label: "kept-net", region: "us-iad", description: "the program's" }, { ignoreChanges: ["description"] });
    return { vpcId: vpc.id };
  };
  const s = await account.stack({ name: "ignore", program });
  const vpcId = Number((await s.stack.up()).outputs.vpcId!.value);
  await account.client.vpcs.update(vpcId, { description: "set by hand", label: "renamed-by-hand" });

  const refreshed = await s.stack.refresh();
  expect(refreshed.summary.resourceChanges).toMatchObject({ update: 1 });
  const recorded = s.resources().find((r) => r.urn.endsWith("::app"))!;
  expect(recorded.inputs).toMatchObject({ description: "set by hand", label: "renamed-by-hand" });

  const events = eventRecorder();
  const before = mark();
  await s.stack.up({ onEvent: events.onEvent });
  // The label is restored, the description is left as it was set by hand.
  expect(writesSince(account.emulator, before)).toEqual([`PUT /v4/vpcs/${vpcId}`]);
  expect(stepsByName(events.events).get("app")?.op).toBe("update");
  const vpc = await account.client.vpcs.get(vpcId);
  expect([vpc.label, vpc.description]).toEqual(["kept-net", "set by hand"]);
  expect(Object.keys((await s.stack.preview()).changeSummary)).toEqual(["same"]);
});

/** A YAML program's network, `name` the VPC's resource name; `ignore` the VPC's ignoreChanges. */
const yamlNetwork = (name: string, ignore: string[] = []) =>
  [
    "name: day-two-yaml",
    "runtime: yaml",
    PROVIDER_PLUGIN_YAML.trimEnd(),
    "resources:",
    `  ${name}:`,
    "    type: compute:index:Vpc",
    "    properties: { label: yaml-day-two, region: us-iad, description: from yaml }",
    ...(ignore.length > 0 ? [`    options: { ignoreChanges: [${ignore.join(", ")}] }`] : []),
    "  data:",
    "    type: compute:index:VpcSubnet",
    `    properties: { vpcId: "\${${name}.id}", label: data, ipv4: 10.0.2.0/24 }`,
    "outputs:",
    `  vpcId: \${${name}.id}`,
    "",
  ].join("\n");

test("through the provider plugin: a rename refused at preview and kept by `pulumi state rename`; ignoreChanges after refresh", async () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-e2e-day-two-yaml-"));
  try {
    const project = yamlProject(base, yamlNetwork("app"));
    const ok = async (command: string) => {
      const result = await project.shell(command);
      expectExit(result, 0);
      return result;
    };
    await ok("pulumi stack init dev --non-interactive");
    await ok(`pulumi config set compute:apiUrl ${account.emulator.url}`);
    await ok(`pulumi config set --secret compute:token ${account.emulator.token}`);
    await ok("pulumi up --yes --skip-preview --non-interactive");
    const vpcId = Number(JSON.parse((await ok("pulumi stack output --json")).stdout).vpcId);

    fs.writeFileSync(path.join(project.dir, "Pulumi.yaml"), yamlNetwork("network"));
    let before = mark();
    const refused = await project.shell("pulumi preview --non-interactive");
    expect(refused.code).not.toBe(0);
    expect(writesSince(account.emulator, before)).toEqual([]);
    expect(refused.out.replace(/\s+/g, " ")).toContain(
      `label "yaml-day-two" is taken by VPC ${vpcId}, which this stack manages as resource "app"`,
    );
    const urn = ((await yamlState(project)).find((r) => r.urn.endsWith("::app")) ?? { urn: "" }).urn;
    await ok(`pulumi state rename --yes '${urn}' network`);
    before = mark();
    await ok("pulumi preview --expect-no-changes --non-interactive");
    expect(writesSince(account.emulator, before)).toEqual([]);

    fs.writeFileSync(path.join(project.dir, "Pulumi.yaml"), yamlNetwork("network", ["description"]));
    await ok("pulumi up --yes --skip-preview --non-interactive");
    await account.client.vpcs.update(vpcId, { description: "set by hand", label: "renamed-by-hand" });
    await ok("pulumi refresh --yes --skip-preview --non-interactive");
    before = mark();
    await ok("pulumi up --yes --skip-preview --non-interactive");
    expect(writesSince(account.emulator, before)).toEqual([`PUT /v4/vpcs/${vpcId}`]);
    const vpc = await account.client.vpcs.get(vpcId);
    expect([vpc.label, vpc.description]).toEqual(["yaml-day-two", "set by hand"]);
    await ok("pulumi preview --expect-no-changes --non-interactive");
    await ok("pulumi destroy --yes --skip-preview --non-interactive");
    expect(await account.client.vpcs.listAll({ filter: { label: "yaml-day-two" } })).toEqual([]);
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
});

/** The resources of the YAML project's stack `dev`, from its state file. */
async function yamlState(project: YamlProject): Promise<Array<{ urn: string; id?: string }>> {
  const file = path.join(project.dir, "state/.pulumi/stacks/day-two-yaml/dev.json");
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { checkpoint: { latest: { resources: Array<{ urn: string; id?: string }> } } })
    .checkpoint.latest.resources;
}
