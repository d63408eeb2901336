/**
 * The package's Pulumi schema (`provider/plugin/schema.json`), generated from the code: one resource
 * `compute:index:<Kind>` per spec, one function `compute:index:<name>` per data function, the
 * configuration variables, and the object types they use. What a spec declares about a field
 * (required, secret, replaces) comes from the spec; descriptions come from the TSDoc the generated
 * classes carry (written from the specs) and the data functions' own; types come from the
 * TypeScript types a program sees (`ArgsOf`, `OutputOf`, the functions' signatures), read with the
 * checker, so the schema says what the TypeScript door says. `pulumi package get-schema` prints
 * it (the plugin serves it); `test/docs/schema.test.ts` fails when the committed file is stale and
 * has Pulumi's own checker (`pulumi schema check`) validate it.
 */
import ts from "typescript";
import { CONFIG_VARIABLES } from "../../provider/serve/config";
import { META_INPUTS, type AnySpec } from "../../provider/engine/spec";
import { TYPE_MODULE, packageType } from "../../provider/engine/type-tokens";
import { LIST_RESULT } from "../../provider/plugin/functions";
import { SDK_VERSION } from "../../sdk/version";
import { docOf, findFunctions, packageProgram, type FunctionDoc } from "../docs/functions";
import { findSpecs } from "../docs/resources";
import { SchemaTypes, pascal, type ObjectTypeSpec, type PropertySpec } from "./types";

/** Where the schema is, from the repository root. */
export const SCHEMA_FILE = "provider/plugin/schema.json";

const withDescription = (property: PropertySpec, description: string): PropertySpec =>
  description ? { ...property, description } : property;

/** The meta inputs as this door has them (their TSDoc speaks of the dynamic resources, which Pulumi cannot import). */
const META_DESCRIPTIONS: Record<(typeof META_INPUTS)[number], string> = {
  adoptId:
    "The id of an existing object to manage instead of creating one; its in-place fields are brought to the program's values. " +
    "(`pulumi import` adopts an object by id too.)",
  deleteAdopted:
    "Whether deleting this resource deletes the object it adopted (`adoptId`); without it an adopted object is released: the resource " +
    "leaves state and the object stays.",
  timeouts: 'Overrides the default operation timeouts: `create`, `update`, `delete`, as durations such as `"10m"`.',
};

/** The schema, as an object. */
export function packageSchema(root: string, specs: AnySpec[] = findSpecs().map((s) => s.spec)): Record<string, unknown> {
  const pkg = packageProgram(root);
  const { checker } = pkg;
  const types = new SchemaTypes(checker, (symbol) => docOf(symbol, checker));
  const exportedNamed = (name: string, flag: ts.SymbolFlags) => {
    const found = pkg.exported.find((s) => s.getName() === name && s.flags & flag);
    if (!found) throw new Error(`provider/index.ts exports no ${name}`);
    return found;
  };

  const resources: Record<string, unknown> = {};
  for (const spec of specs) {
    const args = checker.getDeclaredTypeOfSymbol(exportedNamed(`${spec.name}Args`, ts.SymbolFlags.Interface));
    const inputs = inSpecOrder(types.properties(args, spec.name, "input"), spec);
    for (const [key, property] of Object.entries(inputs.properties)) Object.assign(property, fieldFlags(spec, key, "input"));
    const outputs = outputProperties(spec, exportedNamed(spec.name, ts.SymbolFlags.Interface), checker, types);
    for (const key of META_INPUTS) {
      inputs.properties[key]!.description = META_DESCRIPTIONS[key];
      outputs.properties[key]!.description = `The \`${key}\` the program gave, when it gave one.`;
    }
    const requiredInputs = Object.entries(spec.inputs).flatMap(([key, field]) => (field.required ? [key] : []));
    resources[packageType(spec.name)] = {
      description: spec.description,
      inputProperties: inputs.properties,
      // Empty lists are left out, as Pulumi writes a schema (`pulumi package get-schema` prints it so).
      ...(requiredInputs.length ? { requiredInputs } : {}),
      properties: outputs.properties,
      ...(outputs.required?.length ? { required: outputs.required } : {}),
    };
  }

  const functions: Record<string, unknown> = {};
  for (const fn of findFunctions(root, pkg)) functions[packageType(fn.name)] = functionSpec(fn, types);

  const variables = Object.fromEntries(
    Object.entries(CONFIG_VARIABLES).map(([key, v]) => [
      key,
      { type: "string", description: v.description, ...(v.secret ? { secret: true } : {}) },
    ]),
  );
  return {
    name: TYPE_MODULE,
    displayName: "Compute",
    version: SDK_VERSION,
    description:
      "Resources and data functions for the compute cloud's REST API v4: VPCs, firewalls, IP addresses, DNS, managed databases and images.",
    keywords: ["pulumi", TYPE_MODULE, "category/cloud"],
    license: "Apache-2.0",
    publisher: "pulumi-compute",
    meta: { moduleFormat: "(.*)" },
    config: { variables },
    provider: { description: "The provider of the package's resources: its credentials and API.", inputProperties: variables },
    resources,
    functions,
    types: Object.fromEntries(Object.entries(types.types).sort(([a], [b]) => a.localeCompare(b))),
  };
}

