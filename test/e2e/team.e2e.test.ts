/**
 * A team: every stack in PostgreSQL (the engine's `postgres://` diy backend, on a server this test
 * starts), a network stack and three app stacks reading it through `StackReference`s, the apps'
 * `up`s at once against one emulator account that enforces the documented rate limits, the
 * backend's lock refusing a second runner, `pulumi-compute drift --all` over the fleet (exit
 * codes, JSON, JUnit, a busy stack, a stack it cannot check), a runner killed mid-`up` brought
 * back by `pulumi-compute recover` (its lock a row of the database), and destroy in dependency
 * order.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawn } from "node:child_process";
import { setTimeout as delay } from "node:timers/promises";
import type { Stack } from "@pulumi/pulumi/automation";
import { readLocks } from "../../provider/stores/backend-store";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { REPO_ROOT } from "../support/engine";
import { alive, killTree, runProcess } from "../support/process";
import { startPostgres, type RunningPostgres } from "../support/postgres";
import { heldRequestsDone } from "../support/requests";
import { linkedProject } from "../support/user-shell";
import { NETWORK, TEAM_STACK, appProgram, networkProgram, teamEnv, teamStack, type Team } from "../support/team";

jest.setTimeout(900_000);

const APPS = ["app-a", "app-b", "app-c"];
/** Records per app: small here; `npm run bench -- team` runs the big numbers. */
const RECORDS = 8;
const ZONE = "team.example";

let postgres: RunningPostgres;
let emulator: RunningEmulator;
let client: ComputeClient;
let team: Team;
let network: Stack;
const apps = new Map<string, Stack>();
let zoneId: number;

beforeAll(async () => {
  postgres = await startPostgres();
  emulator = await startEmulator({ port: 0, rateLimits: true });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "pc-team-"));
  team = teamEnv(root, postgres.url, emulator);
  network = await teamStack(team, NETWORK, networkProgram(ZONE));
  // Created one after the other: the first also creates the backend's table.
  for (const app of APPS) apps.set(app, await teamStack(team, app, appProgram(app, RECORDS)));
});

afterAll(async () => {
  // Whatever a failed test left: apps first, then the network they read.
  await Promise.all([...apps.values()].map((s) => s.destroy().catch(() => undefined)));
  await network?.destroy().catch(() => undefined);
  if (team) fs.rmSync(team.root, { recursive: true, force: true });
  await client?.close();
  await emulator?.close();
  await postgres?.stop();
});

const zoneRecords = async () => (await client.domains.records.listAll(zoneId)).filter((r) => r.type === "A");
const names = (records: { name: string }[]) => records.map((r) => r.name).sort();
const expectedNames = (apps: string[]) => apps.flatMap((app) => Array.from({ length: RECORDS }, (_, i) => `${app}-${i}`)).sort();

/** `pulumi-compute drift …` as a runner runs it, from the repository folder holding the projects. */
const drift = (...args: string[]) =>
  runProcess(process.execPath, [path.join(REPO_ROOT, "dist/provider/cli/main.js"), "drift", "--cwd", team.root, ...args], {
    env: { ...process.env, ...team.env },
    timeoutMs: 600_000,
  });

test("state lives in PostgreSQL; the apps' ups run at once under the account's rate limits", async () => {
  const up = await network.up();
  expect(up.summary.result).toBe("succeeded");
  zoneId = Number(up.outputs.domainId!.value);

  const ups = await Promise.all([...apps.values()].map((s) => s.up()));
  expect(ups.map((u) => u.summary.result)).toEqual(["succeeded", "succeeded", "succeeded"]);
  // Each app read the zone through its StackReference; each record exactly once.
  expect(ups.map((u) => u.outputs.zone!.value)).toEqual([ZONE, ZONE, ZONE]);
  expect(names(await zoneRecords())).toEqual(expectedNames(APPS));
  // The server answered 429 to nobody the engine reported: any refusal was paced and retried.
  expect(ups.flatMap((u) => u.stdout.match(/error:.*/g) ?? [])).toEqual([]);

  // The state is in the database, one checkpoint per stack, and no file backend was used.
  const keys = (await postgres.sql("SELECT key FROM pulumi_state WHERE key LIKE 'postgres/.pulumi/stacks/%.json' ORDER BY key")).split(
    "\n",
  );
  expect(keys).toEqual([NETWORK, ...APPS].map((p) => `postgres/.pulumi/stacks/${p}/${TEAM_STACK}.json`).sort());
  const exported = await apps.get("app-a")!.exportStack();
  expect(exported.deployment.resources.filter((r: { type: string }) => r.type.endsWith("DomainRecord"))).toHaveLength(RECORDS);
});

