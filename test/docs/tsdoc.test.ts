/**
 * TSDoc on the public API: every export of the provider package and of the sdk carries a doc
 * comment, so an editor explains each class, function, type and input. The docs of resource
 * arguments and outputs come from the specs (`provider/classes/resource-classes.ts`, whose freshness
 * `generated.test.ts` checks).
 */
import * as path from "node:path";
import ts from "typescript";
import { REPO_ROOT } from "../../scripts/coverage/table";
import { RESOURCE_SPECS } from "../../provider/generated/spec-table";

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

test("every argument and output of every resource has TSDoc", () => {
  const file = path.join(REPO_ROOT, "provider/classes/resource-classes.ts");
  const { program } = exportsOf(file);
  const source = program.getSourceFile(file)!;
  const bare: string[] = [];
  const classes: string[] = [];
  source.forEachChild((node) => {
    // A class is a `resourceClass(…)` constant, documented with its example; its outputs are its interface's members.
    if (ts.isVariableStatement(node)) {
      const made = node.declarationList.declarations.filter((d) => d.initializer?.getText(source).startsWith("resourceClass"));
      classes.push(...made.map((d) => d.name.getText(source)));
      for (const d of made) if (!documented(d)) bare.push(d.name.getText(source));
    }
    if (!ts.isInterfaceDeclaration(node)) return;
    for (const member of node.members) {
      if (ts.isConstructorDeclaration(member)) continue;
      if (!documented(member)) bare.push(`${node.name!.text}.${member.name?.getText(source)}`);
    }
  });
  expect(bare).toEqual([]);
  expect(classes.sort()).toEqual(Object.keys(RESOURCE_SPECS).sort());
});
