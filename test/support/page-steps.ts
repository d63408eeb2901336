/**
 * A page's steps as a user types them: its runnable shell blocks (`<!-- runnable -->`) line by
 * line and the project files it gives (`<!-- file: NAME -->`, `<!-- append: NAME -->`), in the
 * page's order, in a user's shell outside the repository (`UserShell`, after
 * `eval "$(npm run -s env)"`), with no terminal (stdin and stdout are pipes). The README's new
 * project (test/e2e/cli-path.e2e.test.ts) and each language guide (test/e2e/guides/) run this way.
 *
 * Only what a reader fills in differs: `~` is the test's folder, `4010` a free port. A line ending
 * in `&` starts the emulator in the background, and `kill %1` sends that job's process (the `npx`
 * the line started, alone: a shell without job control signals no group) the shell's default
 * signal, SIGTERM. Each step must exit 0, except one that needs a program this machine lacks
 * (`needs`, a language host): that step still runs, must fail naming what it lacks, and is
 * listed in `wanting`, which the test prints and holds, so nothing is skipped unseen.
 */
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { codeBlocks } from "../../scripts/docs/examples";
import { ComputeClient } from "../../sdk/client";
import { REPO_ROOT } from "./engine";
import { packedPackage } from "./installed-project";
import { UserShell } from "./user-shell";

/** A step: a command line of a runnable block, or a file the page gives. */
export type Step = { line: string } | { file: string; code: string; append: boolean };

/** A shell block's commands, in order, without their comments. */
export function commandLines(code: string): string[] {
  return code
    .split("\n")
    .map((line) => line.replace(/\s+#\s.*$/, "").trim())
    .filter(Boolean);
}

/** The steps of a Markdown page (from the repository root), in the page's order. */
export function pageSteps(page: string): Step[] {
  return codeBlocks(page, fs.readFileSync(path.join(REPO_ROOT, page), "utf8")).flatMap((block): Step[] => {
    if (block.writes) return [{ file: block.writes.path, code: `${block.code}\n`, append: block.writes.append }];
    return block.runnable ? commandLines(block.code).map((line) => ({ line })) : [];
  });
}

/** How a step is named in `ran`: its line, or `file: NAME`. */
export const stepName = (step: Step): string => ("line" in step ? step.line : `${step.append ? "append" : "file"}: ${step.file}`);

/** A port nothing listens on now, for the pages' `4010` (other runs may hold 4010 itself). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** Resolves once nothing answers on `port` any more (the emulator has closed); what it saw. */
async function portClosed(port: number): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => (socket.destroy(), resolve(true)));
      socket.on("error", () => resolve(false));
    });
    if (!open) return `port ${port} closed`;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the emulator still listens on port ${port} after \`kill %1\``);
}

export interface StepOptions {
  /** Variables of the shell the steps run in, over the user's. */
  env?: NodeJS.ProcessEnv;
  /** The program a line needs that a machine may lack (a language host), if any. */
  needs?: (line: string) => string | undefined;
}

export class PageSteps {
  private cwd = REPO_ROOT;
  private port = 0;
  private background: ChildProcess | undefined;
  private readonly present = new Map<string, boolean>();
  /** Each step run, with its output and how long it took (real time, ms). */
  readonly ran: Array<{ step: string; out: string; ms: number }> = [];
  /** The steps that ran without what they need (`StepOptions.needs`), and failed naming it. */
  readonly wanting: Array<{ step: string; lacks: string; out: string }> = [];

  /** `home` stands for the page's `~`. */
  constructor(
    private readonly user: UserShell,
    private readonly home: string,
    private readonly steps: Step[],
    private readonly options: StepOptions = {},
  ) {}

  /** The folder the steps have got to (`cd`). */
  get folder(): string {
    return this.cwd;
  }

  /** The API URL and token of the emulator the steps started in the background (from its banner). */
  emulator(): { apiUrl: string; token: string } {
    const banner = this.output("npx compute-emulator");
    return { apiUrl: /API:\s+(\S+)/.exec(banner)![1]!, token: /token:\s+(\S+)/.exec(banner)![1]! };
  }

  /** Runs the steps up to the first whose name starts with `prefix` (all of them without one). */
  async runUntil(prefix?: string): Promise<void> {
    this.port ||= await freePort();
    while (this.steps.length && !(prefix && stepName(this.steps[0]!).startsWith(prefix))) {
      const step = this.steps.shift()!;
      const started = Date.now();
      const out = "line" in step ? await this.runLine(step.line) : this.write(step);
      this.ran.push({ step: stepName(step), out, ms: Date.now() - started });
    }
  }

