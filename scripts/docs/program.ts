/**
 * What the Python and Go forms of a reference page's example share: the example's `YamlProgram`
 * (the one program every language is written from, `yaml.ts`) read as statements in order, its
 * `${name.path}` references as steps, the provider plugin's schema for what each step reads and
 * each property takes, and the layout of a bracketed list that breaks one item a line when it does
 * not fit (the way black and gofmt'd Go write long calls).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { TypeSpec } from "../schema/types";
import { SCHEMA_FILE } from "../schema/schema";
import type { YamlProgram } from "./yaml";

/** The parts of the provider plugin's schema the renderers read. */
export interface Schema {
  resources: Record<
    string,
    { inputProperties: Record<string, TypeSpec>; requiredInputs?: string[]; properties: Record<string, TypeSpec>; required?: string[] }
  >;
  functions: Record<string, { inputs?: ObjectType; outputs: ObjectType }>;
  types: Record<string, ObjectType>;
}
export interface ObjectType {
  type: "object";
  properties: Record<string, TypeSpec>;
  required?: string[];
}

/** The committed schema (`provider/plugin/schema.json`, held to a fresh render by its own test). */
export function readSchema(root: string): Schema {
  return JSON.parse(fs.readFileSync(path.join(root, SCHEMA_FILE), "utf8")) as Schema;
}

/** One step of a reference: a property, a list's item, a map's key. */
export type Step = { property: string } | { index: number } | { key: string };

/** A reference of the YAML program, `${web1[0].computeId}`: the name it reads, and its path. */
export interface Reference {
  name: string;
  steps: Step[];
}

