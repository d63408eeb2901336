/**
 * The emulator's import graph: the core knows no service (services register themselves through
 * `services/index.ts`), and no source file reaches itself through its imports — type-only imports
 * and re-exports included, since a type circle is a circle waiting to happen.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";

const EMULATOR = path.resolve(__dirname, "../../../emulator");

function sourceFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** The files of `files` that `file` imports or re-exports from (relative specifiers only). */
function importsOf(file: string, files: ReadonlySet<string>): string[] {
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
  return importedFiles
    .filter((i) => i.fileName.startsWith("."))
    .map((i) => path.resolve(path.dirname(file), i.fileName))
    .flatMap((base) => [`${base}.ts`, path.join(base, "index.ts")].filter((candidate) => files.has(candidate)).slice(0, 1));
}

const FILES = sourceFiles(EMULATOR);
const GRAPH = new Map(FILES.map((file) => [file, importsOf(file, new Set(FILES))]));
const relative = (file: string) => path.relative(EMULATOR, file);

/** Strongly connected components with more than one file (or a file importing itself): the import circles. */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(component.map(relative).sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

test("the import scan sees the emulator's files and their imports", () => {
  expect(FILES.length).toBeGreaterThan(50);
  expect(importsOf(path.join(EMULATOR, "emulator.ts"), new Set(FILES)).map(relative)).toContain("services/index.ts");
});

test("emulator/core imports nothing from emulator/services", () => {
  const inCore = FILES.filter((file) => relative(file).startsWith("core/"));
  const fromCore = inCore.flatMap((file) => {
    const services = GRAPH.get(file)!.filter((target) => relative(target).startsWith("services/"));
    return services.map((target) => `${relative(file)} → ${relative(target)}`);
  });
  expect(fromCore).toEqual([]);
});

test("no source file of the emulator imports itself through others (no import circles)", () => {
  expect(circles(GRAPH)).toEqual([]);
});

test("the circle finder finds circles", () => {
  const graph = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]], ["e", ["e"]]]);
  expect(circles(graph).map((c) => c.length).sort()).toEqual([1, 3]);
});
