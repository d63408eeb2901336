/**
 * `pulumi-compute/testing`, as a project's tests use it, on the README's program:
 *
 * 1. the unit test file of the new project (`examples/new-project/index.test.ts`, its test under
 *    `computeMocks`), run by jest in a project of its own as `npx jest` runs it: the time from
 *    jest's start to the end of the file (target: under 2 s), once with a cold transform cache and
 *    then warm, and the process's whole wall time;
 * 2. the whole test file of the new project (its unit test and its integration test: `up`, a
 *    change by hand, `refresh`, `up`, `destroy` through `emulatedStack`), as `npx jest` runs it
 *    (target: under 10 s on two cores, warm caches);
 * 3. `emulatedStack` of the README's program: `up` and `destroy` through the real engine against
 *    the in-process emulator (target: under 5 s on two cores), split by phase from the engine's
 *    events and the CLI's calls, next to the same run as it was before the clock jumped and
 *    checkpoints were skipped (the clock at 300×, real waits, a checkpoint after every step), and
 *    to the default with checkpoints on, which shows what skipping them saves.
 *
 *   npm run bench -- testing
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawn } from "node:child_process";
import type { EngineEvent, PulumiCommand } from "@pulumi/pulumi/automation";
import { emulatedStack, type EmulatedStackOptions } from "../provider/testing";
import { pulumiCommand } from "../provider/stack/pulumi-cli";
import { CLI_TIME_SCALE } from "../emulator/cli";
import { readmeInlineProgram } from "../test/support/readme-program";
import type { BenchResult, Benchmark } from "./benchmark";

const REPO_ROOT = path.resolve(__dirname, "../..");
const TEMPLATE = path.join(REPO_ROOT, "examples/new-project");
/** The unit test file, from jest's start to its end. */
const UNIT_TARGET_S = 2;
/** `up` and `destroy` of the README's program. */
const STACK_TARGET_S = 5;
/** The new project's whole test file, its integration test included. */
const FILE_TARGET_S = 10;

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

/** jest on the project's test file, as `npx jest` runs it (its unit test alone, or all its tests); its report's times. */
function jestRun(dir: string, cache: string, tests: "unit" | "all"): Promise<JestRun> {
  const args = [
    path.join(REPO_ROOT, "node_modules/jest/bin/jest.js"),
    "index.test.ts",
    ...(tests === "unit" ? ["-t", "the plan"] : []),
    "--json",
    "--cacheDirectory",
    cache,
  ];
  const passing = tests === "unit" ? 1 : 2;
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
      if (report.numPassedTests !== passing) return reject(new Error(`the test file's ${tests} tests did not pass:\n${err.slice(-3000)}`));
      resolve({ sinceStart: (report.testResults[0]!.endTime - report.startTime) / 1000, wall });
    });
  });
}

/** One CLI call of the Automation API: its verb (`up`, `stack history`) and when it ran (ms, `performance.now()`). */
interface CliCall {
  verb: string;
  started: number;
  ended: number;
}

/** What the Automation API calls on a `PulumiCommand` (its declaration keeps it internal). */
interface Runner {
  run(args: string[], ...rest: unknown[]): Promise<unknown>;
}

/** The CLI, each call timed into `calls`. */
function timedCommand(base: PulumiCommand, calls: CliCall[]): PulumiCommand {
  const timed = Object.create(base) as PulumiCommand & Runner;
  const runner = base as unknown as Runner;
  timed.run = async (args, ...rest) => {
    const started = performance.now();
    try {
      return await runner.run.call(base, args, ...rest);
    } finally {
      const verb = args[0] === "stack" || args[0] === "config" ? args.slice(0, 2).join(" ") : args[0]!;
      calls.push({ verb, started, ended: performance.now() });
    }
  };
  return timed;
}

/** One operation's phases, ms. */
type Phases = Record<string, number>;

const PHASES = [
  "before the CLI (event log)",
  "engine start (to the prelude)",
  "program and plugin start",
  "resources (requests and waits)",
  "of which the database's create or delete",
  "end of the update (last step to summary)",
  "teardown (CLI exits)",
  "outputs and summary (CLI reads after it: a secret output's only)",
] as const;

