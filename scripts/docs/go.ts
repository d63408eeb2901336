/**
 * The Go form of a reference page's example, written from the same `YamlProgram` as its Pulumi
 * YAML (`yaml.ts`), in the Go SDK's API (`sdks/go`, package `compute`), and formatted by `gofmt`:
 *
 * | YAML program | Go |
 * |---|---|
 * | resource `app` of `compute:index:Vpc` | `app, err := compute.NewVpc(ctx, "app", &compute.VpcArgs{Label: pulumi.String(…)})`, then `if err != nil { return err }` |
 * | an object input of type `FirewallInbound` | `&compute.FirewallInboundArgs{…}`, a list of them `compute.FirewallInboundArray{…}` |
 * | `dependsOn: [${www}]` | `pulumi.DependsOn([]pulumi.Resource{www})` |
 * | variable with `fn::invoke` of `compute:index:getIps` | `web1 := compute.GetIpsOutput(ctx, compute.GetIpsOutputArgs{…})`; its `return: items` read as `.Items()` |
 * | `${app.id}`, `${app.hosts.primary}`, `${web1[0].computeId}` | `app.ID()`, `app.Hosts.Primary()`, `web1.Items().Index(pulumi.Int(0)).ComputeId()` |
 * | `"${a}/${b}"` | `pulumi.Sprintf("%v/%v", a, b)` |
 * | config `diskId: {type: integer}` | `diskId := config.RequireInt(ctx, "diskId")` |
 * | output `host` | `ctx.Export("host", …)` |
 *
 * A value that may be absent (`computeId` of an address) given where one is required is its
 * `.Elem()`. `test/sdks/go.test.ts` compiles and runs every page's block under the Go mocks.
 */
import { execFileSync } from "node:child_process";
import {
  type Declaration,
  type Doc,
  type Reference,
  type Schema,
  Types,
  declarations,
  layout,
  pieces,
  prefixed,
  readNames,
} from "./program";
import type { ObjectType } from "./program";
import type { TypeSpec } from "../schema/types";
import type { YamlProgram } from "./yaml";

const WIDTH = 110;
const SDK = "github.com/pulumi-compute/pulumi-compute/sdks/go/compute";
const KEYWORDS = new Set(
  "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var ctx err compute pulumi config".split(
    " ",
  ),
);

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** A Go name for a program's key (`web-1` → `web1`). */
const goName = (key: string) => {
  const [first, ...rest] = key.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return first!.charAt(0).toLowerCase() + first!.slice(1) + rest.map(pascal).join("");
};

const SCALARS: Record<string, string> = { string: "String", number: "Float64", integer: "Int", boolean: "Bool" };

