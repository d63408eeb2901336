/**
 * The path a user takes, end to end: the package packed and installed into a project of their
 * own outside this repository; the toolchain put on PATH by `eval "$(npm run -s env)"`; the
 * emulator started from the package's `compute-emulator`; and the `pulumi` CLI run from a shell
 * for every step, with a change made behind Pulumi's back along the way. Last, the same project
 * without its `@pulumi/pulumi` (a peer dependency), as a package manager that skips peers leaves it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { ChildProcess } from "node:child_process";
import { ComputeClient } from "../../sdk/client";
import { MissingPulumiError } from "../../provider/peer";
import { REPO_ROOT } from "../support/engine";
import { startProcess, type ProcessResult } from "../support/process";
import { UserShell, expectExit, packPackage, useTarball } from "../support/user-shell";

// Each step starts the engine and a provider process from a shell; on two loaded cores the whole life takes minutes.
jest.setTimeout(900_000);

const repoPackage = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
let base: string;
let project: string;
let user: UserShell;
let emulator: ChildProcess | undefined;
let client: ComputeClient;
let api: { url: string; token: string };

/** A command line in the user's shell, in the project folder, after the eval. */
function shell(command: string, cwd = project): Promise<ProcessResult> {
  return user.run(command, cwd);
}

async function pulumi(args: string, cwd = project): Promise<ProcessResult> {
  return shell(`pulumi ${args}`, cwd);
}

beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-cli-path-"));
  user = new UserShell(base);
  const tarball = await packPackage(base);

  project = path.join(base, "my-infra");
  fs.mkdirSync(project);
  writeProject(project, tarball);
  await user.npmInstall(project);

  await user.init();
  const started = await startProcess(
    "bash",
    ["-c", `eval "$PC_EXPORTS" && exec node_modules/.bin/compute-emulator --port 0 --time-scale 300`],
    /token:\s+\S+/,
    {
      cwd: project,
      env: { ...user.env, PC_EXPORTS: user.exports },
    },
  );
  emulator = started.child;
  api = { url: /API:\s+(\S+)/.exec(started.output())![1]!, token: /token:\s+(\S+)/.exec(started.output())![1]! };
  client = new ComputeClient({ baseUrl: api.url, token: api.token });
});

afterAll(async () => {
  await client?.close();
  if (emulator && emulator.exitCode === null) {
    const exited = new Promise((resolve) => emulator!.once("exit", resolve));
    emulator.kill("SIGTERM");
    await exited;
  }
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

/**
 * What a user writes, from examples/new-project (the files the README gives): package.json,
 * tsconfig.json, Pulumi.yaml and index.ts; only the package comes from the tarball instead of
 * the registry.
 */
function writeProject(dir: string, tarball: string): void {
  const template = path.join(REPO_ROOT, "examples/new-project");
  for (const file of ["tsconfig.json", "Pulumi.yaml", "index.ts", "package.json"]) {
    fs.copyFileSync(path.join(template, file), path.join(dir, file));
  }
  useTarball(dir, tarball);
}

test("the README's \"Using it\" gives the new-project template's package.json and tsconfig.json exactly", () => {
  const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Using it"), readme.indexOf("\n## ", readme.indexOf("## Using it") + 1));
  const blocks = [...section.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => m[1]);
  const file = (name: string) => fs.readFileSync(path.join(REPO_ROOT, "examples/new-project", name), "utf8").trimEnd();
  expect(blocks.slice(0, 2)).toEqual([file("package.json"), file("tsconfig.json")]);
});

test("the new-project template asks for the versions this package is built and tested with", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "examples/new-project/package.json"), "utf8"));
  expect(pkg.dependencies).toEqual({
    "@pulumi/pulumi": repoPackage.devDependencies["@pulumi/pulumi"],
    "pulumi-compute": `^${repoPackage.version}`,
  });
  expect(pkg.devDependencies).toEqual({
    "@types/node": repoPackage.devDependencies["@types/node"],
    typescript: repoPackage.devDependencies.typescript,
  });
});

test("`npm run -s env` puts Node 24 and the whole toolchain first on PATH and runs the CLI offline", async () => {
  expect(user.exports).toContain("export PULUMI_SKIP_UPDATE_CHECK=true");
  expect(user.exports).toContain("export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true");
  const found = await shell("node --version; command -v pulumi pulumi-language-nodejs pulumi-resource-pulumi-nodejs");
  expectExit(found, 0);
  const [node, ...tools] = found.out.trim().split("\n");
  expect(node).toMatch(/^v24\./);
  expect(new Set(tools.map((tool) => path.dirname(tool)))).toEqual(new Set([process.env.PULUMI_COMPUTE_ENGINE_BIN]));
});

