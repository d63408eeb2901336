/**
 * The README's new-project block: the one shell block of README.md marked runnable, which
 * test/e2e/cli-path.e2e.test.ts runs as written and test/docs/new-project.test.ts checks.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { codeBlocks } from "../../scripts/docs/examples";
import { REPO_ROOT } from "./engine";
import { linkPackages } from "./user-shell";
import { commandLines } from "./page-steps";

/** The block's text. */
export function newProjectBlock(): string {
  const runnable = codeBlocks("README.md", fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8")).filter((b) => b.runnable);
  if (runnable.length !== 1 || runnable[0]!.lang !== "sh") throw new Error("README.md should have one runnable sh block, the new project");
  return runnable[0]!.code;
}

/** The block's commands, in order, without their comments. */
export function newProjectSteps(): string[] {
  return commandLines(newProjectBlock());
}

/**
 * The new-project template copied into `dir` with its `node_modules` as `npm install` leaves them,
 * linked to this checkout: `pulumi-compute` (this build) with `@pulumi/pulumi` and `@pulumi/policy`,
 * and the types its files compile against (`@types/node`, `@jest/globals`).
 */
export function templateCopy(dir: string): void {
  fs.cpSync(path.join(REPO_ROOT, "examples/new-project"), dir, { recursive: true });
  linkPackages(dir);
  for (const dependency of ["@types/node", "@jest/globals"]) {
    fs.mkdirSync(path.join(dir, "node_modules", path.dirname(dependency)), { recursive: true });
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules", dependency), path.join(dir, "node_modules", dependency));
  }
}
