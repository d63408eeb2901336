/**
 * The data functions as the reference pages describe them, read from the package's own sources
 * with the TypeScript checker: every `getX` that `provider/index.ts` exports (its `getXOutput`
 * form beside it), its TSDoc with its `@example`, its arguments and the fields of its result. The
 * generator refuses a function without an example.
 */
import * as path from "node:path";
import ts from "typescript";
import { propertiesInWrittenOrder } from "./written-order";

/** One property of an argument or result type, as a reference table shows it. */
export interface FieldDoc {
  name: string;
  type: string;
  optional: boolean;
  description: string;
  /** Its type as the checker has it (the schema's generator maps it to Pulumi's types). */
  tsType: ts.Type;
}

export interface FunctionDoc {
  name: string;
  description: string;
  /** Whether the arguments may be left out (`getRegions()`). */
  argsOptional: boolean;
  /** The argument fields; with `ways`, the alternatives of a union (`id`, or `label`). */
  args: FieldDoc[];
  ways: string[][];
  /** The result: one object, or a list of them (`[]`). */
  returnsList: boolean;
  resultType: string;
  result: FieldDoc[];
  /** The result's type (of one element, for a list) as the checker has it. */
  resultTsType: ts.Type;
  example: string;
}

/** What a module of the package exports, read with the checker from its sources: each symbol as declared (aliases followed), in order. */
export interface PackageProgram {
  checker: ts.TypeChecker;
  exported: ts.Symbol[];
}

/** Reads `file` of the package (and what it imports) with the TypeScript checker. */
export function moduleExports(root: string, file: string): PackageProgram {
  const entry = path.join(root, file);
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    strict: true,
    skipLibCheck: true,
    resolveJsonModule: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  const exported = checker.getExportsOfModule(moduleSymbol).map((s) => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s));
  return { checker, exported };
}

/** The package's face: every export of `provider/index.ts`. */
export const packageProgram = (root: string): PackageProgram => moduleExports(root, "provider/index.ts");

/** A symbol's TSDoc on one line, without its tags. */
export function docOf(symbol: ts.Symbol, checker: ts.TypeChecker): string {
  return ts
    .displayPartsToString(symbol.getDocumentationComment(checker))
    .replace(/\s*\n\s*/g, " ")
    .trim();
}

/** A function's `@example`: a short program in a fenced block, type-checked with every other example of the docs. */
export function exampleOf(symbol: ts.Symbol, checker: ts.TypeChecker): string | undefined {
  const tag = symbol.getJsDocTags(checker).find((t) => t.name === "example");
  if (!tag) return undefined;
  const text = ts.displayPartsToString(tag.text).trim();
  return /^```ts\n([\s\S]*?)\n```$/.exec(text)?.[1] ?? text;
}

const TYPE_FLAGS = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;

/** The package's data functions, sorted by name. */
export function findFunctions(root: string, { checker, exported }: PackageProgram = packageProgram(root)): FunctionDoc[] {
  const names = new Set(exported.map((s) => s.getName()));
  const functions = exported.filter((s) => s.flags & ts.SymbolFlags.Function && /^get[A-Z]/.test(s.getName()));
  const withoutNullish = (type: ts.Type) => (type.isUnion() ? checker.getNonNullableType(type) : type);
  /** A field's type in a table: primitives and literals spelled out, objects by their keys. */
  const typeText = (type: ts.Type, depth = 0): string => {
    const nullable = type.isUnion() && type.types.some((t) => t.flags & ts.TypeFlags.Null);
    const bare = withoutNullish(type);
    const orNull = nullable ? " | null" : "";
    if (checker.isArrayType(bare)) {
      const element = checker.getTypeArguments(bare as ts.TypeReference)[0]!;
      const inner = typeText(element, depth);
      return `${/[ |]/.test(inner) && !inner.startsWith("{") ? `(${inner})` : inner}[]${orNull}`;
    }
    const isObject = bare.flags & ts.TypeFlags.Object && !bare.getCallSignatures().length;
    if (isObject && !bare.isUnion()) {
      const keys = propertiesInWrittenOrder(checker, bare).map((p) => p.getName());
      if (keys.length && depth < 1) return `{ ${keys.join(", ")} }${orNull}`;
      if (keys.length) return `object${orNull}`;
    }
    return checker.typeToString(type, undefined, TYPE_FLAGS);
  };
  const fieldsOf = (type: ts.Type, at: ts.Node): FieldDoc[] =>
    propertiesInWrittenOrder(checker, type).map((p) => {
      const propType = checker.getTypeOfSymbolAtLocation(p, at);
      const optional = (p.flags & ts.SymbolFlags.Optional) !== 0;
      return {
        name: p.getName(),
        type: optional ? typeText(propType).replace(/ \| undefined$/, "") : typeText(propType),
        optional,
        description: docOf(p, checker),
        tsType: propType,
      };
    });

  const docs = functions.map((symbol): FunctionDoc => {
    const name = symbol.getName();
    if (!names.has(`${name}Output`)) throw new Error(`${name} has no ${name}Output form`);
    const example = exampleOf(symbol, checker);
    // The `…Output` form, since a program's top level cannot await.
    if (example === undefined) throw new Error(`${name} has no @example in its TSDoc (provider/functions/)`);
    const declaration = symbol.getDeclarations()![0] as ts.FunctionDeclaration;
    const signature = checker.getSignatureFromDeclaration(declaration)!;
    const argsParam = declaration.parameters[0]!;
    const argsType = withoutNullish(checker.getTypeAtLocation(argsParam));
    // A union of objects names one object in several ways: each way's keys are those it requires.
    const alternatives = argsType.isUnion() ? argsType.types : [argsType];
    const byName = new Map<string, FieldDoc>();
    for (const alternative of alternatives) {
      for (const field of fieldsOf(alternative, argsParam)) {
        if (field.type === "undefined" || byName.has(field.name)) continue;
        // Required only when every alternative requires it (`vpcId` of a subnet lookup).
        byName.set(field.name, { ...field, optional: !byNameIsShared(field.name, alternatives, checker) });
      }
    }
    const ways = argsType.isUnion()
      ? alternatives.map((a) =>
          propertiesInWrittenOrder(checker, a)
            .filter((p) => !(p.flags & ts.SymbolFlags.Optional) && !byNameIsShared(p.getName(), alternatives, checker))
            .map((p) => p.getName()),
        )
      : [];
    let result = checker.getAwaitedType(signature.getReturnType())!;
    const returnsList = checker.isArrayType(result);
    if (returnsList) result = checker.getTypeArguments(result as ts.TypeReference)[0]!;
    const returnNode = declaration.type;
    const declared = returnNode && ts.isTypeReferenceNode(returnNode) ? returnNode.typeArguments?.[0]?.getText() : undefined;
    return {
      name,
      description: docOf(symbol, checker),
      argsOptional: argsParam.initializer !== undefined || argsParam.questionToken !== undefined,
      args: [...byName.values()],
      ways,
      returnsList,
      resultType: (declared ?? checker.typeToString(result)).replace(/\[\]$/, ""),
      result: fieldsOf(result, declaration),
      resultTsType: result,
      example,
    };
  });
  return docs.sort((a, b) => a.name.localeCompare(b.name));
}

/** A key every alternative of a union requires (`vpcId` of a subnet lookup) is not one of the ways. */
function byNameIsShared(name: string, alternatives: readonly ts.Type[], checker: ts.TypeChecker): boolean {
  return alternatives.every((a) => {
    const p = checker.getPropertyOfType(a, name);
    return p !== undefined && !(p.flags & ts.SymbolFlags.Optional);
  });
}
