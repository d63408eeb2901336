/** `npm run generate` (docs part): rewrites the README's resource reference from the specs. */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../coverage/table";
import { withReference } from "./reference";
import { findSpecExports, renderArgsModule } from "./args";

const file = path.join(REPO_ROOT, "README.md");
fs.writeFileSync(file, withReference(fs.readFileSync(file, "utf8")));
console.log("docs: README.md resource reference regenerated");
fs.writeFileSync(path.join(REPO_ROOT, "provider/args.generated.ts"), renderArgsModule(findSpecExports(REPO_ROOT)));
console.log("docs: provider/args.generated.ts regenerated");
