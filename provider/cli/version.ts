/**
 * The installed package's version, as `pulumi-compute --version` prints it: read from the
 * `package.json` of the package this command runs from (the project's `node_modules/pulumi-compute`,
 * or this checkout), so it is what npm installed, not a copy compiled in.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { packageRoot } from "../launch/plugins";

export function installedVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(packageRoot(), "package.json"), "utf8")) as { version: string }).version;
}
