/**
 * The new project's own `npm test`, as a user runs it in a copy of the template (its
 * `node_modules` this checkout's): it passes as shipped (the program's types checked, then its
 * unit test under computeMocks and its integration test on an emulated stack), and a type error in
 * the program fails it, naming the file, before any test runs. Its jest (ts-jest, with the
 * template's `isolatedModules`) transpiles without checking types, and `emulatedStack` runs the
 * program transpiled only: without `tsc` in the script, a program that does not compile passed
 * `npm test`.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../support/engine";
import { runProcess } from "../support/process";
import { notingPulumi } from "../support/noting-pulumi";

jest.setTimeout(300_000);

let project: string;

beforeAll(() => {
  project = fs.mkdtempSync(path.join(os.tmpdir(), "pc-new-project-test-"));
  fs.cpSync(path.join(REPO_ROOT, "examples/new-project"), project, { recursive: true });
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(project, "node_modules"));
});

afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

const npmTest = (env: NodeJS.ProcessEnv = process.env) =>
  runProcess("npm", ["test", "--", "--ci"], { cwd: project, env, timeoutMs: 240_000 });

test("npm test passes as shipped: the types checked, then the unit and the integration test, and nothing of it lands in the user's Pulumi home", async () => {
  // As in a user's shell: no PULUMI_HOME (the suite's setup gives its own runs one).
  const pulumi = notingPulumi(fs.mkdtempSync(path.join(project, "noting-")));
  const { PULUMI_HOME: _suites, ...users } = process.env;
  const run = await npmTest({ ...users, PULUMI_COMPUTE_ENGINE_BIN: pulumi.bin });
  expect({ code: run.code, tests: /Tests:\s+(.*)/.exec(run.out)?.[1] }).toEqual({ code: 0, tests: "2 passed, 2 total" });
  // Every run of the CLI had a Pulumi home of the test's own (the CLI logs each run under it), none the user's.
  const homes = pulumi.homes();
  expect(homes.length).toBeGreaterThan(3);
  expect(homes.filter((home) => home === "" || home.startsWith(path.join(os.homedir(), ".pulumi")))).toEqual([]);
});

test("a type error in the program fails npm test, naming the file and the line, before any test runs", async () => {
  const program = path.join(project, "index.ts");
  const lines = fs.readFileSync(program, "utf8").split("\n").length;
  fs.appendFileSync(program, 'export const port: number = "3306";\n');
  const run = await npmTest();
  expect(run.code).not.toBe(0);
  expect(run.out).toContain(`index.ts(${lines},14): error TS2322: Type 'string' is not assignable to type 'number'.`);
  expect(run.out).not.toMatch(/Tests:/);
});
