/**
 * The package's Python and Go templates for `pulumi new` (templates/python, templates/go), as far
 * as this machine can take them. The package is packed from this checkout and installed in a new
 * folder outside the repository (the run's one install, `installedNewProject`), and `pulumi new
 * ./node_modules/pulumi-compute/templates/<language> --force --yes --generate-only` runs in a
 * shell after `eval "$(npm run -s env)"`.
 *
 * What needs a language host, said here rather than skipped: `pulumi new` lays the files down and
 * saves the project, and then loads the language's host (for its template step, and to install the
 * dependencies without `--generate-only`); preview, up, the policy pack at preview, and destroy
 * run the program through that host. This machine has no Python or Go host (docs/guides/python.md,
 * go.md: "an end-to-end run with a real host"), so each test expects `pulumi new` to stop exactly
 * there, naming the host, after the project is laid down, and passes with a host when one is on
 * PATH. It then does what the host would do to install the project (a virtual environment from
 * `requirements.txt`; `go mod tidy`) and runs the project's own tests under Pulumi's mocks, which
 * answer through the package's provider plugin: pytest, and `go vet` and `go test`. The policy
 * pack, which the engine runs at preview, is run as far as it can be without one: its policies, at
 * their defaults, on each resource as the program registers it under the same mocks.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { COMPUTE_POLICIES } from "../../provider/policy";
import { REPO_ROOT } from "../support/engine";
import { installedNewProject } from "../support/installed-project";
import { type ProcessResult } from "../support/process";
import { UserShell, expectExit } from "../support/user-shell";
import { ENGINE_GO_BUILD, passed, required } from "./languages";

// A virtual environment (Pulumi's Python SDK and grpcio from pip's cache) and a Go test binary.
jest.setTimeout(900_000);

let base: string;
let user: UserShell;

beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-templates-host-"));
  user = new UserShell(base);
  await user.init();
});

afterAll(() => {
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

/** A command line in the user's shell, in `cwd`, with more environment. */
function shell(command: string, cwd: string, env: NodeJS.ProcessEnv = {}): Promise<ProcessResult> {
  return user.run(command, cwd, { env, timeoutMs: 600_000 });
}

/**
 * `pulumi new --generate-only` of the installed template in a new folder (its name the project's),
 * and what it laid down: the template's files with the project's name, no `template:` section.
 * Without the language's host on PATH, it stops when it loads the host, naming it, and not before.
 */
async function pulumiNew(language: "python" | "go", files: string[]): Promise<string> {
  const dir = path.join(base, `${language}-infra`);
  await installedNewProject(dir, user.env);
  const host = `pulumi-language-${language}`;
  const hasHost = (await shell(`command -v ${host}`, dir)).code === 0;
  const made = await shell(`pulumi new ./node_modules/pulumi-compute/templates/${language} --force --yes --generate-only`, dir);
  if (hasHost) expectExit(made, 0);
  else {
    expectExit(made, "fails");
    expect(made.out).toContain(`failed to load language plugin ${language}`);
  }
  const name = path.basename(dir);
  const project = fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8");
  expect(project).toMatch(new RegExp(`^name: ${name}$`, "m"));
  expect(project).not.toMatch(/^template:|\$\{PROJECT\}|\$\{DESCRIPTION\}/m);
  expect(project).toContain("path: node_modules/pulumi-compute/plugins");
  for (const file of files) {
    const text = fs.readFileSync(path.join(dir, file), "utf8");
    expect({ file, placeholders: /\$\{(PROJECT|DESCRIPTION)\}/.test(text) }).toEqual({ file, placeholders: false });
  }
  return dir;
}

/** The recorders of what a program registers under its language's mocks (test/sdks/template-policy/). */
const RECORDERS = path.join(REPO_ROOT, "test/sdks/template-policy");

interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}

/**
 * The compute-guardrails policies, at their defaults, on what a program registered: each policy's
 * check as the pack runs it at preview (its settings' defaults, the resource's inputs in the
 * program's names). Its violations, as `<policy>: <message>`.
 */
function guardrails(project: string, registered: Registered[]): string[] {
  const violations: string[] = [];
  for (const resource of registered) {
    for (const policy of COMPUTE_POLICIES) {
      const defaults = Object.fromEntries(Object.entries(policy.settings).map(([key, setting]) => [key, setting.default]));
      const args = {
        type: resource.type,
        name: resource.name,
        urn: `urn:pulumi:dev::${project}::${resource.type}::${resource.name}`,
        props: resource.inputs,
        getConfig: () => defaults,
      };
      const validate = policy.validateResource as (args: unknown, report: (message: string) => void) => void;
      validate(args, (message) => violations.push(`${policy.name}: ${message}`));
    }
  }
  return violations;
}

/**
 * The program's resources, as it registered them, pass the policies at their defaults; and the
 * same database without TLS, or the same app without its firewall, would not (the checks read what
 * they were given).
 */
