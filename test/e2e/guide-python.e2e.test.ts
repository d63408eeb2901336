/**
 * The Python guide's first hour as written (docs/guides/python.md): its runnable steps and the
 * files it gives, in the page's order, typed into a user's shell in a new folder outside the
 * repository, from the packed tarball — the package installed from it, a virtual environment,
 * `requirements.txt` as the guide gives it (`pulumi_compute` from the tarball's `sdks/python`),
 * the program's tests beside its module under Pulumi's mocks, a standalone emulator, a stack and
 * its configuration. `pulumi preview` and `up` run the program, which needs the Python language
 * host: where it is not on PATH (this machine and CI: it cannot be built here, see the guide's
 * end-to-end section) those steps still run, must fail naming it, and the test prints that they
 * did; `scripts/e2e-language.sh` runs them wherever a host is.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { spawn } from "node:child_process";
import { REPO_ROOT } from "../support/engine";
import { finishHostSteps, expectProjectFromTarball, expectTarballSteps, pageRun, pageSteps, runsTheProgram } from "../support/page-steps";
import { pinnedPythonPulumi } from "../../scripts/e2e-language/projects";

// pip downloads Pulumi's Python SDK and grpcio (its cache keeps them): minutes cold on two shared cores.
jest.setTimeout(20 * 60_000);

const GUIDE = "docs/guides/python.md";
const HOST = "pulumi-language-python";
const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), "utf8");

const run = pageRun(GUIDE, { env: { PYTHONDONTWRITEBYTECODE: "1" }, needs: runsTheProgram(HOST) });

test("the guide installs the tarball `npm pack` writes for this version, says how to make it, and pins what the package is tested with", () => {
  expectTarballSteps(GUIDE);
  const requirements = pageSteps(GUIDE).find((s) => "file" in s && s.file === "requirements.txt");
  expect(requirements && "code" in requirements && requirements.code.split("\n")).toEqual([
    `pulumi==${pinnedPythonPulumi()}`,
    "./node_modules/pulumi-compute/sdks/python",
    expect.stringMatching(/^pytest==/),
    "",
  ]);
  // The program the guide gives is the one the package's own suite runs.
  const program = read("sdks/python/tests/program.py");
  const given = pageSteps(GUIDE).find((s) => "file" in s && s.file === "program.py");
  expect(given && "code" in given && given.code.trim()).toBe(program.slice(program.indexOf('"""', 3) + 3).trim());
});

test("the guide's steps as written: the tarball, a virtualenv, requirements.txt, the program's tests under the mocks, a stack on an emulator", async () => {
  await run.steps.runUntil("npx compute-emulator");
  // Every file the layout lists is there.
  const project = expectProjectFromTarball(run, "my-infra", [
    "Pulumi.yaml",
    "requirements.txt",
    "program.py",
    "__main__.py",
    "test_program.py",
    "venv/bin/python",
  ]);
  const shown = await run.user.run("venv/bin/pip show pulumi_compute pulumi", project);
  expect(shown.code).toBe(0);
  // The Python package's version is the plugin's, the schema's (test/sdks/python.test.ts).
  const { version } = JSON.parse(read("provider/plugin/schema.json")) as { version: string };
  expect(shown.out).toContain(`Name: pulumi_compute\nVersion: ${version}\n`);
  expect(shown.out).toContain(`Name: pulumi\nVersion: ${pinnedPythonPulumi()}\n`);
  // The program's tests, beside its module, answered by the tarball's plugin.
  expect(run.steps.output("venv/bin/python -m pytest")).toMatch(/\b3 passed\b/);

  await finishHostSteps(run.steps, GUIDE, HOST, "python");
  expect(run.steps.ran.map((r) => r.out).join("\n")).not.toContain("slower than it could");
});

test("the plugin a Python project starts says nothing a user cannot act on", async () => {
  // As the engine starts it for every preview, up and refresh (the launcher, in the project's
  // folder); without an engine to send lines to, it says them on stderr.
  const project = path.join(run.base, "my-infra");
  const launcher = path.join(project, "node_modules/pulumi-compute/plugins/pulumi-resource-compute");
  const child = spawn("bash", ["-c", `eval "$PC_EXPORTS" && exec ${launcher}`], {
    cwd: project,
    env: { ...run.user.env, PC_EXPORTS: run.user.exports },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    const port = await new Promise<string>((resolve, reject) => {
      child.stdout.once("data", (chunk: Buffer) => resolve(String(chunk).trim()));
      child.once("exit", (code) => reject(new Error(`the plugin exited ${code}:\n${stderr}`)));
    });
    expect(port).toMatch(/^\d+$/);
    // What it says at its start comes before its port; a little longer for stragglers.
    await new Promise((resolve) => setTimeout(resolve, 500));
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
  expect(stderr).toBe("");
});
