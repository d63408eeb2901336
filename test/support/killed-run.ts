/**
 * A `pulumi` run killed as a cancelled CI runner leaves it: the CLI and every process it started
 * (language host, program, provider plugins) killed with SIGKILL at a point chosen with the
 * emulator's request log, so it is the same on every run. `recover.e2e.test.ts` and
 * `instance-day-two.e2e.test.ts` kill their runs with it.
 */
import { spawn } from "node:child_process";
import { setTimeout as delay } from "node:timers/promises";
import type { RequestLogEntry, RunningEmulator } from "../../emulator";
import { alive, killTree } from "./process";

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
  const deadline = Date.now() + 300_000;
  while (!run.ready(run.emulator.control.listRequests())) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`pulumi ${run.args} did not reach ${run.point} (exit ${child.exitCode}):\n${out.slice(-3000)}`);
    }
    await delay(25);
  }
  const tree = killTree(child.pid!);
  await closed;
  for (let i = 0; i < 100 && tree.some(alive); i++) await delay(50);
  expect(tree.filter(alive)).toEqual([]);
  return tree.length;
}
