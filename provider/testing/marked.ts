/**
 * The processes of an emulated stack: each carries the stack's folder in its environment
 * (`MARKER_ENV`), set for the Pulumi CLI and inherited by everything it starts. Only Node's own
 * modules here: the stack's reaper (`reaper.ts`) loads this and nothing else.
 */
import * as fs from "node:fs";

/** Set in the environment of every process an emulated stack starts: the stack's folder. */
export const MARKER_ENV = "PULUMI_COMPUTE_EMULATED_STACK";

/**
 * Ids of this user's processes whose environment names `folder` as their stack's (Linux's
 * `/proc`; elsewhere none are found, and the stack relies on the CLI ending its own).
 */
export function processesOf(folder: string): number[] {
  const mark = Buffer.from(`${MARKER_ENV}=${folder}\0`);
  let entries: string[];
  try {
    entries = fs.readdirSync("/proc");
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/environ`).includes(mark)) found.push(pid);
    } catch {
      // gone meanwhile, or another user's
    }
  }
  return found;
}

/** Kills the stack's processes, at once. */
export function clearProcesses(folder: string): void {
  for (const pid of processesOf(folder)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** Kills the stack's processes and removes its folder, at once. */
export function clearNow(folder: string): void {
  clearProcesses(folder);
  fs.rmSync(folder, { recursive: true, force: true });
}
