// Runs jest and ends with one plain summary line (`tests: N passed, N failed, N skipped`),
// which CI reads; jest's own summary stays above it. Before it: the ten slowest test files, the
// ten costliest by CPU, and the run's time against its budget (25 minutes on two cores, the
// suite's target, docs/toolchain.md; another with PULUMI_COMPUTE_JEST_BUDGET_MINUTES). A run over
// budget fails, so the suite cannot drift back.
// The exit code is jest's, or 1 when jest passed but took longer than the budget or a test did
// not run (skipped, todo, or left out by a focused `.only`).
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { procCpuMs } = require("./proc-cpu");

const root = path.resolve(__dirname, "..");
const DEFAULT_BUDGET_MINUTES = 25;
const budgetMinutes = Number(process.env.PULUMI_COMPUTE_JEST_BUDGET_MINUTES || DEFAULT_BUDGET_MINUTES);
if (!(budgetMinutes > 0)) {
  console.error(
    `PULUMI_COMPUTE_JEST_BUDGET_MINUTES must be a positive number of minutes, not ${process.env.PULUMI_COMPUTE_JEST_BUDGET_MINUTES}`,
  );
  process.exit(64);
}
const SLOWEST = 10;

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "jest-"));
const report = path.join(scratch, "report.json");
// Each test file's CPU, written by the test environment (scripts/jest-cpu-environment.js).
const cpuDir = path.join(scratch, "cpu");
fs.mkdirSync(cpuDir);
// What the run's test files make once and share (the packed package, an installed project:
// test/support/installed-project.ts), removed after the run.
const runDir = path.join(scratch, "run");
fs.mkdirSync(runDir);
// What this process's children used before jest: `scripts/run.sh` execs into this script after the
// set-up, and an exec'd process keeps the CPU its shell's children used (the engine build too).
const cpuBeforeMs = childrenCpuMs();
const started = Date.now();
const result = spawnSync(
  process.execPath,
  [path.join(root, "node_modules/jest/bin/jest.js"), "--json", `--outputFile=${report}`, ...process.argv.slice(2)],
  { cwd: root, stdio: "inherit", env: { ...process.env, PULUMI_COMPUTE_JEST_CPU_DIR: cpuDir, PULUMI_COMPUTE_TEST_RUN_DIR: runDir } },
);
fs.rmSync(runDir, { recursive: true, force: true });
const elapsedMs = Date.now() - started;
let code = result.status ?? 1;

const minutes = (ms) => `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;

/**
 * The CPU time (ms) of this process's waited-for children (jest, its workers, and what they ran
 * and waited for: the engine, its plugins); undefined where there is no /proc. Beside the wall
 * time it says whether the cores were busy all along, or whether the run waited (then more jest
 * workers would help, where more tests on busy cores would not).
 */
function childrenCpuMs() {
  return procCpuMs({ self: false, children: true });
}

/** Each test file's CPU (ms, by its path from the root), as the test environment wrote it down. */
function filesCpuMs() {
  const cpu = new Map();
  for (const name of fs.readdirSync(cpuDir)) {
    for (const line of fs.readFileSync(path.join(cpuDir, name), "utf8").split("\n").filter(Boolean)) {
      const { file, cpuMs } = JSON.parse(line);
      cpu.set(path.relative(root, file), cpuMs);
    }
  }
  return cpu;
}

try {
  const r = JSON.parse(fs.readFileSync(report, "utf8"));
  const files = r.testResults
    .map((t) => ({ file: path.relative(root, t.name), ms: t.endTime - t.startTime, tests: t.assertionResults.length }))
    .sort((a, b) => b.ms - a.ms);
  const cpu = filesCpuMs();
  const cpuOf = (f) => (cpu.has(f.file) ? `${(cpu.get(f.file) / 1000).toFixed(1).padStart(7)} s CPU` : "");
  console.log(`slowest test files (${Math.min(SLOWEST, files.length)} of ${files.length}):`);
  for (const f of files.slice(0, SLOWEST))
    console.log(`  ${(f.ms / 1000).toFixed(1).padStart(7)} s  ${cpuOf(f)}  ${f.file} (${f.tests} tests)`);
  // With several files at once, a file's wall time moves with its neighbours; its CPU does not.
  const costliest = files.filter((f) => cpu.has(f.file)).sort((a, b) => cpu.get(b.file) - cpu.get(a.file));
  if (costliest.length > 0) {
    const total = [...cpu.values()].reduce((a, b) => a + b, 0);
    console.log(`costliest test files by CPU (${Math.min(SLOWEST, costliest.length)} of ${costliest.length}, ${minutes(total)} in all):`);
    for (const f of costliest.slice(0, SLOWEST)) console.log(`  ${cpuOf(f)}  ${(f.ms / 1000).toFixed(1).padStart(7)} s  ${f.file}`);
  }
  // A long file the sequencer does not know would start after the known ones on a clean clone.
  const { ciMs, LONG_SECONDS } = require("./jest-sequencer");
  const unknown = files.filter((f) => f.ms > LONG_SECONDS * 1000 && ciMs(path.join(root, f.file)) === undefined);
  for (const f of unknown)
    console.log(
      `${f.file} took ${(f.ms / 1000).toFixed(0)} s and is not in scripts/jest-ci-seconds.json: add it (its seconds on CI) so it starts among the first`,
    );
  const over = elapsedMs > budgetMinutes * 60_000;
  console.log(`jest took ${minutes(elapsedMs)} (budget ${budgetMinutes} min)${over ? ": OVER BUDGET" : ""}`);
  const cpuAfterMs = childrenCpuMs();
  if (cpuAfterMs !== undefined && cpuBeforeMs !== undefined) {
    const cpuMs = cpuAfterMs - cpuBeforeMs;
    const cores = os.availableParallelism();
    const busy = Math.round((100 * cpuMs) / (elapsedMs * cores));
    console.log(`CPU used: ${minutes(cpuMs)} on ${cores} cores, ${busy}% of what they could give in that time`);
  }
  if (over) {
    console.error(
      `the jest run took ${minutes(elapsedMs)}, over its budget of ${budgetMinutes} min: make the slowest files above faster (docs/toolchain.md, Tests)`,
    );
    code = code || 1;
  }
  const skipped = r.numPendingTests + r.numTodoTests;
  if (skipped > 0) {
    // A skipped test is not a pass, and a focused one (`.only`) skips the rest of its file.
    const files = r.testResults.filter((f) => f.assertionResults.some((a) => a.status === "pending" || a.status === "todo"));
    console.error(
      `${skipped} test(s) did not run (skipped, todo, or left out by a focused test) in ${files.map((f) => path.relative(root, f.name)).join(", ")}: ` +
        "remove the skip or the focus; a test that cannot run here must fail saying why",
    );
    code = code || 1;
  }
  console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
  if (r.numTotalTests === 0) {
    console.error("no test ran");
    code = 1;
  }
} catch {
  console.error("jest wrote no report");
  code = code || 1;
}
process.exit(code);