function expectGuardrailsPass(project: string, registered: Registered[]): void {
  expect(registered.map((r) => `${r.type} ${r.name}`).sort()).toEqual([
    "compute:index:Domain zone",
    "compute:index:DomainRecord app-1",
    "compute:index:DomainRecord app-2",
    "compute:index:Firewall app-fw",
    "compute:index:Instance app-1",
    "compute:index:Instance app-2",
    "compute:index:MysqlDatabase db",
    "compute:index:Vpc app",
    "compute:index:VpcSubnet data",
    "compute:index:VpcSubnet web",
  ]);
  expect(guardrails(project, registered)).toEqual([]);
  const withoutTls = registered.map((r) => (r.name === "db" ? { ...r, inputs: { ...r.inputs, sslConnection: false } } : r));
  expect(guardrails(project, withoutTls)).toEqual([expect.stringMatching(/^database-transport: MysqlDatabase "db": /)]);
  const withoutFirewall = registered.map((r) =>
    r.type === "compute:index:Instance" && r.name === "app-1" ? { ...r, inputs: { ...r.inputs, firewallId: undefined } } : r,
  );
  expect(guardrails(project, withoutFirewall)).toEqual([expect.stringMatching(/^instance-firewall: Instance "app-1": /)]);
}

test("python: pulumi new lays the project down (then needs a Python host); installed as the host installs it, its tests pass under the mocks, and so do the pack's policies", async () => {
  const python = required("python3", "the Python template's tests (templates/python)");
  const dir = await pulumiNew("python", ["__main__.py", "infra.py", "test_infra.py", "requirements.txt"]);
  expect(fs.readFileSync(path.join(dir, "test_infra.py"), "utf8")).toContain('project="python-infra"');

  // What the host does for `runtime: {name: python, options: {virtualenv: venv}}`: a virtual
  // environment in the project, and `pip install -r requirements.txt` from the project's folder
  // (the package's Python SDK from node_modules, Pulumi's and pytest from pip's cache).
  const env = { PYTHONDONTWRITEBYTECODE: "1", PIP_DISABLE_PIP_VERSION_CHECK: "1" };
  expectExit(await shell(`${python} -m venv venv`, dir, env), 0);
  expectExit(await shell("venv/bin/python -m pip install --quiet -r requirements.txt", dir, env), 0);

  const tests = await shell("venv/bin/pytest -p no:cacheprovider -rA", dir, env);
  expectExit(tests, 0);
  expect(passed(tests.out, /^PASSED [^\n]*?::(\S+)/gm)).toEqual([
    "test_the_app_runs_in_the_web_subnet_at_its_addresses_behind_the_firewall_each_at_its_name",
    "test_the_database_has_a_host_name_and_port_3306_and_admits_the_subnet_and_the_app",
    "test_the_root_password_is_a_secret",
  ]);

  // The policy pack's policies on what the program registers under the same mocks.
  const recorder = path.join(base, "python-recorder");
  fs.mkdirSync(recorder);
  fs.copyFileSync(path.join(RECORDERS, "registered.py"), path.join(recorder, "test_registered.py"));
  const registered = path.join(recorder, "registered.json");
  const record = await shell(`venv/bin/pytest -p no:cacheprovider -q ${recorder}/test_registered.py`, dir, {
    ...env,
    PC_PROJECT: path.basename(dir),
    PC_REGISTERED: registered,
  });
  expectExit(record, 0);
  expectGuardrailsPass(path.basename(dir), JSON.parse(fs.readFileSync(registered, "utf8")));
});

test("go: pulumi new lays the project down (then needs a Go host); tidied as the host tidies it, go vet accepts it, its tests pass under the mocks, and so do the pack's policies", async () => {
  const go = required("go", "the Go template's tests (templates/go)");
  const dir = await pulumiNew("go", ["go.mod", "main.go", "main_test.go"]);
  expect(fs.readFileSync(path.join(dir, "go.mod"), "utf8")).toMatch(/^module go-infra$/m);

  // What the host does to install a Go project: `go mod tidy`, which adds the module's own
  // requirements (the module from node_modules, Pulumi's Go SDK from the module cache). Built
  // as the engine is built, so the packages it compiled serve this build (test/sdks/languages.ts).
  const goflags = `${process.env.GOFLAGS ?? ""} ${ENGINE_GO_BUILD.GOFLAGS}`.trim();
  const build = { CGO_ENABLED: ENGINE_GO_BUILD.CGO_ENABLED, GOFLAGS: goflags };
  expectExit(await shell(`${go} mod tidy`, dir, build), 0);
  // Beside its tests, the recorder of what the program registers, for the policy pack's policies.
  fs.copyFileSync(path.join(RECORDERS, "registered_test.go"), path.join(dir, "registered_test.go"));
  const registered = path.join(base, "go-registered.json");
  const readonly = { ...build, GOFLAGS: `-mod=readonly ${goflags}` };
  const vet = await shell(`${go} vet ./...`, dir, readonly);
  expect({ code: vet.code, out: vet.out }).toEqual({ code: 0, out: "" });

  const tests = await shell(`${go} test -count=1 -v ./...`, dir, {
    ...readonly,
    PC_PROJECT: path.basename(dir),
    PC_REGISTERED: registered,
  });
  expectExit(tests, 0);
  expect(passed(tests.out, /^--- PASS: (\w+)/gm)).toEqual([
    "TestRecordWhatTheProgramRegisters",
    "TestTheAppRunsInTheWebSubnetAtItsAddressesBehindTheFirewallEachAtItsName",
    "TestTheDatabaseHasAHostNameAndPort3306AndAdmitsTheSubnetAndTheApp",
    "TestTheRootPasswordIsASecret",
  ]);
  expectGuardrailsPass(path.basename(dir), JSON.parse(fs.readFileSync(registered, "utf8")));
});
