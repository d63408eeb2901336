/**
 * The provider process loads what the kind it serves needs, not the whole package: a process
 * serving `DomainRecord` builds the record's and its domain's specs and the sdk's domains area,
 * and no other kind's schemas (bench/README.md, "Where the time goes": loading the package was the
 * largest part of the provider host's start that is ours). Run in a fresh Node process on the
 * built package, as the engine starts the host.
 */
import * as path from "node:path";
import { REPO_ROOT } from "../support/engine";
import { runProcess } from "../support/process";

/** Our modules a fresh process has loaded after `script`, relative to `dist/`. */
async function loadedAfter(script: string): Promise<string[]> {
  const probe = `${script}
const ours = Object.keys(require.cache).filter((f) => f.startsWith(${JSON.stringify(path.join(REPO_ROOT, "dist") + "/")}));
console.log(JSON.stringify(ours.map((f) => f.slice(${path.join(REPO_ROOT, "dist").length + 1})).sort()));`;
  const result = await runProcess(process.execPath, ["-e", probe], { cwd: REPO_ROOT });
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as string[];
}

const kinds = (modules: string[], folder: string) => modules.filter((m) => m.startsWith(folder)).map((m) => m.slice(folder.length));

test("a provider process serving DomainRecord loads that kind's spec and sdk area, no other", async () => {
  const loaded = await loadedAfter(`require("./registry").provider("DomainRecord");`);
  expect(kinds(loaded, "provider/resources/")).toEqual(["common.js", "domain-record.js", "domain.js", "record-common.js"]);
  // The domains area: its endpoints, and its rules (sdk/rules/: the domains' and their records').
  expect(kinds(loaded, "sdk/resources/")).toEqual(["domains.js"]);
  expect(kinds(loaded, "sdk/rules/")).toEqual(["domain-records.js", "domains.js"]);
});

test("a program declaring a Vpc loads the Vpc's spec and sdk area, no other kind's", async () => {
  const loaded = await loadedAfter(`require("./dist/provider/classes/resource-classes.js").Vpc;`);
  expect(kinds(loaded, "provider/resources/")).toEqual([]);
  // The class is defined without its spec; the spec is read when a resource is declared.
  const declared = await loadedAfter(`
const { RESOURCE_SPECS } = require("./dist/provider/generated/spec-table.js");
RESOURCE_SPECS.Vpc;`);
  expect(kinds(declared, "provider/resources/")).toEqual(["common.js", "vpc.js"]);
  expect(kinds(declared, "sdk/resources/")).toEqual(["vpcs.js"]);
  expect(kinds(declared, "sdk/rules/")).toEqual(["vpcs.js"]);
});

test("every kind is still there for whoever enumerates the registry", async () => {
  const loaded = await loadedAfter(`
const { RESOURCE_SPECS } = require("./dist/provider/generated/spec-table.js");
if (Object.values(RESOURCE_SPECS).some((s) => !s.name)) process.exit(3);`);
  expect(kinds(loaded, "provider/resources/").length).toBeGreaterThanOrEqual(13);
});