test("`npm run -s env` gives a backend and a passphrase only to a user who has set none", async () => {
  // This user chose a backend (PULUMI_BACKEND_URL) and no passphrase.
  expect(user.exports).not.toContain("PULUMI_BACKEND_URL");
  expect(user.exports).toMatch(/^export PULUMI_CONFIG_PASSPHRASE=$/m);

  const bare = await user.printedExports({ PULUMI_BACKEND_URL: "" });
  expect(bare).toMatch(/^export PULUMI_BACKEND_URL=file:\/\/~$/m);

  // Logged in with `pulumi login`: that backend stays in charge.
  fs.mkdirSync(user.env.PULUMI_HOME!, { recursive: true });
  fs.writeFileSync(path.join(user.env.PULUMI_HOME!, "credentials.json"), JSON.stringify({ current: "file:///somewhere", accounts: {} }));
  try {
    expect(await user.printedExports({ PULUMI_BACKEND_URL: "" })).not.toContain("PULUMI_BACKEND_URL");
  } finally {
    fs.rmSync(path.join(user.env.PULUMI_HOME!, "credentials.json"));
  }

  const ownPassphrase = await user.printedExports({ PULUMI_CONFIG_PASSPHRASE_FILE: "/dev/null" });
  expect(ownPassphrase).not.toContain("PULUMI_CONFIG_PASSPHRASE");
});

test("preview, up, drift found by refresh and by pulumi-compute drift, up --refresh, a clean preview, destroy", async () => {
  const outputs: string[] = [];
  const step = async (args: string, code: number | "fails" = 0) => {
    const result = await pulumi(args);
    outputs.push(result.out);
    expectExit(result, code);
    return result.out;
  };

  await step("stack init dev");
  await step(`config set compute:apiUrl ${api.url}`);
  await step(`config set --secret compute:token ${api.token}`);
  expect(await step("preview")).toMatch(/\+ 5 to create/);
  expect(await client.vpcs.listAll()).toEqual([]); // a preview creates nothing

  expect(await step("up --yes")).toMatch(/\+ 5 created/);
  const [vpc] = await client.vpcs.listAll();
  expect(vpc).toMatchObject({
    label: "user-net",
    region: "us-iad",
    subnets: [expect.objectContaining({ label: "app", ipv4: "10.20.0.0/24" })],
  });
  const [zone] = await client.domains.listAll();
  expect((await client.domains.records.listAll(zone!.id)).map((r) => [r.type, r.name, r.target])).toEqual([["A", "www", "203.0.113.7"]]);

  const statePath = path.join(base, "state/.pulumi/stacks/my-infra/dev.json");
  const state = fs.readFileSync(statePath, "utf8");
  expect(state.includes(api.token)).toBe(false);
  // The serialized provider loads the package by name, from the project's node_modules.
  const resources = JSON.parse(state).checkpoint.latest.resources as Array<{ type: string; inputs?: { __provider?: string } }>;
  const provider = resources.find((r) => r.type === "pulumi-nodejs:dynamic/compute:Vpc")!.inputs!.__provider!;
  expect(provider).toContain("require('pulumi-compute/registry')");

  await client.vpcs.update(vpc!.id, { label: "changed-by-hand" });

  const refreshPreview = await step("refresh --preview-only --expect-no-changes --diff", "fails");
  expect(refreshPreview).toMatch(/~ label\s*: "user-net" => "changed-by-hand"/);
  expect(refreshPreview).toContain("no changes were expected for refresh but changes were proposed");
  expect(fs.readFileSync(statePath, "utf8")).toBe(state); // a preview writes nothing

  const drift = await shell("node_modules/.bin/pulumi-compute drift");
  expectExit(drift, 2);
  expect(drift.out).toMatch(/Vpc net\s+label\s+"user-net"\s+"changed-by-hand"/);

  await step("up --yes --refresh");
  expect((await client.vpcs.get(vpc!.id)).label).toBe("user-net");
  expectExit(await shell("node_modules/.bin/pulumi-compute drift"), 0);
  await step("preview --expect-no-changes");

  expect(await step("destroy --yes")).toMatch(/- 5 deleted/);
  expect({ vpcs: await client.vpcs.listAll(), domains: await client.domains.listAll() }).toEqual({ vpcs: [], domains: [] });

  // The language host sits beside `pulumi`: no run warned that it came from elsewhere on PATH.
  expect(outputs.join("\n")).not.toMatch(/using pulumi-language-nodejs from \$PATH/);
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
