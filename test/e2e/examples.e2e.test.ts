/**
 * The main job and the examples, run the way a user runs them (`npm run demo [-- <name>]`):
 * each is a child process driving the real engine, through the Automation API, against its own
 * embedded emulator, and must exit 0 having checked every phase (no drift left, no changes after
 * up, nothing left behind). examples-cli.e2e.test.ts runs them again through the `pulumi` CLI.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { EXAMPLES } from "../../examples/catalog";
import { demo, expectQuickstartPhases } from "../support/demo";
import { REPO_ROOT } from "../support/engine";

jest.setTimeout(300_000);

test("the quickstart demo shows each phase, the drift it found, and the teardown; its plan is the README's count and the stack", async () => {
  const { code, out } = await demo("quickstart");
  expect({ code, tail: out.slice(-400) }).toMatchObject({ code: 0 });
  expect(out).toContain("through the Automation API");
  expectQuickstartPhases(out);
  // The README counts the program's resources; the engine's plan counts the stack too.
  const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8").replace(/\s+/g, " ");
  const [, counted, shown] = /every kind of resource: (\d+) resources, which its preview shows as `\+ (\d+) to create`/.exec(readme)!;
  expect(Number(shown)).toBe(Number(counted) + 1);
  expect(out).toContain(`planned: {"create":${shown}}`);
});

test("the quickstart passes the compute-guardrails policy pack at its defaults (`npm run demo -- --policy`)", async () => {
  const { code, out } = await demo("--policy", "quickstart");
  expect({ code, tail: out.slice(-400) }).toMatchObject({ code: 0 });
  expect(out).toContain("every preview and up runs the compute-guardrails policy pack at its defaults");
  expect(out).toMatch(/✅ compute-guardrails@v[\d.]+/);
  expect(out).not.toMatch(/❌|\[(mandatory|advisory)\]/);
  expectQuickstartPhases(out);
});

// A Pulumi YAML program has no inline program; examples-cli.e2e.test.ts runs it through the CLI.
test.each(Object.keys(EXAMPLES).filter((name) => name !== "quickstart" && EXAMPLES[name]!.program))(
  "the %s example runs up, shows no changes after, and tears down",
  async (name) => {
    const { code, out } = await demo(name);
    expect({ code, tail: out.slice(-400) }).toMatchObject({ code: 0 });
    expect(out).toContain(`Demo finished: every phase of "${name}" succeeded.`);
  },
);

test("an unknown example or a second one is refused with the choices", async () => {
  const unknown = await demo("nope");
  expect(unknown.code).toBe(1);
  expect(unknown.out).toContain('no example "nope"; choose one of: quickstart, vpc, networking, dns, databases, images');
  const two = await demo("vpc", "dns");
  expect(two.code).toBe(1);
  expect(two.out).toContain("one example at a time");
  const yaml = await demo("yaml");
  expect(yaml.code).toBe(1);
  expect(yaml.out).toContain("the yaml example is a Pulumi YAML program, which only the pulumi CLI runs: npm run demo -- --cli yaml");
});
