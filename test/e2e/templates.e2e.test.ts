/**
 * The package's templates for `pulumi new` (templates/), TypeScript and Pulumi YAML, as a user
 * meets them: the package packed from this checkout and installed in a new folder outside the
 * repository (the run's one install, `installedNewProject`: what `npm install <tarball>` leaves),
 * then, in a shell after `eval "$(npm run -s env)"`, `pulumi new
 * ./node_modules/pulumi-compute/templates/<language> --force --yes` (the folder holds
 * node_modules, hence `--force`), which lays the project down, makes the stack `dev` and, for
 * TypeScript, runs `npm install` (YAML: `--generate-only`, then `pulumi stack init dev`, as getting
 * started says); the token set as a secret; `preview` and `up` with the package's
 * policy pack at its defaults (silent: nothing to report); the project's own tests (`npm test`);
 * and `destroy`, which leaves the emulated account empty. The Python and Go templates, whose
 * programs need a language host this machine lacks, are test/sdks/templates.test.ts's.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { CLI_TIME_SCALE } from "../../emulator/cli";
import { ComputeClient } from "../../sdk/client";
import { GUARDRAILS_PATH } from "../../provider/launch/plugins";
import { installedNewProject } from "../support/installed-project";
import { type ProcessResult } from "../support/process";
import { UserShell, expectExit } from "../support/user-shell";

// Each template: pulumi new (an npm install for TypeScript), two engine runs, its tests, destroy.
jest.setTimeout(900_000);

let base: string;
let user: UserShell;
let emulator: RunningEmulator;
let client: ComputeClient;

beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-templates-"));
  user = new UserShell(base);
  await user.init();
  // Its clock as `compute-emulator` runs it by default, so a database is active in seconds.
  emulator = await startEmulator({ port: 0, timeScale: CLI_TIME_SCALE });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
});

afterAll(async () => {
  await client?.close();
  await emulator?.close();
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

/** A new folder with the package installed from its tarball, as `npm install <tarball>` leaves it. */
async function installedFolder(name: string): Promise<string> {
  const dir = path.join(base, name);
  await installedNewProject(dir, user.env);
  expect(fs.existsSync(path.join(dir, "node_modules/pulumi-compute/templates"))).toBe(true);
  return dir;
}

/** A command line in the user's shell, in `cwd`; npm offline where its cache serves. */
function shell(command: string, cwd: string): Promise<ProcessResult> {
  return user.run(command, cwd, {
    env: { npm_config_prefer_offline: "true", npm_config_audit: "false", npm_config_fund: "false" },
    timeoutMs: 600_000,
  });
}

const writes = () => emulator.control.listRequests().filter((r) => r.method !== "GET");

/**
 * `pulumi new` from the installed template in `dir` (its name the project's); then what a new
 * project holds: the template's files with the project's name, no `template:` section, and the
 * stack `dev` selected with the API's URL and the token (a secret) in its config. TypeScript's
 * `pulumi new` makes the stack (the URL given on its command line) and runs `npm install`; a YAML
 * project's is `--generate-only`, and `pulumi stack init` makes the stack, as getting started says
 * (the step it skips would look for a `compute` plugin to download).
 */
async function pulumiNew(dir: string, language: string): Promise<ProcessResult> {
  const template = `./node_modules/pulumi-compute/templates/${language}`;
  const made =
    language === "yaml"
      ? await shell(`pulumi new ${template} --force --yes --generate-only`, dir)
      : await shell(`pulumi new ${template} --force --yes --stack dev --config compute:apiUrl=${emulator.url}`, dir);
  expectExit(made, 0);
  expect(made.out).toContain("Your new project is ready to go!");
  const name = path.basename(dir);
  const project = fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8");
  expect(project).toMatch(new RegExp(`^name: ${name}$`, "m"));
  expect(project).not.toMatch(/^template:|\$\{PROJECT\}|\$\{DESCRIPTION\}/m);
  expect(JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).name).toBe(name);
  if (language === "yaml") {
    expectExit(await shell("pulumi stack init dev", dir), 0);
    expectExit(await shell(`pulumi config set compute:apiUrl ${emulator.url}`, dir), 0);
  }
  expectExit(await shell(`pulumi config set --secret compute:token ${emulator.token}`, dir), 0);
  const config = fs.readFileSync(path.join(dir, "Pulumi.dev.yaml"), "utf8");
  expect(config).toContain(`compute:apiUrl: ${emulator.url}`);
  expect(config).toMatch(/compute:token:\n\s+secure: /);
  return made;
}

/** `preview` then `up` with the policy pack at its defaults: both pass it silently, the preview with no write. */
async function previewAndUp(dir: string, resources: number): Promise<void> {
  emulator.control.clearRequests();
  const preview = await shell(`pulumi preview --policy-pack ${GUARDRAILS_PATH}`, dir);
  expectExit(preview, 0);
  expect(preview.out).toMatch(new RegExp(`\\+ ${resources + 1} to create`));
  expect(preview.out).toMatch(/✅ compute-guardrails@v[\d.]+/);
  expect(preview.out).not.toMatch(/❌|\[(mandatory|advisory)\]/);
  expect(writes()).toEqual([]);

  const up = await shell(`pulumi up --yes --policy-pack ${GUARDRAILS_PATH}`, dir);
  expectExit(up, 0);
  expect(up.out).toMatch(new RegExp(`\\+ ${resources + 1} created`));
  expect(up.out).toMatch(/✅ compute-guardrails@v[\d.]+/);
  expect(up.out).not.toMatch(/❌|\[(mandatory|advisory)\]/);
}

