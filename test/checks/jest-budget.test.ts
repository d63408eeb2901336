/**
 * The suite's budget holds itself (scripts/jest-run.js, which `npm test` runs): a jest run over
 * its budget fails after its tests, naming the slowest and the costliest files, and a run within
 * it passes with the same report. Run here on one small test file of the suite.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../support/engine";

jest.setTimeout(120_000);

const FILE = "test/sdk/core/redaction.test.ts";

/** jest-run.js on FILE (or other arguments), exec'd from a shell that first ran `before` (as scripts/run.sh runs the set-up). */
function jestRun(budgetMinutes: string, before = ":", args = FILE) {
  const script = `${before}\nexec "$NODE" scripts/jest-run.js ${args}`;
  const result = spawnSync("bash", ["-c", script], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    env: { ...process.env, NODE: process.execPath, PULUMI_COMPUTE_JEST_BUDGET_MINUTES: budgetMinutes },
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

test("a run within its budget passes, with the slowest and the costliest files by CPU", () => {
  const { code, out } = jestRun("30");
  expect({ code, tail: out.slice(-1500) }).toMatchObject({ code: 0 });
  expect(out).toMatch(new RegExp(`slowest test files \\(1 of 1\\):\\n +[\\d.]+ s +[\\d.]+ s CPU  ${FILE} \\(\\d+ tests\\)`));
  expect(out).toMatch(new RegExp(`costliest test files by CPU \\(1 of 1, 0 min \\d+ s in all\\):\\n +[\\d.]+ s CPU +[\\d.]+ s  ${FILE}`));
  expect(out).toMatch(/jest took 0 min \d+ s \(budget 30 min\)\n/);
  expect(out).toMatch(/\ntests: \d+ passed, 0 failed, 0 skipped\n/);
});

test("a run over its budget fails after its tests, saying so and what to do", () => {
  const { code, out } = jestRun("0.0001");
  expect(code).toBe(1);
  expect(out).toContain("(budget 0.0001 min): OVER BUDGET");
  expect(out).toMatch(/over its budget of 0\.0001 min: make the slowest files above faster/);
  expect(out).toMatch(/\ntests: \d+ passed, 0 failed, 0 skipped\n/);
});

test("the CPU it reports is jest's alone, not what the shell that exec'd it ran before (the set-up)", () => {
  // Two cores busy for two seconds: four seconds of CPU before jest starts.
  const burn = "burn() { timeout 2 sh -c 'while :; do :; done'; }\nburn & burn; wait";
  const { code, out } = jestRun("30", burn);
  expect(code).toBe(0);
  const [, minutes, seconds, cores, share] = /CPU used: (\d+) min (\d+) s on (\d+) cores, (\d+)% of what they could give/.exec(out) ?? [];
  expect({ cpuSeconds: Number(minutes) * 60 + Number(seconds) < 4, cores: Number(cores) > 0, withinCores: Number(share) <= 100 }).toEqual({
    cpuSeconds: true,
    cores: true,
    withinCores: true,
  });
});

test.each([
  ["skipped", 'test("runs", () => expect(1).toBe(1));\ntest.skip("skipped", () => expect(1).toBe(1));\n', "1 passed, 0 failed, 1 skipped"],
  [
    "focused",
    'test.only("focused", () => expect(1).toBe(1));\ntest("left out", () => expect(1).toBe(1));\n',
    "1 passed, 0 failed, 1 skipped",
  ],
  ["todo", 'test("runs", () => expect(1).toBe(1));\ntest.todo("later");\n', "1 passed, 0 failed, 1 skipped"],
])("a %s test fails the run, naming its file", (_kind, source, counts) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pc-jest-skip-"));
  try {
    fs.writeFileSync(path.join(dir, "marked.test.ts"), source);
    const { code, out } = jestRun("30", ":", `--roots ${dir}`);
    expect(code).toBe(1);
    expect(out).toContain(`\ntests: ${counts}\n`);
    expect(out).toMatch(
      /1 test\(s\) did not run \(skipped, todo, or left out by a focused test\) in \S*marked\.test\.ts: remove the skip or the focus/,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
