/**
 * The code blocks of the docs, for the tests that hold them to the code:
 * - every ```ts / ```typescript block of README.md and docs/ is type-checked against the package's
 *   declarations, as a user's program sees them (`pulumi-compute` is the built `dist/provider`);
 *   a block without an `import` line is an excerpt, and gets `import * as pulumi from
 *   "@pulumi/pulumi"` and `import * as compute from "pulumi-compute"` before it;
 * - a ```sh block right after a `<!-- runnable -->` line is run as written, by the test that
 *   names it (`RUNNABLE`);
 * - a block right after `<!-- file: NAME -->` (`<!-- append: NAME -->`) is the project's file NAME
 *   as a user writes it (adds it to the end of it), which that test writes where the page's
 *   runnable steps have got to.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";

/** The line before a shell block that a test runs as written. */
export const RUNNABLE_MARKER = "<!-- runnable -->";

export interface CodeBlock {
  /** The Markdown file, from the repository root. */
  file: string;
  /** The line of the block's first line of code (1-based). */
  line: number;
  lang: string;
  code: string;
  runnable: boolean;
  /** The project file the block is (`<!-- file: NAME -->`) or ends (`<!-- append: NAME -->`). */
  writes?: { path: string; append: boolean };
}

/** `<!-- file: NAME -->` or `<!-- append: NAME -->`: the project file the block after it gives. */
const FILE_MARKER = /^<!-- (file|append): (\S+) -->$/;

/** README.md and every Markdown file under docs/, from the repository root, sorted. */
export function docFiles(root: string): string[] {
  const walk = (dir: string): string[] =>
    fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
      const rel = `${dir}/${e.name}`;
      return e.isDirectory() ? walk(rel) : e.name.endsWith(".md") ? [rel] : [];
    });
  return ["README.md", ...walk("docs").sort()];
}

/** The fenced code blocks of one Markdown text. */
export function codeBlocks(file: string, markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.indexOf("```", i + 1);
    if (end === -1) throw new Error(`${file}:${i + 1}: a code block is not closed`);
    const marker = FILE_MARKER.exec(lines[i - 1]?.trim() ?? "");
    blocks.push({
      file,
      line: i + 2,
      lang: open[1]!,
      code: lines.slice(i + 1, end).join("\n"),
      runnable: lines[i - 1]?.trim() === RUNNABLE_MARKER,
      ...(marker ? { writes: { path: marker[2]!, append: marker[1] === "append" } } : {}),
    });
    i = end;
  }
  return blocks;
}

/** Every block of README.md and docs/. */
export function allBlocks(root: string): CodeBlock[] {
  return docFiles(root).flatMap((file) => codeBlocks(file, fs.readFileSync(path.join(root, file), "utf8")));
}

export const isTypeScript = (block: CodeBlock) => block.lang === "ts" || block.lang === "typescript";

const PRELUDE = ['import * as pulumi from "@pulumi/pulumi";', 'import * as compute from "pulumi-compute";'];

/**
 * Type-checks the blocks, each as a module of its own, the way a new project compiles (strict,
 * `nodenext`, Node's types) with `pulumi-compute` resolved to the package's built declarations
 * (`dist/provider/index.d.ts`, and `pulumi-compute/<path>` to `<path>` in the package). Answers one
 * line per error, `file:line: message`, on the Markdown's line.
 */
export function typeCheck(root: string, blocks: CodeBlock[]): string[] {
  const dir = path.join(root, "docs", ".examples");
  const files = new Map<string, { block: CodeBlock; text: string; offset: number }>();
  blocks.forEach((block, i) => {
    const excerpt = !/^import\b/m.test(block.code);
    const prelude = excerpt ? PRELUDE : [];
    files.set(path.join(dir, `example-${i}.ts`), { block, text: [...prelude, block.code].join("\n") + "\n", offset: prelude.length });
  });
  const options: ts.CompilerOptions = {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ["node"],
    typeRoots: [path.join(root, "node_modules/@types")],
    skipLibCheck: true,
    noEmit: true,
    paths: {
      "pulumi-compute": [path.join(root, "dist/provider/index.d.ts")],
      "pulumi-compute/*": [path.join(root, "*")],
    },
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
  host.readFile = (name) => files.get(name)?.text ?? readFile.call(host, name);
  host.getSourceFile = (name, version, onError, create) => {
    const file = files.get(name);
    return file ? ts.createSourceFile(name, file.text, version, true) : getSourceFile.call(host, name, version, onError, create);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSemanticDiagnostics(),
    ...program.getSyntacticDiagnostics(),
  ];
  return diagnostics.map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, "\n  ");
    const file = d.file && files.get(d.file.fileName);
    if (!file || d.start === undefined) return `${d.file?.fileName ?? "(options)"}: ${message}`;
    const { line } = d.file!.getLineAndCharacterOfPosition(d.start);
    const at = line - file.offset;
    return `${file.block.file}:${at < 0 ? file.block.line : file.block.line + at}: TS${d.code} ${message}`;
  });
}
