/**
 * The reaper of one emulated stack: a small process of its own, started with the stack, that
 * outlives the test's process. When that process is gone — exited, crashed, or stopped by its test
 * runner before the test disposed the stack (a timeout in the middle of an `up`) — it kills every
 * process that carries the stack's folder in its environment and removes the folder. A disposed
 * stack stops its reaper. Run as `node reaper.js <pid to watch> <folder>`; it
 * needs nothing but Node, so it works wherever the stack was made (a test runner's sandbox holds
 * no hook on the real process's end).
 */
import { clearNow } from "./marked";

const [watched, folder] = process.argv.slice(2);
const WATCH_EVERY_MS = 200;

/** Whether the watched process is gone (`kill(pid, 0)` checks without signalling). */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

if (watched && folder) {
  const pid = Number(watched);
  setInterval(() => {
    if (!gone(pid)) return;
    clearNow(folder);
    process.exit(0);
  }, WATCH_EVERY_MS);
}
