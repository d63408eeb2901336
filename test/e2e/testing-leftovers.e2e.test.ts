/**
 * A failing test leaves nothing behind. A project's own jest (this checkout's, run as a child with
 * a temporary folder of its own as `TMPDIR`) runs test files that use `pulumi-compute/testing` as a
 * user's would — the built package, plain JavaScript, `await using` — and fail in every way a
 * test with an emulated stack can: an assertion after `up`, an exception while an `up` is running,
 * a test that times out in the middle of an `up` (its worker then stopped by jest). Afterwards no
 * process started under that run is alive, and its temporary folder holds nothing but what jest
 * itself keeps there.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../support/engine";
import { runProcess } from "../support/process";

jest.setTimeout(600_000);

let base: string;
afterAll(() => base && fs.rmSync(base, { recursive: true, force: true }));

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

test("after jest has run failing tests that use emulated stacks, no process and no temporary file of theirs is left", async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-leftovers-e2e-"));
  const project = path.join(base, "project");
  const tmp = path.join(base, "tmp");
  fs.mkdirSync(project);
  fs.mkdirSync(tmp);
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(project, "node_modules"));
  fs.writeFileSync(path.join(project, "program.js"), PROGRAM);
  fs.writeFileSync(path.join(project, "fails.test.js"), FAILS);
  fs.writeFileSync(path.join(project, "times-out.test.js"), TIMES_OUT);
  // Plain JavaScript, as written: no transform.
  fs.writeFileSync(path.join(project, "jest.config.js"), 'module.exports = { testEnvironment: "node", transform: {} };\n');

  const mark = `PC_LEFTOVERS_RUN=${base}`;
  const run = await runProcess(
    process.execPath,
    [
      path.join(REPO_ROOT, "node_modules/jest/bin/jest.js"),
      // Two files on two workers: jest stops a worker that does not exit, as it does with a timed-out test's.
      "--maxWorkers=2",
      "--cacheDirectory",
      path.join(base, "jest-cache"),
      "--ci",
    ],
    { cwd: project, env: { ...process.env, TMPDIR: tmp, PC_LEFTOVERS_RUN: base }, timeoutMs: 540_000 },
  );
  // Every test failed, each its own way; the timed-out one was in the middle of its up.
  expect(run.code).toBe(1);
  expect(run.out).toMatch(/an assertion fails after up/);
  expect(run.out).toMatch(/the test failed in the middle of an up/);
  expect(run.out).toMatch(/Exceeded timeout of 60000 ms/);
  expect(run.out).toMatch(/Tests:\s+3 failed, 3 total/);
  expect(fs.existsSync(path.join(project, "mid-up"))).toBe(true);

  // Nothing started under the run is alive: no CLI, language host, provider plugin or worker.
  for (let i = 0; i < 50 && processesWith(mark).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
  expect(processesWith(mark)).toEqual([]);
  // The run's temporary folder is empty: no stack folder, no workspace, no state, no Pulumi temporary file.
  expect(fs.readdirSync(tmp)).toEqual([]);
});
