/**
 * Paths that lead out of the repository. Whatever the tests, scripts, sources and instructions
 * read must live inside it, so a plain clone with nothing beside it runs `npm test` and
 * `npm run generate`. A file escapes when it names a path relative to itself (or to the root:
 * `ROOT`, `REPO_ROOT`, `root`, `$ROOT`) whose `..` segments climb above the root — as
 * `path.resolve(__dirname, "../../../shared/fixtures")` did, or `../shared/spec` in a README — or
 * when it names the folder the reference material sits in (`shared/fixtures`, `shared/spec`).
 * Absolute paths (`os.tmpdir()`, `~/.cache`) are not the concern here: they never assume a
 * neighbour of the checkout.
 *
 * A TypeScript file runs from its source (jest) or compiled into `dist/` (scripts, benches, the
 * examples), so its `__dirname` may be one level deeper: it escapes only when it escapes from both.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** Top-level folders that are not the repository's own files: installed, built, cached (`.gitignore`d). */
const SKIPPED_DIRS = new Set(["dist", ".tools", ".git", ".pulumi-state", "coverage", ".bench"]);
/** Recorded data, kept byte for byte as recorded: never code that reads a path. */
const DATA_DIRS = ["test/fixtures"];
const SCANNED = /\.(ts|js|mjs|cjs|sh|go|md|yaml|yml)$|^package\.json$|^tsconfig.*\.json$|^go\.mod$/;
/** The checker and its test, which spell out the forms they look for. */
const SELF = ["scripts/checks/outside-paths.ts", "test/checks/outside-paths.test.ts"];

/** Paths that look like escapes but are written from another folder than the file's own, with why. */
export const NOT_ESCAPING: Record<string, string> = {
  "examples/README.md: `main: ../../dist/examples/<name>/index.js`": "quotes an example's Pulumi.yaml, whose folder is examples/<name>",
};

/** One escaping path: where it is written and where it leads. */
export interface OutsidePath {
  file: string;
  line: number;
  text: string;
  /** Where it resolves, relative to the root (starts with `..`), or why it is outside. */
  leadsTo: string;
}

/** The repository's text files that may name a path (relative to the root, with `/`). */
export function scannedFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && !SKIPPED_DIRS.has(child) && !DATA_DIRS.includes(child)) walk(child);
      } else if (SCANNED.test(entry.name) && entry.name !== "package-lock.json" && !SELF.includes(child)) {
        files.push(child);
      }
    }
  };
  walk("");
  return files.sort();
}

/** A base the root-relative forms name: `ROOT`, `REPO_ROOT`, `root`, `$ROOT`, `${ROOT}`. */
const ROOT_BASE = /^(?:\$\{?(?:ROOT|REPO_ROOT)\}?|ROOT|REPO_ROOT|root)$/;

/** Relative paths climbing with `..`: `../x`, `../../x`, a lone `..`, as one literal or joined segments. */
const CLIMBING = /(?:^|[^\w.$}-])((?:\.\.\/)+[\w.\-/{}*$@]*|\.\.(?=["'`\s,)]))/g;
/** `path.resolve(base, "..", "x")` / `path.join(base, "../x")`: the literal segments after a base. */
const JOINED = /\b(?:resolve|join)\(\s*(__dirname|ROOT|REPO_ROOT|root)\s*,\s*((?:["'`][^"'`$]*["'`]\s*,?\s*)+)\)/g;
/** `$ROOT/../x` and `$(dirname "$0")/../x` in shell scripts. */
const SHELL_BASED = /(\$\{?(?:ROOT|REPO_ROOT)\}?|\$\(dirname [^)]*\))\/((?:\.\.\/?)+[\w.\-/]*)/g;
/** The reference material's own folder, named in any form. */
const REFERENCE_FOLDER = /\bshared\/(?:fixtures|spec)\b/;

/** Every path in one file's text that leads outside the root. `file` is relative to the root. */
export function outsidePathsIn(file: string, text: string): OutsidePath[] {
  const here = path.posix.dirname(file);
  const found: OutsidePath[] = [];
  const escapesFrom = (from: string, relative: string) => path.posix.normalize(path.posix.join(from, relative)).startsWith("..");
  // A compiled file's `__dirname` is `dist/<its folder>`.
  const compiled = file.endsWith(".ts") ? `dist/${here}` : undefined;
  const escapes = (from: string, relative: string) =>
    escapesFrom(from, relative) && !(from === here && compiled !== undefined && !escapesFrom(compiled, relative));
  text.split("\n").forEach((lineText, index) => {
    const line = index + 1;
    const report = (leadsTo: string) => found.push({ file, line, text: lineText.trim(), leadsTo });
    let matched = false;
    for (const m of lineText.matchAll(JOINED)) {
      matched = true;
      const base = m[1] === "__dirname" ? here : ".";
      const segments = [...m[2]!.matchAll(/["'`]([^"'`$]*)["'`]/g)].map((s) => s[1]!);
      const target = path.posix.join(base, ...segments);
      if (escapes(base, segments.join("/"))) report(path.posix.normalize(target));
    }
    for (const m of lineText.matchAll(SHELL_BASED)) {
      matched = true;
      const base = ROOT_BASE.test(m[1]!) ? "." : here;
      if (escapes(base, m[2]!)) report(path.posix.normalize(path.posix.join(base, m[2]!)));
    }
    if (!matched) {
      for (const m of lineText.matchAll(CLIMBING)) {
        if (escapes(here, m[1]!)) report(path.posix.normalize(path.posix.join(here, m[1]!)));
      }
    }
    if (REFERENCE_FOLDER.test(lineText) && !found.some((f) => f.line === line))
      report("the reference material's folder beside the repository");
  });
  return found.filter(
    (f) => !Object.keys(NOT_ESCAPING).some((k) => k.startsWith(`${f.file}: `) && f.text.includes(k.slice(f.file.length + 2))),
  );
}

/** Every escaping path in the repository. */
export function outsidePaths(root: string): OutsidePath[] {
  return scannedFiles(root).flatMap((file) => outsidePathsIn(file, fs.readFileSync(path.join(root, file), "utf8")));
}