/** Runs `operation` (`up` or `destroy`) with an event handler, and splits its time by what the engine reported. */
async function phasesOf(
  verb: "up" | "destroy",
  calls: CliCall[],
  operation: (onEvent: (event: EngineEvent) => void) => Promise<unknown>,
): Promise<Phases> {
  const seen: Record<string, number> = {};
  const program = (type: string | undefined) => type !== undefined && !type.startsWith("pulumi:");
  const onEvent = (event: EngineEvent) => {
    const at = performance.now();
    if (event.preludeEvent) seen.prelude ??= at;
    if (event.summaryEvent) seen.summary ??= at;
    const pre = event.resourcePreEvent?.metadata;
    if (pre && program(pre.type)) {
      seen.firstStep ??= at;
      if (pre.type.includes("Database")) seen.dbStart = at;
    }
    const done = event.resOutputsEvent?.metadata ?? event.resOpFailedEvent?.metadata;
    if (done && program(done.type)) {
      seen.lastStep = at;
      if (done.type.includes("Database")) seen.dbEnd = at;
    }
  };
  const started = performance.now();
  const before = calls.length;
  await operation(onEvent);
  const ended = performance.now();
  const cli = calls.slice(before).find((c) => c.verb === verb)!;
  const span = (from: number | undefined, to: number | undefined) => (from === undefined || to === undefined ? NaN : to - from);
  return {
    [PHASES[0]]: span(started, cli.started),
    [PHASES[1]]: span(cli.started, seen.prelude),
    [PHASES[2]]: span(seen.prelude, seen.firstStep),
    [PHASES[3]]: span(seen.firstStep, seen.lastStep),
    [PHASES[4]]: span(seen.dbStart, seen.dbEnd),
    [PHASES[5]]: span(seen.lastStep, seen.summary),
    [PHASES[6]]: span(seen.summary, cli.ended),
    [PHASES[7]]: span(cli.ended, ended),
    total: ended - started,
  };
}

/** One `emulatedStack` up + destroy of the README's program, by phase. */
interface StackRun {
  total: number;
  create: number;
  up: Phases;
  destroy: Phases;
  dispose: number;
}

async function stackRun(options: EmulatedStackOptions): Promise<StackRun> {
  const calls: CliCall[] = [];
  const command = timedCommand(await pulumiCommand(), calls);
  const started = performance.now();
  const stack = await emulatedStack(readmeInlineProgram, { ...options, pulumiCommand: command });
  const created = performance.now();
  let up: Phases;
  let destroy: Phases;
  try {
    up = await phasesOf("up", calls, (onEvent) => stack.up({ onEvent }));
    destroy = await phasesOf("destroy", calls, (onEvent) => stack.destroy({ onEvent }));
  } finally {
    await stack.dispose();
  }
  const ended = performance.now();
  return {
    total: ended - started,
    create: created - started,
    up,
    destroy,
    dispose: ended - started - (created - started) - up.total - destroy.total,
  };
}

/** The configurations compared in one run: as `emulatedStack` ran before, the default with checkpoints, the default. */
const CONFIGURATIONS: Array<{ name: string; options: EmulatedStackOptions }> = [
  {
    name: "before (300×, real waits, checkpoints)",
    options: { timeScale: CLI_TIME_SCALE, envVars: { PULUMI_SKIP_CHECKPOINTS: "false", PULUMI_DISABLE_CHECKPOINT_BACKUPS: "false" } },
  },
  { name: "jumps, checkpoints", options: { envVars: { PULUMI_SKIP_CHECKPOINTS: "false", PULUMI_DISABLE_CHECKPOINT_BACKUPS: "false" } } },
  { name: "default (jumps, no checkpoints)", options: {} },
];

const seconds = (ms: number) => (Number.isNaN(ms) ? "–" : (ms / 1000).toFixed(2));