test("a second up of a stack that is running is refused by the lock, and nothing changes", async () => {
  // Runner 1's program waits on a gate, so its update holds the lock for as long as the test needs.
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const runner1 = await teamStack(team, "app-a", async () => {
    started();
    await gate;
    return appProgram("app-a", RECORDS)();
  });
  const first = runner1.up();
  await running;

  // Runner 2 (its own workspace) would add a record; the backend refuses it before any API call.
  const runner2 = await teamStack(team, "app-a", appProgram("app-a", RECORDS + 1));
  emulator.control.clearRequests();
  const second = await runner2.up().then(
    () => "succeeded",
    (error: Error) => error.message,
  );
  expect(second).toMatch(/the stack is currently locked by 1 lock\(s\)/);
  expect(emulator.control.listRequests()).toEqual([]);

  open();
  const result = await first;
  expect(result.summary.result).toBe("succeeded");
  expect(Object.keys(result.summary.resourceChanges ?? {})).toEqual(["same"]);
  expect(names(await zoneRecords())).toEqual(expectedNames(APPS));
});

test("drift --all: every stack of the backend clean, exit 0, JSON and JUnit", async () => {
  const junit = path.join(team.root, "drift.xml");
  const result = await drift("--all", "--json", "--junit", junit);
  expect(result.code).toBe(0);
  const report = JSON.parse(result.stdout);
  expect(report.summary).toEqual({ clean: 4, drift: 0, busy: 0, error: 0 });
  expect(report.stacks.map((s: { stack: string; resources: number }) => [s.stack, s.resources])).toEqual([
    ["organization/app-a/prod", RECORDS],
    ["organization/app-b/prod", RECORDS],
    ["organization/app-c/prod", RECORDS],
    ["organization/network/prod", 4],
  ]);
  // Progress on stderr: which stack, how many done.
  expect(result.out).toContain("[drift] 4 stack(s), 4 at a time");
  expect(result.out).toMatch(/\[drift\] \[4\/4\] organization\/\S+\/prod: no drift/);
  const xml = fs.readFileSync(junit, "utf8");
  expect(xml).toContain('<testsuites name="pulumi-compute drift" tests="4" failures="0" errors="0" skipped="0"');
  expect(xml.match(/<testcase classname="[^"]+" name="organization\/[^"]+\/prod" time="[\d.]+"\/>/g)).toHaveLength(4);
});

test("a change behind Pulumi's back in one app: exit 2, naming that stack, resource and field only", async () => {
  const record = (await zoneRecords()).find((r) => r.name === "app-b-3")!;
  await client.domains.records.update(zoneId, record.id, { target: "192.0.2.77" });

  const json = await drift("--all", "--json", "--parallel", "2");
  expect(json.code).toBe(2);
  const report = JSON.parse(json.stdout);
  expect(report.summary).toEqual({ clean: 3, drift: 1, busy: 0, error: 0 });
  const drifted = report.stacks.filter((s: { drift: unknown[] }) => s.drift.length > 0);
  expect(drifted).toEqual([
    expect.objectContaining({
      stack: "organization/app-b/prod",
      status: "drift",
      drift: [{ resource: "r3", type: "DomainRecord", field: "target", state: "10.0.0.3", cloud: "192.0.2.77" }],
    }),
  ]);
  expect(json.out).toContain("[drift] 4 stack(s), 2 at a time");

  const junit = path.join(team.root, "drift.xml");
  const text = await drift("--all", "--junit", junit);
  expect(text.code).toBe(2);
  expect(text.stdout).toContain("Drift in stack organization/app-b/prod: 1 field(s) of 1 resource(s) differ from state.");
  expect(text.stdout).toMatch(/DomainRecord r3\s+target\s+"10\.0\.0\.3"\s+"192\.0\.2\.77"/);
  expect(text.stdout.match(/^Drift in stack/gm)).toHaveLength(1);
  expect(text.stdout).toMatch(/^organization\/app-b\/prod\s+drift\s+8\s+1\s/m);
  expect(text.stdout).toContain("4 stack(s): 3 without drift, 1 drifted, 0 busy, 0 failed.");
  const xml = fs.readFileSync(junit, "utf8");
  expect(xml).toContain('tests="4" failures="1" errors="0" skipped="0"');
  expect(xml).toMatch(/<testcase classname="app-b" name="organization\/app-b\/prod"[^>]*>\n\s+<failure type="drift"/);

  // --stacks checks only those named.
  const some = await drift("--stacks", "network/prod,app-a/prod", "--json");
  expect(some.code).toBe(0);
  expect(JSON.parse(some.stdout).stacks.map((s: { stack: string }) => s.stack)).toEqual([
    "organization/network/prod",
    "organization/app-a/prod",
  ]);
});

