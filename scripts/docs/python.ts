/**
 * The Python form of a reference page's example, written from the same `YamlProgram` as its
 * Pulumi YAML (`yaml.ts`), in the generated SDK's names (`sdks/python`, package `pulumi_compute`):
 *
 * | YAML program | Python |
 * |---|---|
 * | resource `app` of `compute:index:MysqlDatabase` | `app = compute.MysqlDatabase("app", label=…, engine_id=…)`; object inputs as dicts of snake_case keys |
 * | `dependsOn: [${www}]` | `opts=pulumi.ResourceOptions(depends_on=[www])` |
 * | variable with `fn::invoke` of `compute:index:getIps` | `web1 = compute.get_ips_output(address=…)`; its `return: items` read as the result's `.items` |
 * | `${app.id}`, `${app.hosts.primary}` | `app.id`, `app.hosts.apply(lambda hosts: hosts.primary)` |
 * | `${web1[0].computeId}` | `web1.apply(lambda result: result.items[0].compute_id)` |
 * | `"${a}/${b}"` | `pulumi.Output.format("{0}/{1:g}", a, b)` (`:g` for a number, as YAML writes 64, not 64.0) |
 * | config `diskId: {type: integer}` | `disk_id = config.require_int("diskId")` of `config = pulumi.Config()` |
 * | output `host` | `pulumi.export("host", …)` |
 *
 * `sdks/python/tests/test_reference_examples.py` runs every page's block under `ComputeMocks`.
 */
import { type Declaration, type Doc, type Reference, type Step, Types, declarations, layout, pieces, prefixed, readNames } from "./program";
import type { Schema } from "./program";
import type { TypeSpec } from "../schema/types";
import type { YamlProgram } from "./yaml";

const WIDTH = 100;
const KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);

/** `computeId` → `compute_id`, as Pulumi's Python generator names properties and arguments. */
export const snake = (name: string) => name.replace(/(?<=[a-z0-9])([A-Z])/g, "_$1").toLowerCase();

/** A Python name for a program's key (`web-1` → `web_1`, `zoneResult` → `zone_result`). */
const variableName = (key: string) => {
  const name = snake(key.replace(/[^A-Za-z0-9]+/g, "_"));
  return KEYWORDS.has(name) || ["pulumi", "compute", "config"].includes(name) ? `${name}_` : name;
};

const lambdaName = (name: string) => (KEYWORDS.has(name) ? "value" : name);

const stepText = (step: Step) =>
  "property" in step ? `.${snake(step.property)}` : "index" in step ? `[${step.index}]` : `[${JSON.stringify(step.key)}]`;

const literal = (value: unknown): string =>
  value === null ? "None" : value === true ? "True" : value === false ? "False" : JSON.stringify(value);

