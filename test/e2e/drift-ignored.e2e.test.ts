/**
 * Drift that means "to restore": a field the program leaves to someone else (`ignoreChanges`) is
 * listed as ignored, not counted as drift, and does not change the exit code, through both doors
 * (the classes in a JavaScript project, a Pulumi YAML program through the provider plugin):
 * - `pulumi-compute drift` from a shell: the ignored label changed by hand exits 0 naming it as
 *   ignored (text, `--json`, `--all --json --junit`); the description changed too exits 2 naming
 *   the description as drift, as before; `pulumi up --refresh`, which the report advises, sets the
 *   description back and keeps the hand-made label, as the report says; then no drift;
 * - `drift()` of `pulumi-compute/testing` answers the same: `[]` with the label in `ignored`, then
 *   the description;
 * - the limit: the option is read from state, so one added to the program counts once an `up`
 *   (which writes nothing to the cloud for it) has recorded it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Vpc } from "../../provider";
import { emulatedStack } from "../../provider/testing";
import { PROVIDER_PLUGIN_YAML } from "../../provider/launch/plugins";
import { useEmulatedAccount } from "../support/account";
import { runProcess, type ProcessResult } from "../support/process";
import { expectExit, linkedProject, linkedProjectEnv } from "../support/user-shell";
import { yamlProject } from "../support/yaml-project";

// Each step starts the engine (and a language host, and the provider) from a shell.
jest.setTimeout(900_000);

const account = useEmulatedAccount();
let base: string;

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-e2e-drift-ignored-"));
});

afterAll(() => {
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

const DESCRIPTION = "the program's";

/** The classes' program: a VPC whose label is left to whoever renames it. */
const jsProgram = (label: string) =>
  `const compute = require("pulumi-compute");\n` +
  `new compute.Vpc("net", { label: ${JSON.stringify(label)}, region: "us-iad", description: ${JSON.stringify(DESCRIPTION)} }, { ignoreChanges: ["label"] });\n`;

/** The same program in Pulumi YAML, through the provider plugin. */
const yamlProgram = (name: string, label: string) =>
  [
    `name: ${name}`,
    "runtime: yaml",
    PROVIDER_PLUGIN_YAML.trimEnd(),
    "resources:",
    "  net:",
    "    type: compute:index:Vpc",
    `    properties: { label: ${label}, region: us-iad, description: "${DESCRIPTION}" }`,
    "    options: { ignoreChanges: [label] }",
    "",
  ].join("\n");

interface Door {
  name: string;
  /** The project folder, made; commands run from a shell in it. */
  make(label: string): { dir: string; shell(command: string): Promise<ProcessResult> };
}

const DOORS: Door[] = [
  {
    name: "the classes (a JavaScript project)",
    make: (label) => {
      const dir = path.join(base, "js");
      fs.mkdirSync(dir);
      linkedProject(dir, { name: "drift-ignored-js", backendUrl: `file://${path.join(dir, "state")}`, program: jsProgram(label) });
      fs.mkdirSync(path.join(dir, "state"));
      const env = linkedProjectEnv(dir);
      return { dir, shell: (command) => runProcess("bash", ["-c", command], { cwd: dir, env, timeoutMs: 600_000 }) };
    },
  },
  {
    name: "Pulumi YAML through the provider plugin",
    make: (label) => yamlProject(path.join(base, "yaml"), yamlProgram("drift-ignored-yaml", label)),
  },
];

/** The report's row of a field: `Vpc net  label  "a"  "b"`. */
const row = (field: string, state: string, cloud: string) => new RegExp(`Vpc net\\s+${field}\\s+"${state}"\\s+"${cloud}"`);

