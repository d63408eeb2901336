/**
 * The Pulumi YAML guide's first hour as written (docs/guides/yaml.md): its runnable steps and the
 * files it gives, in the page's order, typed into a user's shell in a new folder outside the
 * repository, from the packed tarball — the package installed from it, the project's
 * `Pulumi.yaml` and the program appended to it, a standalone emulator, a stack, preview, up and
 * destroy through the `pulumi` CLI and the YAML language host, which this machine has. The
 * project has no TypeScript of its own, as a Python or Go project has none: the provider plugin
 * says nothing about its start that a user cannot act on.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ComputeClient } from "../../sdk/client";
import { expectProjectFromTarball, expectTarballSteps, pageRun, pageSteps, stepName } from "../support/page-steps";

// Each step starts the engine and the plugin from a shell; on two loaded cores the whole life takes minutes.
jest.setTimeout(15 * 60_000);

const GUIDE = "docs/guides/yaml.md";

const run = pageRun(GUIDE);

test("the guide installs the tarball `npm pack` writes for this version, and says how to make it", () => expectTarballSteps(GUIDE));

test("the guide's steps as written: the tarball, Pulumi.yaml and its program, an emulator, preview, up and destroy", async () => {
  await run.steps.runUntil("pulumi destroy");
  const project = expectProjectFromTarball(run, "my-yaml");
  // A project of its own: no TypeScript, as in a Python or Go project.
  expect(fs.existsSync(path.join(project, "node_modules/typescript"))).toBe(false);

  // The stack and the program's five resources.
  const previewAndUp = run.steps.output("pulumi preview");
  expect(previewAndUp).toMatch(/\+ 6 to create/);
  expect(previewAndUp).toMatch(/\+ 6 created/);
  const { apiUrl, token } = run.steps.emulator();
  const client = new ComputeClient({ baseUrl: apiUrl, token });
  try {
    const [vpc] = await client.vpcs.listAll();
    expect(vpc).toMatchObject({ label: "yaml-net", subnets: [expect.objectContaining({ label: "data", ipv4: "10.0.2.0/24" })] });
    const [db] = await client.databases.mysql.listAll();
    expect(db).toMatchObject({ label: "yaml-db", status: "active", allow_list: ["10.0.2.0/24"] });

    await run.steps.runUntil("kill %1");
    expect(run.steps.output("pulumi destroy")).toMatch(/- 6 deleted/);
    expect({ vpcs: await client.vpcs.listAll(), databases: await client.databases.mysql.listAll() }).toEqual({ vpcs: [], databases: [] });
  } finally {
    await client.close();
  }
  await run.steps.runUntil();
  expect(run.steps.output("kill %1")).toMatch(/closed/);
  expect(run.steps.ran.map((r) => r.step)).toEqual(pageSteps(GUIDE).map(stepName));
  // Nothing the user cannot act on: the plugin's start is its own business.
  expect(run.steps.ran.map((r) => r.out).join("\n")).not.toContain("slower than it could");
});
