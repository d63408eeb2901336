/**
 * Every TypeScript example of README.md and docs/ compiles against the package's declarations, as
 * a new project compiles it (`scripts/docs/examples.ts`), and the checker fails on a broken one.
 * Shell blocks marked runnable are each run as written by a test: the README's new project by
 * test/e2e/cli-path.e2e.test.ts, each language guide's by test/e2e/guide-<language>.e2e.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../scripts/coverage/table";
import { allBlocks, codeBlocks, isTypeScript, typeCheck } from "../../scripts/docs/examples";

// One compiler program for every example; on two loaded cores it takes a while.
jest.setTimeout(300_000);

const blocks = allBlocks(REPO_ROOT);

test("the package's declarations are built (run `npm run build`)", () => {
  expect(fs.existsSync(path.join(REPO_ROOT, "dist/provider/index.d.ts"))).toBe(true);
});

test("every TypeScript example of README.md and docs/ type-checks against the package", () => {
  const examples = blocks.filter(isTypeScript);
  // The README's program, a guide's and every reference page's at least.
  expect(examples.length).toBeGreaterThan(40);
  expect(new Set(examples.map((b) => b.file)).has("README.md")).toBe(true);
  expect(typeCheck(REPO_ROOT, examples)).toEqual([]);
});

test("the checker fails on a broken example, naming the Markdown file and line", () => {
  const markdown = [
    "# A page",
    "",
    "```ts",
    'import * as compute from "pulumi-compute";',
    "",
    'new compute.Vpc("app", { label: 12, region: "us-iad" });',
    "```",
    "",
    "An excerpt, with the imports added for it:",
    "",
    "```typescript",
    'const subnet = new compute.VpcSubnet("web", { vpcId: vpc.id, label: "web", ipv4: "10.0.1.0/24" });',
    "```",
  ].join("\n");
  const errors = typeCheck(REPO_ROOT, codeBlocks("docs/broken.md", markdown));
  expect(errors).toEqual([
    expect.stringMatching(/^docs\/broken\.md:6: TS2322 Type 'number' is not assignable/),
    expect.stringMatching(/^docs\/broken\.md:12: TS2304 Cannot find name 'vpc'/),
  ]);
});

test("the runnable shell blocks are the ones a test runs: the README's new project and each language guide's", () => {
  const runners: Record<string, string> = {
    "README.md": "test/e2e/cli-path.e2e.test.ts",
    "docs/guides/yaml.md": "test/e2e/guide-yaml.e2e.test.ts",
    "docs/guides/python.md": "test/e2e/guide-python.e2e.test.ts",
    "docs/guides/go.md": "test/e2e/guide-go.e2e.test.ts",
  };
  const runnable = blocks.filter((b) => b.runnable);
  expect(runnable.every((b) => b.lang === "sh")).toBe(true);
  expect([...new Set(runnable.map((b) => b.file))].sort()).toEqual(Object.keys(runners).sort());
  expect(fs.readFileSync(path.join(REPO_ROOT, runners["README.md"]!), "utf8")).toContain("newProjectSteps");
  for (const [page, test] of Object.entries(runners).filter(([page]) => page !== "README.md")) {
    expect({ page, runs: fs.readFileSync(path.join(REPO_ROOT, test), "utf8").includes(`const GUIDE = "${page}";`) }).toEqual({
      page,
      runs: true,
    });
  }
  // A file a page gives (`<!-- file: NAME -->`) is written only by a page whose steps a test runs.
  expect([...new Set(blocks.filter((b) => b.writes).map((b) => b.file))].every((file) => file in runners)).toBe(true);
});
