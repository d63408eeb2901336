/**
 * TSDoc on the public API: every export of the provider package and of the sdk carries a doc
 * comment, so an editor explains each class, function, type and input. The per-input docs of
 * resource arguments come from the specs (`provider/args.generated.ts`, kept current here too).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { REPO_ROOT } from "../../scripts/coverage/table";
import { findSpecExports, renderArgsModule } from "../../scripts/docs/args";

function exportsOf(entry: string): { program: ts.Program; checker: ts.TypeChecker; symbols: ts.Symbol[] } {
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  return { program, checker, symbols: checker.getExportsOfModule(moduleSymbol) };
}

function documented(declaration: ts.Declaration): boolean {
  const holder = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
  return ts.getJSDocCommentsAndTags(holder).length > 0;
}

function undocumented(entry: string): string[] {
  const { checker, symbols } = exportsOf(entry);
  return symbols.flatMap((exported) => {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declarations = symbol.getDeclarations() ?? [];
    if (declarations.some(documented)) return [];
    const where = declarations[0] ? path.relative(REPO_ROOT, declarations[0].getSourceFile().fileName) : "?";
    return [`${exported.getName()} (${where})`];
  });
}

test("every export of the provider package has TSDoc", () => {
  expect(undocumented(path.join(REPO_ROOT, "provider/index.ts"))).toEqual([]);
});

test("every export of the sdk has TSDoc", () => {
  expect(undocumented(path.join(REPO_ROOT, "sdk/index.ts"))).toEqual([]);
});

test("every input of every resource has TSDoc (provider/args.generated.ts is current; run `npm run generate`)", () => {
  const specs = findSpecExports(REPO_ROOT);
  expect(fs.readFileSync(path.join(REPO_ROOT, "provider/args.generated.ts"), "utf8")).toBe(renderArgsModule(specs));
  const { program } = exportsOf(path.join(REPO_ROOT, "provider/args.generated.ts"));
  const source = program.getSourceFile(path.join(REPO_ROOT, "provider/args.generated.ts"))!;
  const bare: string[] = [];
  source.forEachChild((node) => {
    if (!ts.isInterfaceDeclaration(node)) return;
    for (const member of node.members) if (!documented(member)) bare.push(`${node.name.text}.${member.name?.getText(source)}`);
  });
  expect(bare).toEqual([]);
  expect(specs.length).toBe(11);
});
