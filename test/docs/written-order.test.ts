/**
 * Generated pages list an object's fields in the order its source writes them (the order of the
 * object at run time), not the checker's: a spread fragment (`{ id, ...STAMPS, label }`) and zod's
 * input type (required keys first) both reorder `getPropertiesOfType`.
 */
import * as path from "node:path";
import ts from "typescript";
import { REPO_ROOT } from "../../scripts/coverage/table";
import { propertiesInWrittenOrder } from "../../scripts/docs/written-order";

const SOURCE = `
import { z } from "zod";
const STAMPS = { created: z.string(), updated: z.string().nullable() };
export const Thing = z.looseObject({ id: z.number(), ...STAMPS, label: z.string() });
export type Thing = z.output<typeof Thing>;
export const Body = z.strictObject({ region: z.string().optional(), items: z.array(z.string()) });
export type Body = z.input<typeof Body>;
export type Both = { first: number } & { second: string; third: boolean };
export type Renamed = { [K in keyof Thing as K extends string ? Uppercase<K> : K]: Thing[K] };
`;

function fieldsOf(typeName: string): { checker: string[]; written: string[] } {
  const file = path.join(REPO_ROOT, "sdk/written-order-sample.ts");
  const options: ts.CompilerOptions = { strict: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (name) => (path.resolve(name) === file ? SOURCE : read(name));
  host.fileExists = (
    (exists) => (name: string) =>
      path.resolve(name) === file || exists(name)
  )(host.fileExists.bind(host));
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version) =>
    path.resolve(name) === file ? ts.createSourceFile(name, SOURCE, version) : getSourceFile(name, version);
  const program = ts.createProgram([file], options, host);
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
  const alias = checker.getExportsOfModule(module).find((s) => s.getName() === typeName && s.flags & ts.SymbolFlags.TypeAlias)!;
  const type = checker.getDeclaredTypeOfSymbol(alias);
  return {
    checker: checker.getPropertiesOfType(type).map((p) => p.getName()),
    written: propertiesInWrittenOrder(checker, type).map((p) => p.getName()),
  };
}

test("a spread fragment's fields stand where the spread is written", () => {
  const { checker, written } = fieldsOf("Thing");
  expect(checker).not.toEqual(written); // what the generators listed before
  expect(written).toEqual(["id", "created", "updated", "label"]);
});

test("a mapped type that renames keys (Camelized) keeps its origin's order", () => {
  expect(fieldsOf("Renamed").written).toEqual(["ID", "CREATED", "UPDATED", "LABEL"]);
});

test("a zod input type keeps the schema's order, optional fields included", () => {
  expect(fieldsOf("Body").written).toEqual(["region", "items"]);
});

test("the members of an intersection keep their places", () => {
  expect(fieldsOf("Both").written).toEqual(["first", "second", "third"]);
});
