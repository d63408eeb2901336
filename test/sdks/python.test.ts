/**
 * The Python SDK as a Python team meets it: the wheel built from sdks/python, installed with
 * Pulumi's Python SDK from PyPI (pinned: sdks/python/tests/requirements.txt) into a fresh virtual
 * environment, and its pytest suite under Pulumi's mocks (`pulumi.runtime.set_mocks`) with
 * `pulumi_compute.testing.ComputeMocks`, which answer through this checkout's provider plugin.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { codeBlocks } from "../../scripts/docs/examples";
import { REPO_ROOT } from "../support/engine";
import { runProcess } from "../support/process";
import { passed, required, sdkTestEnv } from "./languages";

const SDK_DIR = path.join(REPO_ROOT, "sdks", "python");
/** Every pytest test of sdks/python/tests; each must be reported as passed. */
const PYTHON_TESTS = [
  "test_a_preview_creates_nothing_and_refuses_what_up_would_refuse",
  "test_a_refused_input_is_refused",
  "test_data_functions_ask_the_same_account",
  "test_database_answers_hosts_and_port_as_the_api_does",
  "test_ids_are_the_apis",
  "test_record_reads_the_primary_host",
  "test_root_password_is_secret",
  "test_the_app_runs_at_its_addresses_behind_its_firewall_and_answers_at_its_name",
  "test_the_package_is_the_installed_wheel",
];
/**
 * And each reference page's ```python example, run as the page has it (`tests/test_reference_examples.py`):
 * every page with a Pulumi YAML program has one.
 */
const REFERENCE_DIR = path.join(REPO_ROOT, "docs", "reference");
const PAGE_TESTS = fs
  .readdirSync(REFERENCE_DIR)
  .filter((page) => /^```yaml$/m.test(fs.readFileSync(path.join(REFERENCE_DIR, page), "utf8")))
  .map((page) => `test_the_pages_example_runs_under_the_mocks[${page.replace(/\.md$/, "")}]`);

// A fresh virtual environment downloads Pulumi's Python SDK and grpcio (pip's cache keeps them):
// about 3.5 minutes measured cold on two shared cores; the suite, a plugin started for each of the
// 41 reference pages, about 3 minutes more.
jest.setTimeout(15 * 60_000);

let work: string;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-compute-python-"));
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

test("the wheel installs into a fresh virtual environment and its tests pass under Pulumi's mocks", async () => {
  const python = required("python3", "the Python SDK's tests (sdks/python)");
  const env = sdkTestEnv({ PYTHONDONTWRITEBYTECODE: "1", PIP_DISABLE_PIP_VERSION_CHECK: "1", PULUMI_COMPUTE_REFERENCE: REFERENCE_DIR });
  const run = async (command: string, args: string[], cwd = work) => {
    const result = await runProcess(command, args, { cwd, env, timeoutMs: 10 * 60_000 });
    if (result.code !== 0) throw new Error(`${command} ${args.join(" ")} failed (${result.code}):\n${result.out}`);
    return result;
  };

  // Built from a copy, so setuptools' build/ and egg-info never land in the checkout.
  const source = path.join(work, "source");
  fs.cpSync(SDK_DIR, source, { recursive: true, filter: (p) => !/__pycache__|\.egg-info|[/\\](build|dist)$/.test(p) });
  await run(python, ["-m", "venv", path.join(work, "venv")]);
  const bin = path.join(work, "venv", "bin");
  const wheels = path.join(work, "wheels");
  await run(path.join(bin, "pip"), ["wheel", "--quiet", "--no-deps", "--wheel-dir", wheels, source]);
  const wheel = fs.readdirSync(wheels).find((f) => f.endsWith(".whl"));
  // The package's version is the schema's, the plugin's.
  const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "provider", "plugin", "schema.json"), "utf8")) as { version: string };
  expect(wheel).toBe(`pulumi_compute-${version}-py3-none-any.whl`);
  const requirements = path.join(SDK_DIR, "tests", "requirements.txt");
  await run(path.join(bin, "pip"), ["install", "--quiet", path.join(wheels, wheel!), "-r", requirements]);

  // The tests run from a copy too: the package they import is the installed wheel's.
  const tests = path.join(work, "tests");
  fs.cpSync(path.join(SDK_DIR, "tests"), tests, { recursive: true });
  const result = await runProcess(path.join(bin, "pytest"), ["-p", "no:cacheprovider", "-v", "-rA", "."], {
    cwd: tests,
    env,
    timeoutMs: 12 * 60_000,
  });
  if (result.code !== 0) throw new Error(`pytest failed (${result.code}):\n${result.out}`);
  expect(PAGE_TESTS.length).toBeGreaterThanOrEqual(41);
  expect(passed(result.out, /^PASSED [^\n]*?::(\S+)/gm)).toEqual([...PYTHON_TESTS, ...PAGE_TESTS].sort());
});

test("the Python guide's program is the one the suite runs under mocks", () => {
  const guide = path.join(REPO_ROOT, "docs", "guides", "python.md");
  const blocks = codeBlocks("docs/guides/python.md", fs.readFileSync(guide, "utf8")).filter((b) => b.lang === "python");
  const program = fs.readFileSync(path.join(SDK_DIR, "tests", "program.py"), "utf8");
  // The program's module docstring is the file's own; the code after it is the guide's.
  const code = program.slice(program.indexOf('"""', 3) + 3).trim();
  expect(blocks.map((b) => b.code.trim())).toContain(code);
});