/** The Python program of a YAML program. */
export function pythonProgram(program: YamlProgram, schema: Schema): string {
  const types = new Types(schema, program);
  const read = readNames(program);
  const names = new Map<string, string>();
  const nameOf = (key: string) => names.get(key) ?? variableName(key);
  let usesPulumi = false;

  const referenceText = (ref: Reference): string => {
    const base = nameOf(ref.name);
    if (program.config[ref.name]) return base;
    const steps = types.walk(types.fromResult(ref)).map((w) => w.step);
    if (program.resources[ref.name]) {
      const [first, ...rest] = steps;
      if (!first) return base;
      const output = `${base}${stepText(first)}`;
      if (rest.length === 0) return output;
      const param = lambdaName(snake((first as { property: string }).property));
      return `${output}.apply(lambda ${param}: ${param}${rest.map(stepText).join("")})`;
    }
    if (steps.length === 0) return base;
    return `${base}.apply(lambda result: result${steps.map(stepText).join("")})`;
  };

  /** A string of the program: literal text, a reference, or an interpolation of references. */
  const stringValue = (text: string): string => {
    const parts = pieces(text);
    if (parts.length === 1 && typeof parts[0] !== "string") return referenceText(parts[0]!);
    if (parts.every((p) => typeof p === "string")) return JSON.stringify(text);
    usesPulumi = true;
    const refs = parts.filter((p): p is Reference => typeof p !== "string");
    let i = 0;
    const format = parts
      .map((p) => {
        if (typeof p === "string") return p.replace(/[{}]/g, "$&$&");
        const walked = types.walk(p);
        const type = types.resolve(walked.length ? walked[walked.length - 1]!.type : types.base(p.name));
        return `{${i++}${type && "type" in type && (type.type === "number" || type.type === "integer") ? ":g" : ""}}`;
      })
      .join("");
    return `pulumi.Output.format(${[JSON.stringify(format), ...refs.map(referenceText)].join(", ")})`;
  };

  /** A value given to a property of type `type` (objects of a schema type as dicts of snake_case keys). */
  const value = (v: unknown, type: TypeSpec | undefined): Doc => {
    const t = types.resolve(type);
    if (typeof v === "string") return stringValue(v);
    if (Array.isArray(v)) return { head: "[", items: v.map((e) => value(e, t && "items" in t ? t.items : undefined)), tail: "]" };
    if (v !== null && typeof v === "object") {
      const entries = Object.entries(v);
      const isObject = t !== undefined && "properties" in t;
      return {
        head: "{",
        items: entries.map(([k, e]) =>
          prefixed(
            `${JSON.stringify(isObject ? snake(k) : k)}: `,
            value(e, isObject ? t.properties[k] : t && "additionalProperties" in t ? t.additionalProperties : undefined),
          ),
        ),
        tail: "}",
      };
    }
    return literal(v);
  };

  const keywordArgs = (args: Record<string, unknown>, props: Record<string, TypeSpec>): Doc[] =>
    Object.entries(args).map(([k, v]) => prefixed(`${snake(k)}=`, value(v, props[k])));

  const statement = (d: Declaration): Doc => {
    const assign = read.has(d.key) ? `${nameOf(d.key)} = ` : "";
    if (d.kind === "config") {
      usesPulumi = true;
      const method = { string: "require", integer: "require_int", boolean: "require_bool" }[d.type];
      return `${nameOf(d.key)} = config.${method}(${JSON.stringify(d.key)})`;
    }
    if (d.kind === "variable") {
      const fn = d.call.function.split(":").pop()!;
      const inputs = schema.functions[d.call.function]?.inputs?.properties ?? {};
      return { head: `${assign}compute.${snake(fn)}_output(`, items: keywordArgs(d.call.arguments, inputs), tail: ")" };
    }
    const kind = d.resource.type.split(":").pop()!;
    const spec = schema.resources[d.resource.type]!;
    const items: Doc[] = [JSON.stringify(d.resource.name ?? d.key), ...keywordArgs(d.resource.properties, spec.inputProperties)];
    const dependsOn = d.resource.options?.dependsOn as string[] | undefined;
    if (dependsOn) {
      usesPulumi = true;
      items.push(`opts=pulumi.ResourceOptions(depends_on=[${dependsOn.map((dep) => stringValue(dep)).join(", ")}])`);
    }
    return { head: `${assign}compute.${kind}(`, items, tail: ")" };
  };

  for (const key of [...Object.keys(program.config), ...Object.keys(program.resources), ...Object.keys(program.variables)]) {
    names.set(key, variableName(key));
  }
  const ordered = declarations(program);
  const body = ordered.map((d) => layout(statement(d), "", "    ", WIDTH));
  const exported = Object.entries(program.outputs).map(([name, v]) =>
    layout({ head: "pulumi.export(", items: [JSON.stringify(name), value(v, undefined)], tail: ")" }, "", "    ", WIDTH),
  );
  if (exported.length) usesPulumi = true;
  const config = Object.keys(program.config).length ? ["config = pulumi.Config()"] : [];
  return [
    ...(usesPulumi ? ["import pulumi"] : []),
    "import pulumi_compute as compute",
    "",
    ...config,
    ...body,
    ...(exported.length ? ["", ...exported] : []),
  ].join("\n");
}
