/**
 * Least-privilege tokens for the quickstart stack, through the `pulumi` CLI in a project of its
 * own (its program is the quickstart's):
 *
 * - `pulumi-compute scopes` prints the scopes for `up`/`destroy` and for `preview`/`refresh`/
 *   `drift`, sending no write; `stackScopes` (Automation API) reports the same;
 * - a token with exactly the preview scopes runs `preview`, `refresh` and `drift`, and one with
 *   exactly the up scopes runs `up` and `destroy` (tokens made through the emulator's control API);
 * - a token missing any one of the write scopes fails `up`, naming the scope, the token's scopes
 *   and the resource (each on a fresh stack, destroyed after with the full token).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { demoEnvironmentConfig, seedDemoEnvironment } from "../../emulator/control/demo-environment";
import { RESOURCE_SPECS } from "../../provider/generated/spec-table";
import { pulumiCommand } from "../../provider/stack/pulumi-cli";
import { stackScopes, type StackScopes } from "../../provider/stack/least-scopes";
import { REPO_ROOT } from "../support/engine";
import { runProcess, type ProcessResult } from "../support/process";
import { expectExit, linkedProject, linkedProjectEnv } from "../support/user-shell";

jest.setTimeout(1_200_000);

let emulator: RunningEmulator;
let base: string;
let project: string;
let env: NodeJS.ProcessEnv;
let config: Record<string, string>;
let report: StackScopes;

const PROGRAM = `module.exports = require("pulumi-compute/dist/examples/quickstart/program").quickstart();\n`;

const pulumi = (args: string[]): Promise<ProcessResult> => runProcess("pulumi", args, { cwd: project, env, timeoutMs: 300_000 });
const computeCli = (args: string[]): Promise<ProcessResult> =>
  runProcess(process.execPath, [path.join(REPO_ROOT, "dist/provider/cli/main.js"), ...args], { cwd: project, env, timeoutMs: 300_000 });

/** Makes `stack` and gives it the quickstart's config and `token`, in one `config set-all` (each `pulumi` start derives the passphrase's key). */
async function initStack(stack: string, token: string): Promise<void> {
  expectExit(await pulumi(["stack", "init", stack]), 0);
  const plain = Object.entries({ ...config, "compute:apiUrl": emulator.url }).flatMap(([key, value]) => ["--plaintext", `${key}=${value}`]);
  expectExit(await pulumi(["config", "set-all", "--stack", stack, ...plain, "--secret", `compute:token=${token}`]), 0);
}

async function useToken(stack: string, token: string): Promise<void> {
  expectExit(await pulumi(["config", "set", "--stack", stack, "--secret", "compute:token", token]), 0);
}

const tokenWith = (scopes: string[]): string => emulator.control.createToken({ scopes, label: scopes.join(" ") }).token;
const writes = (): number => emulator.control.listRequests().filter((r) => r.method !== "GET").length;

beforeAll(async () => {
  // A database provisions in 15–30 minutes of emulated time: 1.5 to 3 s here.
  emulator = await startEmulator({ port: 0, timeScale: 600 });
  config = demoEnvironmentConfig(seedDemoEnvironment(emulator.control));
  base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-scopes-"));
  project = path.join(base, "project");
  fs.mkdirSync(path.join(base, "state"));
  linkedProject(project, { name: "scopes", backendUrl: `file://${base}/state`, program: PROGRAM });
  env = linkedProjectEnv(base);
  await initStack("dev", emulator.token);
});

afterAll(async () => {
  await emulator?.close();
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

test("pulumi-compute scopes prints the stack's scopes from a preview, sending no write; the Automation API reports the same", async () => {
  emulator.control.clearRequests();
  const printed = await computeCli(["scopes"]);
  expectExit(printed, 0);
  // The quickstart declares every kind of the spec table.
  expect(printed.stdout.split("\n")[0]).toBe(`Stack dev (${Object.keys(RESOURCE_SPECS).sort().join(", ")}) needs these OAuth scopes:`);
  expect(printed.stdout).toContain("  pulumi up, pulumi destroy:\n");
  const json = await computeCli(["scopes", "--json"]);
  expectExit(json, 0);
  report = JSON.parse(json.stdout) as StackScopes;
  expect(report.up).toEqual([
    "computes:read_write",
    "databases:read_write",
    "domains:read_write",
    "firewall:read_write",
    "images:read_write",
    "ips:read_write",
    "vpc:read_write",
  ]);
  expect(report.preview).toEqual([
    "computes:read_only",
    "databases:read_only",
    "domains:read_only",
    "firewall:read_only",
    "images:read_only",
    "ips:read_only",
  ]);
  expect(report.previewCalls).toContain("networking.ips.list"); // getIps, in the program
  expect(printed.stdout).toContain(`    ${report.up.join(",")}\n`);
  expect(writes()).toBe(0);

  const envVars = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const stack = await LocalWorkspace.selectStack({ stackName: "dev", workDir: project }, { pulumiCommand: await pulumiCommand(), envVars });
  const automation = await stackScopes(stack);
  expect(automation).toEqual(report);
  expect(writes()).toBe(0);
});

test("tokens of exactly those scopes run preview, up, refresh, drift and destroy", async () => {
  const reader = tokenWith(report.preview);
  const writer = tokenWith(report.up);
  await useToken("dev", reader);
  expectExit(await pulumi(["preview", "--stack", "dev"]), 0);
  await useToken("dev", writer);
  expectExit(await pulumi(["up", "--stack", "dev", "--yes", "--skip-preview"]), 0);
  await useToken("dev", reader);
  expectExit(await pulumi(["refresh", "--stack", "dev", "--yes", "--skip-preview"]), 0);
  expectExit(await computeCli(["drift", "--stack", "dev"]), 0);
  const again = await pulumi(["preview", "--stack", "dev", "--expect-no-changes"]);
  expectExit(again, 0);
  await useToken("dev", writer);
  expectExit(await pulumi(["destroy", "--stack", "dev", "--yes", "--skip-preview"]), 0);
});

test("a token missing any one write scope fails up, naming the scope, the token's scopes and the resource", async () => {
  const missing = report.up.filter((scope) => scope.endsWith(":read_write"));
  expect(missing.length).toBeGreaterThan(0);
  const said: string[] = [];
  for (const scope of missing) {
    const stack = `without-${scope.split(":")[0]}`;
    const rest = report.up.filter((s) => s !== scope);
    await initStack(stack, tokenWith(rest));
    const failed = await pulumi(["up", "--stack", stack, "--yes", "--skip-preview"]);
    expectExit(failed, "fails");
    // The first to meet the gap says it: a resource's step (its scopes for up and destroy), or a
    // data function of the program (the read it makes).
    const area = scope.split(":")[0]!;
    const byResource = new RegExp(
      `of resource "[\\w-]+": the token lacks the OAuth scope ${scope}, which this [\\w ]+ needs for up and destroy \\(`,
    );
    const byFunction = new RegExp(`get\\w+: the API refused it: the token lacks the OAuth scope ${area}:read_only \\(`);
    expect({ scope, said: byResource.test(failed.out) || byFunction.test(failed.out) }).toEqual({ scope, said: true });
    expect(failed.out).toContain(`the token has ${rest.join(", ")}`);
    said.push(/error: (.*)$/m.exec(failed.out)?.[1] ?? "");
    await useToken(stack, emulator.token);
    expectExit(await pulumi(["destroy", "--stack", stack, "--yes", "--skip-preview"]), 0);
    expectExit(await pulumi(["stack", "rm", stack, "--yes"]), 0);
  }
  console.log(`what up said, one write scope missing at a time:\n${said.join("\n")}`);
});
