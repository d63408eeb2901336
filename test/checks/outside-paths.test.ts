/**
 * The repository reads nothing outside itself: no source, test, script or instruction names a path
 * that climbs above the root (`../shared/fixtures`) or the reference material's folder, so a plain
 * clone with nothing beside it passes its own tests and regenerates its own files.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { NOT_ESCAPING, outsidePaths, outsidePathsIn, scannedFiles } from "../../scripts/checks/outside-paths";
import { FIXTURES } from "../support/fixtures";
import { REPO_ROOT } from "../support/engine";

test("no file of the repository reads a path outside it", () => {
  expect(outsidePaths(REPO_ROOT).map((f) => `${f.file}:${f.line} → ${f.leadsTo}: ${f.text}`)).toEqual([]);
});

test("the scan covers sources, tests, scripts, shell, Go and the instructions, and skips the recorded data", () => {
  const files = scannedFiles(REPO_ROOT);
  for (const file of [
    "CONTRIBUTING.md",
    "README.md",
    "test/support/fixtures.ts",
    "scripts/run.sh",
    "scripts/coverage/table.ts",
    "package.json",
  ]) {
    expect(files).toContain(file);
  }
  expect(files.some((f) => f.endsWith("_test.go"))).toBe(true);
  expect(files.filter((f) => f.startsWith("test/fixtures/") || f.startsWith("node_modules/") || f.startsWith("dist/"))).toEqual([]);
  for (const reason of Object.values(NOT_ESCAPING)) expect(reason.length).toBeGreaterThan(20);
});

test("the recorded fixtures live in the repository, subfolders included", () => {
  expect(path.relative(REPO_ROOT, FIXTURES)).toBe(path.join("test", "fixtures"));
  expect(fs.readdirSync(FIXTURES).filter((f) => f.endsWith(".json")).length).toBeGreaterThan(100);
  expect(fs.readdirSync(path.join(FIXTURES, "unrecorded")).length).toBeGreaterThan(0);
});

describe("the checker itself", () => {
  const leads = (file: string, text: string) => outsidePathsIn(file, text).map((f) => f.leadsTo);

  test("finds a path resolved from the file's folder that climbs out (what the fixture helpers did)", () => {
    expect(leads("test/emulator/images.test.ts", 'fs.readFileSync(path.resolve(__dirname, "../../../../other/x.json"))')).toEqual([
      "../../other/x.json",
    ]);
    expect(leads("test/support/x.ts", 'path.join(__dirname, "..", "..", "..", "..", "elsewhere")')).toEqual(["../../elsewhere"]);
    expect(leads("scripts/x.ts", 'path.resolve(REPO_ROOT, "../shared/spec/cloud-api-v4.md")')).toEqual(["../shared/spec/cloud-api-v4.md"]);
  });

  test("finds the reference material's folder named in any form (what the fixture helper and the generator did)", () => {
    expect(leads("test/support/fixtures.ts", 'export const FIXTURES = path.resolve(__dirname, "../../../shared/fixtures");')).toHaveLength(
      1,
    );
    expect(leads("emulator/README.md", "every fixture of `../shared/fixtures`")).toHaveLength(1);
    expect(leads("bench/x.ts", 'const spec = "/work/shared/spec/cloud-api-v4.md";')).toHaveLength(1);
  });

  test("finds climbing paths in instructions and shell scripts", () => {
    expect(leads("CONTRIBUTING.md", "The API: `../shared/spec/cloud-api-v4.md` (spec)")).toEqual(["../shared/spec/cloud-api-v4.md"]);
    expect(leads("scripts/x.sh", 'cat "$ROOT/../other/file"')).toEqual(["../other/file"]);
    expect(leads("scripts/x.sh", 'cd "$(dirname "$0")/../.." && ls')).toEqual([".."]);
  });

  test("lets through what stays inside: imports, the root from a compiled file, the root from a script", () => {
    expect(leads("test/checks/x.test.ts", 'import { ENDPOINTS } from "../../sdk/endpoints";')).toEqual([]);
    // Run from dist/bench/, two levels up is the root.
    expect(leads("bench/record-set.ts", 'const REPO_ROOT = path.resolve(__dirname, "../..");')).toEqual([]);
    expect(leads("scripts/run.sh", 'ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)')).toEqual([]);
    expect(leads("examples/quickstart/Pulumi.yaml", "main: ../../dist/examples/quickstart/index.js")).toEqual([]);
    expect(leads("README.md", "see [the emulator](emulator/README.md) and `docs/coverage.md`")).toEqual([]);
  });
});
