/**
 * The tree is formatted (Prettier, `.prettierrc.json`) and lint-clean (ESLint, `eslint.config.mjs`).
 * `npx prettier --write .` and `npx eslint --fix .` fix most findings.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { REPO_ROOT } from "../support/engine";

function run(bin: string, args: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [path.join(REPO_ROOT, bin), ...args], { cwd: REPO_ROOT, encoding: "utf8" });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

test("every TypeScript and JavaScript file is formatted as Prettier formats it", () => {
  const { status, output } = run("node_modules/prettier/bin/prettier.cjs", ["--list-different", "."]);
  expect({ status, unformatted: output.trim().split("\n").filter(Boolean) }).toEqual({ status: 0, unformatted: [] });
}, 120_000);

test("ESLint finds nothing", () => {
  const { status, output } = run("node_modules/eslint/bin/eslint.js", ["--max-warnings", "0", "."]);
  expect({ status, output: output.trim() }).toEqual({ status: 0, output: "" });
}, 180_000);
