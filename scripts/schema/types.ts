/**
 * TypeScript types, as the checker reads them from the package's sources, in the terms of a Pulumi
 * package schema (https://www.pulumi.com/docs/iac/extending-pulumi/schema/): primitives, arrays,
 * maps, unions of primitives (`string | number` ids), `pulumi.json#/Any` for what the types leave
 * open, and every object with named properties as a named type of the schema's `types`: an
 * interface by its name without `Args` (`TimeoutsArgs` is `Timeouts`, `VpcResult`), any other
 * object by where it stands (`compute:index:<Owner><Property>`: `FirewallInbound` for the elements
 * of a firewall's `inbound` rules, input and output alike). Pulumi's code generators name an input
 * type's classes `<Name>Args`, so no type is named with a suffix they add. On the input
 * side, `pulumi.Input`'s promises and Outputs are read through, so a property has the type of its
 * plain value. `null` and `undefined` make a property optional, never a type.
 */
import ts from "typescript";
import { packageType } from "../../provider/engine/type-tokens";
import { propertiesInWrittenOrder } from "../docs/written-order";

/** A reference to a type, as the schema writes it. */
export type TypeSpec =
  | { type: "string" | "number" | "integer" | "boolean" }
  | { type: "array"; items: TypeSpec }
  | { type: "object"; additionalProperties: TypeSpec }
  | { oneOf: TypeSpec[] }
  | { $ref: string };

export interface PropertySpec extends Record<string, unknown> {
  description?: string;
}

/** An object type: named in `types`, or inline (a function's inputs and outputs). */
export interface ObjectTypeSpec {
  type: "object";
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}

const ANY: TypeSpec = { $ref: "pulumi.json#/Any" };

/** Which side of a resource a type stands on: what the program writes, or what the engine records. */
export type Side = "input" | "output";

/** `allowList` → `AllowList`. */
export const pascal = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1);