/** A Markdown table: a row per phase, a column per configuration. */
function phaseTable(runs: Array<{ name: string; run: StackRun }>): string[] {
  const rows: Array<[string, (r: StackRun) => number]> = [
    ["create (emulator, workspace, stack, config)", (r) => r.create],
    ...PHASES.map((p): [string, (r: StackRun) => number] => [`up: ${p}`, (r) => r.up[p]!]),
    ["up: total", (r) => r.up.total!],
    ...PHASES.map((p): [string, (r: StackRun) => number] => [`destroy: ${p}`, (r) => r.destroy[p]!]),
    ["destroy: total", (r) => r.destroy.total!],
    ["dispose", (r) => r.dispose],
    ["all (s)", (r) => r.total],
  ];
  return [
    `| phase (s) | ${runs.map((r) => r.name).join(" | ")} |`,
    `|---|${runs.map(() => "---:").join("|")}|`,
    ...rows.map(([label, of]) => `| ${label} | ${runs.map((r) => seconds(of(r.run))).join(" | ")} |`),
  ];
}

/** `--stacks-only`: the emulatedStack runs alone, without the jest runs (a quick look at the phases). */
async function run(flags: readonly string[] = []): Promise<BenchResult> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-bench-testing-"));
  try {
    const runs: Array<{ name: string; run: StackRun }> = [];
    for (const { name, options } of CONFIGURATIONS) runs.push({ name, run: await stackRun(options) });
    const before = runs[0]!.run;
    const now = runs[runs.length - 1]!.run;
    const stackSeconds = now.total / 1000;
    const stackMetrics = [
      { label: "emulatedStack: create, up, destroy, dispose", value: `${stackSeconds.toFixed(1)} s (target < ${STACK_TARGET_S} s)` },
      { label: "emulatedStack: of which up", value: `${(now.up.total! / 1000).toFixed(1)} s` },
      { label: "emulatedStack as before / now (same run)", value: `${(before.total / 1000).toFixed(1)} s / ${stackSeconds.toFixed(1)} s` },
    ];
    const stackFailures =
      stackSeconds >= STACK_TARGET_S ? [`emulatedStack up + destroy took ${stackSeconds.toFixed(1)} s (target < ${STACK_TARGET_S} s)`] : [];
    if (flags.includes("--stacks-only"))
      return {
        summary: "an emulatedStack up + destroy of the README's program by phase",
        table: phaseTable(runs),
        metrics: stackMetrics,
        failures: stackFailures,
      };

    const dir = project(base);
    const cache = path.join(base, "jest-cache");
    const cold = await jestRun(dir, cache, "unit");
    const warm = await jestRun(dir, cache, "unit");
    const file = await jestRun(dir, cache, "all");

    const failures: string[] = [...stackFailures];
    if (warm.sinceStart >= UNIT_TARGET_S)
      failures.push(`the unit test file took ${warm.sinceStart.toFixed(2)} s after jest's start (target < ${UNIT_TARGET_S} s)`);
    if (file.sinceStart >= FILE_TARGET_S)
      failures.push(`the new project's test file took ${file.sinceStart.toFixed(1)} s after jest's start (target < ${FILE_TARGET_S} s)`);
    return {
      summary:
        "the README's program: its unit test under computeMocks, the new project's whole test file (jest, a project of its own), and an emulatedStack up + destroy by phase",
      table: phaseTable(runs),
      metrics: [
        {
          label: "unit test file, from jest's start to its end (warm)",
          value: `${warm.sinceStart.toFixed(2)} s (target < ${UNIT_TARGET_S} s)`,
        },
        { label: "unit test file, jest process wall time (warm)", value: `${warm.wall.toFixed(2)} s` },
        { label: "unit test file, from jest's start (cold transform cache)", value: `${cold.sinceStart.toFixed(2)} s` },
        {
          label: "the new project's test file (unit + integration), from jest's start",
          value: `${file.sinceStart.toFixed(1)} s (target < ${FILE_TARGET_S} s; wall ${file.wall.toFixed(1)} s)`,
        },
        ...stackMetrics,
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
    "pulumi-compute/testing on the README's program: a unit test file under computeMocks (< 2 s), the new project's test file (< 10 s), an emulatedStack up + destroy by phase (< 5 s)",
  run,
};