/** The schema's text, as the generator writes it and the plugin serves it. */
export function renderSchema(root: string): string {
  return `${JSON.stringify(packageSchema(root), null, 2)}\n`;
}

/**
 * The properties in the spec's order, the others after them as they came: an `Args` interface may
 * inherit some of a kind's inputs from a group it shares with another kind (`scripts/docs/resources.ts`).
 */
function inSpecOrder(object: ObjectTypeSpec, spec: AnySpec): ObjectTypeSpec {
  const keys = Object.keys(spec.inputs);
  const rank = (key: string, at: number): number => (keys.includes(key) ? keys.indexOf(key) : keys.length + at);
  const sorted = <T>(entries: Array<[string, T]>): Array<[string, T]> =>
    entries
      .map((entry, at) => ({ entry, rank: rank(entry[0], at) }))
      .sort((a, b) => a.rank - b.rank)
      .map((e) => e.entry);
  const properties = Object.fromEntries(sorted(Object.entries(object.properties)));
  const required = object.required && sorted(object.required.map((key) => [key, key] as [string, string])).map(([key]) => key);
  return { ...object, properties, ...(required ? { required } : {}) };
}

/** What the spec says of a field beyond its type: secret, and replacing the resource when it changes. */
function fieldFlags(spec: AnySpec, key: string, side: "input" | "output"): PropertySpec {
  const field = spec.inputs[key] ?? spec.outputs[key];
  if (!field) return {};
  return {
    ...(field.secret ? { secret: true } : {}),
    ...(side === "input" && spec.inputs[key]?.replaceOnChange && !spec.inputs[key]?.inPlaceWhen ? { willReplaceOnChanges: true } : {}),
  };
}

/** A resource's outputs: the class's properties of its spec's fields and meta inputs, each typed as the `Output` the class declares. */
/** The outputs of a class: the properties of its instance type (`resource-classes.ts`, with those of `ComputeResource`). */
function outputProperties(spec: AnySpec, instanceSymbol: ts.Symbol, checker: ts.TypeChecker, types: SchemaTypes): ObjectTypeSpec {
  const properties: Record<string, PropertySpec> = {};
  const required: string[] = [];
  const keys = new Set<string>([...Object.keys(spec.inputs), ...Object.keys(spec.outputs), ...META_INPUTS]);
  for (const member of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(instanceSymbol))) {
    const key = member.getName();
    const declaration = member.declarations?.[0];
    if (!keys.has(key) || !declaration || !ts.isPropertySignature(declaration)) continue;
    const output = declaration.type;
    const value = output && ts.isTypeReferenceNode(output) ? output.typeArguments?.[0] : undefined;
    if (!value) throw new Error(`${spec.name}.${key} is not declared as a pulumi.Output<…>`);
    const type = checker.getTypeFromTypeNode(value);
    properties[key] = {
      ...withDescription(types.spec(type, `${spec.name}${pascal(key)}`, "output"), docOf(member, checker)),
      ...fieldFlags(spec, key, "output"),
    };
    if (!types.nullable(type)) required.push(key);
  }
  return { type: "object", properties, required };
}

/** A data function: its arguments, and its result (a list answered as `{ items }`, as the plugin does). */
function functionSpec(fn: FunctionDoc, types: SchemaTypes): Record<string, unknown> {
  const owner = pascal(fn.name);
  const inputs: Record<string, PropertySpec> = {};
  for (const arg of fn.args)
    inputs[arg.name] = withDescription(types.spec(arg.tsType, `${owner}${pascal(arg.name)}`, "input"), arg.description);
  const required = fn.args.filter((a) => !a.optional).map((a) => a.name);
  const result = fn.resultType.replace(/\W/g, "");
  const outputs: ObjectTypeSpec = fn.returnsList
    ? {
        type: "object",
        properties: {
          [LIST_RESULT]: { type: "array", items: types.spec(fn.resultTsType, result, "output"), description: `Each ${result}.` },
        },
        required: [LIST_RESULT],
      }
    : types.properties(fn.resultTsType, result, "output");
  return {
    description: fn.description,
    inputs: { type: "object", properties: inputs, ...(required.length ? { required } : {}) },
    outputs,
  };
}