test.each(DOORS)(
  "pulumi-compute drift, $name: an ignored field changed by hand exits 0, listed as ignored; another exits 2",
  async (door) => {
    const label = `kept-${door.name.startsWith("the classes") ? "js" : "yaml"}`;
    const project = door.make(label);
    const ok = async (command: string) => {
      const result = await project.shell(command);
      expectExit(result, 0);
      return result;
    };
    const drift = (args = "") => project.shell(`node node_modules/pulumi-compute/dist/provider/cli/main.js drift ${args}`);
    await ok("pulumi stack init dev --non-interactive");
    await ok(`pulumi config set compute:apiUrl ${account.emulator.url}`);
    await ok(`pulumi config set --secret compute:token ${account.emulator.token}`);
    await ok("pulumi up --yes --skip-preview --non-interactive");
    const [vpc] = await account.client.vpcs.listAll({ filter: { label } });

    // The label, which the program leaves to others, renamed by hand: no drift.
    await account.client.vpcs.update(vpc!.id, { label: "renamed-by-ops" });
    const ignoredLabel = { resource: "net", type: "Vpc", field: "label", state: label, cloud: "renamed-by-ops" };
    const text = await drift("--stack dev");
    expectExit(text, 0);
    expect(text.stdout).toContain("No drift: 1 resources of stack dev match the cloud, apart from fields the program ignores.");
    expect(text.stdout).toContain(
      "Ignored: 1 field(s) of 1 resource(s) differ where the program's ignoreChanges leaves them to others (not drift).",
    );
    expect(text.stdout).toMatch(row("label", label, "renamed-by-ops"));
    expect(text.stdout).toContain("`pulumi up` leaves them as they are, with or without `--refresh`");
    expect(text.stdout).not.toContain("brings them back");
    const json = await drift("--stack dev --json");
    expectExit(json, 0);
    expect(JSON.parse(json.stdout)).toEqual({ stack: "dev", resources: 1, drift: [], ignored: [ignoredLabel] });
    const junit = path.join(project.dir, "drift.xml");
    const fleet = await drift(`--all --json --junit ${junit}`);
    expectExit(fleet, 0);
    expect(JSON.parse(fleet.stdout)).toMatchObject({
      stacks: [{ status: "clean", resources: 1, drift: [], ignored: [ignoredLabel] }],
      summary: { clean: 1, drift: 0, busy: 0, error: 0 },
    });
    let xml = fs.readFileSync(junit, "utf8");
    expect(xml).toContain('tests="1" failures="0" errors="0"');
    expect(xml).toMatch(/<system-out>No drift: [^<]*Ignored: 1 field\(s\)[^<]*Vpc net\s+label/);

    // The description, which the program manages, changed too: drift, reported as before.
    await account.client.vpcs.update(vpc!.id, { description: "edited-by-hand" });
    const drifted = await drift("--stack dev --json");
    expectExit(drifted, 2);
    expect(JSON.parse(drifted.stdout)).toEqual({
      stack: "dev",
      resources: 1,
      drift: [{ resource: "net", type: "Vpc", field: "description", state: DESCRIPTION, cloud: "edited-by-hand" }],
      ignored: [ignoredLabel],
    });
    const table = await drift("--stack dev");
    expectExit(table, 2);
    expect(table.stdout).toContain("Drift in stack dev: 1 field(s) of 1 resource(s) differ from state.");
    expect(table.stdout).toMatch(row("description", DESCRIPTION, "edited-by-hand"));
    expect(table.stdout).toContain("`pulumi up --refresh` brings them back to the program's values");
    expect(table.stdout).toMatch(row("label", label, "renamed-by-ops"));
    expectExit(await drift(`--all --junit ${junit}`), 2);
    xml = fs.readFileSync(junit, "utf8");
    expect(xml).toContain('tests="1" failures="1" errors="0"');
    expect(xml).toMatch(/<failure type="drift" message="drift: 1 field\(s\) of 1 resource\(s\)">[^<]*description/);

    // What the report advises does what it says: the description back, the label as ops left it.
    await ok("pulumi up --refresh --yes --skip-preview --non-interactive");
    expect(await account.client.vpcs.get(vpc!.id)).toMatchObject({ label: "renamed-by-ops", description: DESCRIPTION });
    const after = await drift("--stack dev --json");
    expectExit(after, 0);
    expect(JSON.parse(after.stdout)).toEqual({ stack: "dev", resources: 1, drift: [] });

    await ok("pulumi destroy --yes --skip-preview --non-interactive");
    expect(await account.client.vpcs.get(vpc!.id).catch((error: { status?: number }) => error.status)).toBe(404);
  },
);

test("drift() of pulumi-compute/testing, through both doors: an ignored field is not drift and is listed in `ignored`", async () => {
  const yamlDir = path.join(base, "testing-yaml");
  yamlProject(yamlDir, yamlProgram("drift-ignored-testing", "kept-net"));
  const programs = {
    classes: async () => {
      new Vpc("net", { label: "kept-net", region: "us-iad", description: DESCRIPTION }, { ignoreChanges: ["label"] });
    },
    yaml: yamlDir,
  };
  for (const [door, program] of Object.entries(programs)) {
    await using stack = await emulatedStack(program);
    await stack.up();
    const [vpc] = await stack.client.vpcs.listAll();
    const ignored = [{ resource: "net", type: "Vpc", field: "label", state: "kept-net", cloud: "renamed-by-ops" }];

    await stack.client.vpcs.update(vpc!.id, { label: "renamed-by-ops" });
    const found = await stack.drift();
    expect({ door, drift: [...found], ignored: found.ignored }).toEqual({ door, drift: [], ignored });
    expect(found).toEqual([]);

    await stack.client.vpcs.update(vpc!.id, { description: "edited-by-hand" });
    const both = await stack.drift();
    expect({ door, drift: [...both], ignored: both.ignored }).toEqual({
      door,
      drift: [{ resource: "net", type: "Vpc", field: "description", state: DESCRIPTION, cloud: "edited-by-hand" }],
      ignored,
    });
  }
});

test("the limit, as the guide says it: an ignoreChanges not yet deployed counts from the next `up`, which writes nothing for it", async () => {
  let ignoreChanges: string[] = [];
  await using stack = await emulatedStack(async () => {
    new Vpc("net", { label: "kept-net", region: "us-iad" }, { ignoreChanges });
  });
  await stack.up();
  const [vpc] = await stack.client.vpcs.listAll();
  await stack.client.vpcs.update(vpc!.id, { label: "renamed-by-ops" });
  const label = { resource: "net", type: "Vpc", field: "label", state: "kept-net", cloud: "renamed-by-ops" };

  // The refresh preview runs no program: the option added to it is not seen yet.
  ignoreChanges = ["label"];
  const before = await stack.drift();
  expect({ drift: [...before], ignored: before.ignored }).toEqual({ drift: [label], ignored: [] });

  // An `up` records it (in state, no request that writes) and keeps the hand-made label.
  const mark = stack.control.listRequests().length;
  await stack.up();
  expect(
    stack.control
      .listRequests()
      .slice(mark)
      .filter((r) => r.method !== "GET"),
  ).toEqual([]);
  const after = await stack.drift();
  expect({ drift: [...after], ignored: after.ignored }).toEqual({ drift: [], ignored: [label] });
  expect((await stack.client.vpcs.get(vpc!.id)).label).toBe("renamed-by-ops");
});
