/**
 * `eval "$(npm run -s env)"` never moves a stack (issue 57, item 4). The CLI takes
 * `PULUMI_BACKEND_URL` over a project's `backend.url`, and the env exported `file://~` to a user
 * with no `pulumi login` and no backend set: `pulumi stack init dev` in a project whose Pulumi.yaml
 * names its team's backend put the stack in the user's `~/.pulumi` instead, where an `up` made
 * every object again. The env now sets no backend, says once on stderr how to choose one, and
 * leaves the choice to the project's `backend.url` or to the CLI's own rule.
 *
 * The user here has a temporary HOME and their Pulumi home in it. The CLI resolves `file://~` (and
 * its own home, when PULUMI_HOME is unset) from the account's entry in the system's user database,
 * not from $HOME, so the `~/.pulumi` an exported `file://~` would fill is the real account's: the
 * test looks there too, under a project name of its own, and runs `pulumi` only once the env's
 * exports are seen to send nothing there.
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
  // A user who never ran `pulumi login` and set no backend: HOME a temporary folder, the Pulumi
  // home its ~/.pulumi, no PULUMI_BACKEND_URL. The toolchain's cache stays where the run's set-up
  // built it.
  delete user.env.PULUMI_BACKEND_URL;
  user.env.HOME = home;
  user.env.PULUMI_HOME = path.join(home, ".pulumi");
  user.env.PULUMI_COMPUTE_CACHE =
    process.env.PULUMI_COMPUTE_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-compute");
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
  // No backend exported (checked before any pulumi runs: one would send the stack to the
  // account's real ~/.pulumi); said once, on stderr, with the ways to choose.
  const printed = await env();
  expectExit(printed, 0);
  expect(printed.stdout).not.toContain("PULUMI_BACKEND_URL");
  expect(printed.out.split(NO_BACKEND).length - 1).toBe(1);
  expect(printed.stdout).not.toContain(NO_BACKEND);
  expect(printed.out).toContain("pulumi login --local");
  expect(printed.out).toContain("backend: url:");

  // The reproduction: a project whose Pulumi.yaml names its own folder as its backend.
  const name = path.basename(base);
  const project = path.join(base, name);
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, "Pulumi.yaml"), `name: ${name}\nruntime: nodejs\nbackend:\n  url: file://${project}\n`);
  const before = filesUnder(path.join(home, ".pulumi"));
  const made = await user.run(`eval "$(npm run -s env)" && cd ${JSON.stringify(project)} && pulumi stack init dev`, REPO_ROOT);
  expectExit(made, 0);
  // The stack is in the project's backend. The user's ~/.pulumi gains only the CLI's own notes (the
  // selected stack in workspaces/, its log in logs/), as in any project: no state of any stack (no
  // stacks/, meta.yaml, history or locks); nor does the account's home, where `file://~` points.
  const added = filesUnder(path.join(home, ".pulumi")).filter((file) => !before.includes(file));
  expect({
    projectBackend: filesUnder(path.join(project, ".pulumi/stacks")).includes(`${name}/dev.json`),
    usersPulumi: added.filter((file) => !/^(workspaces|logs)\//.test(file)),
    accountsPulumi: filesUnder(path.join(os.userInfo().homedir, ".pulumi/stacks", name)),
  }).toEqual({ projectBackend: true, usersPulumi: [], accountsPulumi: [] });
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
