/**
 * No import circles among the provider's files (type-only imports included): the layers point one
 * way — resource specs → engine → sdk, generated classes → specs and engine, never back.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { REPO_ROOT } from "../../scripts/coverage/table";

const PROVIDER = path.join(REPO_ROOT, "provider");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** Each provider file → the provider files it imports (relative imports, `import("…")` types included). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(PROVIDER)) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
    const targets = importedFiles
      .map((i) => i.fileName)
      .filter((name) => name.startsWith("."))
      .map((name) => path.resolve(path.dirname(file), name))
      .map((target) => (fs.existsSync(`${target}.ts`) ? `${target}.ts` : path.join(target, "index.ts")))
      .filter((target) => target.startsWith(PROVIDER + path.sep) && fs.existsSync(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every cycle found by a depth-first walk, as the files on it. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") found.push(stack.slice(stack.indexOf(next)).map((f) => path.relative(REPO_ROOT, f)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

test("the provider's files import each other without a circle", () => {
  const graph = importGraph();
  expect(graph.size).toBeGreaterThan(20);
  expect(cycles(graph)).toEqual([]);
});