/** The Go program of a YAML program, as gofmt writes it. */
export function goProgram(program: YamlProgram, schema: Schema): string {
  const types = new Types(schema, program);
  const read = readNames(program);
  const names = new Map<string, string>();
  const imports = new Set([SDK, "github.com/pulumi/pulumi/sdk/v3/go/pulumi"]);
  // Only what the program reads is kept in a variable (Go refuses one never read): `web-1` made and
  // never read leaves `web1` to the data function's result of that name.
  for (const key of [...Object.keys(program.config), ...Object.keys(program.resources), ...Object.keys(program.variables)]) {
    if (!read.has(key) && !program.config[key]) continue;
    let name = goName(key);
    while (KEYWORDS.has(name) || [...names.values()].includes(name)) name = `${name}Value`;
    names.set(key, name);
  }
  const nameOf = (key: string) => names.get(key)!;

  /** A reference as Go reads it, and whether what it reads may be absent (a pointer output). */
  const referenceText = (ref: Reference): { text: string; optional: boolean } => {
    let text = nameOf(ref.name);
    if (program.config[ref.name]) return { text, optional: false };
    const whole = types.fromResult(ref);
    const walked = types.walk(whole);
    const onResource = !!program.resources[ref.name];
    walked.forEach(({ step }, i) => {
      if ("index" in step) text += `.Index(pulumi.Int(${step.index}))`;
      else if ("key" in step) text += `.MapIndex(pulumi.String(${JSON.stringify(step.key)}))`;
      else if (onResource && i === 0)
        text += step.property === "id" ? ".ID()" : step.property === "urn" ? ".URN()" : `.${pascal(step.property)}`;
      else text += `.${pascal(step.property)}()`;
    });
    return { text, optional: walked.some((w) => w.optional) };
  };

  /** A config value read plainly, as an Input. */
  const configInput = (key: string) => `pulumi.${SCALARS[program.config[key]!.type]}(${nameOf(key)})`;

  const stringValue = (text: string, type: TypeSpec | ObjectType | undefined, required: boolean): string => {
    const parts = pieces(text);
    if (parts.length === 1 && typeof parts[0] !== "string") {
      const ref = parts[0]!;
      if (program.config[ref.name] && ref.steps.length === 0) return configInput(ref.name);
      const { text: expr, optional } = referenceText(ref);
      const scalar = type && "type" in type && SCALARS[type.type];
      return optional && required && scalar ? `${expr}.Elem()` : expr;
    }
    if (parts.every((p) => typeof p === "string")) return `pulumi.String(${JSON.stringify(text)})`;
    const format = parts.map((p) => (typeof p === "string" ? p.replace(/%/g, "%%") : "%v")).join("");
    const args = parts.filter((p): p is Reference => typeof p !== "string").map((p) => referenceText(p).text);
    return `pulumi.Sprintf(${[JSON.stringify(format), ...args].join(", ")})`;
  };

  /** A value of the given schema type; `required` when its property must be given. */
  const value = (v: unknown, spec: TypeSpec | undefined, required: boolean): Doc => {
    const t = types.resolve(spec);
    if (typeof v === "string") return stringValue(v, t, required);
    if (Array.isArray(v)) {
      const items = t && "items" in t ? t.items : undefined;
      const element = types.resolve(items);
      const arrayType =
        items && "$ref" in items && element && "properties" in element
          ? `compute.${items.$ref.split(":").pop()}Array`
          : element && "type" in element && SCALARS[element.type]
            ? `pulumi.${SCALARS[element.type]}Array`
            : "pulumi.Array";
      return { head: `${arrayType}{`, items: v.map((e) => value(e, items, true)), tail: "}" };
    }
    if (v !== null && typeof v === "object") {
      if (spec && "$ref" in spec && t && "properties" in t) {
        return {
          head: `&compute.${spec.$ref.split(":").pop()}Args{`,
          items: Object.entries(v).map(([k, e]) => prefixed(`${pascal(k)}: `, value(e, t.properties[k], (t.required ?? []).includes(k)))),
          tail: "}",
          broken: true,
        };
      }
      if (t && "additionalProperties" in t) {
        return {
          head: "pulumi.Map{",
          items: Object.entries(v).map(([k, e]) => prefixed(`${JSON.stringify(k)}: `, value(e, t.additionalProperties, true))),
          tail: "}",
          broken: true,
        };
      }
      throw new Error(`an object the schema does not type: ${JSON.stringify(v)}`);
    }
    if (typeof v === "number") return t && "type" in t && t.type === "number" ? `pulumi.Float64(${v})` : `pulumi.Int(${v})`;
    if (typeof v === "boolean") return `pulumi.Bool(${v})`;
    throw new Error(`a value Go cannot give: ${JSON.stringify(v)}`);
  };

  const fields = (args: Record<string, unknown>, props: Record<string, TypeSpec>, required: string[]): Doc[] =>
    Object.entries(args).map(([k, v]) => prefixed(`${pascal(k)}: `, value(v, props[k], required.includes(k))));

  let errDeclared = false;
  const statement = (d: Declaration): string[] => {
    if (d.kind === "config") {
      imports.add("github.com/pulumi/pulumi/sdk/v3/go/pulumi/config");
      const method = { string: "Require", integer: "RequireInt", boolean: "RequireBool" }[d.type];
      return [`${nameOf(d.key)} := config.${method}(ctx, ${JSON.stringify(d.key)})`];
    }
    if (d.kind === "variable") {
      // Pulumi's Go generator names a function `getX` of a resource `X` `LookupX`: `GetX` reads the resource's state.
      const name = d.call.function.split(":").pop()!;
      const fn = schema.resources[d.call.function.replace(/:get(\w+)$/, ":$1")] ? `Lookup${name.slice(3)}` : pascal(name);
      const inputs = schema.functions[d.call.function]?.inputs;
      const args: Doc = {
        head: `compute.${fn}OutputArgs{`,
        items: fields(d.call.arguments, inputs?.properties ?? {}, inputs?.required ?? []),
        tail: "}",
        broken: true,
      };
      const assign = read.has(d.key) ? `${nameOf(d.key)} := ` : "_ = ";
      return [`${assign}compute.${fn}Output(ctx, ${layout(args, "", "\t", WIDTH)})`];
    }
    const kind = d.resource.type.split(":").pop()!;
    const spec = schema.resources[d.resource.type]!;
    const dependsOn = d.resource.options?.dependsOn as string[] | undefined;
    const options = dependsOn
      ? `, pulumi.DependsOn([]pulumi.Resource{${dependsOn.map((dep) => nameOf(pieces(dep).find((p): p is Reference => typeof p !== "string")!.name)).join(", ")}})`
      : "";
    const target = read.has(d.key) ? `${nameOf(d.key)}, err :=` : errDeclared ? "_, err =" : "_, err :=";
    errDeclared = true;
    const args: Doc = {
      head: `&compute.${kind}Args{`,
      items: fields(d.resource.properties, spec.inputProperties, spec.requiredInputs ?? []),
      tail: "}",
      broken: true,
    };
    const call = `${target} compute.New${kind}(ctx, ${JSON.stringify(d.resource.name ?? d.key)}, `;
    return [call + layout(args, "", "\t", WIDTH) + `${options})`, "if err != nil {", "\treturn err", "}"];
  };

  const body = declarations(program).flatMap(statement);
  const exported = Object.entries(program.outputs).map(
    ([name, v]) => `ctx.Export(${JSON.stringify(name)}, ${layout(value(v, undefined, false), "", "\t", WIDTH)})`,
  );
  const source = [
    "package main",
    "",
    "import (",
    ...[...imports].sort().map((i) => `\t${JSON.stringify(i)}`),
    ")",
    "",
    "func main() {",
    "\tpulumi.Run(func(ctx *pulumi.Context) error {",
    ...[...body, ...exported, "return nil"].flatMap((line) => line.split("\n").map((l) => `\t\t${l}`)),
    "\t})",
    "}",
    "",
  ].join("\n");
  return gofmt(source).trimEnd();
}

/** The source as gofmt writes it (Go is on every machine of this project; the SDK's tests need it too). */
function gofmt(source: string): string {
  try {
    return execFileSync("gofmt", [], { input: source, encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? String(error);
    throw new Error(`gofmt refused the Go example (is Go on PATH?): ${stderr}\n${source}`, { cause: error });
  }
}
