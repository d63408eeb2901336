/**
 * The main job and the examples, run the way a user runs them (`npm run demo [-- <name>]`):
 * each is a child process driving the real engine against its own embedded emulator, and must
 * exit 0 having checked every phase (no drift left, no changes after up, nothing left behind).
 */
import * as path from "node:path";
import { spawn } from "node:child_process";
import { REPO_ROOT } from "../support/engine";
import { EXAMPLES } from "../../examples/catalog";

jest.setTimeout(300_000);

function demo(name: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, "dist/examples/demo/main.js"), name], { env: process.env });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out }));
  });
}

test("the quickstart demo shows each phase, the drift it found, and the teardown", async () => {
  const { code, out } = await demo("quickstart");
  expect({ code, tail: out.slice(-400) }).toMatchObject({ code: 0 });
  for (const heading of ["Preview", "Up", "Stack outputs", "Change things behind Pulumi's back", "Drift report (refresh)", "Up restores the program's values", "Preview after up: no changes", "Destroy"]) {
    expect(out).toContain(`. ${heading} `);
  }
  expect(out).toMatch(/Vpc app-net\s+label\s+"quickstart-net"\s+"edited-by-hand"/);
  expect(out).toMatch(/DomainRecord www\s+target\s+"198\.51\.100\.10"\s+"198\.51\.100\.99"/);
  expect(out).toMatch(/MysqlDatabase db\s+allowList\s+\["10\.0\.2\.0\/24"\]\s+\["0\.0\.0\.0\/0"\]/);
  expect(out).toContain("left in the emulator: nothing");
  expect(out).toMatch(/databaseRootPassword\s+\[secret\]/);
});

test.each(Object.keys(EXAMPLES).filter((name) => name !== "quickstart"))("the %s example runs up, shows no changes after, and tears down", async (name) => {
  const { code, out } = await demo(name);
  expect({ code, tail: out.slice(-400) }).toMatchObject({ code: 0 });
  expect(out).toContain(`Demo finished: every phase of "${name}" succeeded.`);
});
