/**
 * The path a user takes, end to end: the README's "A new project in five minutes" block (its one
 * runnable block), read out of the README and run line by line as written, without a terminal —
 * the package built and packed in this checkout, the new-project template copied to a folder
 * outside the repository and the tarball installed there, the emulator started from the package's
 * `compute-emulator` (its clock at its default), and the `pulumi` CLI run from a shell for every
 * step, after `eval "$(npm run -s env)"`, `up` and `destroy` confirmed by the block's own `--yes`.
 * The project's own tests (`npm test`: its jest, a unit test under `computeMocks` and an
 * integration test on an emulated stack) pass and leave nothing in the user's temporary folder. A
 * change made behind Pulumi's back before the README's refresh. The block's `kill %1` stops the
 * emulator `npx` started. Last, the same project without its `@pulumi/pulumi` (a peer dependency),
 * as a package manager that skips peers leaves it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ComputeClient } from "../../sdk/client";
import { MissingPulumiError } from "../../provider/launch/peer";
import { REPO_ROOT } from "../support/engine";
import { newProjectSteps } from "../support/new-project";
import { PageSteps, QUIET_NPM } from "../support/page-steps";
import { type ProcessResult } from "../support/process";
import { UserShell, expectExit } from "../support/user-shell";

// Each step starts the engine and a provider process from a shell; on two loaded cores the whole life takes minutes.
jest.setTimeout(900_000);

const repoPackage = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
let base: string;
let project: string;
let userTmp: string;
let user: UserShell;
let client: ComputeClient;

/** A command line in the user's shell, in the project folder, after the eval. */
function shell(command: string, cwd = project): Promise<ProcessResult> {
  return user.run(command, cwd);
}

async function pulumi(args: string, cwd = project): Promise<ProcessResult> {
  return shell(`pulumi ${args}`, cwd);
}

let readme: PageSteps;

beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-cli-path-"));
  user = new UserShell(base);
  await user.init();
  project = path.join(base, "my-infra");
  userTmp = path.join(base, "tmp");
  fs.mkdirSync(userTmp);
  readme = new PageSteps(
    user,
    base,
    newProjectSteps().map((line) => ({ line })),
    {
      env: {
        ...QUIET_NPM,
        // The user's own temporary folder, to see what the project's tests leave there.
        TMPDIR: userTmp,
      },
    },
  );
});

