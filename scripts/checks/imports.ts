/**
 * The import graph of the project's TypeScript sources: every `import`/`export … from`, type-only
 * ones included (a type cycle still ties the files together), `import("…")` types and `require`
 * calls of relative paths. Used by the tests that keep the tree free of cycles and keep the
 * layers pointing down: the sdk at the bottom, the emulator and the provider above it, and inside
 * the provider the engine at the bottom, the serving layer above it, the doors on top.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";

/** Top-level folders holding sources. */
export const SOURCE_ROOTS = ["sdk", "emulator", "provider", "examples", "scripts", "bench", "test"] as const;

/**
 * What each layer may import besides itself. The sdk knows nothing above it; the emulator and the
 * provider build on the sdk and never on each other; the testing door (`provider/testing`, what
 * `pulumi-compute/testing` serves) runs the provider's engine against the emulator, so it sits
 * above both, and nothing else in the provider may use it; everything else may use them all. A
 * layer is a top-level folder, or a folder inside one named here.
 */
export const LAYERS: Record<string, readonly string[]> = {
  sdk: [],
  emulator: ["sdk"],
  provider: ["sdk"],
  "provider/testing": ["sdk", "emulator", "provider"],
};

/**
 * The provider's inner layers, lowest first, each a list of folders: a file may import its own
 * layer and those below it, never one above. The engine knows no door and no spec table: it is
 * handed both (`ProviderContext`'s ports, a spec per call). Above it, what it is handed: the
 * resources' specs, the generated table of them (`generated/`), and the stores the serving layer
 * reads for it (`stores/`: the backend's checkpoints, the scopes log). Then the serving layer
 * (`provider/serve`), which every door shares. Every other folder of the provider is a door or
 * stands beside the doors (the dynamic door's `registry.ts` and `host/`, `plugin/`, `testing/`,
 * `policy/`, `cli/`, `functions/`, the program side `classes/`, the operations on whole stacks in
 * `stack/`, how the package's processes start in `launch/`): the top.
 */
export const PROVIDER_LAYERS: ReadonlyArray<readonly string[]> = [
  ["provider/engine"],
  ["provider/resources", "provider/generated", "provider/stores"],
  ["provider/serve"],
];

/** File → the project files it imports (paths relative to the root, with `/`). */
export type ImportGraph = Map<string, string[]>;

export function sourceFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules") walk(rel);
      } else if (/\.ts$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
        files.push(rel);
      }
    }
  };
  for (const dir of SOURCE_ROOTS) if (fs.existsSync(path.join(root, dir))) walk(dir);
  return files.sort();
}

/** The module specifiers a file names: imports, re-exports, `import("…")` types, `require("…")`. */
export function specifiersOf(text: string, fileName = "file.ts"): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expr = node.moduleReference.expression;
      if (ts.isStringLiteral(expr)) found.push(expr.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0]!)) {
      const callee = node.expression;
      if ((ts.isIdentifier(callee) && callee.text === "require") || callee.kind === ts.SyntaxKind.ImportKeyword) {
        found.push((node.arguments[0] as ts.StringLiteral).text);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A relative specifier resolved to a project file, as TypeScript resolves it (`x` → `x.ts` or `x/index.ts`). */
export function resolveSpecifier(root: string, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier)).replace(/\.js$/, "");
  for (const candidate of [`${base}.ts`, `${base}/index.ts`]) {
    if (fs.existsSync(path.join(root, candidate))) return candidate;
  }
  return undefined;
}

export function importGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of sourceFiles(root)) {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    const targets = specifiersOf(text, file)
      .map((s) => resolveSpecifier(root, file, s))
      .filter((t): t is string => t !== undefined);
    graph.set(file, [...new Set(targets)].sort());
  }
  return graph;
}

/** Groups of files that import each other, directly or around a circle (Tarjan's algorithm). */
export function cycles(graph: ImportGraph): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const lowlink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const connect = (file: string): void => {
    indices.set(file, index);
    lowlink.set(file, index);
    index += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!indices.has(next)) {
        connect(next);
        lowlink.set(file, Math.min(lowlink.get(file)!, lowlink.get(next)!));
      } else if (onStack.has(next)) {
        lowlink.set(file, Math.min(lowlink.get(file)!, indices.get(next)!));
      }
    }
    if (lowlink.get(file) === indices.get(file)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== file);
      const selfImport = group.length === 1 && (graph.get(file) ?? []).includes(file);
      if (group.length > 1 || selfImport) groups.push(group.sort());
    }
  };
  for (const file of graph.keys()) if (!indices.has(file)) connect(file);
  return groups.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/**
 * Imports that point the wrong way between layers, `emulator/x.ts → provider/y.ts`, or up the
 * provider's inner layers, `provider/engine/x.ts → provider/serve/y.ts`.
 */
export function layerViolations(
  graph: ImportGraph,
  layers: Record<string, readonly string[]> = LAYERS,
  inner: ReadonlyArray<readonly string[]> = PROVIDER_LAYERS,
): string[] {
  return [...new Set([...outerViolations(graph, layers), ...innerViolations(graph, inner)])].sort();
}

/** The rank of a provider file among the inner layers (`inner.length` for the doors), or undefined outside the provider. */
function innerRank(file: string, inner: ReadonlyArray<readonly string[]>): number | undefined {
  if (!file.startsWith("provider/")) return undefined;
  const rank = inner.findIndex((group) => group.some((folder) => file.startsWith(`${folder}/`)));
  return rank === -1 ? inner.length : rank;
}

function innerViolations(graph: ImportGraph, inner: ReadonlyArray<readonly string[]>): string[] {
  const violations: string[] = [];
  for (const [file, targets] of graph) {
    const from = innerRank(file, inner);
    if (from === undefined) continue;
    for (const target of targets) {
      const to = innerRank(target, inner);
      if (to !== undefined && to > from) violations.push(`${file} → ${target}`);
    }
  }
  return violations;
}

function outerViolations(graph: ImportGraph, layers: Record<string, readonly string[]>): string[] {
  // The longest layer that holds the file: `provider/testing/x.ts` is in `provider/testing`.
  const named = Object.keys(layers).sort((a, b) => b.length - a.length);
  const layerOf = (file: string) => named.find((layer) => file.startsWith(`${layer}/`)) ?? file.split("/")[0]!;
  const violations: string[] = [];
  for (const [file, targets] of graph) {
    const from = layerOf(file);
    const allowed = layers[from];
    if (!allowed) continue;
    for (const target of targets) {
      const to = layerOf(target);
      if (to !== from && !allowed.includes(to)) violations.push(`${file} → ${target}`);
    }
  }
  return violations.sort();
}
