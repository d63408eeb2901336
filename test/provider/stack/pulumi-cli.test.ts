/**
 * The handle on the Pulumi CLI that the demo, the `pulumi-compute` command and `emulatedStack`
 * drive stacks with: the one `PulumiCommand.get` makes, got without writing into the user's Pulumi
 * home. The CLI logs every run under its home (`~/.pulumi/logs` when PULUMI_HOME is unset, as in a
 * user's `npm test`), and `get` runs `pulumi version` in this process's environment. This file
 * fails when the pinned `@pulumi/pulumi` stops building its handle from the parts the module uses
 * (it would fall back to `get`, and the log would be written again).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import type * as PulumiCli from "../../../provider/stack/pulumi-cli";
import { notingPulumi } from "../../support/noting-pulumi";

/** A fresh copy of the module (its handles are kept per process) and of the Automation API it uses, with `env` set while it gets one. */
async function handleWith(env: NodeJS.ProcessEnv): Promise<{ handle: PulumiCommand; Automation: typeof PulumiCommand }> {
  let cli!: typeof PulumiCli;
  let Automation!: typeof PulumiCommand;
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- fresh copies of both, for this test only
    cli = require("../../../provider/stack/pulumi-cli");
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
    Automation = require("@pulumi/pulumi/automation").PulumiCommand;
  });
  return { handle: await withEnv(env, () => cli.pulumiCommand()), Automation };
}

/** `run` with `env` set in this process's environment (undefined: unset), restored after. */
async function withEnv<T>(env: NodeJS.ProcessEnv, run: () => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete process.env[key];
  try {
    return await run();
  } finally {
    for (const key of Object.keys(env)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

let work: string;
beforeEach(() => (work = fs.mkdtempSync(path.join(os.tmpdir(), "pc-pulumi-cli-"))));
afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

test("the handle is the one PulumiCommand.get makes, and getting it writes nothing into the user's Pulumi home", async () => {
  const pulumi = notingPulumi(work);
  const { handle, Automation } = await handleWith({ PULUMI_COMPUTE_ENGINE_BIN: pulumi.bin, PULUMI_HOME: undefined });
  // One `pulumi version`, under a home of its own (where the CLI wrote its log), removed after.
  const [home, ...more] = pulumi.homes();
  expect({ home: home !== "" && !home!.startsWith(os.homedir()), more }).toEqual({ home: true, more: [] });
  expect(fs.existsSync(home!)).toBe(false);

  // What get makes, its log in the test's folder too.
  const theirs = await withEnv({ PULUMI_HOME: path.join(work, "get-home") }, () => Automation.get({ root: path.dirname(pulumi.bin) }));
  expect({ command: handle.command, version: handle.version?.format() }).toEqual({
    command: theirs.command,
    version: theirs.version?.format(),
  });
  expect(handle).toBeInstanceOf(Automation);
  expect(handle.version?.constructor).toBe(theirs.version?.constructor);
  // A workspace drives the CLI through it.
  const workspace = await LocalWorkspace.create({
    workDir: work,
    pulumiCommand: handle,
    pulumiHome: path.join(work, "home"),
    projectSettings: { name: "handle", runtime: "nodejs" },
    envVars: { PULUMI_BACKEND_URL: `file://${work}` },
  });
  expect({ version: workspace.pulumiVersion, stacks: await workspace.listStacks() }).toEqual({
    version: handle.version?.format(),
    stacks: [],
  });
});

test("as get does, a CLI older than the Automation API's minimum is refused unless the check is skipped", async () => {
  const old = path.join(work, "old");
  fs.mkdirSync(path.join(old, "bin"), { recursive: true });
  fs.writeFileSync(path.join(old, "bin/pulumi"), "#!/bin/sh\necho v3.1.0\n", { mode: 0o755 });
  const env = { PULUMI_COMPUTE_ENGINE_BIN: path.join(old, "bin") };
  await expect(handleWith(env)).rejects.toThrow(/Minimum version requirement failed/);
  const { handle } = await handleWith({ ...env, PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true" });
  expect(handle.version?.format()).toBe("3.1.0");
});

test("a Pulumi unpacked flat (pulumi in a folder not named bin, as its release tarball unpacks) is driven where it is", async () => {
  const flat = path.join(work, "pulumi");
  fs.mkdirSync(flat);
  fs.writeFileSync(path.join(flat, "pulumi"), "#!/bin/sh\necho v3.259.0\n", { mode: 0o755 });
  const { handle } = await handleWith({ PULUMI_COMPUTE_ENGINE_BIN: flat });
  expect({ command: handle.command, version: handle.version?.format() }).toEqual({
    command: path.join(flat, "pulumi"),
    version: "3.259.0",
  });
});
