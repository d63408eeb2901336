/**
 * A user's shell outside this repository, for tests that take the user's path: the package packed
 * and installed into a project of their own, the toolchain put on PATH by
 * `eval "$(npm run -s env)"`, and commands run from a shell in the project folder.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { PASSPHRASE, REPO_ROOT } from "./engine";
import { runProcess, type ProcessResult } from "./process";
import { PLUGINS_YAML } from "../../provider/launch/plugins";

/** Fails with the command's last output when it did not exit with `code` (`"fails"`: any but 0). */
export function expectExit(result: ProcessResult, code: number | "fails"): void {
  const ok = code === "fails" ? result.code !== 0 : result.code === code;
  if (!ok) throw new Error(`exit code ${result.code}, expected ${code}; the output ended:\n${result.out.slice(-2000)}`);
}

/** `npm pack` of this repository into `dir`; the tarball's path. */
export async function packPackage(dir: string): Promise<string> {
  const repoPackage = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
  expectExit(await runProcess("npm", ["pack", "--pack-destination", dir], { cwd: REPO_ROOT }), 0);
  return path.join(dir, `pulumi-compute-${repoPackage.version}.tgz`);
}

/** Points the project's `pulumi-compute` dependency at the tarball instead of the registry. */
export function useTarball(project: string, tarball: string): void {
  const file = path.join(project, "package.json");
  const pkg = JSON.parse(fs.readFileSync(file, "utf8"));
  pkg.dependencies["pulumi-compute"] = `file:${tarball}`;
  fs.writeFileSync(file, JSON.stringify(pkg, null, 2));
}

/**
 * A JavaScript project run with the `pulumi` CLI in `dir`: `index.js` holding `program`, its
 * state in `backendUrl`, the package's launcher declared, and `pulumi-compute` and its peer
 * `@pulumi/pulumi` linked to this repository's build, as an installed project has them (without packing: for tests of the CLI's
 * runs, not of the install).
 */
export function linkedProject(dir: string, options: { name: string; backendUrl: string; program: string }): void {
  linkPackages(dir);
  fs.writeFileSync(
    path.join(dir, "Pulumi.yaml"),
    `name: ${options.name}\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: index.js\nbackend:\n  url: ${options.backendUrl}\n${PLUGINS_YAML}`,
  );
  fs.writeFileSync(path.join(dir, "index.js"), options.program);
}

/** `pulumi-compute`, its peer `@pulumi/pulumi` and its `@pulumi/policy` in the project's `node_modules`, linked to this repository's build. */
export function linkPackages(dir: string): void {
  fs.mkdirSync(path.join(dir, "node_modules/@pulumi"), { recursive: true });
  fs.symlinkSync(REPO_ROOT, path.join(dir, "node_modules/pulumi-compute"));
  // And what npm installs with the package: @pulumi/policy, for its policy pack.
  for (const dependency of ["@pulumi/pulumi", "@pulumi/policy"]) {
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules", dependency), path.join(dir, "node_modules", dependency));
  }
}

/**
 * The environment `pulumi` runs with in a `linkedProject` under `base`: the test passphrase, no
 * update check or plugin download, a Pulumi home of its own, no API credentials from the
 * environment (the stack's config gives them), and no backend from it (the CLI takes
 * `PULUMI_BACKEND_URL` over the project's `backend.url`), plus `extra`.
 */
export function linkedProjectEnv(base: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_HOME: path.join(base, "home"),
    ...extra,
  };
  delete env.COMPUTE_TOKEN;
  delete env.COMPUTE_API_URL;
  if (extra.PULUMI_BACKEND_URL === undefined) delete env.PULUMI_BACKEND_URL;
  return env;
}

export class UserShell {
  /**
   * The environment of a user's shell before `eval "$(npm run -s env)"`: the machine's PATH
   * (without the toolchain this test run's setup put first), their HOME and caches, no Pulumi
   * settings of the project's, and a state backend of their own choosing (under `base`).
   */
  readonly env: NodeJS.ProcessEnv;
  /** What `npm run -s env` printed (set by `init`). */
  exports = "";

  constructor(readonly base: string) {
    const toolchain = [process.env.PULUMI_COMPUTE_ENGINE_BIN, path.dirname(process.execPath)];
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (/^(npm_|PULUMI_|COMPUTE_)/.test(key) && key !== "PULUMI_COMPUTE_CACHE") continue;
      env[key] = value;
    }
    env.PATH = (process.env.PATH ?? "")
      .split(":")
      .filter((dir) => !toolchain.includes(dir))
      .join(":");
    env.PULUMI_HOME = path.join(base, "pulumi-home");
    env.PULUMI_BACKEND_URL = `file://${path.join(base, "state")}`;
    fs.mkdirSync(path.join(base, "state"), { recursive: true });
    this.env = env;
  }

  async init(): Promise<void> {
    this.exports = await this.printedExports();
  }

  /** `npm run -s env` as the user runs it, in the repository, with extra variables set. */
  async printedExports(extra: NodeJS.ProcessEnv = {}): Promise<string> {
    const result = await runProcess("npm", ["run", "-s", "env"], { cwd: REPO_ROOT, env: { ...this.env, ...extra } });
    expect({ code: result.code, out: result.code ? result.out : "" }).toEqual({ code: 0, out: "" });
    return result.stdout; // set-up progress, if any, went to stderr
  }

  /** `npm install` in the project, as the user runs it. */
  async npmInstall(project: string): Promise<void> {
    const args = ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];
    expectExit(await runProcess("npm", args, { cwd: project, env: this.env }), 0);
  }

  /** A command line in the user's shell, in `cwd`, after the eval; killed after `timeoutMs` (default 240 s). */
  run(command: string, cwd: string, options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<ProcessResult> {
    const env = { ...this.env, ...options.env, PC_EXPORTS: this.exports };
    return runProcess("bash", ["-c", `eval "$PC_EXPORTS" && ${command}`], { cwd, env, timeoutMs: options.timeoutMs });
  }
}