/** Maps checker types to schema types, collecting the named object types it meets. */
export class SchemaTypes {
  /** The named object types met so far, by token. */
  readonly types: Record<string, ObjectTypeSpec> = {};

  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly docOf: (symbol: ts.Symbol) => string,
  ) {}

  /** The schema type of `type`; an object type among them is named `name` (the owner and the property, in PascalCase). */
  spec(type: ts.Type, name: string, side: Side): TypeSpec {
    const members = this.plainMembers(type);
    if (members.length === 0) return ANY;
    if (members.length > 1) return this.union(members, name, side);
    const only = this.reduced(members[0]!);
    if (only.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never)) return ANY;
    const primitive = primitiveOf(only);
    if (primitive) return { type: primitive };
    if (this.checker.isArrayType(only) || this.checker.isTupleType(only)) {
      // A tuple (none is declared today) is read as a list of its first element's type.
      const [element] = this.checker.getTypeArguments(only as ts.TypeReference);
      return { type: "array", items: element ? this.spec(element, name, side) : ANY };
    }
    if (only.getCallSignatures().length > 0) return ANY;
    const properties = this.checker.getPropertiesOfType(only);
    const index = this.checker.getIndexInfoOfType(only, ts.IndexKind.String);
    if (properties.length === 0) return index ? { type: "object", additionalProperties: this.spec(index.type, name, side) } : ANY;
    return { $ref: `#/types/${this.object(only, name, side)}` };
  }

  /** An object's properties and which are required (present, neither `null` nor `undefined`); nested objects named `<name><Property>`. */
  properties(type: ts.Type, name: string, side: Side, at?: ts.Node): ObjectTypeSpec {
    const properties: Record<string, PropertySpec> = {};
    const required: string[] = [];
    for (const symbol of propertiesInWrittenOrder(this.checker, type)) {
      const key = symbol.getName();
      const propType = at ? this.checker.getTypeOfSymbolAtLocation(symbol, at) : this.checker.getTypeOfSymbol(symbol);
      if (propType.flags & ts.TypeFlags.Undefined) continue; // `id?: undefined`: the other way of a union
      const description = this.docOf(symbol);
      // In a data function's result, an Output is a value the function made secret (`pulumi.secret`).
      const secret = side === "output" && this.isOutput(propType);
      properties[key] = {
        ...this.spec(propType, `${name}${pascal(key)}`, side),
        ...(description ? { description } : {}),
        ...(secret ? { secret: true } : {}),
      };
      if (!(symbol.flags & ts.SymbolFlags.Optional) && !this.nullable(propType)) required.push(key);
    }
    return { type: "object", properties, ...(required.length ? { required } : {}) };
  }

  /** Whether a value of `type` may be `null` or `undefined` (so a property of it is not required). */
  nullable(type: ts.Type): boolean {
    const members = type.isUnion() ? type.types : [type];
    return members.some((t) => t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined | ts.TypeFlags.Void));
  }

  /**
   * Names an object type and records its properties. An object has one name on both sides: the
   * input and output twins of a place (a firewall's `inbound` rules), or an interface and its
   * `…Args` twin, whose properties agree (a property required on one side only is optional), are
   * one type. An output whose properties differ from its input twin's is `<Name>Response` (as
   * Pulumi's azure-native names them); any other two shapes may not get one name.
   */
  private object(type: ts.Type, name: string, side: Side): string {
    const symbol = type.getSymbol();
    const declared = symbol && symbol.flags & ts.SymbolFlags.Interface ? symbol.getName() : undefined;
    // `TimeoutsArgs`, TypeScript's name for an input interface, is `Timeouts` in the schema.
    const typeName = declared ? declared.replace(/(?<=.)Args$/, "") : name;
    const suffix = CODEGEN_SUFFIXES.find((s) => typeName.endsWith(s));
    if (suffix) throw new Error(`the object type ${typeName} would end in \`${suffix}\`, a suffix Pulumi's code generators add`);
    let spec: ObjectTypeSpec | undefined;
    for (const candidate of side === "output" ? [typeName, `${typeName}Response`] : [typeName]) {
      const token = packageType(candidate);
      const known = this.types[token];
      if (!known) {
        this.naming.set(token, type);
        this.types[token] = { type: "object", properties: {} }; // a recursive type refers to itself
        this.types[token] = spec ?? this.properties(type, typeName, side);
        return token;
      }
      if (this.naming.get(token) === type || this.comparing.has(type)) return token;
      this.comparing.add(type);
      try {
        spec ??= this.properties(type, typeName, side);
      } finally {
        this.comparing.delete(type);
      }
      if (sameProperties(known, spec)) {
        mergeTwin(known, spec);
        return token;
      }
    }
    throw new Error(`two different object types would be named ${packageType(typeName)}`);
  }

  private readonly naming = new Map<string, ts.Type>();
  /** The types whose properties are being read to compare them with a twin (a recursive one meets itself). */
  private readonly comparing = new Set<ts.Type>();

  /** Whether `type` is a `pulumi.Output` (in a data function's result: a value made secret). */
  isOutput(type: ts.Type): boolean {
    return this.members(type).some((t) => this.wrapped(t) !== undefined && t.getSymbol()?.getName() !== "Promise");
  }

  /** The members of a type that are plain values: no `null`/`undefined`, no promise or Output of `pulumi.Input`. */
  private plainMembers(type: ts.Type): ts.Type[] {
    const members = this.members(type);
    const plain = members.filter((t) => this.wrapped(t) === undefined);
    // `Promise<T>` and `OutputInstance<T>` hold the same T as the plain member beside them; a lone one is read through.
    const wrapped = members.map((t) => this.wrapped(t)).find((t) => t !== undefined);
    if (plain.length === 0 && wrapped) return this.plainMembers(wrapped);
    return plain;
  }

  /** A union's members, without `null` and `undefined`. */
  private members(type: ts.Type): ts.Type[] {
    return (type.isUnion() ? type.types : [type]).filter(
      (t) => !(t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined | ts.TypeFlags.Void)),
    );
  }

  /** The `T` of `Promise<T>`, `OutputInstance<T>` or `Output<T>` (`OutputInstance<T> & Lifted<T>`); undefined for any other type. */
  private wrapped(type: ts.Type): ts.Type | undefined {
    const parts = type.isIntersection() ? type.types : [type];
    const wrapper = parts.find((t) => ["Promise", "OutputInstance"].includes(t.getSymbol()?.getName() ?? ""));
    return wrapper ? this.checker.getTypeArguments(wrapper as ts.TypeReference)[0] : undefined;
  }

  /**
   * An intersection as the one type it amounts to (an output is the record's type narrowed by the
   * schema's: `string[] & string[]`): its array member, or its primitive, else the object it makes.
   */
  private reduced(type: ts.Type): ts.Type {
    if (!type.isIntersection()) return type;
    return type.types.find((t) => this.checker.isArrayType(t)) ?? type.types.find((t) => primitiveOf(t) !== undefined) ?? type;
  }

  /** A union: one primitive when its members all are of it (`"master" | "slave"`, `true | false`), else `oneOf`. */
  private union(members: ts.Type[], name: string, side: Side): TypeSpec {
    const primitives = new Set(members.map(primitiveOf));
    if (primitives.size === 1 && !primitives.has(undefined)) return { type: [...primitives][0]! };
    const specs: TypeSpec[] = [];
    for (const member of members) {
      const spec = this.spec(member, name, side);
      if (!specs.some((s) => JSON.stringify(s) === JSON.stringify(spec))) specs.push(spec);
    }
    return specs.length === 1 ? specs[0]! : { oneOf: specs };
  }
}

/** What Pulumi's Go and Python code generators append to a type's name (`FirewallInboundArgs`, `…Input`, `…Output`, `…PtrOutput`, `…Array`, `…Map`); a type's own name must not end in one. */
export const CODEGEN_SUFFIXES = ["Args", "Input", "Output", "Ptr", "Array", "Map"] as const;

/** A property's type, without what may differ between twins: its description. */
const shape = ({ description: _, ...rest }: PropertySpec): string => JSON.stringify(rest);

/** Whether two object types have the same properties of the same types (their order, descriptions and which are required aside). */
export function sameProperties(a: ObjectTypeSpec, b: ObjectTypeSpec): boolean {
  const keys = Object.keys(a.properties);
  if (keys.length !== Object.keys(b.properties).length) return false;
  return keys.every((key) => b.properties[key] !== undefined && shape(a.properties[key]!) === shape(b.properties[key]!));
}

/** Makes `known` the one type of it and its twin: required where both require, described where either is. */
function mergeTwin(known: ObjectTypeSpec, twin: ObjectTypeSpec): void {
  for (const [key, property] of Object.entries(known.properties)) {
    if (!property.description && twin.properties[key]!.description) property.description = twin.properties[key]!.description;
  }
  const required = (known.required ?? []).filter((key) => twin.required?.includes(key));
  if (required.length) known.required = required;
  else delete known.required;
}

function primitiveOf(type: ts.Type): "string" | "number" | "boolean" | undefined {
  if (type.flags & ts.TypeFlags.StringLike) return "string";
  if (type.flags & ts.TypeFlags.NumberLike) return "number";
  if (type.flags & ts.TypeFlags.BooleanLike) return "boolean";
  return undefined;
}
