/**
 * `pulumi-compute/testing`, as a project's tests use it, on the README's program:
 *
 * 1. the unit test file of the new project (`examples/new-project/index.test.ts`, its test under
 *    `computeMocks`), run by jest in a project of its own as `npx jest` runs it: the time from
 *    jest's start to the end of the file (target: under 2 s), once with a cold transform cache and
 *    then warm, and the process's whole wall time;
 * 2. `emulatedStack` of the README's program: `up` and `destroy` through the real engine against
 *    the in-process emulator at its default fast clock (target: under 20 s on two cores).
 *
 *   npm run bench -- testing
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawn } from "node:child_process";
import { emulatedStack } from "../provider/testing";
import { readmeInlineProgram } from "../test/support/readme-program";
import type { BenchResult, Benchmark } from "./benchmark";

const REPO_ROOT = path.resolve(__dirname, "../..");
const TEMPLATE = path.join(REPO_ROOT, "examples/new-project");
/** The unit test file, from jest's start to its end. */
const UNIT_TARGET_S = 2;
/** `up` and `destroy` of the README's program. */
const STACK_TARGET_S = 20;

/** A copy of the new project whose `node_modules` is this checkout's (`pulumi-compute` linked to it). */
function project(base: string): string {
  const dir = path.join(base, "my-infra");
  fs.mkdirSync(dir);
  for (const file of fs.readdirSync(TEMPLATE)) fs.copyFileSync(path.join(TEMPLATE, file), path.join(dir, file));
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"));
  return dir;
}

interface JestRun {
  /** From jest's start to the end of the test file (its own report), s. */
  sinceStart: number;
  /** The whole process, s. */
  wall: number;
}

/** jest on the project's unit test alone, as `npx jest` runs it; its report's times. */
function jestUnitRun(dir: string, cache: string): Promise<JestRun> {
  const args = [
    path.join(REPO_ROOT, "node_modules/jest/bin/jest.js"),
    "index.test.ts",
    "-t",
    "the plan",
    "--json",
    "--cacheDirectory",
    cache,
  ];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const wall = (performance.now() - started) / 1000;
      if (code !== 0) return reject(new Error(`jest exited ${code}:\n${err.slice(-3000)}`));
      const report = JSON.parse(out) as { startTime: number; numPassedTests: number; testResults: Array<{ endTime: number }> };
      if (report.numPassedTests !== 1) return reject(new Error(`the unit test did not pass alone:\n${err.slice(-3000)}`));
      resolve({ sinceStart: (report.testResults[0]!.endTime - report.startTime) / 1000, wall });
    });
  });
}

async function run(): Promise<BenchResult> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-bench-testing-"));
  try {
    const dir = project(base);
    const cache = path.join(base, "jest-cache");
    const cold = await jestUnitRun(dir, cache);
    const warm = await jestUnitRun(dir, cache);

    const started = performance.now();
    let upSeconds = 0;
    {
      await using stack = await emulatedStack(readmeInlineProgram);
      const upStarted = performance.now();
      await stack.up();
      upSeconds = (performance.now() - upStarted) / 1000;
      await stack.destroy();
    }
    const stackSeconds = (performance.now() - started) / 1000;

    const failures: string[] = [];
    if (warm.sinceStart >= UNIT_TARGET_S)
      failures.push(`the unit test file took ${warm.sinceStart.toFixed(2)} s after jest's start (target < ${UNIT_TARGET_S} s)`);
    if (stackSeconds >= STACK_TARGET_S)
      failures.push(`emulatedStack up + destroy took ${stackSeconds.toFixed(1)} s (target < ${STACK_TARGET_S} s)`);
    return {
      summary: "the README's program: its unit test under computeMocks (jest, a project of its own), and an emulatedStack up + destroy",
      metrics: [
        {
          label: "unit test file, from jest's start to its end (warm)",
          value: `${warm.sinceStart.toFixed(2)} s (target < ${UNIT_TARGET_S} s)`,
        },
        { label: "unit test file, jest process wall time (warm)", value: `${warm.wall.toFixed(2)} s` },
        { label: "unit test file, from jest's start (cold transform cache)", value: `${cold.sinceStart.toFixed(2)} s` },
        { label: "emulatedStack: create, up, destroy, dispose", value: `${stackSeconds.toFixed(1)} s (target < ${STACK_TARGET_S} s)` },
        { label: "emulatedStack: of which up", value: `${upSeconds.toFixed(1)} s` },
      ],
      failures,
    };
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}

export const benchmark: Benchmark = {
  name: "testing",
  description:
    "pulumi-compute/testing on the README's program: a unit test file under computeMocks (< 2 s), an emulatedStack up + destroy (< 20 s)",
  run,
};
