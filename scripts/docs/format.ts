/**
 * Generated TypeScript goes through the project's formatter, so a generated file reads like a
 * written one and `prettier --check` holds for the whole tree. Prettier runs as a child process:
 * its API is ESM-only inside, which jest's CommonJS sandbox cannot load.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";

export function formatSource(text: string, root: string, file: string): string {
  const prettier = path.join(root, "node_modules/prettier/bin/prettier.cjs");
  return execFileSync(process.execPath, [prettier, "--stdin-filepath", path.join(root, file)], {
    cwd: root,
    input: text,
    encoding: "utf8",
  });
}
