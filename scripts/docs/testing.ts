/**
 * The testing module (`pulumi-compute/testing`, `provider/testing/index.ts`) as its reference page
 * describes it, read from the package's own sources with the TypeScript checker: every export, in
 * the order the module exports it — functions with their signature, TSDoc and `@example`, classes
 * and interfaces with their public members, type aliases and constants with their type. The
 * generator refuses an export without TSDoc.
 */
import ts from "typescript";
import { docOf, exampleOf, moduleExports } from "./functions";

/** The module's entry, from the repository root. */
export const TESTING_ENTRY = "provider/testing/index.ts";

/** One member of a class or an interface: a property with its type, or a method with its signature. */
export interface MemberDoc {
  name: string;
  type: string;
  description: string;
}

export interface ExportDoc {
  name: string;
  kind: "function" | "class" | "interface" | "type" | "constant";
  /** What a class or an interface extends (`pulumi.runtime.Mocks`), as written. */
  extends: string[];
  /** A function's signature, a type alias's or a constant's type; empty for classes and interfaces. */
  signature: string;
  description: string;
  example?: string;
  members: MemberDoc[];
}

const TYPE_FLAGS = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;

/** The testing module's exports, as declared. */
export function findTestingExports(root: string): ExportDoc[] {
  const { checker, exported } = moduleExports(root, TESTING_ENTRY);
  const declarationOf = (symbol: ts.Symbol) => symbol.getDeclarations()![0]!;

  /** The members `owner` declares itself (what it extends has its own documentation), public and named. */
  const memberDocs = (type: ts.Type, owner: ts.Node): MemberDoc[] =>
    checker
      .getPropertiesOfType(type)
      .filter((p) => {
        const declaration = p.valueDeclaration ?? p.declarations?.[0];
        if (!declaration || !isInside(declaration, owner)) return false;
        const modifiers = ts.canHaveModifiers(declaration) ? ts.getModifiers(declaration) : undefined;
        // Public surface only: no private or protected members, no symbol-keyed ones (`[Symbol.asyncDispose]`).
        const hidden = modifiers?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword);
        return !hidden && !p.name.startsWith("__@");
      })
      .map((p) => {
        const propType = checker.getTypeOfSymbolAtLocation(p, owner);
        const call = propType.getCallSignatures()[0];
        const optional = p.flags & ts.SymbolFlags.Optional ? "?" : "";
        const type =
          p.flags & ts.SymbolFlags.Method && call
            ? `${p.name}${checker.signatureToString(call, undefined, TYPE_FLAGS)}`
            : checker.typeToString(optional ? checker.getNonNullableType(propType) : propType, undefined, TYPE_FLAGS);
        return { name: `${p.name}${optional}`, type, description: docOf(p, checker) };
      });

  return exported.map((symbol): ExportDoc => {
    const name = symbol.getName();
    const declaration = declarationOf(symbol);
    const description = docOf(symbol, checker);
    if (!description) throw new Error(`${name}, exported by ${TESTING_ENTRY}, has no TSDoc`);
    const example = exampleOf(symbol, checker);
    const heritage =
      ts.isClassDeclaration(declaration) || ts.isInterfaceDeclaration(declaration) ? (declaration.heritageClauses ?? []) : [];
    const base = {
      name,
      description,
      extends: heritage.flatMap((h) => h.types.map((t) => t.getText())),
      ...(example === undefined ? {} : { example }),
    };
    if (symbol.flags & ts.SymbolFlags.Function) {
      const signature = checker.getSignatureFromDeclaration(declaration as ts.FunctionDeclaration)!;
      return { ...base, kind: "function", signature: `${name}${checker.signatureToString(signature, undefined, TYPE_FLAGS)}`, members: [] };
    }
    if (symbol.flags & ts.SymbolFlags.Class) {
      const instance = checker.getDeclaredTypeOfSymbol(symbol);
      const statics = checker.getTypeOfSymbolAtLocation(symbol, declaration);
      const staticMembers = memberDocs(statics, declaration);
      return {
        ...base,
        kind: "class",
        signature: "",
        members: [...staticMembers.map((m) => ({ ...m, name: `${name}.${m.name}` })), ...memberDocs(instance, declaration)],
      };
    }
    if (symbol.flags & ts.SymbolFlags.Interface) {
      return { ...base, kind: "interface", signature: "", members: memberDocs(checker.getDeclaredTypeOfSymbol(symbol), declaration) };
    }
    if (symbol.flags & ts.SymbolFlags.TypeAlias) {
      const type = (declaration as ts.TypeAliasDeclaration).type.getText();
      return { ...base, kind: "type", signature: `type ${name} = ${type}`, members: [] };
    }
    const type = checker.typeToString(checker.getTypeOfSymbolAtLocation(symbol, declaration), undefined, TYPE_FLAGS);
    return { ...base, kind: "constant", signature: `const ${name}: ${type}`, members: [] };
  });
}

/** Whether `node` is `owner` or inside it. */
function isInside(node: ts.Node, owner: ts.Node): boolean {
  for (let at: ts.Node | undefined = node; at; at = at.parent) if (at === owner) return true;
  return false;
}
