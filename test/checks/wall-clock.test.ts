/**
 * No test asserts on elapsed wall-clock time: on two busy cores any bound is a coin toss, and speed
 * targets live in bench/ as ratios measured in one run. A test of "no real wait" asserts the
 * emulated clock, or the timers set, instead (test/provider/testing/emulated-time.test.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../support/engine";

/** An elapsed time (`Date.now() - started`, or a variable holding one) inside an `expect(…)`. */
const ELAPSED_IN_EXPECT =
  /expect\([^;]*(?:Date\.now\(\)|performance\.now\(\))\s*-|expect\((?:seconds|elapsed\w*|\w*Ms)\)\.toBe(?:Less|Greater)Than/;

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return testFiles(full);
    return e.name.endsWith(".ts") ? [full] : [];
  });
}

test("no test file asserts on elapsed wall-clock time", () => {
  const found = testFiles(path.join(REPO_ROOT, "test"))
    .filter((file) => file !== __filename)
    .flatMap((file) =>
      fs
        .readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, i) => (ELAPSED_IN_EXPECT.test(line) ? [`${path.relative(REPO_ROOT, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
  expect(found).toEqual([]);
});

test("the check finds the forms it forbids, and passes a comparison with a timestamp the API sent", () => {
  expect(ELAPSED_IN_EXPECT.test("  expect(Date.now() - started).toBeLessThan(5_000);")).toBe(true);
  expect(ELAPSED_IN_EXPECT.test("  expect(seconds).toBeLessThan(8);")).toBe(true);
  expect(ELAPSED_IN_EXPECT.test("  expect(importMs).toBeLessThan(8000);")).toBe(true);
  expect(ELAPSED_IN_EXPECT.test('  expect(Number(r.headers["x-ratelimit-reset"])).toBeGreaterThan(Date.now() / 1000);')).toBe(false);
});
