/**
 * Preview support on a Pulumi the user installed, end to end (issue 39). A Pulumi installation of
 * the user's own, in a folder of its own (`~/.pulumi/bin`, linked from `~/.local/bin`), with
 * Pulumi's stock launcher beside `pulumi`; the README's project with the packed package, whose
 * `Pulumi.yaml` declares the package's launcher; the program of the report: a database, an
 * image, and three records reading `db.hosts.primary`, `db.port` and `img.size`.
 *
 * - From a shell, that `pulumi`: a preview of an allow-list change and an image-label change plans
 *   exactly the 2 updates, `up` makes exactly those 2 writes, the next preview is empty.
 * - The Automation API, from a service's script run in another folder: a local program (the
 *   project's folder) and an inline program, the same life.
 * - Without the declaration: plain previews (5 updates) and one warning saying how to turn them on.
 * - The launcher without `@pulumi/pulumi` in the project: Node's message and the fix.
 * - The installation and its link folder are byte-identical after `npm run -s env`, `npm run build`,
 *   `npm run demo`, the project's runs and `pulumi-compute drift`.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { EMULATED_CLOCK_ENV } from "../../provider/engine/time";
import { startClockService, type ClockService } from "../../provider/testing/clock-service";
import { REPO_ROOT } from "../support/engine";
import { UserShell, expectExit } from "../support/user-shell";
import {
  READING_PROGRAM,
  folderSnapshot,
  ownPulumi,
  ownPulumiEnv,
  ownShell,
  plannedSteps,
  readmeProject,
  type OwnPulumi,
} from "../support/own-pulumi";

jest.setTimeout(1_800_000);

let base: string;
let own: OwnPulumi;
let env: NodeJS.ProcessEnv;
let emulator: RunningEmulator;
/** The emulator's clock service: the project's runs wait on its clock (`waited`). */
let clock: ClockService;
let project: string;
let before: { install: Record<string, string>; links: Record<string, string> };

/** The two in-place changes, and nothing else. */
const CHANGED = { db: "update", img: "update" };

const writes = () =>
  emulator.control
    .listRequests()
    .filter((r) => r.method !== "GET")
    .map((r) => `${r.method} ${r.path.replace(/\/[^/]+$/, "/{id}")}`)
    .sort();

beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-own-pulumi-"));
  const user = new UserShell(base);
  own = ownPulumi(path.join(base, "home"));
  before = { install: folderSnapshot(own.install), links: folderSnapshot(own.links) };
  env = ownPulumiEnv(user, own);
  emulator = await startEmulator({ port: 0, timeScale: 300 });
  clock = await startClockService(emulator.emulator.clock);
  project = path.join(base, "my-infra");
  await readmeProject(project, env);
  fs.writeFileSync(path.join(project, "index.ts"), `import * as compute from "pulumi-compute";\n\n${READING_PROGRAM}`);
  fs.writeFileSync(path.join(project, "disk.img.gz"), zlib.gzipSync(Buffer.alloc(3 * 1024 * 1024, 7)));
});

afterAll(async () => {
  await clock?.close();
  await emulator?.close();
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

/**
 * The environment of a run of the project against this file's emulator: the provider's waits (the
 * database's 15–30 minutes of provisioning) jump the emulator's clock instead of sleeping, as an
 * `emulatedStack`'s do. Not for this checkout's own commands, whose demo runs an emulator of its own.
 */
const waited = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ ...env, [EMULATED_CLOCK_ENV]: clock.url, ...extra });

async function pulumi(args: string, extra: NodeJS.ProcessEnv = {}, cwd = project) {
  return ownShell(waited(extra), `pulumi ${args}`, cwd);
}

test("the user's pulumi is Pulumi's installation: its own launcher beside it, and none on PATH", async () => {
  const found = await ownShell(env, "command -v pulumi; command -v pulumi-resource-pulumi-nodejs || echo none", base);
  expect(found.out.trim().split("\n")).toEqual([path.join(own.links, "pulumi"), "none"]);
  expect(fs.readFileSync(path.join(own.install, "bin/pulumi-resource-pulumi-nodejs"), "utf8")).toBe(
    fs.readFileSync(path.join(REPO_ROOT, "node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"), "utf8"),
  );
});

