/**
 * Pulumi YAML programs through the provider plugin, with the `pulumi` CLI from a shell against the
 * emulator over HTTP, in a project that names the plugin with the one documented Pulumi.yaml entry:
 * - the YAML example (examples/yaml): preview (no write), up (the database's wait on its own row,
 *   the password a secret, the token nowhere in state), a change made through the API (which
 *   `pulumi-compute drift` reports), refresh showing it, up restoring it, the next preview empty,
 *   destroy leaving nothing;
 * - `pulumi import compute:index:Vpc net <id>` of a VPC made by hand into a YAML project: the code
 *   it writes, added to the program, previews empty, and the VPC is managed from then on;
 * - data functions (`fn::invoke`), a list as `items`, a secret result kept secret; a secret input
 *   kept secret as its output; the token kept out of state though set without `--secret`; a
 *   configuration key the package lacks refused.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import type { ProcessResult } from "../support/process";
import { writesSince } from "../support/requests";
import { expectExit } from "../support/user-shell";
import { PROVIDER_PLUGIN_YAML } from "../../provider/launch/plugins";
import { exampleProjectFile, yamlProject, type YamlProject } from "../support/yaml-project";

// Every step starts the engine, the YAML language host and the plugin from a shell.
jest.setTimeout(900_000);

let emulator: RunningEmulator;
let client: ComputeClient;
let base: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, timeScale: 600 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-e2e-yaml-"));
});

afterAll(async () => {
  await client?.close();
  await emulator?.close();
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

/** Runs a command that must succeed; its result. */
async function ok(project: YamlProject, command: string): Promise<ProcessResult> {
  const result = await project.shell(command);
  expectExit(result, 0);
  return result;
}

/** A stack `dev` of the project, configured for the emulator (the token a secret). */
async function initStack(project: YamlProject): Promise<void> {
  await ok(project, "pulumi stack init dev --non-interactive");
  await ok(project, `pulumi config set compute:apiUrl ${emulator.url}`);
  await ok(project, `pulumi config set --secret compute:token ${emulator.token}`);
}

test("the YAML example: preview, up, a change behind Pulumi's back, refresh, up restores, an empty preview, destroy", async () => {
  const project = yamlProject(path.join(base, "example"), exampleProjectFile());
  expect(fs.readFileSync(path.join(project.dir, "Pulumi.yaml"), "utf8")).toContain(PROVIDER_PLUGIN_YAML);
  await initStack(project);

  let mark = emulator.control.listRequests().length;
  const preview = await ok(project, "pulumi preview --non-interactive");
  for (const kind of ["Vpc net", "VpcSubnet data", "MysqlDatabase db", "Domain zone", "DomainRecord dbName"]) {
    expect(preview.out).toMatch(new RegExp(`\\+ +compute:index:${kind} create`));
  }
  expect(preview.out).toMatch(/\+ 6 to create/);
  expect(writesSince(emulator, mark)).toEqual([]);

  const up = await ok(project, "pulumi up --yes --skip-preview --non-interactive");
  expect(up.out).toMatch(/\+ 6 created/);
  // The database's wait is a status of its own row, not a line of the stack's diagnostics.
  expect(up.out).toMatch(/compute:index:MysqlDatabase db creating \([^)]*\) waiting for active/);
  const outputs = JSON.parse((await ok(project, "pulumi stack output --json")).stdout) as Record<string, unknown>;
  const [db] = await client.databases.mysql.listAll({ filter: { label: "yaml-db" } });
  expect(outputs).toEqual({ vpcId: expect.any(String), dbHost: "db.yaml.example", dbPrimary: db!.hosts.primary, dbPassword: "[secret]" });
  const [zone] = await client.domains.listAll({ filter: { domain: "yaml.example" } });
  const cname = (await client.domains.records.listAll(zone!.id)).find((r) => r.name === "db");
  expect(cname).toMatchObject({ type: "CNAME", target: db!.hosts.primary });
  const state = fs.readFileSync(path.join(project.dir, "state/.pulumi/stacks/compute-example-yaml/dev.json"), "utf8");
  expect(state).not.toContain(emulator.token);
  expect(state).toContain("compute:index:Vpc");

  const vpcId = Number(outputs.vpcId);
  await client.vpcs.update(vpcId, { label: "edited-by-hand" });
  // `pulumi-compute drift` reads a YAML stack as it reads a TypeScript one: exit 2, naming the field.
  const report = await project.shell("node node_modules/pulumi-compute/dist/provider/cli/main.js drift --stack dev");
  expectExit(report, 2);
  expect(report.out).toMatch(/Vpc net\s+label\s+"yaml-net"\s+"edited-by-hand"/);
  const drift = await ok(project, "pulumi refresh --preview-only --diff --non-interactive");
  expect(drift.out).toMatch(/~ label: "yaml-net" => "edited-by-hand"/);
  expect(drift.out).toMatch(/~ 1 to update/);
  await ok(project, "pulumi refresh --yes --skip-preview --non-interactive");

  const restore = await ok(project, "pulumi up --yes --skip-preview --non-interactive --diff");
  expect(restore.out).toMatch(/~ label: "edited-by-hand" => "yaml-net"/);
  expect(restore.out).toMatch(/~ 1 updated/);
  expect((await client.vpcs.get(vpcId)).label).toBe("yaml-net");

  mark = emulator.control.listRequests().length;
  const after = await ok(project, "pulumi preview --expect-no-changes --non-interactive");
  expect(after.out).toMatch(/6 unchanged/);
  expect(writesSince(emulator, mark)).toEqual([]);

  const destroy = await ok(project, "pulumi destroy --yes --skip-preview --non-interactive");
  expect(destroy.out).toMatch(/- 6 deleted/);
  expect(await client.vpcs.listAll()).toEqual([]);
  expect(await client.databases.instances.listAll()).toEqual([]);
  expect(await client.domains.listAll()).toEqual([]);
});

