/**
 * The path a service takes: a deployment script with an Automation API inline program, in a
 * project of its own outside this repository (the package packed and installed there, with
 * `@pulumi/pulumi`), started by `node` from a folder that is not the project's — a repository
 * root, `/` under systemd, a test runner's folder. The engine starts the provider process in the
 * workspace's folder, so that is where the SDK must be, and where the package looks for it
 * (provider/launch/peer.ts); the caller's own folder does not matter. The CLI's side of the same two
 * cases is in cli-path.e2e.test.ts.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { MissingPulumiError } from "../../provider/launch/peer";
import { UserShell, expectExit } from "../support/user-shell";
import { installedNewProject } from "../support/installed-project";

// Packing, installing and three engine runs on two loaded cores.
jest.setTimeout(900_000);

let base: string;
/** The project: the script, its package.json and node_modules (@pulumi/pulumi and pulumi-compute). */
let project: string;
/** A folder with nothing in it, where the script is started from. */
let elsewhere: string;
let user: UserShell;
let emulator: RunningEmulator;
let client: ComputeClient;

/**
 * The deployment script a user writes: one stack, an inline program (a VPC), the workspace's
 * folder and the operations to run given on its command line. It prints what each operation did,
 * or the error that stopped it.
 */
const DEPLOY_JS = `
const { LocalWorkspace } = require("@pulumi/pulumi/automation");
const compute = require("pulumi-compute");

const [workDir, apiUrl, token, ...operations] = process.argv.slice(2);

async function main() {
  const stack = await LocalWorkspace.createOrSelectStack(
    {
      stackName: "ci",
      projectName: "deploy",
      program: async () => {
        const vpc = new compute.Vpc("net", { label: "deploy-net", region: "us-iad" });
        return { vpcId: vpc.id };
      },
    },
    // The package's launcher declared: exact previews (docs/getting-started.md#preview-support).
    { workDir, projectSettings: compute.withComputePlugins({ name: "deploy", runtime: "nodejs" }) },
  );
  await stack.setConfig("compute:apiUrl", { value: apiUrl });
  await stack.setConfig("compute:token", { value: token, secret: true });
  for (const operation of operations) {
    const result = await stack[operation]();
    console.log(JSON.stringify({ operation, changes: result.changeSummary ?? result.summary.resourceChanges }));
  }
}

main().catch((error) => {
  console.log(JSON.stringify({ error: String(error.message ?? error) }));
  process.exit(1);
});
`;

beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-automation-path-"));
  user = new UserShell(base);
  project = path.join(base, "deploy");
  elsewhere = path.join(base, "elsewhere");
  fs.mkdirSync(elsewhere);
  // The README project's package.json and what npm installs for it, the packed package among them.
  await installedNewProject(project, user.env);
  fs.writeFileSync(path.join(project, "deploy.js"), DEPLOY_JS);
  await user.init();
  emulator = await startEmulator({ port: 0 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
});

afterAll(async () => {
  await client?.close();
  await emulator?.close();
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

/** `node <project>/deploy.js <workDir> … <operations>` from `cwd`, in the user's shell; its printed lines. */
async function deploy(cwd: string, workDir: string, operations: string[]): Promise<{ code: number | null; lines: any[]; out: string }> {
  const args = [workDir, emulator.url, emulator.token, ...operations].map((a) => `'${a}'`).join(" ");
  const result = await user.run(`node '${path.join(project, "deploy.js")}' ${args}`, cwd, { timeoutMs: 600_000 });
  const lines = result.stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));
  return { code: result.code, lines, out: result.out };
}

test("the started-from folder has no SDK of its own: only the project's node_modules has it", () => {
  expect(fs.existsSync(path.join(project, "node_modules/@pulumi/pulumi/package.json"))).toBe(true);
  expect(() => require.resolve("@pulumi/pulumi/package.json", { paths: [elsewhere] })).toThrow();
});

test("an inline program started from an unrelated folder, its workspace in the project: up, preview and destroy", async () => {
  const run = await deploy(elsewhere, project, ["up", "preview", "destroy"]);
  if (run.code !== 0) throw new Error(`the script failed:\n${run.out.slice(-3000)}`);
  expect(run.lines).toEqual([
    { operation: "up", changes: { create: 2 } },
    { operation: "preview", changes: { same: 2 } },
    { operation: "destroy", changes: { delete: 2 } },
  ]);
  expect(run.out).not.toContain("MissingPulumiError");
  expect(await client.vpcs.listAll()).toEqual([]);
});

test("a workspace that lacks the SDK: the one line naming the workspace's folder, and nothing created", async () => {
  // Started from the project (where the SDK is), so only the workspace's folder can be at fault.
  const workspace = path.join(base, "bare-workspace");
  fs.mkdirSync(workspace);
  expect(() => require.resolve("@pulumi/pulumi/package.json", { paths: [workspace] })).toThrow();

  const run = await deploy(project, workspace, ["up"]);
  expectExit({ code: run.code, out: run.out, stdout: "" }, 1);
  expect(run.lines).toHaveLength(1);
  expect(run.lines[0].error).toContain(new MissingPulumiError(workspace).message);
  expect(run.out).not.toMatch(/could not read plugin|EOF/);
  expect(await client.vpcs.listAll()).toEqual([]);
});