  /** The output of the step whose name starts with `prefix`. */
  output(prefix: string): string {
    const step = this.ran.find((r) => r.step.startsWith(prefix));
    if (!step) throw new Error(`no step starting with \`${prefix}\` ran`);
    return step.out;
  }

  /** Stops the background job if a step before its `kill %1` failed (the `npx` and the emulator it started). */
  async close(): Promise<void> {
    const job = this.background;
    if (job && job.exitCode === null && job.signalCode === null) {
      const exited = new Promise((resolve) => job.once("exit", resolve));
      process.kill(-job.pid!, "SIGTERM");
      await exited;
    }
  }

  private write(step: Extract<Step, { file: string }>): string {
    const file = path.join(this.cwd, step.file);
    if (step.append) fs.appendFileSync(file, step.code);
    else fs.writeFileSync(file, step.code);
    return `${step.append ? "appended to" : "wrote"} ${file}`;
  }

  private filled(line: string): string {
    return line.replace(/(^|\s)~(?=[/\s]|$)/g, `$1${this.home}`).replaceAll("4010", String(this.port));
  }

  private async runLine(step: string): Promise<string> {
    const line = this.filled(step);
    if (line.endsWith("&")) return this.startInBackground(line.slice(0, -1).trim());
    if (line === "kill %1") {
      process.kill(this.background!.pid!, "SIGTERM");
      return portClosed(this.port);
    }
    const lacks = this.options.needs?.(line);
    const missing = lacks !== undefined && !(await this.has(lacks));
    const result = await this.user.run(`${line}\ncode=$?; printf '\\n[cwd] %s\\n' "$PWD"; exit $code`, this.cwd, {
      env: this.options.env,
      timeoutMs: 600_000,
    });
    if (missing) {
      if (result.code === 0 || !result.out.includes(lacks)) {
        throw new Error(
          `\`${step}\` needs ${lacks}, which is not on PATH, yet it did not fail naming it (exit ${result.code}):\n${result.out.slice(-3000)}`,
        );
      }
      this.wanting.push({ step, lacks, out: result.out });
    } else if (result.code !== 0) {
      throw new Error(`the step \`${step}\` exited ${result.code}:\n${result.out.slice(-3000)}`);
    }
    this.cwd = /\[cwd\] (.*)\n$/.exec(result.stdout)![1]!;
    return result.out;
  }

  /** Whether `program` is on PATH in the user's shell. */
  private async has(program: string): Promise<boolean> {
    if (!this.present.has(program)) this.present.set(program, (await this.user.run(`command -v ${program}`, this.home)).code === 0);
    return this.present.get(program)!;
  }

  /** A line that ends in `&`: started in its own process group; its output once it printed its banner. */
  private startInBackground(command: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn("bash", ["-c", `eval "$PC_EXPORTS" && exec ${command}`], {
        cwd: this.cwd,
        env: { ...this.user.env, ...this.options.env, PC_EXPORTS: this.user.exports },
        detached: true,
      });
      this.background = child;
      let out = "";
      const timer = setTimeout(() => reject(new Error(`\`${command}\` printed no token:\n${out}`)), 120_000);
      const onData = (chunk: Buffer) => {
        out += chunk;
        // The whole banner: the token, then how fast time runs.
        if (/token:\s+\S+\n[\s\S]*time:.*\n/.test(out)) {
          clearTimeout(timer);
          resolve(out);
        }
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
      child.on("exit", (code) => reject(new Error(`\`${command}\` exited ${code}:\n${out}`)));
    });
  }
}

/**
 * A user's shell in a new folder (the page's `~`, outside the repository) holding the tarball as
 * the page's pack line leaves it there (`~/pulumi-compute-<version>.tgz`): the run's one packed
 * tarball (`packedPackage`), which test/e2e/cli-path.e2e.test.ts makes with the README's own line.
 */
export async function userWithTarball(prefix: string): Promise<{ base: string; user: UserShell; tarball: string }> {
  const packed = await packedPackage();
  const base = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const tarball = path.join(base, path.basename(packed));
  fs.linkSync(packed, tarball);
  const user = new UserShell(base);
  await user.init();
  return { base, user, tarball };
}

/** The lines that run the program, which need the language's host (`StepOptions.needs`). */
export const runsTheProgram =
  (host: string) =>
  (line: string): string | undefined =>
    /^pulumi (preview|up|refresh)\b/.test(line) ? host : undefined;

/**
 * A page's steps for a test file: a user's shell with the tarball (`userWithTarball`), made
 * before the file's tests, and removed after them, with a background job still running.
 */