test("from a shell: the preview plans exactly the 2 updates, up makes exactly those, the next preview is empty", async () => {
  expectExit(await pulumi("stack init dev"), 0);
  expectExit(await pulumi(`config set compute:apiUrl ${emulator.url}`), 0);
  expectExit(await pulumi(`config set --secret compute:token ${emulator.token}`), 0);
  const up = await pulumi("up --yes");
  expectExit(up, 0);
  expect(up.out).toMatch(/\+ 7 created/);
  expect(up.out).not.toContain("preview support is off");

  emulator.control.clearRequests();
  const preview = await pulumi("preview --json", { PC_CHANGE: "1" });
  expectExit(preview, 0);
  expect(plannedSteps(preview.stdout)).toEqual(CHANGED);
  expect(writes()).toEqual([]);

  const changed = await pulumi("up --yes --skip-preview", { PC_CHANGE: "1" });
  expectExit(changed, 0);
  expect(changed.out).toMatch(/~ 2 updated/);
  expect(writes()).toEqual(["PUT /v4/databases/mysql/instances/{id}", "PUT /v4/images/{id}"]);
  expectExit(await pulumi("preview --expect-no-changes", { PC_CHANGE: "1" }), 0);

  // pulumi-compute's own command, with the same pulumi.
  const drift = await ownShell(env, "npx pulumi-compute drift", project);
  expectExit(drift, 0);
  expect(drift.out).not.toContain("preview support is off");
});

test("the compute-guardrails pack on the user's pulumi, with the one flag: the README's database lacks TLS", async () => {
  emulator.control.clearRequests();
  const flag = "--policy-pack node_modules/pulumi-compute/policy/compute-guardrails";
  const preview = await pulumi(`preview ${flag}`, { PC_CHANGE: "1" });
  expectExit(preview, "fails");
  expect(preview.out).toMatch(/\[mandatory\]\s+database-transport\s+\(pulumi-nodejs:dynamic\/compute:MysqlDatabase: db\)/);
  expect(preview.out).toContain('MysqlDatabase "db": sslConnection is not set, and the API records that as false');
  expect(preview.out).not.toContain("dependencies are not installed");
  expect(writes()).toEqual([]);
});

test("the launcher without @pulumi/pulumi in the project: Node's message and the fix, not a bare exit status", async () => {
  const sdk = path.join(project, "node_modules/@pulumi/pulumi");
  const aside = path.join(base, "sdk-aside");
  fs.renameSync(sdk, aside);
  try {
    // A refresh runs no program: the engine starts the launcher straight away.
    const refresh = await pulumi("refresh --yes");
    expectExit(refresh, "fails");
    expect(refresh.out).toContain(
      `pulumi-compute: cannot start Pulumi's dynamic provider host: Cannot find module '@pulumi/pulumi/cmd/dynamic-provider' from ${project}.`,
    );
    expect(refresh.out).toContain(`run \`npm install @pulumi/pulumi@^3.259.0\` in ${project}`);
  } finally {
    fs.renameSync(aside, sdk);
  }
  const destroy = await pulumi("destroy --yes", { PC_CHANGE: "1" });
  expectExit(destroy, 0);
  expect(destroy.out).toMatch(/- 7 deleted/);
});

