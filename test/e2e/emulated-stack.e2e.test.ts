/**
 * `emulatedStack` through the real engine: the README's program made, changed behind Pulumi's back
 * through the sdk client, the drift seen and repaired, destroyed, leaving nothing in the emulator;
 * a project folder run from a workspace of its own (the folder left as it was); faults injected
 * through the control API and ridden out; `dispose` in the middle of an `up` stops it, and no
 * process or file of the stack is left; results taken from the engine's events, as the CLI's reads
 * would give them.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type { PulumiCommand, UpdateSummary } from "@pulumi/pulumi/automation";
import * as compute from "../../provider";
import { pulumiCommand } from "../../provider/stack/pulumi-cli";
import { emulatedStack, type EmulatedStack } from "../../provider/testing";
import { MARKER_ENV, processesOf } from "../../provider/testing/marked";
import { PLUGINS_YAML } from "../../provider/launch/plugins";
import { REPO_ROOT } from "../support/engine";
import { readmeInlineProgram } from "../support/readme-program";

// Each test drives the engine and a provider process; a database is provisioned at the emulator's fast clock.
jest.setTimeout(300_000);

/** The stack's folder, from the environment it gives every process it starts. */
const folderOf = (stack: EmulatedStack) => (stack.stack.workspace.envVars as Record<string, string>)[MARKER_ENV]!;

test("the README's program: up, the cloud as it is, drift made through the sdk client and repaired, destroy leaves nothing", async () => {
  const stack = await emulatedStack(readmeInlineProgram);
  const folder = folderOf(stack);
  try {
    const up = await stack.up();
    // The VPC, two subnets, the firewall, the app's two instances, the zone and a record each, the
    // database, and the stack.
    expect(up.summary.resourceChanges).toEqual({ create: 11 });
    const [db] = await stack.client.databases.mysql.listAll();
    expect(db).toMatchObject({ label: "app-db", status: "active", allow_list: ["10.0.2.0/24", "10.0.1.11", "10.0.1.12"] });
    expect(await stack.outputs()).toEqual({ dbHost: db!.hosts.primary, dbPort: 3306, dbPassword: expect.any(String) });
    expect(up.outputs.dbPassword!.secret).toBe(true);
    expect(up.summary.result).toBe("succeeded");
    // Secrets are encrypted in what the stack writes, under the key service's key: the token and
    // the password appear in neither the state nor the config, as ciphertexts only.
    const written = [
      fs.readFileSync(path.join(folder, "state/.pulumi/stacks/emulated/test.json"), "utf8"),
      fs.readFileSync(path.join(folder, "work/Pulumi.test.yaml"), "utf8"),
    ].join("\n");
    expect(written).toContain("hashivault://emulated-stack");
    expect(written).toContain("ciphertext");
    expect(written).not.toContain(stack.token);
    expect(written).not.toContain(String((await stack.outputs()).dbPassword));

    const [vpc] = await stack.client.vpcs.listAll();
    await stack.client.vpcs.update(vpc!.id, { label: "changed-by-hand" });
    expect(await stack.drift()).toEqual([{ resource: "app", type: "Vpc", field: "label", state: "app-net", cloud: "changed-by-hand" }]);
    const refresh = await stack.refresh();
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
    const repair = await stack.up();
    expect(repair.summary.resourceChanges).toMatchObject({ update: 1 });
    expect((await stack.client.vpcs.get(vpc!.id)).label).toBe("app-net");
    expect(await stack.drift()).toEqual([]);

    await stack.destroy();
    expect({ vpcs: await stack.client.vpcs.listAll(), databases: await stack.client.databases.mysql.listAll() }).toEqual({
      vpcs: [],
      databases: [],
    });
  } finally {
    await stack.dispose();
  }
  expect(fs.existsSync(folder)).toBe(false);
  expect(processesOf(folder)).toEqual([]);
  await expect(stack.up()).rejects.toThrow(/disposed/);
});

