/**
 * Every reference page's example runs as written against a fresh standalone emulator: for each
 * page of `docs/reference/` (a resource's or a data function's), `compute-emulator
 * --demo-environment` is started (the command itself, with what the examples expect and this API
 * cannot create: two instances, a disk, a nodebalancer; its clock faster than the command's
 * default, `TIME_SCALE`), the example is the program of a project
 * of its own (compiled to JavaScript: the docs' type check is `test/docs/examples.test.ts`), its
 * stack gets the config lines the emulator prints, and `pulumi up` must succeed through the real
 * engine. A file an example uploads is made first, where the example says it is.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import ts from "typescript";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { pulumiCommand } from "../../provider/stack/pulumi-cli";
import { PLUGINS_YAML } from "../../provider/launch/plugins";
import * as compute from "../../provider";
import { RESOURCE_SPECS } from "../../provider/generated/spec-table";
import { resultsFromEvents } from "../../provider/testing/event-results";
import { codeBlocks } from "../../scripts/docs/examples";
import { pageName } from "../../scripts/docs/reference";
import { REPO_ROOT, sharedKeyService, skipReads } from "../support/engine";
import { startProcess } from "../support/process";

// One engine run per page (about forty), each against an emulator of its own.
jest.setTimeout(240_000);

/**
 * How much faster than real time the emulators' clocks run: a database provisions in 15 to 30
 * minutes of the API's time, 0.3 to 0.6 s here, so a database's example waits for the provider's
 * first polls only (at the command's default of 300×, 3 to 6 s of real time: 8 s more per
 * database page than the others).
 */
const TIME_SCALE = 3000;

const REFERENCE = path.join(REPO_ROOT, "docs/reference");
/** The page of every resource and every data function (the index, the policy pack's and the testing module's pages have no program). */
const pages = [
  ...Object.keys(RESOURCE_SPECS),
  ...Object.keys(compute).filter((name) => /^get[A-Z]\w*$/.test(name) && !name.endsWith("Output")),
]
  .map((name) => `${pageName(name)}.md`)
  .sort();

/** The page's example: the first TypeScript block of its "Example" section. */
function exampleOf(page: string): string {
  const text = fs.readFileSync(path.join(REFERENCE, page), "utf8");
  const section = text.slice(text.indexOf("\n## Example\n"));
  const block = codeBlocks(page, section).find((b) => b.lang === "ts");
  if (!block) throw new Error(`${page} has no example`);
  return block.code;
}

/** The `pulumi config set` lines the emulator printed, as stack config. */
function printedConfig(banner: string): Record<string, { value: string; secret: boolean }> {
  const config: Record<string, { value: string; secret: boolean }> = {};
  for (const m of banner.matchAll(/pulumi config set (--secret )?(\S+) (\S+)/g)) config[m[2]!] = { value: m[3]!, secret: Boolean(m[1]) };
  return config;
}

/** A small gzip disk image at `file`, for an example that uploads one. */
function writeImage(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, zlib.gzipSync(Buffer.alloc(1024 * 1024, 7)));
}

let base: string;
beforeAll(() => (base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-reference-"))));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

test("every page of a resource or a data function has an example to run", () => {
  expect(pages.length).toBe(15 + 29);
  for (const page of pages) expect(exampleOf(page)).toMatch(/^import \* as compute from "pulumi-compute";$/m);
});

test.each(pages)("%s: its example runs as written against a fresh compute-emulator --demo-environment", async (page) => {
  const example = exampleOf(page);
  const name = page.replace(/\.md$/, "");
  const project = path.join(base, name);
  fs.mkdirSync(project);
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(project, "node_modules"));
  fs.writeFileSync(
    path.join(project, "Pulumi.yaml"),
    `name: ${name}\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n${PLUGINS_YAML}`,
  );
  const compiled = ts.transpileModule(example, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } });
  fs.writeFileSync(path.join(project, "index.js"), compiled.outputText);
  for (const m of example.matchAll(/filePath: "([^"]+)"/g)) writeImage(path.join(project, m[1]!));

  const emulator = await startProcess(
    process.execPath,
    [path.join(REPO_ROOT, "dist/emulator/cli.js"), "--port", "0", "--demo-environment", "--time-scale", String(TIME_SCALE)],
    /pulumi config set compute-examples:diskId \d+/,
  );
  try {
    const keys = await sharedKeyService();
    // The check reads the update's summary (from its events), not its outputs.
    const stack = skipReads(
      resultsFromEvents(
        await LocalWorkspace.createStack(
          { stackName: "test", workDir: project },
          {
            pulumiCommand: await pulumiCommand(),
            secretsProvider: keys.secretsProvider,
            envVars: {
              ...keys.env,
              PULUMI_SKIP_UPDATE_CHECK: "true",
              PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
              PULUMI_HOME: path.join(base, "home"),
              PULUMI_BACKEND_URL: `file://${project}`,
            },
          },
        ),
      ),
      { outputs: true },
    );
    await stack.setAllConfig(printedConfig(emulator.output()));
    const up = await stack.up();
    expect(up.summary.result).toBe("succeeded");
  } finally {
    emulator.child.kill("SIGTERM");
  }
});
