/**
 * Every resource is registered everywhere it must be, so a new one cannot be half-added: its sdk
 * area has endpoints and an emulator service of the same name; its provider spec is served by the
 * registry, exported as a class, documented by a reference page, used by the quickstart and tested, by
 * provider tests and end to end. (That every endpoint is a `ComputeClient` method is
 * `test/sdk/endpoints.test.ts`'s to check; that the generated files are fresh, `test/docs`'.)
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ENDPOINTS } from "../../sdk/endpoints";
import { SERVICES } from "../../emulator/services";
import { RESOURCE_SPECS } from "../../provider/generated/spec-table";
import * as compute from "../../provider";
import { REPO_ROOT } from "../support/engine";

const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), "utf8");
const namesIn = (dir: string, suffix: string) =>
  fs
    .readdirSync(path.join(REPO_ROOT, dir))
    .filter((f) => f.endsWith(suffix))
    .map((f) => f.slice(0, -suffix.length))
    .sort();
const filesUnder = (dir: string): string[] =>
  fs.readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    return e.isDirectory() ? filesUnder(rel) : [rel];
  });

/** The sdk's areas: one file each under sdk/resources. */
const sdkAreas = namesIn("sdk/resources", ".ts");
/** Resources: every file under provider/resources that declares a spec, by the spec's name. */
const specFiles = namesIn("provider/resources", ".ts").flatMap((file) => {
  const match = /^\s*name: "([A-Z]\w+)"/m.exec(read(`provider/resources/${file}.ts`));
  return match ? [{ file, name: match[1]! }] : [];
});

test.each(sdkAreas)("sdk area %s declares endpoints and has an emulator service of the same name", (area) => {
  expect(ENDPOINTS.filter((e) => e.service === area).length).toBeGreaterThan(0);
  const service = SERVICES.find((s) => s.name === area);
  expect(service?.routes?.length ?? 0).toBeGreaterThan(0);
});

test("every emulator service that serves the API mirrors an sdk area", () => {
  const serving = SERVICES.filter((s) => (s.routes ?? []).length > 0).map((s) => s.name);
  expect(serving.filter((name) => !sdkAreas.includes(name))).toEqual([]);
  expect(new Set(ENDPOINTS.map((e) => e.service))).toEqual(new Set(sdkAreas));
});

test("the resource specs found in provider/resources are the ones the registry serves", () => {
  expect(specFiles.map((s) => s.name).sort()).toEqual(Object.keys(RESOURCE_SPECS).sort());
  expect(specFiles.length).toBeGreaterThan(0);
});

const providerTests = filesUnder("test/provider").map(read).join("\n");
const e2eTests = filesUnder("test/e2e").map(read).join("\n");
const quickstart = read("examples/quickstart/program.ts");
const referencePage = (name: string) => `docs/reference/${name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase()}.md`;

test.each(specFiles.map((s) => [s.name, s.file] as const))(
  "%s (provider/resources/%s.ts) is exported, documented, in the quickstart and tested",
  (name) => {
    expect(typeof (compute as Record<string, unknown>)[name]).toBe("function");
    expect(read(referencePage(name))).toContain(`# ${name}\n`);
    expect(quickstart).toMatch(new RegExp(`new compute\\.${name}\\(`));
    const used = new RegExp(`\\b(new (compute\\.)?${name}\\(|provider\\("${name}"\\)|${name}Spec\\b)`);
    expect({ providerTests: used.test(providerTests), e2e: new RegExp(`\\bnew (compute\\.)?${name}\\(`).test(e2eTests) }).toEqual({
      providerTests: true,
      e2e: true,
    });
  },
);
