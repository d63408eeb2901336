/**
 * The language host wrapper (tools/pulumi-language-nodejs/main.go): the old host reads runtime
 * options only as flags, so the wrapper turns the `runtime.options` of the project file the CLI
 * is using into flags. Built from the tree's source, and run against a stand-in host that prints
 * the arguments it was given.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { execFileSync } from "node:child_process";
import { REPO_ROOT } from "../support/engine";

jest.setTimeout(120_000);

let base: string;
let wrapper: string;

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-language-host-"));
  fs.mkdirSync(path.join(base, "engine/bin"), { recursive: true });
  fs.mkdirSync(path.join(base, "engine/libexec"));
  wrapper = path.join(base, "engine/bin/pulumi-language-nodejs");
  execFileSync("go", ["build", "-mod=readonly", "-o", wrapper, "."], {
    cwd: path.join(REPO_ROOT, "tools/pulumi-language-nodejs"),
    stdio: "pipe",
  });
  const host = path.join(base, "engine/libexec/pulumi-language-nodejs");
  fs.writeFileSync(host, '#!/bin/sh\nprintf "%s\\n" "$@"\n', { mode: 0o755 });
});

afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

/**
 * Starts the wrapper the way the CLI does: as a child of a process whose working directory is
 * where the CLI found the project (`; exit` keeps the shell from exec-ing it, so the shell stays
 * its parent). `hostDir` is the wrapper's own working directory, the folder of `main`.
 */
function start(cliDir: string, hostDir = cliDir): string[] {
  const out = execFileSync("sh", ["-c", `cd "$1" && "$0" 127.0.0.1:4242 & wait $!; exit $?`, wrapper, hostDir], {
    cwd: cliDir,
    encoding: "utf8",
  });
  return out.trim().split("\n");
}

function project(dir: string, file: string, text: string): string {
  const folder = path.join(base, dir);
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, file), text);
  return folder;
}

test("a plain runtime passes no flag: the host's defaults apply", () => {
  expect(start(project("plain", "Pulumi.yaml", "name: p\nruntime: nodejs\n"))).toEqual(["127.0.0.1:4242"]);
});

test("typescript: false becomes -typescript=false, before the engine address", () => {
  const dir = project("js", "Pulumi.yaml", "name: p\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: dist/index.js\n");
  expect(start(dir)).toEqual(["-typescript=false", "127.0.0.1:4242"]);
});

test("tsconfig and nodeargs pass through; a string boolean counts; options without a flag are left out", () => {
  const dir = project(
    "all",
    "Pulumi.yaml",
    'name: p\nruntime:\n  name: nodejs\n  options:\n    typescript: "true"\n    tsconfig: tsconfig.pulumi.json\n    nodeargs: "--max-old-space-size=4096 --trace-warnings"\n    packagemanager: npm\n',
  );
  expect(start(dir)).toEqual([
    "-typescript=true",
    "-tsconfig=tsconfig.pulumi.json",
    "-nodeargs=--max-old-space-size=4096 --trace-warnings",
    "127.0.0.1:4242",
  ]);
});

test("the project is found from the CLI's directory, even when main lies outside the project", () => {
  // examples/vpc/Pulumi.yaml with `main: ../../dist/examples/vpc/index.js`: the host runs in
  // dist/…, above which only the root project (without options) would be found.
  project("repo", "Pulumi.yaml", "name: root\nruntime: nodejs\n");
  const example = project("repo/examples/vpc", "Pulumi.yaml", "name: vpc\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n");
  const main = path.join(base, "repo/dist/examples/vpc");
  fs.mkdirSync(main, { recursive: true });
  expect(start(example, main)).toEqual(["-typescript=false", "127.0.0.1:4242"]);
});

test("from a subfolder the nearest project file counts, Pulumi.json included", () => {
  const dir = project("json", "Pulumi.json", JSON.stringify({ name: "p", runtime: { name: "nodejs", options: { typescript: false } } }));
  const sub = path.join(dir, "src/deep");
  fs.mkdirSync(sub, { recursive: true });
  expect(start(sub)).toEqual(["-typescript=false", "127.0.0.1:4242"]);
});

test("a project file it cannot read still starts the host, with no flag", () => {
  expect(start(project("broken", "Pulumi.yaml", "name: [unclosed\nruntime: {\n"))).toEqual(["127.0.0.1:4242"]);
});
