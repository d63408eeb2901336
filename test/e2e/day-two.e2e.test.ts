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
 * - a move into a component is refused the same way, naming the alias by the old URN;
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
import { Vpc, VpcSubnet } from "../../provider";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PROVIDER_PLUGIN_YAML } from "../../provider/project/plugins";
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

/** The network inside a component, as a refactor moves it. */
class Net extends pulumi.ComponentResource {
  constructor(name: string, vpcOptions: (self: pulumi.Resource) => pulumi.CustomResourceOptions) {
    super("acme:network:Net", name);
    const vpc = new Vpc("app", { label: "move-net", region: "us-iad" }, vpcOptions(this));
    new VpcSubnet(
      "data",
      { vpcId: vpc.id, label: "data", ipv4: "10.0.2.0/24" },
      { parent: this, aliases: [{ parent: pulumi.rootStackResource }] },
    );
  }
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

test("a move into a component: the preview names the alias by the old URN; following it changes nothing", async () => {
  const s = await account.stack({ name: "move", program: network("app", "move-net") });
  const vpcId = Number((await s.stack.up()).outputs.vpcId!.value);
  const oldUrn = s.resources().find((r) => r.urn.endsWith("::app"))!.urn;

  setProgram(s, async () => {
    new Net("net", (self) => ({ parent: self }));
  });
  const message = await refusedPreview(s);
  expect(message).toContain(`which this stack manages as resource "app"`);
  expect(message).toContain(`add aliases: [${JSON.stringify(oldUrn)}] to this resource's options`);

  setProgram(s, async () => {
    new Net("net", (self) => ({ parent: self, aliases: [oldUrn] }));
  });
  const preview = await s.stack.preview();
  expect(preview.changeSummary).toEqual({ create: 1, same: 3 }); // the component alone is new
  const before = mark();
  await s.stack.up();
  expect(writesSince(account.emulator, before)).toEqual([]);
  await intact(s, vpcId, "move-net");
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