/**
 * The README's program on the account: the VPC and its subnet, a database over TLS open to the
 * subnet; its outputs. With `app` (the workload every template holds): the web subnet, the app's
 * two instances running there at their VPC addresses behind their firewall, each at an A record of
 * its public address, and the database open to those addresses too.
 */
async function expectTheProgramsObjects(dir: string, { app = false } = {}): Promise<void> {
  const [vpc] = await client.vpcs.listAll();
  const subnets = [{ label: "data", ipv4: "10.0.2.0/24" }, ...(app ? [{ label: "web", ipv4: "10.0.1.0/24" }] : [])];
  expect(vpc).toMatchObject({ label: "app-net", region: "us-iad" });
  expect(vpc!.subnets.map(({ label, ipv4 }) => ({ label, ipv4 })).sort((a, b) => a.label.localeCompare(b.label))).toEqual(subnets);
  const [db] = await client.databases.mysql.listAll();
  const allowList = app ? ["10.0.2.0/24", "10.0.1.11", "10.0.1.12"] : ["10.0.2.0/24"];
  expect(db).toMatchObject({ label: "app-db", status: "active", ssl_connection: true, allow_list: allowList });
  if (app) {
    const instances = (await client.computes.instances.listAll()).sort((a, b) => a.label.localeCompare(b.label));
    expect(instances.map((i) => ({ label: i.label, status: i.status }))).toEqual([
      { label: "app-1", status: "running" },
      { label: "app-2", status: "running" },
    ]);
    const ids = instances.map((i) => i.id).sort();
    const web = vpc!.subnets.find((s) => s.label === "web")!;
    expect(web.computes.map((c) => c.id).sort()).toEqual(ids);
    const [firewall] = await client.networking.firewalls.listAll();
    expect(firewall).toMatchObject({ label: "app-fw", rules: { inbound_policy: "DROP" } });
    expect((await client.networking.firewalls.devices.listAll(firewall!.id)).map((d) => d.entity.id).sort()).toEqual(ids);
    const [zone] = await client.domains.listAll();
    expect(zone).toMatchObject({ domain: "app.example", type: "master" });
    const records = (await client.domains.records.listAll(zone!.id))
      .filter((r) => r.type === "A")
      .sort((a, b) => a.name.localeCompare(b.name));
    expect(records.map((r) => ({ name: r.name, target: r.target }))).toEqual(instances.map((i) => ({ name: i.label, target: i.ipv4[0] })));
  }
  const outputs = await shell("pulumi stack output --json", dir);
  expectExit(outputs, 0);
  expect(JSON.parse(outputs.stdout)).toEqual({ dbHost: db!.hosts.primary, dbPort: 3306, dbPassword: "[secret]" });
}

/** `destroy` removes everything, and the account is empty. */
async function destroy(dir: string, resources: number): Promise<void> {
  const destroyed = await shell("pulumi destroy --yes", dir);
  expectExit(destroyed, 0);
  expect(destroyed.out).toMatch(new RegExp(`- ${resources + 1} deleted`));
  expect({
    vpcs: await client.vpcs.listAll(),
    databases: await client.databases.mysql.listAll(),
    instances: await client.computes.instances.listAll(),
    firewalls: await client.networking.firewalls.listAll(),
    domains: await client.domains.listAll(),
  }).toEqual({ vpcs: [], databases: [], instances: [], firewalls: [], domains: [] });
}

test("typescript: pulumi new lays the project down and installs it; preview and up pass the policy pack; its npm test passes; destroy", async () => {
  const dir = await installedFolder("ts-infra");
  const made = await pulumiNew(dir, "typescript");
  // The nodejs language host ran npm install: the project's package.json asks for the registry's
  // range, which the installed tarball satisfies (nothing fetched).
  expect(made.out).toMatch(/Installing dependencies/);
  expect(JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).dependencies["pulumi-compute"]).toMatch(/^\^\d/);
  expect(fs.existsSync(path.join(dir, "index.test.ts"))).toBe(true);

  // The VPC, two subnets, the firewall, the app's two instances, the zone, a record each, and the database.
  await previewAndUp(dir, 10);
  await expectTheProgramsObjects(dir, { app: true });

  // Its own tests: the types, a unit test under computeMocks, an integration test on an emulated stack.
  const tests = await shell("npm test", dir);
  expectExit(tests, 0);
  expect(tests.out).toMatch(/Tests:\s+2 passed, 2 total/);

  await destroy(dir, 10);
});

test("yaml: pulumi new --generate-only lays the project down, and stack init; preview and up pass the policy pack; its npm test passes; destroy", async () => {
  // Without --generate-only, pulumi new stops after making the stack, at the packages the YAML
  // host says the program needs: it looks for a `compute` plugin to download, not at the path
  // Pulumi.yaml declares (offline here; online there is none to find).
  const whole = await shell("pulumi new ./node_modules/pulumi-compute/templates/yaml --force --yes", await installedFolder("yaml-whole"));
  expectExit(whole, "fails");
  expect(whole.out).toMatch(/installing packages: could not find latest version for provider compute/);

  const dir = await installedFolder("yaml-infra");
  await pulumiNew(dir, "yaml");
  expect(fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8")).toContain("type: compute:index:MysqlDatabase");

  // The VPC, two subnets, the firewall, the app's two instances, the zone, a record each, and the database.
  await previewAndUp(dir, 10);
  await expectTheProgramsObjects(dir, { app: true });

  // Its own test, on Node's test runner: the stack on an emulated account of its own, up to destroy.
  const tests = await shell("npm test", dir);
  expectExit(tests, 0);
  // Its summary, in the spec reporter's words or TAP's: "ℹ pass 1" or "# pass 1".
  expect(tests.out).toMatch(/^\S+ pass 1$/m);
  expect(tests.out).toMatch(/^\S+ fail 0$/m);

  await destroy(dir, 10);
});