test("`pulumi import compute:index:Vpc net <id>` adopts a VPC made by hand into a YAML project, and the next preview is empty", async () => {
  const made = await client.vpcs.create({ label: "by-hand", region: "us-iad", description: "made in the console" });
  const project = yamlProject(path.join(base, "import"), `name: adopt\nruntime: yaml\n${PROVIDER_PLUGIN_YAML}`);
  await initStack(project);

  const imported = await ok(
    project,
    `pulumi import compute:index:Vpc net ${made.id} --yes --non-interactive --protect=false --out imported.yaml`,
  );
  expect(imported.out).toMatch(/= 1 imported/);
  const code = fs.readFileSync(path.join(project.dir, "imported.yaml"), "utf8");
  expect(code).toMatch(/^resources:\n {2}net:\n {4}type: compute:(index:)?Vpc\n/);
  expect(code).toContain("label: by-hand");
  expect(code).toContain("region: us-iad");
  expect(code).toContain("description: made in the console");

  fs.appendFileSync(path.join(project.dir, "Pulumi.yaml"), code);
  const mark = emulator.control.listRequests().length;
  const preview = await ok(project, "pulumi preview --expect-no-changes --diff --non-interactive");
  expect(preview.out).toMatch(/2 unchanged/);
  expect(writesSince(emulator, mark)).toEqual([]);

  // Managed from then on: a change in the program is an update of the same VPC; destroy deletes it.
  fs.writeFileSync(
    path.join(project.dir, "Pulumi.yaml"),
    fs.readFileSync(path.join(project.dir, "Pulumi.yaml"), "utf8").replace("label: by-hand", "label: adopted"),
  );
  await ok(project, "pulumi up --yes --skip-preview --non-interactive");
  expect((await client.vpcs.get(made.id)).label).toBe("adopted");
  await ok(project, "pulumi destroy --yes --skip-preview --non-interactive");
  expect(await client.vpcs.listAll()).toEqual([]);
});

test("data functions through the plugin, secrets kept secret both ways, the token kept out of state, and a configuration key the package lacks refused", async () => {
  const program = [
    "name: functions",
    "runtime: yaml",
    PROVIDER_PLUGIN_YAML.trimEnd(),
    "resources:",
    "  db:",
    "    type: compute:index:MysqlDatabase",
    "    properties: { label: fn-db, region: us-iad, type: g6-nanode-1, engineId: mysql/8 }",
    // A secret the program makes stays secret as the output of the same name.
    "  net:",
    "    type: compute:index:Vpc",
    "    properties: { label: fn-net, region: us-iad, description: { fn::secret: words kept secret } }",
    "variables:",
    "  regions:",
    "    fn::invoke: { function: compute:index:getRegions, arguments: { capability: VPCs }, return: items }",
    "  found:",
    '    fn::invoke: { function: compute:index:getMysqlDatabase, arguments: { id: "${db.id}" } }',
    "outputs:",
    "  firstRegion: ${regions[0].id}",
    "  foundLabel: ${found.label}",
    "  foundPassword: ${found.rootPassword}",
    "  netDescription: ${net.description}",
    "",
  ].join("\n");
  const project = yamlProject(path.join(base, "functions"), program);
  await ok(project, "pulumi stack init dev --non-interactive");
  await ok(project, `pulumi config set compute:apiUrl ${emulator.url}`);
  // Without --secret: the plugin keeps it secret in the provider's state all the same.
  await ok(project, `pulumi config set --plaintext compute:token ${emulator.token}`);
  await ok(project, "pulumi config set compute:colour blue");
  const refused = await project.shell("pulumi preview --non-interactive");
  expectExit(refused, "fails");
  expect(refused.out).toContain(
    "compute:colour is not a configuration variable of pulumi-compute; its variables: token, apiUrl, previewSupport, pacing",
  );
  await ok(project, "pulumi config rm compute:colour");

  await ok(project, "pulumi up --yes --skip-preview --non-interactive");
  const outputs = JSON.parse((await ok(project, "pulumi stack output --json")).stdout) as Record<string, unknown>;
  const [vpcRegion] = (await client.regions.listAll()).filter((r) => r.capabilities.includes("VPCs"));
  // A result holding a secret is a secret as a whole, as `getMysqlDatabaseOutput`'s is in TypeScript.
  expect(outputs).toEqual({ firstRegion: vpcRegion!.id, foundLabel: "[secret]", foundPassword: "[secret]", netDescription: "[secret]" });
  const [db] = await client.databases.mysql.listAll({ filter: { label: "fn-db" } });
  const shown = JSON.parse((await ok(project, "pulumi stack output --json --show-secrets")).stdout) as Record<string, unknown>;
  expect(shown).toEqual({
    firstRegion: vpcRegion!.id,
    foundLabel: "fn-db",
    foundPassword: (await client.databases.mysql.credentials(db!.id)).password,
    netDescription: "words kept secret",
  });
  expect((await client.vpcs.listAll({ filter: { label: "fn-net" } }))[0]!.description).toBe("words kept secret");
  const state = fs.readFileSync(path.join(project.dir, "state/.pulumi/stacks/functions/dev.json"), "utf8");
  expect(state).not.toContain(emulator.token);
  expect(state).not.toContain(shown.foundPassword as string);
  expect(state).not.toContain("words kept secret");
  await ok(project, "pulumi destroy --yes --skip-preview --non-interactive");
  expect(await client.databases.instances.listAll()).toEqual([]);
  expect(await client.vpcs.listAll()).toEqual([]);
});
