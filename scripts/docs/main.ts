/**
 * `npm run generate` (docs part): the provider files generated from the resource specs
 * (`provider/classes/resource-classes.ts`, `provider/generated/spec-table.ts`), then the reference pages of
 * `docs/reference/` (one per resource and per data function, and their index).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../coverage/table";
import { HEADER, REFERENCE_DIR, referencePages } from "./reference";
import { renderProviderFiles } from "./resources";
import type { Schema } from "./program";
import { packageSchema } from "../schema/schema";

// The provider files first: the reference pages read the registry they make.
for (const [file, text] of Object.entries(renderProviderFiles(REPO_ROOT))) {
  fs.writeFileSync(path.join(REPO_ROOT, file), text);
  console.log(`docs: ${file} regenerated`);
}
const dir = path.join(REPO_ROOT, REFERENCE_DIR);
fs.mkdirSync(dir, { recursive: true });
// The pages' Python and Go examples read the schema: a fresh one, from the provider files just written
// (the committed schema.json is rewritten after this part).
const schema = packageSchema(REPO_ROOT) as unknown as Schema;
const pages = referencePages(REPO_ROOT, undefined, undefined, undefined, undefined, schema);
// A generated page whose resource or function is gone goes with it.
for (const file of fs.readdirSync(dir)) {
  if (!(file in pages) && fs.readFileSync(path.join(dir, file), "utf8").startsWith(HEADER)) fs.rmSync(path.join(dir, file));
}
for (const [file, text] of Object.entries(pages)) fs.writeFileSync(path.join(dir, file), text);
console.log(`docs: ${REFERENCE_DIR}/ regenerated (${Object.keys(pages).length} pages)`);
