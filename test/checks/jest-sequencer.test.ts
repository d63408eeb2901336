/**
 * The order jest starts the suite's files in on a clean clone (no timings of earlier runs, as on
 * CI): the files that drive the engine first, the longest by their time on CI
 * (`scripts/jest-ci-seconds.json`) first of all, so no long file starts late and runs on alone at
 * the end; then the other engine files, then the rest.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../support/engine";

// The sequencer is the one jest.config.js names, loaded as jest loads it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Sequencer = require("../../scripts/jest-sequencer.js") as new (options: unknown) => { sort(tests: FakeTest[]): FakeTest[] };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const CI = require("../../scripts/jest-ci-seconds.json") as { seconds: Record<string, number> };

interface FakeTest {
  path: string;
  context: { config: { cache: boolean }; hasteFS: { getSize(file: string): number } };
  duration?: number;
}

/** Every test file under `dir` (from the root), as jest hands them to the sequencer, with no cache of earlier runs. */
function testsUnder(...dirs: string[]): FakeTest[] {
  const context = { config: { cache: false }, hasteFS: { getSize: (file: string) => fs.statSync(file).size } };
  return dirs.flatMap((dir) =>
    (fs.readdirSync(path.join(REPO_ROOT, dir), { recursive: true }) as string[])
      .filter((file) => file.endsWith(".test.ts"))
      .map((file) => ({ path: path.join(REPO_ROOT, dir, file), context })),
  );
}

const rel = (test: FakeTest) => path.relative(REPO_ROOT, test.path);

test("a clean clone starts the files longest on CI first, longest first, then the other engine files, then the rest", () => {
  const order = new Sequencer({}).sort(testsUnder("test/e2e", "test/sdks", "test/sdk", "test/checks")).map(rel);
  const known = Object.entries(CI.seconds)
    .sort(([, a], [, b]) => b - a)
    .map(([file]) => file);
  expect(known.length).toBeGreaterThan(0);
  expect(order.slice(0, known.length)).toEqual(known);
  const engine = order.map((file) => /^test\/(e2e|sdks)\//.test(file));
  expect(engine.indexOf(false)).toBe(engine.lastIndexOf(true) + 1);
});

test("every file the table names is a test file of the suite", () => {
  for (const file of Object.keys(CI.seconds))
    expect({ file, exists: fs.existsSync(path.join(REPO_ROOT, file)) }).toEqual({ file, exists: true });
});
