/**
 * An object type's properties in the order its source writes them, which is the order of the
 * object at run time (a zod schema's keys, a literal's keys). The checker orders the properties of
 * a spread differently: `{ id, ...STAMPS, label }` is typed `{ label, created, updated, id }`, so
 * a generator that listed `getPropertiesOfType` would reorder a page the moment a schema shares a
 * fragment. Every generator that lists fields reads them through `propertiesInWrittenOrder`.
 */
import ts from "typescript";

/**
 * The properties of `type`, those written in one object literal (spreads read through) in the
 * literal's order, in the places the checker gives them together; any other property (an
 * intersection's other member, an inherited one) keeps its place.
 */
export function propertiesInWrittenOrder(checker: ts.TypeChecker, type: ts.Type): ts.Symbol[] {
  const properties = checker.getPropertiesOfType(type);
  // A mapped type that renames keys (`Camelized<Vpc>`) links a property to its origin, not to its declaration.
  const declarationOf = (p: ts.Symbol) =>
    p.declarations?.[0] ?? checker.getRootSymbols(p).find((r) => r.declarations?.length)?.declarations?.[0];
  const declarations = properties.map(declarationOf);
  const literals = new Set(
    declarations.map((d) => d?.parent).filter((p): p is ts.ObjectLiteralExpression => !!p && ts.isObjectLiteralExpression(p)),
  );
  let best: ts.Node[] = [];
  for (const literal of literals) {
    const order = writtenOrder(checker, literal, new Set());
    const covered = (o: ts.Node[]) => declarations.filter((d) => d && o.includes(d)).length;
    if (covered(order) > covered(best)) best = order;
  }
  const rank = (symbol: ts.Symbol) => best.indexOf(declarationOf(symbol) ?? (null as never));
  const ranked = properties.filter((p) => rank(p) >= 0).sort((a, b) => rank(a) - rank(b));
  return properties.map((p) => (rank(p) >= 0 ? ranked.shift()! : p));
}

/** The declarations of a literal's keys in run-time order, a spread's keys at the spread (a later key of one name keeps the first place). */
function writtenOrder(checker: ts.TypeChecker, literal: ts.ObjectLiteralExpression, seen: Set<ts.Node>): ts.Node[] {
  if (seen.has(literal)) return [];
  seen.add(literal);
  const order: ts.Node[] = [];
  const names: string[] = [];
  const add = (declaration: ts.Node | undefined, name: string) => {
    if (!declaration) return;
    const at = names.indexOf(name);
    if (at >= 0) {
      order[at] = declaration;
    } else {
      order.push(declaration);
      names.push(name);
    }
  };
  for (const element of literal.properties) {
    if (!ts.isSpreadAssignment(element)) {
      add(element, element.name?.getText() ?? "");
      continue;
    }
    const spread = literalOf(checker, element.expression);
    if (spread) {
      for (const declaration of writtenOrder(checker, spread, seen)) add(declaration, nameOf(declaration));
    } else {
      for (const p of checker.getPropertiesOfType(checker.getTypeAtLocation(element.expression))) add(p.declarations?.[0], p.getName());
    }
  }
  return order;
}

/** The object literal an expression names (`STAMPS`, `STAMPS as const`), if it names one. */
function literalOf(checker: ts.TypeChecker, expression: ts.Expression): ts.ObjectLiteralExpression | undefined {
  let node: ts.Node = expression;
  while (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) node = node.expression;
  if (ts.isObjectLiteralExpression(node)) return node;
  if (!ts.isIdentifier(node)) return undefined;
  let symbol = checker.getSymbolAtLocation(node);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol?.valueDeclaration;
  return declaration && ts.isVariableDeclaration(declaration) && declaration.initializer
    ? literalOf(checker, declaration.initializer)
    : undefined;
}

function nameOf(declaration: ts.Node): string {
  const name = (declaration as ts.NamedDeclaration).name;
  return name ? name.getText() : "";
}
