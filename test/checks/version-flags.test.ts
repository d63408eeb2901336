/**
 * Every command the package installs answers `--version` with package.json's version, so a user
 * can tell which build they run (issue 57, item 8): each `bin` of package.json, read from it, so a
 * new command is held too, and the provider plugin's launcher in `plugins/`, the command a Pulumi
 * YAML, Python or Go project names in its Pulumi.yaml. (`plugins/pulumi-resource-pulumi-nodejs`
 * starts Pulumi's own dynamic provider host and passes it every argument: not ours to answer.)
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../support/engine";
import { runProcess } from "../support/process";

const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string; bin: Record<string, string> };

/** Each command as npm installs it (a `bin` is run by node through its shebang; the launcher is a shell script). */
const commands: Array<[string, string, string[]]> = [
  ...Object.entries(pkg.bin).map(([name, file]): [string, string, string[]] => [name, process.execPath, [path.join(REPO_ROOT, file)]]),
  ["plugins/pulumi-resource-compute", path.join(REPO_ROOT, "plugins/pulumi-resource-compute"), []],
];

test("the package installs the commands this file runs", () => {
  expect(Object.keys(pkg.bin).sort()).toEqual(["compute-emulator", "pulumi-compute"]);
  expect(pkg.version).toMatch(/^\d+\.\d+\.\d+$/);
});

test.each(commands)("%s --version prints package.json's version alone and exits 0", async (_name, command, args) => {
  const run = await runProcess(command, [...args, "--version"], { cwd: REPO_ROOT });
  expect({ code: run.code, out: run.out }).toEqual({ code: 0, out: `${pkg.version}\n` });
});
