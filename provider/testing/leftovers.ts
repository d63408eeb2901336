/**
 * What an emulated stack leaves on the machine, and how none of it outlives the stack: one
 * temporary folder (state, workspace, Pulumi's home and temporary files), and the processes the
 * Pulumi CLI starts (the CLI, its language host, the provider plugin). Every one of those processes
 * carries the folder in its environment (`MARKER_ENV`, inherited from the CLI), so the stack finds
 * them all, orphans included, and ends them. A stack the test never disposed — a test that timed
 * out in the middle of an `up`, its worker then stopped by the test runner — is cleared by its
 * reaper (`reaper.ts`) once the test's process is gone.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { packageRoot } from "../launch/plugins";

/** The reaper of each stack not disposed yet (`reaper.ts`), by the stack's folder. */
const reapers = new Map<string, ChildProcess>();

/** Where the reaper's compiled script is: beside this module in the package, or in its build when this runs from the sources. */
function reaperScript(): string {
  const beside = path.join(__dirname, "reaper.js");
  return fs.existsSync(beside) ? beside : path.join(packageRoot(), "dist/provider/testing/reaper.js");
}

/**
 * Starts the stack's reaper: should this process end before `release`, it clears the folder and
 * the processes. Detached and unreferenced: it neither keeps this process alive nor dies with it.
 */
export function track(folder: string): void {
  const reaper = spawn(process.execPath, [reaperScript(), String(process.pid), folder], { detached: true, stdio: "ignore" });
  reaper.unref();
  reapers.set(folder, reaper);
}

/** The stack's folder is gone: its reaper has nothing left to do. */
export function release(folder: string): void {
  reapers.get(folder)?.kill();
  reapers.delete(folder);
}
