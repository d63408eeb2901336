/**
 * What an emulated stack leaves: its processes are found by the folder in their environment, even
 * an orphan, and clearing kills them and removes the folder; a stack's reaper does it once the
 * process that made the stack is gone without releasing it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawn } from "node:child_process";
import { MARKER_ENV, clearNow, processesOf } from "../../../provider/testing/marked";
import { REPO_ROOT } from "../../support/engine";
import { runProcess } from "../../support/process";

test("a stack's processes are found by its folder, children of children too, and cleared with the folder", async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "pc-leftovers-"));
  fs.writeFileSync(path.join(folder, "state.json"), "{}");
  // A shell that starts a sleeper in the background and exits: the sleeper is an orphan, as a plugin of a killed CLI would be.
  const shell = spawn("sh", ["-c", "sleep 300 & echo $!"], { env: { ...process.env, [MARKER_ENV]: folder } });
  const orphan = Number((await new Promise<string>((resolve) => shell.stdout.once("data", (d) => resolve(String(d))))).trim());
  await new Promise((resolve) => shell.once("exit", resolve));

  expect(processesOf(folder)).toEqual([orphan]);
  expect(processesOf(`${folder}-other`)).toEqual([]);
  clearNow(folder);
  for (let i = 0; i < 50 && processesOf(folder).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
  expect(processesOf(folder)).toEqual([]);
  expect(fs.existsSync(folder)).toBe(false);
});

test("a stack's reaper clears its processes and folder once the process that made it is gone, and a released one does nothing", async () => {
  const leftovers = path.join(REPO_ROOT, "dist/provider/testing/leftovers.js");
  const made = (folder: string, release: boolean) =>
    runProcess(process.execPath, [
      "-e",
      `const l = require(${JSON.stringify(leftovers)}); l.track(${JSON.stringify(folder)}); ${release ? `l.release(${JSON.stringify(folder)});` : ""}`,
    ]);
  const [left, released] = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), "pc-reaped-")));
  const sleeper = spawn("sleep", ["300"], { env: { ...process.env, [MARKER_ENV]: left! }, detached: true, stdio: "ignore" });
  sleeper.unref();
  try {
    await made(left!, false);
    await made(released!, true);
    for (let i = 0; i < 50 && fs.existsSync(left!); i++) await new Promise((r) => setTimeout(r, 100));
    expect(fs.existsSync(left!)).toBe(false);
    expect(processesOf(left!)).toEqual([]);
    expect(fs.existsSync(released!)).toBe(true);
  } finally {
    clearNow(left!);
    clearNow(released!);
  }
});
