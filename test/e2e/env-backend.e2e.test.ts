/**
 * `eval "$(npm run -s env)"` never moves a stack (issue 57, item 4). The CLI takes
 * `PULUMI_BACKEND_URL` over a project's `backend.url`, and the env exported `file://~` to a user
 * with no `pulumi login` and no backend set: `pulumi stack init dev` in a project whose Pulumi.yaml
 * names its team's backend put the stack in the user's `~/.pulumi` instead, where an `up` made
 * every object again. The env now sets no backend, says once on stderr how to choose one, and
 * leaves the choice to the project's `backend.url` or to the CLI's own rule.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../support/engine";
import { runProcess } from "../support/process";
import { UserShell, expectExit } from "../support/user-shell";

jest.setTimeout(180_000);

/** The first line of what the env says to a user with no backend. */
const NO_BACKEND = "no Pulumi backend is chosen";

let base: string;
let home: string;
let user: UserShell;

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-env-backend-"));
  home = path.join(base, "home");
  fs.mkdirSync(home);
  user = new UserShell(base);
  // A user who never ran `pulumi login` and set no backend: their own HOME (a temporary one, with
  // the Pulumi home the CLI defaults to, ~/.pulumi), no PULUMI_HOME, no PULUMI_BACKEND_URL. The
  // toolchain's cache stays where the run's set-up built it.
  delete user.env.PULUMI_HOME;
  delete user.env.PULUMI_BACKEND_URL;
  user.env.PULUMI_COMPUTE_CACHE =
    process.env.PULUMI_COMPUTE_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-compute");
  user.env.HOME = home;
});

afterAll(() => {
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

/** Every file under `dir`, relative to it (none when it does not exist). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((entry) => fs.statSync(path.join(dir, entry)).isFile()).sort();
}

/** `npm run -s env` as the user runs it in the repository, with extra variables set. */
function env(extra: NodeJS.ProcessEnv = {}) {
  return runProcess("npm", ["run", "-s", "env"], { cwd: REPO_ROOT, env: { ...user.env, ...extra } });
}

test("with no login and no backend, a project's stack goes to its backend.url, nothing to ~/.pulumi, and the env says once how to choose", async () => {
  const printed = await env();
  expectExit(printed, 0);
  expect(printed.stdout).not.toContain("PULUMI_BACKEND_URL");
  // Said once, on stderr (what eval does not take), with the ways to choose.
  expect(printed.out.split(NO_BACKEND).length - 1).toBe(1);
  expect(printed.stdout).not.toContain(NO_BACKEND);
  expect(printed.out).toContain("pulumi login --local");
  expect(printed.out).toContain("backend: url:");

  // The reproduction: a project whose Pulumi.yaml names its own folder as its backend.
  const project = path.join(base, "shop");
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, "Pulumi.yaml"), `name: shop\nruntime: nodejs\nbackend:\n  url: file://${project}\n`);
  const before = filesUnder(path.join(home, ".pulumi"));
  const made = await user.run(`eval "$(npm run -s env)" && cd ${JSON.stringify(project)} && pulumi stack init dev`, REPO_ROOT);
  expectExit(made, 0);
  expect(fs.existsSync(path.join(project, ".pulumi/stacks/shop/dev.json"))).toBe(true);
  // The CLI's own home keeps its note of the selected stack (workspaces/), as in any project; no
  // state of any stack: no stacks/, no meta.yaml, no history or locks.
  const added = filesUnder(path.join(home, ".pulumi")).filter((file) => !before.includes(file));
  expect(added.filter((file) => !file.startsWith("workspaces/"))).toEqual([]);
  expect(fs.existsSync(path.join(home, ".pulumi/stacks"))).toBe(false);
});

test("a user who chose a backend (pulumi login, or PULUMI_BACKEND_URL) is told nothing and given none", async () => {
  const chosen = await env({ PULUMI_BACKEND_URL: `file://${path.join(base, "state")}` });
  expectExit(chosen, 0);
  expect({ exported: chosen.stdout.includes("PULUMI_BACKEND_URL"), told: chosen.out.includes(NO_BACKEND) }).toEqual({
    exported: false,
    told: false,
  });

  fs.mkdirSync(path.join(home, ".pulumi"), { recursive: true });
  const credentials = path.join(home, ".pulumi/credentials.json");
  fs.writeFileSync(credentials, JSON.stringify({ current: "file:///somewhere", accounts: {} }));
  try {
    const loggedIn = await env();
    expectExit(loggedIn, 0);
    expect({ exported: loggedIn.stdout.includes("PULUMI_BACKEND_URL"), told: loggedIn.out.includes(NO_BACKEND) }).toEqual({
      exported: false,
      told: false,
    });
  } finally {
    fs.rmSync(credentials);
  }
});
