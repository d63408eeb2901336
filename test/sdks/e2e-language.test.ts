/**
 * scripts/e2e-language.sh, the end-to-end run of the Python and Go programs with a real language
 * host, cannot pass here (CI has no such host: the Go module proxy refuses them). What it must
 * never do is pass without one: without a host it says so and fails, and a host that cannot run
 * the program fails the run at the step it broke, with what that step showed.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../support/engine";
import { runProcess } from "../support/process";

jest.setTimeout(5 * 60_000);

const SCRIPT = path.join(REPO_ROOT, "scripts", "e2e-language.sh");
let work: string;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-compute-e2e-language-test-"));
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const run = (args: string[], extra: NodeJS.ProcessEnv = {}) => {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  if (!("PULUMI_COMPUTE_LANGUAGE_HOSTS" in extra)) delete env.PULUMI_COMPUTE_LANGUAGE_HOSTS;
  return runProcess("bash", [SCRIPT, ...args], { cwd: work, env, timeoutMs: 4 * 60_000 });
};

test("without a language host it says so and fails: nothing is skipped as a pass", async () => {
  const none = await run([]);
  expect(none.code).toBe(2);
  expect(none.out).toContain("No language host given");
  expect(none.out).toContain("Nothing ran.");

  const empty = path.join(work, "empty");
  fs.mkdirSync(empty);
  const nothing = await run([], { PULUMI_COMPUTE_LANGUAGE_HOSTS: empty });
  expect(nothing.code).toBe(2);
  expect(nothing.out).toContain(`${empty} holds neither pulumi-language-python nor pulumi-language-go. Nothing ran.`);

  // The Python host runs its programs through the -exec script beside it; a folder without it is refused.
  fs.writeFileSync(path.join(empty, "pulumi-language-python"), "#!/bin/sh\nexit 1\n", { mode: 0o755 });
  const half = await run(["--hosts", empty, "python"]);
  expect(half.code).toBe(2);
  expect(half.out).toContain(`python: ${empty} lacks pulumi-language-python-exec. Nothing ran.`);
});

test("a host that cannot run the program fails the run at its first step, showing that step", async () => {
  const broken = path.join(work, "broken");
  fs.mkdirSync(broken);
  fs.writeFileSync(path.join(broken, "pulumi-language-go"), "#!/bin/sh\necho 'this host is broken' >&2\nexit 3\n", { mode: 0o755 });
  const result = await run(["--hosts", broken, "go"]);
  expect(result.code).toBe(1);
  expect(result.out).toMatch(/== go: preview \(pulumi preview\): [\d.]+ s/);
  expect(result.out).toMatch(/FAILED go: preview did not show what it should:\n- exit code \d+/);
  expect(result.out).toContain("this host is broken");
  expect(result.out).not.toMatch(/passed:/);
});
