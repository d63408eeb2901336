/** `npm run generate` (schema part): the package's Pulumi schema, which the provider plugin serves. */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../coverage/table";
import { SCHEMA_FILE, renderSchema } from "./schema";

fs.writeFileSync(path.join(REPO_ROOT, SCHEMA_FILE), renderSchema(REPO_ROOT));
console.log(`schema: ${SCHEMA_FILE} regenerated`);
