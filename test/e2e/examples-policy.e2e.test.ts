/**
 * What a user copies from examples/ passes the package's own policy pack (`compute-guardrails`)
 * at its defaults (issue 45): every example and the new-project template, each previewed through
 * the real engine with the pack, against one emulator seeded as the demo seeds it.
 *
 * A preview is enough, and a silent one is required: the pack checks every input a preview knows,
 * and says of each input it cannot know yet that it checks it at `up` (an advisory during
 * preview). So a preview with no policy event at all means every policy has checked every input
 * of every resource and found nothing; `up` runs the pack again on the same inputs (what preview
 * plans is what up does) and has nothing new to find.
 *
 * Each program runs the way a user runs it: the TypeScript examples' programs inline through the
 * Automation API with `policyPacks`, as `npm run demo -- --policy` does; the new-project template
 * from a copy of its folder (its `Pulumi.yaml`, its `index.ts` through the language host's
 * ts-node) and the YAML example from its `Pulumi.yaml`, both with the `pulumi` CLI and the one
 * documented flag. A folder of examples/ this file does not know fails it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { demoEnvironmentConfig, seedDemoEnvironment } from "../../emulator/control/demo-environment";
import { EXAMPLES } from "../../examples/catalog";
import { GUARDRAILS, GUARDRAILS_PATH } from "../../provider/launch/plugins";
import { REPO_ROOT, createTestStack } from "../support/engine";
import { runProcess, type ProcessResult } from "../support/process";
import { exampleProjectFile, yamlProject } from "../support/yaml-project";
import { expectExit, linkedProjectEnv } from "../support/user-shell";
import { templateCopy } from "../support/new-project";

jest.setTimeout(600_000);

/** The folders of examples/ that hold no program of their own, and why. */
const NOT_PROGRAMS: Record<string, string> = {
  demo: "the runner of the examples",
  support: "what the examples share (the generated image file)",
};
/** Run from their own folder with the `pulumi` CLI: the template, and the YAML program (no inline form). */
const FROM_THEIR_FOLDER = ["new-project", "yaml"];

let emulator: RunningEmulator;
let config: Record<string, string>;
let base: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, timeScale: 300 });
  config = demoEnvironmentConfig(seedDemoEnvironment(emulator.control));
  base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-examples-policy-"));
});

afterAll(async () => {
  await emulator?.close();
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

const writes = () => emulator.control.listRequests().filter((r) => r.method !== "GET");

test("every folder of examples/ is held to the pack: each program is an inline example or runs from its folder", () => {
  const folders = fs
    .readdirSync(path.join(REPO_ROOT, "examples"), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const inline = Object.keys(EXAMPLES).filter((name) => EXAMPLES[name]!.program);
  expect(folders).toEqual([...inline, ...FROM_THEIR_FOLDER, ...Object.keys(NOT_PROGRAMS)].sort());
  for (const name of Object.keys(NOT_PROGRAMS)) expect(fs.existsSync(path.join(REPO_ROOT, "examples", name, "Pulumi.yaml"))).toBe(false);
});

test.each(Object.keys(EXAMPLES).filter((name) => EXAMPLES[name]!.program))(
  "the %s example: its preview with the pack at its defaults passes with no policy event, and sends no write",
  async (name) => {
    const made = await createTestStack({
      name: `policy-${name}`,
      program: EXAMPLES[name]!.program!,
      apiUrl: emulator.url,
      token: emulator.token,
    });
    try {
      for (const [key, value] of Object.entries(config)) await made.stack.setConfig(key, { value });
      emulator.control.clearRequests();
      const events: EngineEvent[] = [];
      const preview = await made.stack.preview({ policyPacks: [GUARDRAILS], onEvent: (e) => events.push(e) });
      const policyEvents = events.flatMap((e) => (e.policyEvent ? [`${e.policyEvent.policyName}: ${e.policyEvent.message}`] : []));
      expect(policyEvents).toEqual([]);
      // The pack ran: its summary names it, passed.
      expect(preview.stdout).toMatch(/✅ compute-guardrails@v[\d.]+/);
      expect(preview.changeSummary.create).toBeGreaterThan(1);
      expect(writes()).toEqual([]);
    } finally {
      made.cleanup();
    }
  },
);

/** A project from its folder with the `pulumi` CLI: stack, credentials, then `preview` with the documented flag. */
async function cliPreview(dir: string, pulumi: (args: string) => Promise<ProcessResult>): Promise<ProcessResult> {
  expectExit(await pulumi("stack init dev --non-interactive"), 0);
  expectExit(await pulumi(`config set compute:apiUrl ${emulator.url}`), 0);
  expectExit(await pulumi(`config set --secret compute:token ${emulator.token}`), 0);
  emulator.control.clearRequests();
  const preview = await pulumi(`preview --policy-pack ${GUARDRAILS_PATH}`);
  expectExit(preview, 0);
  expect(fs.existsSync(path.join(dir, GUARDRAILS_PATH))).toBe(true);
  return preview;
}

/** The CLI's preview passed the pack, with nothing to say. */
function expectSilentPack(preview: ProcessResult): void {
  expect(preview.out).toMatch(/✅ compute-guardrails@v[\d.]+/);
  expect(preview.out).not.toMatch(/❌|\[(mandatory|advisory)\]/);
  expect(writes()).toEqual([]);
}

test("the new-project template, from a copy of its folder: its preview with the pack at its defaults passes with no policy event", async () => {
  const dir = path.join(base, "my-infra");
  templateCopy(dir);
  const env = linkedProjectEnv(base, { PULUMI_BACKEND_URL: `file://${path.join(base, "template-state")}` });
  fs.mkdirSync(path.join(base, "template-state"));
  const pulumi = (args: string) => runProcess("bash", ["-c", `pulumi ${args}`], { cwd: dir, env, timeoutMs: 300_000 });
  const preview = await cliPreview(dir, pulumi);
  expect(preview.out).toMatch(/\+ 11 to create/); // ten resources (the app's two instances and their records among them) and the stack
  expectSilentPack(preview);
});

test("the YAML example, from its Pulumi.yaml: its preview with the pack at its defaults passes with no policy event", async () => {
  const project = yamlProject(path.join(base, "yaml"), exampleProjectFile());
  const preview = await cliPreview(project.dir, (args) => project.shell(`pulumi ${args}`));
  expectSilentPack(preview);
});
