/** `npm run generate` (docs part): rewrites the README's resource reference from the specs. */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../coverage/table";
import { withReference } from "./reference";

const file = path.join(REPO_ROOT, "README.md");
fs.writeFileSync(file, withReference(fs.readFileSync(file, "utf8")));
console.log("docs: README.md resource reference regenerated");