test("a project folder runs from a workspace of its own, its plugin declaration honoured, the folder left as it was", async () => {
  const suiteCompileCache = process.env.NODE_COMPILE_CACHE;
  const project = fs.mkdtempSync(path.join(os.tmpdir(), "pc-folder-project-"));
  try {
    fs.writeFileSync(
      path.join(project, "Pulumi.yaml"),
      `name: folder-project\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n${PLUGINS_YAML}`,
    );
    fs.writeFileSync(
      path.join(project, "index.js"),
      'const compute = require("pulumi-compute");\nconst vpc = new compute.Vpc("app", { label: "folder-net", region: "us-iad" });\nexports.vpcId = vpc.id;\nexports.compileCache = process.env.NODE_COMPILE_CACHE;\n',
    );
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(project, "node_modules"));
    const before = fs.readdirSync(project).sort();
    // The suite gives every process Node's compile cache (scripts/run.sh): here, as in a user's
    // project, only emulatedStack's own choice reaches the program.
    delete process.env.NODE_COMPILE_CACHE;

    await using stack = await emulatedStack(project, { stackName: "dev" });
    const up = await stack.up();
    const [vpc] = await stack.client.vpcs.listAll();
    expect(up.outputs.vpcId!.value).toBe(String(vpc!.id));
    expect(vpc!.label).toBe("folder-net");
    // The program's process compiles through Node's cache, in the node_modules that holds its @pulumi/pulumi.
    expect(up.outputs.compileCache!.value).toBe(path.join(REPO_ROOT, "node_modules/.cache/pulumi-compute/compile"));
    // A preview right after the up changes nothing: exact, through the package's launcher.
    expect((await stack.preview()).changeSummary).toEqual({ same: 2 });
    await stack.destroy();
    expect(fs.readdirSync(project).sort()).toEqual(before);
  } finally {
    if (suiteCompileCache !== undefined) process.env.NODE_COMPILE_CACHE = suiteCompileCache;
    fs.rmSync(project, { recursive: true, force: true });
  }
});

test("a backend the user's shell names (PULUMI_BACKEND_URL, as CI sets for a team's state) is never touched: the stack keeps to its own folder", async () => {
  const theirs = fs.mkdtempSync(path.join(os.tmpdir(), "pc-users-backend-"));
  const shell = process.env.PULUMI_BACKEND_URL;
  process.env.PULUMI_BACKEND_URL = `file://${theirs}`;
  try {
    const stack = await emulatedStack(async () => ({ made: "here" }));
    const folder = folderOf(stack);
    try {
      expect((await stack.up()).outputs.made!.value).toBe("here");
      expect(fs.existsSync(path.join(folder, "state/.pulumi/stacks/emulated/test.json"))).toBe(true);
    } finally {
      await stack.dispose();
    }
    // Nothing was written there, so nothing of the test is left in it after dispose.
    expect(fs.readdirSync(theirs)).toEqual([]);
  } finally {
    if (shell === undefined) delete process.env.PULUMI_BACKEND_URL;
    else process.env.PULUMI_BACKEND_URL = shell;
    fs.rmSync(theirs, { recursive: true, force: true });
  }
});

test("faults injected through the control API are ridden out, and their hits counted", async () => {
  await using stack = await emulatedStack(async () => {
    new compute.Vpc("app", { label: "app-net", region: "us-iad" });
  });
  const fault = stack.control.addFault({ pathPattern: "/v4/vpcs", method: "POST", kind: "503", count: 2 });
  await stack.up();
  expect(stack.control.listFaults().find((f) => f.id === fault.id)).toMatchObject({ fired: 2 });
  expect((await stack.client.vpcs.listAll()).map((v) => v.label)).toEqual(["app-net"]);
});

test("dispose in the middle of an up stops it: no process and no file of the stack is left", async () => {
  // Real timing: the database provisions for minutes, so the up is surely running when dispose comes.
  const stack = await emulatedStack(readmeInlineProgram, { timeScale: 1 });
  const folder = folderOf(stack);
  const up = stack.up();
  // Until the provider process has started (the engine, the program, the plugin are all up).
  for (let i = 0; i < 600 && (await stack.client.databases.mysql.listAll()).length === 0; i++) await new Promise((r) => setTimeout(r, 100));
  expect(processesOf(folder).length).toBeGreaterThanOrEqual(2);
  await stack.dispose();
  await expect(up).rejects.toThrow();
  expect(processesOf(folder)).toEqual([]);
  expect(fs.existsSync(folder)).toBe(false);
});