test("a stack whose lock another runner holds is busy, not failed", async () => {
  // Another runner's update of app-c, held inside its program: its lock is in the backend meanwhile.
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const runner = await teamStack(team, "app-c", async () => {
    started();
    await gate;
    return appProgram("app-c", RECORDS)();
  });
  const held = runner.up();
  try {
    await running;
    expect(await postgres.sql("SELECT count(*) FROM pulumi_state WHERE key LIKE 'postgres/.pulumi/locks/organization/app-c/prod/%'")).toBe(
      "1",
    );
    const result = await drift("--all", "--json", "--junit", path.join(team.root, "busy.xml"));
    expect(result.code).toBe(2); // app-b's drift; the busy stack is no failure
    const report = JSON.parse(result.stdout);
    expect(report.summary).toEqual({ clean: 2, drift: 1, busy: 1, error: 0 });
    const busy = report.stacks.find((s: { stack: string }) => s.stack === "organization/app-c/prod");
    expect(busy.status).toBe("busy");
    expect(busy.message).toMatch(/^the stack is currently locked by 1 lock\(s\)\. .*\n {2}created by \S+@\S+ \(pid \d+\) at /);
    expect(fs.readFileSync(path.join(team.root, "busy.xml"), "utf8")).toMatch(
      /name="organization\/app-c\/prod"[^>]*>\n\s+<skipped message="busy: /,
    );
    expect((await drift("--stacks", "app-a/prod,app-c/prod")).code).toBe(0);
  } finally {
    open();
    expect((await held).summary.result).toBe("succeeded");
  }
  // The update ended and took its lock with it: the stack is checked again.
  const again = await drift("--stacks", "app-c/prod", "--json");
  expect(again.code).toBe(0);
  expect(JSON.parse(again.stdout).stacks[0]).toMatchObject({ stack: "organization/app-c/prod", status: "clean", resources: RECORDS });
});

test("a stack that cannot be checked is an error: exit 1", async () => {
  // Its project folder is gone from the checkout: the stack is still in the backend.
  const folder = path.join(team.root, "app-c");
  const moved = `${team.root}-app-c`; // out of the checkout
  fs.renameSync(folder, moved);
  try {
    const result = await drift("--all", "--json");
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.summary).toEqual({ clean: 2, drift: 1, busy: 0, error: 1 });
    expect(report.stacks.find((s: { stack: string }) => s.stack === "organization/app-c/prod")).toMatchObject({
      status: "error",
      message: expect.stringContaining("no project folder for project app-c"),
    });
  } finally {
    fs.renameSync(moved, folder);
  }
  const unknown = await drift("--stacks", "app-z/prod");
  expect(unknown.code).toBe(1);
  expect(unknown.out).toContain("no stack app-z/prod in the backend");
});

