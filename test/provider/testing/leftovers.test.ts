/**
 * What an emulated stack leaves: its processes are found by the folder in their environment, even
 * an orphan, and clearing kills them and removes the folder.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawn } from "node:child_process";
import { MARKER_ENV, clearNow, processesOf } from "../../../provider/testing/leftovers";

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