afterAll(async () => {
  await client?.close();
  // Still running when a step before the block's `kill %1` failed.
  await readme?.close();
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

test("`npm run -s env` puts Node 24 and the whole toolchain first on PATH and runs the CLI offline", async () => {
  expect(user.exports).toContain("export PULUMI_SKIP_UPDATE_CHECK=true");
  expect(user.exports).toContain("export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true");
  const found = await shell("node --version; command -v pulumi pulumi-language-nodejs pulumi-resource-pulumi-nodejs", base);
  expectExit(found, 0);
  const [node, ...tools] = found.out.trim().split("\n");
  expect(node).toMatch(/^v24\./);
  expect(new Set(tools.map((tool) => path.dirname(tool)))).toEqual(new Set([process.env.PULUMI_COMPUTE_ENGINE_BIN]));
});

test("`npm run -s env` gives a passphrase only to a user who has set none, and a backend to nobody", async () => {
  // This user chose a backend (PULUMI_BACKEND_URL) and no passphrase.
  expect(user.exports).not.toContain("PULUMI_BACKEND_URL");
  expect(user.exports).toMatch(/^export PULUMI_CONFIG_PASSPHRASE=$/m);
  // Nor a user with none (test/e2e/env-backend.e2e.test.ts: the project's backend.url decides).
  expect(await user.printedExports({ PULUMI_BACKEND_URL: "" })).not.toContain("PULUMI_BACKEND_URL");

  const ownPassphrase = await user.printedExports({ PULUMI_CONFIG_PASSPHRASE_FILE: "/dev/null" });
  expect(ownPassphrase).not.toContain("PULUMI_CONFIG_PASSPHRASE");
});

test("the README's new-project steps as written: pack, install the tarball, the emulator, preview and up, drift, destroy", async () => {
  expect(user.env.PULUMI_SKIP_CONFIRMATIONS ?? "").toBe("");
  await readme.runUntil("npx compute-emulator");
  // The project records the packed package in place of the registry's range, which is not published yet.
  const installed = JSON.parse(fs.readFileSync(path.join(project, "package.json"), "utf8"));
  expect(installed.dependencies["pulumi-compute"]).toBe(`file:../pulumi-compute-${repoPackage.version}.tgz`);
  expect(fs.existsSync(path.join(project, "node_modules/pulumi-compute/package.json"))).toBe(true);
  // The project's own tests pass, both kinds, and leave no emulated stack behind.
  expect(readme.output("npm test")).toMatch(/Tests:\s+2 passed, 2 total/);
  expect(fs.readdirSync(userTmp).filter((entry) => entry.startsWith("pulumi-compute-stack-"))).toEqual([]);

  await readme.runUntil("pulumi preview");
  // The standalone emulator runs fast by default, and its banner says how fast.
  expect(readme.output("npx compute-emulator")).toMatch(/time:\s+runs 300× faster than real time/);
  const { apiUrl, token } = readme.emulator();
  client = new ComputeClient({ baseUrl: apiUrl, token });
  expect(await client.vpcs.listAll()).toEqual([]);

  await readme.runUntil("pulumi refresh");
  // The stack and the program's ten resources: a VPC, its two subnets, the app's firewall, its two
  // instances, a zone with a record for each, and a database open to the data subnet and both.
  const previewAndUp = readme.output("pulumi preview");
  // Measured, not asserted (timing targets live in bench/): the issue asks for under a minute.
  console.log(
    `the README's \`pulumi preview && pulumi up --yes\` took ${readme.ran.find((r) => r.step.startsWith("pulumi preview"))!.ms} ms`,
  );
  expect(previewAndUp).toMatch(/\+ 11 to create/);
  expect(previewAndUp).toMatch(/\+ 11 created/);
  const [vpc] = await client.vpcs.listAll();
  expect(vpc).toMatchObject({ label: "app-net", region: "us-iad" });
  expect(vpc!.subnets.map((s) => [s.label, s.ipv4]).sort()).toEqual([
    ["data", "10.0.2.0/24"],
    ["web", "10.0.1.0/24"],
  ]);
  const apps = (await client.computes.instances.listAll()).sort((a, b) => a.label.localeCompare(b.label));
  expect(apps.map((a) => ({ label: a.label, status: a.status }))).toEqual([
    { label: "app-1", status: "running" },
    { label: "app-2", status: "running" },
  ]);
  const [zone] = await client.domains.listAll();
  expect(zone).toMatchObject({ domain: "app.example" });
  const records = (await client.domains.records.listAll(zone!.id))
    .filter((r) => r.type === "A")
    .sort((a, b) => a.name.localeCompare(b.name));
  expect(records.map((r) => [r.name, r.target])).toEqual(apps.map((a) => [a.label, a.ipv4[0]]));
  const [db] = await client.databases.mysql.listAll();
  expect(db).toMatchObject({ label: "app-db", status: "active", allow_list: ["10.0.2.0/24", "10.0.1.11", "10.0.1.12"] });
  const outputs = await pulumi("stack output --json --show-secrets");
  expectExit(outputs, 0);
  expect(JSON.parse(outputs.stdout)).toEqual({ dbHost: db!.hosts.primary, dbPort: 3306, dbPassword: expect.any(String) });

  const statePath = path.join(base, "state/.pulumi/stacks/my-infra/dev.json");
  const state = fs.readFileSync(statePath, "utf8");
  expect(state.includes(token)).toBe(false);
  // The serialized provider loads the package by name, from the project's node_modules.
  const resources = JSON.parse(state).checkpoint.latest.resources as Array<{ type: string; inputs?: { __provider?: string } }>;
  const provider = resources.find((r) => r.type === "pulumi-nodejs:dynamic/compute:Vpc")!.inputs!.__provider!;
  expect(provider).toContain("require('pulumi-compute/registry')");

  // Behind Pulumi's back, before the README's refresh: the refresh preview shows it and writes nothing.
  await client.vpcs.update(vpc!.id, { label: "changed-by-hand" });
  await readme.runUntil("pulumi destroy");
  expect(readme.output("pulumi refresh")).toMatch(/~ label\s*: "app-net" => "changed-by-hand"/);
  expect(fs.readFileSync(statePath, "utf8")).toBe(state);

  const drift = await shell("npx pulumi-compute drift");
  expectExit(drift, 2);
  expect(drift.out).toMatch(/Vpc app\s+label\s+"app-net"\s+"changed-by-hand"/);
  expectExit(await pulumi("up --yes --refresh"), 0);
  expect((await client.vpcs.get(vpc!.id)).label).toBe("app-net");
  expectExit(await shell("npx pulumi-compute drift"), 0);
  expectExit(await pulumi("preview --expect-no-changes"), 0);

  await readme.runUntil("kill %1");
  expect(readme.output("pulumi destroy")).toMatch(/- 11 deleted/);
  expect({
    vpcs: await client.vpcs.listAll(),
    instances: await client.computes.instances.listAll(),
    firewalls: await client.networking.firewalls.listAll(),
    databases: await client.databases.mysql.listAll(),
    domains: await client.domains.listAll(),
  }).toEqual({ vpcs: [], instances: [], firewalls: [], databases: [], domains: [] });
  // `kill %1` stops the job, which is the `npx` process: the emulator it started ends with it.
  await readme.runUntil();
  expect(readme.output("kill %1")).toMatch(/closed/);

  // Every line of the README ran; the language host sits beside `pulumi`: no run warned that it came from elsewhere on PATH.
  expect(readme.ran.map((r) => r.step)).toEqual(newProjectSteps());
  expect(readme.ran.map((r) => r.out).join("\n")).not.toMatch(/using pulumi-language-nodejs from \$PATH/);
});

test("the language host honours Pulumi.yaml's runtime options: typescript: false runs compiled JavaScript without ts-node", async () => {
  // The Node.js runtime tells the program whether ts-node was registered for it.
  const dir = path.join(project, "compiled");
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, "index.js"), 'exports.typescript = process.env.PULUMI_NODEJS_TYPESCRIPT ?? "off";\n');
  const runWith = async (runtime: string, stack: string) => {
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: compiled\n${runtime}main: index.js\n`);
    expectExit(await pulumi(`stack init ${stack}`, dir), 0);
    expectExit(await pulumi("up --yes", dir), 0);
    const output = await pulumi("stack output typescript", dir);
    expectExit(output, 0);
    return output.out.trim();
  };
  expect(await runWith("runtime:\n  name: nodejs\n  options:\n    typescript: false\n", "js")).toBe("off");
  expect(await runWith("runtime: nodejs\n", "ts")).toBe("true");
});

test("without @pulumi/pulumi in the project: one line saying what to install", async () => {
  // The packed package asks for it as a peer, so npm installed it into the project itself.
  const installed = JSON.parse(fs.readFileSync(path.join(project, "node_modules/pulumi-compute/package.json"), "utf8"));
  expect(installed.peerDependencies).toEqual({ "@pulumi/pulumi": repoPackage.peerDependencies["@pulumi/pulumi"] });
  expect(installed.dependencies["@pulumi/pulumi"]).toBeUndefined();
  expect(fs.existsSync(path.join(project, "node_modules/@pulumi/pulumi/package.json"))).toBe(true);

  // As `npm install --legacy-peer-deps` (or a package manager that skips peers) would leave it.
  const sdk = path.join(project, "node_modules/@pulumi/pulumi");
  const aside = path.join(base, "pulumi-sdk-aside");
  fs.renameSync(sdk, aside);
  try {
    const drift = await shell("node_modules/.bin/pulumi-compute drift");
    expectExit(drift, 1);
    expect(drift.out).toBe(`${new MissingPulumiError(project).message}\n`);
    expect(drift.out).toContain("npm install @pulumi/pulumi@^3.259.0");

    // The program itself cannot start: Pulumi's language host looks for the SDK first and says so
    // in a line of its own, before any code of this package runs.
    const preview = await pulumi("preview --stack dev");
    expectExit(preview, "fails");
    expect(preview.out).toContain("It looks like the Pulumi SDK has not been installed");
  } finally {
    fs.renameSync(aside, sdk);
  }
});