/** A service's deployment script in the project: the Automation API, `local` (the project's folder) or `inline`. */
const SERVICE = `const path = require("node:path");
const { LocalWorkspace } = require("@pulumi/pulumi/automation");
const compute = require("pulumi-compute");

function program() {
${READING_PROGRAM}}

async function stackFor(mode) {
  const envVars = { PULUMI_CONFIG_PASSPHRASE: process.env.PULUMI_CONFIG_PASSPHRASE };
  if (mode === "local") return LocalWorkspace.createOrSelectStack({ stackName: "svc-local", workDir: __dirname }, { envVars });
  const projectSettings = compute.withComputePlugins({ name: "my-infra-svc", runtime: "nodejs", main: __dirname });
  return LocalWorkspace.createOrSelectStack({ stackName: "svc-inline", projectName: "my-infra-svc", program: async () => program() }, { envVars, projectSettings });
}

/** What one operation planned or did: \`name: op\` of the resources that change, and this package's warnings. */
function summary(events) {
  const steps = {};
  const warnings = [];
  for (const e of events) {
    const meta = e.resourcePreEvent && e.resourcePreEvent.metadata;
    if (meta && meta.op !== "same" && !meta.urn.includes("::pulumi:")) steps[meta.urn.split("::").pop()] = meta.op;
    const d = e.diagnosticEvent;
    if (d && d.message.startsWith("pulumi-compute:")) warnings.push(d.message);
  }
  return { steps, warnings };
}

async function main(mode) {
  const stack = await stackFor(mode);
  await stack.setConfig("compute:apiUrl", { value: process.env.API_URL });
  await stack.setConfig("compute:token", { value: process.env.API_TOKEN, secret: true });
  const life = {};
  const run = async (name, change, operation) => {
    process.env.PC_CHANGE = change ? "1" : "";
    stack.workspace.envVars.PC_CHANGE = process.env.PC_CHANGE;
    const events = [];
    await operation({ onEvent: (e) => events.push(e) });
    life[name] = summary(events);
  };
  await run("up", false, (o) => stack.up(o));
  await run("preview", true, (o) => stack.preview(o));
  await run("upChanged", true, (o) => stack.up(o));
  await run("previewAfter", true, (o) => stack.preview(o));
  await run("destroy", true, (o) => stack.destroy(o));
  console.log(JSON.stringify(life));
}

main(process.argv[2]).catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

test.each(["local", "inline"])(
  "the Automation API with a %s program, from a service started in another folder: exactly the 2 updates, then nothing",
  async (mode) => {
    fs.writeFileSync(path.join(project, "service.js"), SERVICE);
    const elsewhere = fs.mkdtempSync(path.join(base, "service-cwd-"));
    emulator.control.clearRequests();
    const ran = await ownShell(
      waited({ API_URL: emulator.url, API_TOKEN: emulator.token }),
      `node ${project}/service.js ${mode}`,
      elsewhere,
    );
    expectExit(ran, 0);
    const life = JSON.parse(ran.stdout.trim().split("\n").pop()!) as Record<string, { steps: Record<string, string>; warnings: string[] }>;
    const created = Object.fromEntries(["db", "img", "zone", "dbhost", "dbport", "imgsize"].map((name) => [name, "create"]));
    expect(life.up!.steps).toEqual(created);
    expect(life.preview!.steps).toEqual(CHANGED);
    expect(life.upChanged!.steps).toEqual(CHANGED);
    expect(life.previewAfter!.steps).toEqual({});
    expect(Object.values(life.destroy!.steps)).toEqual(Array(6).fill("delete"));
    expect(Object.values(life).flatMap((op) => op.warnings)).toEqual([]);
    const dbWrites = writes().filter((w) => w.startsWith("PUT"));
    expect(dbWrites).toEqual(["PUT /v4/databases/mysql/instances/{id}", "PUT /v4/images/{id}"]);
  },
);

test("a project without the declaration: Pulumi's plain previews, and one warning saying how to turn preview support on", async () => {
  const plain = path.join(base, "plain");
  const skip = new Set(["node_modules", "service.js"].map((name) => path.join(project, name)));
  fs.cpSync(project, plain, { recursive: true, filter: (from) => !skip.has(from) });
  fs.symlinkSync(path.join(project, "node_modules"), path.join(plain, "node_modules"));
  const yaml = fs.readFileSync(path.join(plain, "Pulumi.yaml"), "utf8");
  fs.writeFileSync(path.join(plain, "Pulumi.yaml"), yaml.slice(0, yaml.indexOf("plugins:")));
  expectExit(await pulumi("stack init plain", {}, plain), 0);
  expectExit(await pulumi(`config set compute:apiUrl ${emulator.url}`, {}, plain), 0);
  expectExit(await pulumi(`config set --secret compute:token ${emulator.token}`, {}, plain), 0);
  const up = await pulumi("up --yes --skip-preview", {}, plain);
  expectExit(up, 0);
  // Said once (the display shows it as it comes, and again under Diagnostics).
  const diagnostics = up.out.slice(up.out.indexOf("Diagnostics:"));
  expect(diagnostics.match(/preview support is off: this project does not declare pulumi-compute's plugin/g)).toHaveLength(1);

  const preview = await pulumi("preview --json", { PC_CHANGE: "1" }, plain);
  expectExit(preview, 0);
  // Plain previews: the outputs the records read turn unknown, so they plan updates `up` will not make.
  expect(plannedSteps(preview.stdout)).toEqual({ ...CHANGED, dbhost: "update", dbport: "update", imgsize: "update" });
  const warnings = (JSON.parse(preview.stdout) as { diagnostics?: Array<{ message: string; severity: string }> }).diagnostics ?? [];
  const said = warnings.filter((d) => d.message.includes("preview support is off"));
  expect(said).toHaveLength(1);
  expect(said[0]).toMatchObject({ severity: "warning" });
  expect(said[0]!.message).toContain("path: node_modules/pulumi-compute/plugins");

  // `pulumi-compute drift` passes the warning on.
  const drift = await ownShell(env, "npx pulumi-compute drift", plain);
  expectExit(drift, 0);
  expect(drift.out.match(/warning: pulumi-compute: preview support is off/g)).toHaveLength(1);

  const destroy = await pulumi("destroy --yes", {}, plain);
  expectExit(destroy, 0);
});

test("nothing is written beside the user's pulumi: the installation is byte-identical after this checkout's commands and the project's runs", async () => {
  for (const command of ["npm run -s env", "npm run build", "npm run demo"]) {
    const ran = await ownShell(env, command, REPO_ROOT, 900_000);
    expectExit(ran, 0);
    if (command === "npm run -s env") expect(ran.stdout).toContain(own.links);
  }
  expect({ install: folderSnapshot(own.install), links: folderSnapshot(own.links) }).toEqual(before);
});
