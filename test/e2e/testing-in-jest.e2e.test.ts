/**
 * `pulumi-compute/testing` in a project's own jest (this checkout's jest, run as a child in a project
 * of its own, with a temporary folder of its own as `TMPDIR`), with test files that use it as a
 * user's would: the built package, plain JavaScript, `await using`.
 * - Parallel workers do not collide: two files on two workers make the same stack (same project,
 *   stack, resource names and labels) at the same time, each on an account of its own.
 * - A failing test leaves nothing behind: tests fail in every way a test with an emulated stack can
 *   (an assertion after `up`, an exception while an `up` is running, a timeout in the middle of an
 *   `up`, its worker then stopped by jest), and afterwards no process started under that run is
 *   alive and its temporary folder holds nothing.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../support/engine";
import { runProcess } from "../support/process";

jest.setTimeout(600_000);

const bases: string[] = [];
afterAll(() => {
  for (const base of bases) fs.rmSync(base, { recursive: true, force: true });
});

/** Ids of processes whose environment holds `entry` (`NAME=value`). */
function processesWith(entry: string): number[] {
  const mark = Buffer.from(`${entry}\0`);
  return fs.readdirSync("/proc").flatMap((name) => {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) return [];
    try {
      return fs.readFileSync(`/proc/${pid}/environ`).includes(mark) ? [pid] : [];
    } catch {
      return [];
    }
  });
}

const PROGRAM = `
const compute = require("pulumi-compute");
const { emulatedStack } = require("pulumi-compute/testing");
/** The README's program, at the API's real timing: its database provisions for minutes. */
const program = async () => {
  const vpc = new compute.Vpc("app", { label: "app-net", region: "us-iad" });
  const data = new compute.VpcSubnet("data", { vpcId: vpc.id, label: "data", ipv4: "10.0.2.0/24" });
  new compute.MysqlDatabase("db", { label: "app-db", region: "us-iad", type: "g6-nanode-1", engineId: "mysql/8", allowList: [data.ipv4] });
};
/** Resolves once the up is in the middle of the database's create (the engine, the program and the provider all running). */
const midUp = async (stack) => {
  while ((await stack.client.databases.mysql.listAll()).length === 0) await new Promise((r) => setTimeout(r, 100));
};
module.exports = { compute, emulatedStack, program, midUp };
`;

const FAILS = `
const { compute, emulatedStack, program, midUp } = require("./program");
jest.setTimeout(120000);

test("an assertion fails after up", async () => {
  await using stack = await emulatedStack(async () => { new compute.Vpc("app", { label: "app-net", region: "us-iad" }); });
  await stack.up();
  expect((await stack.client.vpcs.listAll()).map((v) => v.label)).toEqual(["another-label"]);
});

test("an exception while an up is running", async () => {
  await using stack = await emulatedStack(program, { timeScale: 1 });
  stack.up().catch(() => undefined);
  await midUp(stack);
  throw new Error("the test failed in the middle of an up");
});
`;

const TIMES_OUT = `
const { emulatedStack, program, midUp } = require("./program");

test("a test that times out in the middle of an up", async () => {
  await using stack = await emulatedStack(program, { timeScale: 1 });
  const up = stack.up();
  await midUp(stack);
  require("fs").writeFileSync(require("path").join(__dirname, "mid-up"), "");
  await up;
}, 60000);
`;

/** A project of its own holding `files` (with the shared program), run by jest on two workers; what it printed, its folders. */
async function runProjectJest(
  files: Record<string, string>,
): Promise<{ code: number | null; out: string; base: string; project: string; tmp: string }> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-testing-jest-"));
  bases.push(base);
  const project = path.join(base, "project");
  const tmp = path.join(base, "tmp");
  fs.mkdirSync(project);
  fs.mkdirSync(tmp);
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(project, "node_modules"));
  fs.writeFileSync(path.join(project, "program.js"), PROGRAM);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(project, name), text);
  // Plain JavaScript, as written: no transform.
  fs.writeFileSync(path.join(project, "jest.config.js"), 'module.exports = { testEnvironment: "node", transform: {} };\n');
  const run = await runProcess(
    process.execPath,
    // Two files on two workers: they run at once, and jest stops a worker that does not exit.
    [path.join(REPO_ROOT, "node_modules/jest/bin/jest.js"), "--maxWorkers=2", "--cacheDirectory", path.join(base, "jest-cache"), "--ci"],
    { cwd: project, env: { ...process.env, TMPDIR: tmp, PC_TESTING_RUN: base }, timeoutMs: 540_000 },
  );
  return { ...run, base, project, tmp };
}

/** Nothing started under the run is alive (no CLI, language host, provider plugin or worker), and its temporary folder is empty. */
async function expectNothingLeft(run: { base: string; tmp: string }): Promise<void> {
  const mark = `PC_TESTING_RUN=${run.base}`;
  for (let i = 0; i < 50 && processesWith(mark).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
  expect(processesWith(mark)).toEqual([]);
  expect(fs.readdirSync(run.tmp)).toEqual([]);
}

const SAME_STACK = (file: string) => `
const fs = require("fs");
const path = require("path");
const { compute, emulatedStack } = require("./program");
jest.setTimeout(120000);

test("the same stack as the other file's, at the same time, on an account of its own", async () => {
  await using stack = await emulatedStack(async () => {
    new compute.Vpc("app", { label: "app-net", region: "us-iad" });
  }, { projectName: "same-project", stackName: "dev" });
  const started = Date.now();
  await stack.up();
  expect((await stack.client.vpcs.listAll()).map((v) => v.label)).toEqual(["app-net"]);
  await stack.destroy();
  fs.writeFileSync(path.join(__dirname, "${file}.times"), JSON.stringify([started, Date.now()]));
});
`;

test("two workers make the same stack at the same time, each on an account of its own, and leave nothing", async () => {
  const run = await runProjectJest({ "a.test.js": SAME_STACK("a"), "b.test.js": SAME_STACK("b") });
  expect(run.out).toMatch(/Tests:\s+2 passed, 2 total/);
  // Their ups overlapped: each began before the other ended.
  const [a, b] = ["a", "b"].map((f) => JSON.parse(fs.readFileSync(path.join(run.project, `${f}.times`), "utf8")) as [number, number]);
  expect(a![0]).toBeLessThan(b![1]);
  expect(b![0]).toBeLessThan(a![1]);
  await expectNothingLeft(run);
});

test("after jest has run failing tests that use emulated stacks, no process and no temporary file of theirs is left", async () => {
  const run = await runProjectJest({ "fails.test.js": FAILS, "times-out.test.js": TIMES_OUT });
  // Every test failed, each its own way; the timed-out one was in the middle of its up.
  expect(run.code).toBe(1);
  expect(run.out).toMatch(/an assertion fails after up/);
  expect(run.out).toMatch(/the test failed in the middle of an up/);
  expect(run.out).toMatch(/Exceeded timeout of 60000 ms/);
  expect(run.out).toMatch(/Tests:\s+3 failed, 3 total/);
  expect(fs.existsSync(path.join(run.project, "mid-up"))).toBe(true);
  await expectNothingLeft(run);
});