test("a runner killed mid-up: recover removes its lock row and adopts the creates in flight; the next up makes each record once", async () => {
  // A project run with the pulumi CLI, as a CI job runs it, on the same postgres:// backend.
  const project = path.join(team.root, "app-k");
  linkedProject(project, {
    name: "app-k",
    backendUrl: team.backendUrl,
    program:
      `const compute = require("pulumi-compute");\n` +
      `for (const i of [0, 1, 2]) new compute.DomainRecord("r" + i, { domainId: ${zoneId}, type: "A", name: "app-k-" + i, target: "10.0.9." + i });\n`,
  });
  const env = { ...process.env, ...team.env };
  const run = (command: string, args: string[]) => runProcess(command, args, { cwd: project, env, timeoutMs: 300_000 });
  const pulumi = (...args: string[]) => run("pulumi", args);
  expect((await pulumi("stack", "init", TEAM_STACK)).code).toBe(0);

  // The three creates are held in the emulator; once all three have arrived, the runner dies.
  emulator.control.clearRequests();
  emulator.control.addFault({ method: "POST", pathPattern: `/v4/domains/${zoneId}/records`, kind: "latency", latencyMs: 4_000 });
  const child = spawn("pulumi", ["up", "--yes", "--skip-preview"], { cwd: project, env, detached: true, stdio: "ignore" });
  const closed = new Promise((resolve) => child.on("close", resolve));
  const creates = () => emulator.control.listRequests().filter((r) => r.method === "POST" && r.path.endsWith("/records")).length;
  for (let waited = 0; creates() < 3; waited += 25) {
    if (child.exitCode !== null || waited > 300_000)
      throw new Error(`pulumi up ended (exit ${child.exitCode}) before its creates were sent`);
    await delay(25);
  }
  const tree = killTree(child.pid!);
  await closed;
  for (let i = 0; i < 100 && tree.some(alive); i++) await delay(50);
  expect(tree.filter(alive)).toEqual([]);
  await heldRequestsDone(emulator, 5_000); // the held creates are carried out with nobody waiting for them
  emulator.control.clearFaults();
  expect(await readLocks(team.backendUrl, "organization/app-k/prod")).toEqual([expect.objectContaining({ pid: child.pid })]);

  const recovered = await run(process.execPath, [path.join(REPO_ROOT, "dist/provider/cli/main.js"), "recover", "--yes"]);
  expect(recovered.code).toBe(0);
  const lines = recovered.stdout.trim().split("\n");
  expect(lines).toContainEqual(
    expect.stringMatching(
      new RegExp(
        `^lock postgres/\\.pulumi/locks/organization/app-k/prod/\\S+\\.json: held by .* \\(pid ${child.pid}\\).*; process ${child.pid} is gone: removed$`,
      ),
    ),
  );
  expect(lines.filter((l) => /^DomainRecord r\d: adopted id \d+/.test(l))).toHaveLength(3);
  expect(await readLocks(team.backendUrl, "organization/app-k/prod")).toEqual([]);

  const up = await pulumi("up", "--yes", "--skip-preview");
  expect(up.code).toBe(0);
  const mine = (await zoneRecords()).filter((r) => r.name.startsWith("app-k-"));
  expect(names(mine)).toEqual(["app-k-0", "app-k-1", "app-k-2"]);
  expect((await pulumi("preview", "--expect-no-changes")).code).toBe(0);
  expect((await pulumi("destroy", "--yes", "--skip-preview")).code).toBe(0);
  expect((await zoneRecords()).filter((r) => r.name.startsWith("app-k-"))).toEqual([]);
  expect((await pulumi("stack", "rm", "--yes", TEAM_STACK)).code).toBe(0);
});

test("destroy in dependency order leaves nothing", async () => {
  const destroyed = await Promise.all([...apps.values()].map((s) => s.destroy()));
  expect(destroyed.map((d) => d.summary.result)).toEqual(["succeeded", "succeeded", "succeeded"]);
  expect(await zoneRecords()).toEqual([]);
  expect((await network.destroy()).summary.result).toBe("succeeded");
  expect(await client.domains.listAll()).toEqual([]);
  expect(await client.vpcs.listAll()).toEqual([]);
  expect(await client.networking.firewalls.listAll()).toEqual([]);
  for (const stack of [network, ...apps.values()]) {
    const state = await stack.exportStack();
    expect((state.deployment.resources ?? []).filter((r: { type: string }) => !r.type.startsWith("pulumi:"))).toEqual([]);
  }
});
