/** The demo runner as a child process (`npm run demo -- …`), and what its quickstart must show. */
import * as path from "node:path";
import { REPO_ROOT } from "./engine";
import { runProcess } from "./process";

export const demo = (...args: string[]) => runProcess(process.execPath, [path.join(REPO_ROOT, "dist/examples/demo/main.js"), ...args]);

/** The quickstart's phases and findings, whichever way it was driven. */
export function expectQuickstartPhases(out: string): void {
  for (const heading of [
    "Preview",
    "Up",
    "Stack outputs",
    "Change things behind Pulumi's back",
    "Drift report (refresh)",
    "Up restores the program's values",
    "Preview after up: no changes",
    "Destroy",
  ]) {
    expect(out).toContain(`. ${heading} `);
  }
  expect(out).toMatch(/Vpc app-net\s+label\s+"quickstart-net"\s+"edited-by-hand"/);
  expect(out).toMatch(/DomainRecord www\s+target\s+"198\.51\.100\.10"\s+"198\.51\.100\.99"/);
  expect(out).toMatch(/MysqlDatabase db\s+allowList\s+\["10\.0\.2\.0\/24"\]\s+\["0\.0\.0\.0\/0"\]/);
  expect(out).toContain("left in the emulator: nothing");
  expect(out).toMatch(/databaseRootPassword\s+\[secret\]/);
}
