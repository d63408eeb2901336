/**
 * How generated files are written. The reference pages write code and table cells one way.
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

/** Text as inline code. */
export const code = (text: string) => `\`${text}\``;

/** Text fit for a Markdown table's cell: no bar, no line break. */
export const escape = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** A description's first sentence, for an index's row. */
export const firstSentence = (text: string) => /^[\s\S]*?\.(?=\s|$)/.exec(text)?.[0] ?? text;