export function pageRun(page: string, options: StepOptions = {}): { base: string; user: UserShell; steps: PageSteps } {
  const run = {} as { base: string; user: UserShell; steps: PageSteps };
  beforeAll(async () => {
    Object.assign(run, await userWithTarball(`pc-${path.basename(page, ".md")}-`));
    run.steps = new PageSteps(run.user, run.base, pageSteps(page), { ...options, env: { ...QUIET_NPM, ...options.env } });
  });
  afterAll(async () => {
    await run.steps?.close();
    if (run.base) fs.rmSync(run.base, { recursive: true, force: true });
  });
  return run;
}

/**
 * The project the page's steps made, at `folder` under its `~`: where they got to, with the
 * tarball in its package.json and each of `files` (the layout the page lists).
 */
export function expectProjectFromTarball(run: { base: string; steps: PageSteps }, folder: string, files: string[] = []): string {
  const project = path.join(run.base, folder);
  expect(run.steps.folder).toBe(project);
  const installed = JSON.parse(fs.readFileSync(path.join(project, "package.json"), "utf8"));
  expect(installed.dependencies["pulumi-compute"]).toBe(`file:../pulumi-compute-${repoPackage().version}.tgz`);
  expect(files.filter((file) => !fs.existsSync(path.join(project, file)))).toEqual([]);
  return project;
}

/** npm as the pages' tests run it: from its cache when it can, without audit or funding notes. */
export const QUIET_NPM: NodeJS.ProcessEnv = { npm_config_prefer_offline: "true", npm_config_audit: "false", npm_config_fund: "false" };

const repoPackage = () => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));

/**
 * The page says how to make the tarball `npm pack` writes for this version (package.json's) and
 * installs it, with the `@pulumi/pulumi` the package is built and tested with.
 */
export function expectTarballSteps(page: string): void {
  const { version, devDependencies } = repoPackage();
  const tarball = `pulumi-compute-${version}.tgz`;
  expect(fs.readFileSync(path.join(REPO_ROOT, page), "utf8")).toContain(
    `npm run build && npm pack --pack-destination ~   # in the checkout: writes ~/${tarball}`,
  );
  expect(pageSteps(page).map(stepName)).toContain(
    `npm init -y && npm install ~/${tarball} @pulumi/pulumi@${devDependencies["@pulumi/pulumi"]}`,
  );
}

/**
 * Runs the rest of `page`'s steps and holds them: the emulator they started ends empty (what up
 * made, destroy deleted; or nothing was made) and is stopped, every step ran, the stack and its
 * configuration took no language host, and the steps that need `host` either ran (the program's
 * six resources made, then deleted) or, where the host is missing, stopped naming it — which is
 * said plainly, with where to run them (`bash scripts/e2e-language.sh --hosts <dir> <language>`).
 */
export async function finishHostSteps(steps: PageSteps, page: string, host: string, language: string): Promise<void> {
  await steps.runUntil("kill %1");
  expect(await emulatorVpcs(steps)).toEqual([]);
  await steps.runUntil();
  expect(steps.output("kill %1")).toMatch(/closed/);
  const ran = steps.ran.map((r) => r.step);
  expect(ran).toEqual(pageSteps(page).map(stepName));
  const wanting = steps.wanting.map((w) => w.step);
  for (const line of ran.filter((step) => /^pulumi (stack|config)\b/.test(step))) {
    expect({ line, wanting: wanting.includes(line) }).toEqual({ line, wanting: false });
  }
  if (wanting.length === 0) {
    expect(steps.output("pulumi preview")).toMatch(/\+ 6 created/);
    expect(steps.output("pulumi destroy")).toMatch(/- 6 deleted/);
    return;
  }
  console.log(
    `Not run on this machine for want of ${host} (each ran and stopped at the missing host): ${wanting.map((step) => `\`${step}\``).join(", ")}. ` +
      `Run them where a Pulumi installation is, or \`bash scripts/e2e-language.sh --hosts <dir> ${language}\`.`,
  );
  expect(wanting).toEqual(ran.filter((step) => step.startsWith("pulumi preview")));
  expect(steps.wanting[0]!.out).toContain(`no language plugin '${host}' found`);
}

/** The VPCs of the emulator the steps started. */
async function emulatorVpcs(steps: PageSteps): Promise<unknown[]> {
  const { apiUrl, token } = steps.emulator();
  const client = new ComputeClient({ baseUrl: apiUrl, token });
  try {
    return await client.vpcs.listAll();
  } finally {
    await client.close();
  }
}