/** The CLI, each call's first two words (`up`, `stack output`) counted into `calls`. */
function countedCommand(base: PulumiCommand, calls: string[]): PulumiCommand {
  type Runner = { run(args: string[], ...rest: unknown[]): Promise<unknown> };
  const counted = Object.create(base) as PulumiCommand & Runner;
  counted.run = (args, ...rest) => {
    calls.push(args[0] === "stack" ? args.slice(0, 2).join(" ") : args[0]!);
    return (base as unknown as Runner).run.call(base, args, ...rest);
  };
  return counted;
}

test("results from the engine's events: the summaries and outputs the CLI's reads give, read only when an output is secret", async () => {
  let label = "events-net";
  let secret = false;
  const calls: string[] = [];
  await using stack = await emulatedStack(
    async () => {
      const vpc = new compute.Vpc("net", { label, region: "us-iad" });
      return { vpcId: vpc.id, nested: { label: vpc.label, list: [1, 2] }, ...(secret ? { token: pulumi.secret("s3cret") } : {}) };
    },
    { pulumiCommand: countedCommand(await pulumiCommand(), calls) },
  );
  /** The parts of a summary the engine's events hold, which the CLI's last history entry must match. */
  const said = (summary: UpdateSummary) => ({
    kind: summary.kind,
    result: summary.result,
    resourceChanges: summary.resourceChanges,
    version: summary.version,
  });
  const asTheCli = async (summary: UpdateSummary) => {
    const [last] = await stack.stack.history(1);
    expect(said(summary)).toEqual(said(last!));
  };
  const during = async <T>(operation: () => Promise<T>): Promise<{ result: T; calls: string[] }> => {
    calls.length = 0;
    const result = await operation();
    return { result, calls: [...calls] };
  };

  const made = await during(() => stack.up());
  expect(made.calls).toEqual(["up"]);
  expect(made.result.summary.resourceChanges).toEqual({ create: 2 });
  await asTheCli(made.result.summary);
  expect(made.result.outputs).toEqual(await stack.stack.workspace.stackOutputs("test"));

  const same = await during(() => stack.up());
  expect(same.result.summary.resourceChanges).toEqual({ same: 2 });
  await asTheCli(same.result.summary);

  label = "events-net-two";
  const updated = await during(() => stack.up());
  expect(updated.result.summary.resourceChanges).toEqual({ same: 1, update: 1 });
  await asTheCli(updated.result.summary);
  expect(updated.result.outputs.nested!.value).toEqual({ label: "events-net-two", list: [1, 2] });
  expect(updated.result.outputs).toEqual(await stack.stack.workspace.stackOutputs("test"));

  const [vpc] = await stack.client.vpcs.listAll();
  await stack.client.vpcs.update(vpc!.id, { label: "changed-by-hand" });
  const refreshed = await during(() => stack.refresh());
  expect(refreshed.calls).toEqual(["refresh"]);
  expect(refreshed.result.summary.resourceChanges).toMatchObject({ update: 1 });
  await asTheCli(refreshed.result.summary);

  // A secret output: the events show it as [secret], so the outputs are the CLI's (masked and shown).
  secret = true;
  const withSecret = await during(() => stack.up());
  expect(withSecret.calls.sort()).toEqual(["stack output", "stack output", "up"]);
  expect(withSecret.result.outputs.token).toEqual({ value: "s3cret", secret: true });
  await asTheCli(withSecret.result.summary);

  const destroyed = await during(() => stack.destroy());
  expect(destroyed.calls).toEqual(["destroy"]);
  expect(destroyed.result.summary.resourceChanges).toEqual({ delete: 2 });
  await asTheCli(destroyed.result.summary);
});
