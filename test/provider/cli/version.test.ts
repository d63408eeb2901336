/**
 * `pulumi-compute --version` prints the version of the package it runs from, read from its
 * package.json, and the usage says so.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../support/engine";
import { runProcess } from "../../support/process";

const cli = (...args: string[]) => runProcess(process.execPath, [path.join(REPO_ROOT, "dist/provider/cli/main.js"), ...args]);
const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string };

test("--version and -v print package.json's version alone, and exit 0", async () => {
  expect(version).toMatch(/^\d+\.\d+\.\d+$/);
  for (const flag of ["--version", "-v"]) {
    const run = await cli(flag);
    expect({ code: run.code, out: run.out }).toEqual({ code: 0, out: `${version}\n` });
  }
});

test("the usage names --version", async () => {
  const help = await cli("--help");
  expect(help.code).toBe(0);
  expect(help.out).toContain("pulumi-compute --version` prints the installed version");
});
