/** `npm run coverage`: regenerates `docs/coverage.md` and `emulator/core/spec-endpoints.ts`. */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT, coverageRows, renderCoverage, renderSpecEndpointsModule, specPath } from "./table";

const specText = fs.readFileSync(specPath(), "utf8");
fs.writeFileSync(path.join(REPO_ROOT, "emulator/core/spec-endpoints.ts"), renderSpecEndpointsModule(specText));
const rows = coverageRows(REPO_ROOT, specText);
fs.mkdirSync(path.join(REPO_ROOT, "docs"), { recursive: true });
fs.writeFileSync(path.join(REPO_ROOT, "docs/coverage.md"), renderCoverage(rows));
const missing = rows.filter((r) => !r.sdk.length || !r.emulator.length || !r.tests.length);
console.log(`coverage: ${rows.length - missing.length} of ${rows.length} endpoints covered in all three columns; docs/coverage.md written`);
for (const r of missing) {
  const lacks = [!r.sdk.length && "sdk", !r.emulator.length && "emulator", !r.tests.length && "tests"].filter(Boolean).join(", ");
  console.log(`  ${r.method} ${r.path}: no ${lacks}`);
}
