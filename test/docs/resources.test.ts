/**
 * The provider files generated from the resource specs (`scripts/docs/resources.ts`) are current,
 * and they register every spec a resource file exports: a resource needs no line anywhere else.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as compute from "../../provider";
import { RESOURCE_SPECS } from "../../provider/generated/spec-table";
import { REPO_ROOT } from "../../scripts/coverage/table";
import { findSpecs, renderProviderFiles } from "../../scripts/docs/resources";

test.each(Object.entries(renderProviderFiles(REPO_ROOT)))("%s is the render of the specs (run `npm run generate`)", (file, text) => {
  expect(fs.readFileSync(path.join(REPO_ROOT, file), "utf8")).toBe(text);
});

test("every spec a resource file exports is registered, and the package exports its class", () => {
  const specs = findSpecs();
  expect(specs.length).toBeGreaterThan(0);
  expect(Object.keys(RESOURCE_SPECS).sort()).toEqual(specs.map((s) => s.spec.name).sort());
  for (const { spec } of specs) {
    expect(RESOURCE_SPECS[spec.name]).toBe(spec);
    expect(compute).toHaveProperty(spec.name, expect.any(Function));
  }
});
