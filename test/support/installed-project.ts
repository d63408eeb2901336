/**
 * The packed package, and the README's project with it installed, made once per test run and
 * shared by the files that start from them. `npm pack` costs about 1.5 s of CPU and `npm install`
 * of the README's project about nine (535 packages); a copy of what the install left, its
 * `node_modules` as hard links, costs a third of a second.
 *
 * The run's folder is the one `scripts/jest-run.js` makes for the whole run
 * (`PULUMI_COMPUTE_TEST_RUN_DIR`, removed after it); jest started by hand has none, and each file
 * then makes its own. What is made once is made under a lock (a folder `mkdir` makes or refuses at
 * once), into a folder of its own that is renamed into place when it is whole, so a file that
 * waits never reads half of it, and a lock whose process is gone is taken over.
 *
 * A copy shares its `node_modules` files with every other copy: replace a file there (remove it,
 * write a new one), never write into it. What npm and Node write there are new files.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { execFileSync } from "node:child_process";
import { REPO_ROOT } from "./engine";
import { expectExit, packPackage, useTarball } from "./user-shell";
import { alive, runProcess } from "./process";

/** The environment variable that names the run's shared folder. */
export const TEST_RUN_DIR_ENV = "PULUMI_COMPUTE_TEST_RUN_DIR";

let ownRunDir: string | undefined;
/** The folder shared by the run's test files, or one of this test process's own. */
function runDir(): string {
  const shared = process.env[TEST_RUN_DIR_ENV];
  if (shared) return shared;
  return (ownRunDir ??= fs.mkdtempSync(path.join(os.tmpdir(), "pc-test-run-")));
}

const WAIT_MS = 200;

/** `dir`, made by `make` (into the folder it is given) once for the run, whoever asks first. */
export async function madeOnce(dir: string, make: (into: string) => Promise<void>): Promise<string> {
  const lock = `${dir}.lock`;
  for (;;) {
    if (fs.existsSync(dir)) return dir;
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    let holder = NaN;
    try {
      holder = Number(fs.readFileSync(path.join(lock, "pid"), "utf8"));
    } catch {
      // written right after the lock: its maker is between the two
    }
    if (Number.isInteger(holder) && !alive(holder)) fs.rmSync(lock, { recursive: true, force: true });
    else await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
  }
  try {
    fs.writeFileSync(path.join(lock, "pid"), String(process.pid));
    if (!fs.existsSync(dir)) {
      const into = `${dir}.${process.pid}`;
      fs.rmSync(into, { recursive: true, force: true });
      fs.mkdirSync(into);
      await make(into);
      fs.renameSync(into, dir);
    }
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
  return dir;
}

/** `npm pack` of this repository, once for the run; the tarball's path. */
export async function packedPackage(): Promise<string> {
  const dir = await madeOnce(path.join(runDir(), "packed"), async (into) => void (await packPackage(into)));
  const [tarball] = fs.readdirSync(dir).filter((file) => file.endsWith(".tgz"));
  if (!tarball) throw new Error(`npm pack left no tarball in ${dir}`);
  return path.join(dir, tarball);
}

/** The files of a project that `npm install` makes or changes, copied into a project of its own. */
const INSTALLED = ["package.json", "package-lock.json", "node_modules"];

/**
 * What `npm install` (as the user runs it, in `env`) leaves in the README's project with the packed
 * package (`examples/new-project`, its `pulumi-compute` dependency the tarball): its package.json,
 * package-lock.json and node_modules, copied into `dir` (made if missing; node_modules as hard
 * links). The project's own files (`Pulumi.yaml`, the program, its tests) are the caller's to copy.
 */
export async function installedNewProject(dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  const tarball = await packedPackage();
  const installed = await madeOnce(path.join(runDir(), "new-project"), async (into) => {
    fs.copyFileSync(path.join(REPO_ROOT, "examples/new-project/package.json"), path.join(into, "package.json"));
    useTarball(into, tarball);
    const install = ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];
    expectExit(await runProcess("npm", install, { cwd: into, env }), 0);
  });
  fs.mkdirSync(dir, { recursive: true });
  for (const name of INSTALLED) {
    const from = path.join(installed, name);
    const to = path.join(dir, name);
    fs.rmSync(to, { recursive: true, force: true });
    if (name === "node_modules") execFileSync("cp", ["-al", from, to]);
    else fs.copyFileSync(from, to);
  }
}
