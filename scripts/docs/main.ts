/**
 * `npm run generate` (docs part): the README's resource reference, and the provider files
 * generated from the resource specs (`provider/resources.generated.ts`, `provider/specs.ts`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../coverage/table";
import { withReference } from "./reference";
import { renderProviderFiles } from "./resources";

// The provider files first: the README's reference reads the registry they make.
for (const [file, text] of Object.entries(renderProviderFiles(REPO_ROOT))) {
  fs.writeFileSync(path.join(REPO_ROOT, file), text);
  console.log(`docs: ${file} regenerated`);
}
const readme = path.join(REPO_ROOT, "README.md");
fs.writeFileSync(readme, withReference(fs.readFileSync(readme, "utf8")));
console.log("docs: README.md resource reference regenerated");
