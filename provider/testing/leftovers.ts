/**
 * What an emulated stack leaves on the machine, and how none of it outlives the stack: one
 * temporary folder (state, workspace, Pulumi's home and temporary files), and the processes the
 * Pulumi CLI starts (the CLI, its language host, the provider plugin). Every one of those processes
 * carries the folder in its environment (`MARKER_ENV`, inherited from the CLI), so the stack finds
 * them all, orphans included, and ends them. A stack the test never disposed — a test that timed
 * out in the middle of an `up` — is cleared when the test's process exits.
 */
import * as fs from "node:fs";

/** Set in the environment of every process an emulated stack starts: the stack's folder. */
export const MARKER_ENV = "PULUMI_COMPUTE_EMULATED_STACK";

/** Folders of stacks not disposed yet, cleared at the process's exit whatever happens. */
const open = new Set<string>();
let exitHooked = false;

/** Records a stack's folder, to be cleared at exit unless `release`d first. */
export function track(folder: string): void {
  open.add(folder);
  if (exitHooked) return;
  exitHooked = true;
  // Only synchronous work runs at exit: signals and a recursive remove.
  process.once("exit", () => {
    for (const left of open) clearNow(left);
  });
}

/** The stack's folder is gone: nothing to clear at exit. */
export function release(folder: string): void {
  open.delete(folder);
}

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
  open.delete(folder);
}
