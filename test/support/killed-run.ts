/**
 * A `pulumi` run killed as a cancelled CI runner leaves it: the CLI and every process it started
 * (language host, program, provider plugins) killed with SIGKILL at a point chosen with the
 * emulator's request log, so it is the same on every run. `recover.e2e.test.ts` and
 * `instance-day-two.e2e.test.ts` kill their runs with it, the fuzzer's `kill` step an Automation
 * API `up` (`killWhen` on `runningPulumi`).
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import type { RequestLogEntry, RunningEmulator } from "../../emulator";
import { alive, descendants, killTree } from "./process";

export interface KilledRun {
  /** The `pulumi` arguments, as one line (`up --yes --skip-preview`). */
  args: string;
  /** The project folder it runs in. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  emulator: Pick<RunningEmulator, "control">;
  /** The kill point: killed once this holds for the emulator's request log. */
  ready: (log: RequestLogEntry[]) => boolean;
  /** The kill point in words, for the failure of a run that ends (or takes 300 s) before reaching it. */
  point: string;
}

/**
 * Runs `pulumi <args>` and, once `ready` holds, kills it and every process it started, each
 * process group whole; expects none of them left alive. Returns the processes killed.
 */
export async function killedRun(run: KilledRun): Promise<number> {
  const child = spawn("pulumi", run.args.split(" "), { cwd: run.cwd, env: run.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (c: Buffer) => (out += c));
  child.stderr.on("data", (c: Buffer) => (out += c));
  const closed = new Promise((resolve) => child.on("close", resolve));
  const tree = await killWhen({ ...run, pid: () => child.pid, finished: () => child.exitCode !== null });
  if (!tree) {
    child.kill("SIGKILL");
    throw new Error(`pulumi ${run.args} did not reach ${run.point} (exit ${child.exitCode}):\n${out.slice(-3000)}`);
  }
  await closed;
  expect(tree.filter(alive)).toEqual([]);
  return tree.length;
}

/**
 * Waits until `ready` holds for the emulator's request log, then kills the process `pid()` names
 * and every process below it, each process group whole, and waits up to 5 s for them to die;
 * returns the processes killed (the caller checks none is `alive`), or undefined when the run
 * `finished()` (or took 300 s) first. Without jest's `expect`: the fuzzer's bench runs it too.
 */
export async function killWhen(run: {
  emulator: Pick<RunningEmulator, "control">;
  ready: (log: RequestLogEntry[]) => boolean;
  pid: () => number | undefined;
  finished: () => boolean;
}): Promise<number[] | undefined> {
  const deadline = Date.now() + 300_000;
  while (!run.ready(run.emulator.control.listRequests()) || run.pid() === undefined) {
    if (run.finished() || Date.now() > deadline) return undefined;
    await delay(25);
  }
  const tree = killTree(run.pid()!);
  for (let i = 0; i < 100 && tree.some(alive); i++) await delay(50);
  return tree;
}

/**
 * The `pulumi <verb>` process below this one (the Automation API's CLI of a running operation,
 * to kill with `killWhen`); undefined when none runs.
 */
export function runningPulumi(verb: string): number | undefined {
  return descendants(process.pid).find((pid) => {
    try {
      const argv = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      return path.basename(argv[0]!) === "pulumi" && argv.includes(verb);
    } catch {
      return false; // gone meanwhile
    }
  });
}
