/**
 * Upgrading the package is day two too: a stack made, refreshed and left by the previous release
 * (0.1.0 of CHANGELOG.md, the commit below, built from this repository's history into a folder of
 * its own, whose provider process the engine starts with the launcher beside `pulumi`, as 0.1.0's
 * projects declared none) is taken over by this release, declared as the changelog's Upgrading
 * part says, with no write and no change: an empty preview, an `up` that sends nothing, a refresh
 * that finds nothing, and every input the program gave kept as it was.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { LocalWorkspace, ProjectSettings } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { Domain, DomainRecord, MysqlDatabase, Vpc, VpcSubnet } from "../../provider";
import { REPO_ROOT, createTestStack, type TestStack } from "../support/engine";
import { writesSince } from "../support/requests";

/** The previous release: 0.1.0 (CHANGELOG.md), never tagged. */
const PREVIOUS_RELEASE = "acac6b45ff777a2c7da8334fc08e5691075fbce3";

jest.setTimeout(900_000);

let emulator: RunningEmulator;
let client: ComputeClient;
let previous: string;
let s: TestStack | undefined;

/** The previous release's package in `dir`: its sources from git, this checkout's dependencies, compiled. */
function buildPrevious(dir: string): void {
  const parts = ["sdk", "emulator", "provider", "registry.js", "package.json", "tsconfig.json"];
  const archive = spawnSync("git", ["-C", REPO_ROOT, "archive", "--format=tar", PREVIOUS_RELEASE, ...parts], {
    maxBuffer: 256 * 1024 * 1024,
  });
  if (archive.status !== 0)
    throw new Error(`git archive ${PREVIOUS_RELEASE} failed (a clone with its history is needed): ${String(archive.stderr)}`);
  const untar = spawnSync("tar", ["-x", "-C", dir], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`tar failed: ${String(untar.stderr)}`);
  // Its node_modules: this checkout's packages, but `pulumi-compute` is the previous release itself.
  const modules = path.join(dir, "node_modules");
  fs.mkdirSync(modules);
  for (const entry of fs.readdirSync(path.join(REPO_ROOT, "node_modules"))) {
    if (entry === "pulumi-compute" || entry.startsWith(".")) continue;
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules", entry), path.join(modules, entry));
  }
  fs.symlinkSync("..", path.join(modules, "pulumi-compute"));
  const config = {
    extends: "./tsconfig.json",
    include: ["sdk", "emulator", "provider"],
    compilerOptions: { declaration: false, sourceMap: false, incremental: false },
  };
  fs.writeFileSync(path.join(dir, "tsconfig.previous.json"), JSON.stringify(config));
  const tsc = spawnSync(process.execPath, [path.join(REPO_ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.previous.json"], {
    cwd: dir,
    encoding: "utf8",
  });
  if (tsc.status !== 0) throw new Error(`compiling the previous release failed:\n${tsc.stdout}${tsc.stderr}`);
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, timeScale: 600 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  previous = fs.mkdtempSync(path.join(os.tmpdir(), "pc-previous-release-"));
  buildPrevious(previous);
});

afterAll(async () => {
  await s?.stack.destroy().catch(() => undefined);
  s?.cleanup();
  await client?.close();
  await emulator?.close();
  if (previous) fs.rmSync(previous, { recursive: true, force: true });
});

/** The README's shape: a network, a database reading the subnet, a zone and a record reading the database. */
async function program() {
  const vpc = new Vpc("app", { label: "upgrade-net", region: "us-iad", description: "kept" });
  const data = new VpcSubnet("data", { vpcId: vpc.id, label: "data", ipv4: "10.0.2.0/24" });
  const db = new MysqlDatabase("db", {
    label: "upgrade-db",
    region: "us-iad",
    type: "g6-nanode-1",
    engineId: "mysql/8",
    allowList: [data.ipv4],
    sslConnection: true,
  });
  const zone = new Domain("zone", { domain: "upgrade.example", type: "master", soaEmail: "ops@upgrade.example" });
  new DomainRecord("db", { domainId: zone.id, type: "CNAME", name: "db", target: db.hosts.apply((h) => h.primary) });
  return { dbPort: db.port };
}

/**
 * The project's package: the previous release's folder as its main, with no plugin declared (0.1.0
 * had none to declare); or this checkout, declared by `withComputePlugins` (the settings the stack
 * was made with).
 */
async function useRelease(stack: TestStack, settings: ProjectSettings, root: string): Promise<void> {
  const workspace = stack.stack.workspace as LocalWorkspace;
  if (root === REPO_ROOT) return workspace.saveProjectSettings(settings);
  const { plugins: _, ...rest } = settings as ProjectSettings & { plugins?: unknown };
  await workspace.saveProjectSettings({ ...rest, main: root });
}

test("a stack made and refreshed by the previous release: an empty preview, an up and a refresh that write and change nothing", async () => {
  s = await createTestStack({ name: "upgrade", program, apiUrl: emulator.url, token: emulator.token });
  const current = await (s.stack.workspace as LocalWorkspace).projectSettings();
  await useRelease(s, current, previous);
  const made = await s.stack.up();
  expect(made.summary.resourceChanges).toEqual({ create: 6 });
  await s.stack.refresh();
  const before = new Map(s.resources().map((r) => [r.urn, r.inputs ?? {}]));

  await useRelease(s, current, REPO_ROOT);
  const mark = emulator.control.listRequests().length;
  const preview = await s.stack.preview();
  expect(preview.changeSummary).toEqual({ same: 6 });
  const up = await s.stack.up();
  expect(up.summary.resourceChanges).toEqual({ same: 6 });
  const refresh = await s.stack.refresh();
  expect(refresh.summary.resourceChanges).toEqual({ same: 6 });
  expect(writesSince(emulator, mark)).toEqual([]);
  // The refresh of this release records inputs as the API holds them: with no drift, each the
  // program gave keeps its value (the dynamic door's read sees the outputs, which hold every input field).
  const ours = s.resources().filter((r) => r.type.includes("compute:"));
  expect(ours).toHaveLength(5);
  for (const r of ours) expect(r.inputs ?? {}).toMatchObject(before.get(r.urn) ?? {});
  expect(Object.keys((await s.stack.preview()).changeSummary)).toEqual(["same"]);
  expect((await client.vpcs.listAll()).map((v) => v.label)).toEqual(["upgrade-net"]);
});