const REFERENCE = /\$\{([A-Za-z][\w-]*)((?:\.\w+|\["[^"]+"\]|\[\d+\])*)\}/g;

function reference(name: string, pathText: string): Reference {
  const steps = [...pathText.matchAll(/\.(\w+)|\["([^"]+)"\]|\[(\d+)\]/g)].map(([, property, key, index]): Step =>
    property ? { property } : key !== undefined ? { key } : { index: Number(index) },
  );
  return { name, steps };
}

/** A string of the YAML program as literal text and references, in order (`"${v6.range}/x"`: a reference, then `"/x"`). */
export function pieces(text: string): Array<string | Reference> {
  const out: Array<string | Reference> = [];
  let at = 0;
  for (const m of text.matchAll(REFERENCE)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    out.push(reference(m[1]!, m[2]!));
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** The names a value of the program reads. */
const namesIn = (value: unknown): string[] => [...JSON.stringify(value ?? null).matchAll(REFERENCE)].map((m) => m[1]!);

/** A declaration of the program: a config value, a data function's call, or a resource. */
export type Declaration =
  | { kind: "config"; key: string; type: "string" | "integer" | "boolean" }
  | { kind: "variable"; key: string; call: YamlProgram["variables"][string]["fn::invoke"] }
  | { kind: "resource"; key: string; resource: YamlProgram["resources"][string] };

/**
 * The program's declarations in an order a program in statements can run them: config first, then
 * the resources and variables in the example's order, each after what it reads.
 */
export function declarations(program: YamlProgram): Declaration[] {
  const byKey = new Map<string, Declaration>();
  for (const [key, c] of Object.entries(program.config)) byKey.set(key, { kind: "config", key, type: c.type });
  for (const [key, resource] of Object.entries(program.resources)) {
    if (resource.type === "pulumi:pulumi:StackReference") throw new Error(`a stack reference (${key}) has no Python or Go form here yet`);
    byKey.set(key, { kind: "resource", key, resource });
  }
  for (const [key, v] of Object.entries(program.variables)) byKey.set(key, { kind: "variable", key, call: v["fn::invoke"] });
  const ordered: Declaration[] = [];
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const d = byKey.get(key);
    if (!d) throw new Error(`the program reads ${key}, which it does not declare`);
    if (d.kind === "resource") for (const name of namesIn([d.resource.properties, d.resource.options])) visit(name);
    if (d.kind === "variable") for (const name of namesIn(d.call.arguments)) visit(name);
    ordered.push(d);
  };
  for (const key of byKey.keys()) visit(key);
  return ordered;
}

/** The names the program reads anywhere: those a language must keep in a variable. */
export function readNames(program: YamlProgram): Set<string> {
  return new Set(namesIn([program.resources, program.variables, program.outputs]));
}

/** The schema types of a program's names, and of what a reference's steps read. */
export class Types {
  constructor(
    readonly schema: Schema,
    private readonly program: YamlProgram,
  ) {}

  resolve(spec: TypeSpec | ObjectType | undefined): TypeSpec | ObjectType | undefined {
    if (spec && "$ref" in spec && spec.$ref.startsWith("#/types/")) return this.schema.types[spec.$ref.slice("#/types/".length)];
    return spec;
  }

  /** The object type a name stands for, as read by a reference (a resource's outputs with `id` and `urn`). */
  base(name: string): TypeSpec | ObjectType {
    const resource = this.program.resources[name];
    if (resource) {
      const r = this.schema.resources[resource.type]!;
      return {
        type: "object",
        properties: { id: { type: "string" }, urn: { type: "string" }, ...r.properties },
        required: ["id", "urn", ...(r.required ?? [])],
      };
    }
    const variable = this.program.variables[name];
    if (variable) return this.schema.functions[variable["fn::invoke"].function]!.outputs;
    const config = this.program.config[name];
    if (config) return { type: config.type };
    throw new Error(`the program has no ${name}`);
  }

  /**
   * Each step of a reference with the type it reads and whether that may be absent (a property
   * not required); a property of a map (`latest.postgresql` of a map of engines) is its key.
   */
  walk(ref: Reference): Array<{ step: Step; type: TypeSpec | ObjectType; optional: boolean }> {
    let type: TypeSpec | ObjectType = this.base(ref.name);
    return ref.steps.map((step) => {
      const t = this.resolve(type)!;
      let optional = false;
      if ("index" in step && "items" in t) type = t.items;
      else if (!("index" in step) && "additionalProperties" in t) {
        type = t.additionalProperties;
        step = { key: "key" in step ? step.key : step.property };
      } else if ("property" in step && "properties" in t && t.properties[step.property]) {
        type = t.properties[step.property]!;
        optional = !(t.required ?? []).includes(step.property);
      } else throw new Error(`${ref.name}: no ${JSON.stringify(step)} in ${JSON.stringify(t).slice(0, 80)}`);
      return { step, type, optional };
    });
  }

  /** The steps of a reference from the function's whole result (a list function's variable is its `items`). */
  fromResult(ref: Reference): Reference {
    const variable = this.program.variables[ref.name];
    const returned = variable?.["fn::invoke"].return;
    return returned ? { name: ref.name, steps: [{ property: returned }, ...ref.steps] } : ref;
  }
}

/** A bracketed list of items: written on one line when it fits, else one item a line with a trailing comma. */
export interface Group {
  head: string;
  items: Doc[];
  tail: string;
  /** Always one item a line (Go's struct literals). */
  broken?: boolean;
}
export type Doc = string | Group;

/** `doc` with `prefix` before it (`label=` before a value). */
export const prefixed = (prefix: string, doc: Doc): Doc => (typeof doc === "string" ? prefix + doc : { ...doc, head: prefix + doc.head });

/** `doc` with `suffix` after it. */
export const suffixed = (doc: Doc, suffix: string): Doc => (typeof doc === "string" ? doc + suffix : { ...doc, tail: doc.tail + suffix });

const flat = (doc: Doc): string => (typeof doc === "string" ? doc : doc.head + doc.items.map(flat).join(", ") + doc.tail);
const hasBroken = (doc: Doc): boolean => typeof doc !== "string" && (doc.broken === true || doc.items.some(hasBroken));

/** The text of `doc` at `indent`, lines at most `width` long where a break can make them so. */
export function layout(doc: Doc, indent: string, unit: string, width: number): string {
  if (typeof doc === "string") return doc;
  const one = flat(doc);
  if (!hasBroken(doc) && (indent.length + one.length <= width || doc.items.length === 0)) return one;
  const inner = indent + unit;
  return [doc.head, ...doc.items.map((item) => `${inner}${layout(item, inner, unit, width)},`), `${indent}${doc.tail}`].join("\n");
}
