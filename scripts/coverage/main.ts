/**
 * `npm run coverage`: regenerates `docs/coverage.md` from the repository's endpoint table
 * (`emulator/core/spec-endpoints.ts`) and the code. With `--import-spec <cloud-api-v4.md>` it first
 * rewrites that table from a new revision of the API spec (the one step that reads the spec; the
 * path is the caller's, never a place outside the repository the script assumes).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { SPEC_ENDPOINTS, type SpecEndpointRow } from "../../emulator/core/spec-endpoints";
import { parseSpecTables } from "./endpoints";
import { REPO_ROOT, coverageRows, renderCoverage, renderSpecEndpointsModule } from "./table";

const { values } = parseArgs({ options: { "import-spec": { type: "string" } } });
let endpoints: readonly SpecEndpointRow[] = SPEC_ENDPOINTS;
if (values["import-spec"] !== undefined) {
  endpoints = parseSpecTables(fs.readFileSync(values["import-spec"], "utf8"));
  fs.writeFileSync(path.join(REPO_ROOT, "emulator/core/spec-endpoints.ts"), renderSpecEndpointsModule(endpoints));
  console.log(`coverage: emulator/core/spec-endpoints.ts written from ${values["import-spec"]} (${endpoints.length} endpoints)`);
}
const rows = coverageRows(REPO_ROOT, endpoints);
fs.mkdirSync(path.join(REPO_ROOT, "docs"), { recursive: true });
fs.writeFileSync(path.join(REPO_ROOT, "docs/coverage.md"), renderCoverage(rows));
const missing = rows.filter((r) => !r.sdk.length || !r.emulator.length || !r.tests.length);
console.log(`coverage: ${rows.length - missing.length} of ${rows.length} endpoints covered in all three columns; docs/coverage.md written`);
for (const r of missing) {
  const lacks = [!r.sdk.length && "sdk", !r.emulator.length && "emulator", !r.tests.length && "tests"].filter(Boolean).join(", ");
  console.log(`  ${r.method} ${r.path}: no ${lacks}`);
}
