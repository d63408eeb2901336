/**
 * Every Pulumi YAML program of the docs — each reference page's YAML example (written from its
 * TypeScript example by `scripts/docs/yaml.ts`), the YAML guide's and the YAML example project — checked against
 * the provider plugin's schema, as Pulumi YAML reads it: each resource's type exists and its
 * properties are inputs of it with values of their types, required inputs are given, every
 * `${name.path}` names a resource, variable or config value of the program and a property it has,
 * and every `fn::invoke` names a function with its arguments and what it returns. The YAML text
 * reads back as the program it was written from.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SCHEMA_FILE } from "../../scripts/schema/schema";
import { REFERENCE_DIR, pageName } from "../../scripts/docs/reference";
import { dataFunctions } from "../../provider/plugin/functions";
import { RESOURCE_SPECS } from "../../provider/generated/spec-table";
import { jsYaml } from "../../scripts/docs/yaml";
import { PROVIDER_PLUGIN_YAML } from "../../provider/launch/plugins";
import { REPO_ROOT } from "../support/engine";

type Json = any;
const schema: Json = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, SCHEMA_FILE), "utf8"));

/** The YAML blocks of a markdown page. */
const yamlBlocks = (text: string) => [...text.matchAll(/```yaml\n([\s\S]*?)\n```/g)].map((m) => m[1]!);

/** The reference pages of the resources and data functions (the policy pack's page has no program). */
const pages = [...Object.keys(RESOURCE_SPECS), ...dataFunctions().keys()].map((name) => `${pageName(name)}.md`).sort();
const programs: Array<[string, string]> = [
  ...pages.flatMap((page) =>
    yamlBlocks(fs.readFileSync(path.join(REPO_ROOT, REFERENCE_DIR, page), "utf8")).map((y) => [page, y] as [string, string]),
  ),
  ["examples/yaml/Pulumi.yaml", fs.readFileSync(path.join(REPO_ROOT, "examples/yaml/Pulumi.yaml"), "utf8")],
  ...yamlBlocks(fs.readFileSync(path.join(REPO_ROOT, "docs/guides/yaml.md"), "utf8")).map(
    (y) => ["docs/guides/yaml.md", y] as [string, string],
  ),
];

const resolve = (spec: Json): Json => (spec?.$ref?.startsWith("#/types/") ? schema.types[spec.$ref.slice("#/types/".length)] : spec);

/** Problems of a literal value against a schema type (references are checked by name, not by type). */
function typeProblems(value: unknown, spec: Json, at: string): string[] {
  if (typeof value === "string" && value.includes("${")) return [];
  if (spec.$ref === "pulumi.json#/Any") return [];
  if (spec.oneOf) {
    return spec.oneOf.some((option: Json) => typeProblems(value, option, at).length === 0)
      ? []
      : [`${at}: ${JSON.stringify(value)} is none of its types`];
  }
  const type = resolve(spec);
  switch (type.type) {
    case "string":
    case "boolean":
      return typeof value === type.type ? [] : [`${at}: ${JSON.stringify(value)} is not a ${type.type}`];
    case "number":
    case "integer":
      return typeof value === "number" ? [] : [`${at}: ${JSON.stringify(value)} is not a number`];
    case "array":
      return Array.isArray(value) ? value.flatMap((v, i) => typeProblems(v, type.items, `${at}[${i}]`)) : [`${at} is not a list`];
    case "object": {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return [`${at} is not an object`];
      if (type.additionalProperties)
        return Object.entries(value).flatMap(([k, v]) => typeProblems(v, type.additionalProperties, `${at}.${k}`));
      return [
        ...Object.entries(value).flatMap(([k, v]) =>
          k in type.properties ? typeProblems(v, type.properties[k], `${at}.${k}`) : [`${at}.${k} is not a property`],
        ),
        ...(type.required ?? []).filter((k: string) => !(k in value)).map((k: string) => `${at}.${k} is required`),
      ];
    }
  }
  return [`${at}: no type`];
}

const ANY = { $ref: "pulumi.json#/Any" };

/** What a reference's path (`.hosts.primary`, `.outputs["x"]`, `[0]`) reads in a value of `type`; a problem when a step is not there. */
function walk(type: Json, path: string): string | undefined {
  for (const [, property, key, index] of path.matchAll(/\.(\w+)|\["([^"]+)"\]|\[(\d+)\]/g)) {
    if (type.$ref === "pulumi.json#/Any") return undefined;
    const resolved = resolve(type);
    if (index !== undefined) {
      if (resolved.type !== "array") return `[${index}] of what is not a list`;
      type = resolved.items;
    } else if (resolved.additionalProperties) {
      type = resolved.additionalProperties;
    } else {
      const name = property ?? key!;
      if (!resolved.properties?.[name]) return `no ${name}`;
      type = resolved.properties[name];
    }
  }
  return undefined;
}

/** Everything wrong with one program. */
function problems(text: string): string[] {
  const program = jsYaml().load(text) as Json;
  const found: string[] = [];
  const resources: Record<string, Json> = program.resources ?? {};
  const variables: Record<string, Json> = program.variables ?? {};
  const config = new Set(Object.keys(program.config ?? {}));
  // The type of what each name of the program stands for in a reference.
  const named = new Map<string, Json>();
  const object = (props: Json) => ({ type: "object", properties: props });
  for (const [name, resource] of Object.entries(resources)) {
    if (resource.type === "pulumi:pulumi:StackReference") {
      named.set(name, object({ outputs: { type: "object", additionalProperties: ANY } }));
      continue;
    }
    const spec = schema.resources[resource.type];
    if (!spec) {
      found.push(`${name}: no resource type ${resource.type}`);
      continue;
    }
    named.set(name, object({ id: { type: "string" }, urn: { type: "string" }, ...spec.properties }));
    found.push(
      ...typeProblems(resource.properties ?? {}, { type: "object", properties: spec.inputProperties, required: spec.requiredInputs }, name),
    );
  }
  for (const [name, variable] of Object.entries(variables)) {
    const call = variable["fn::invoke"];
    const fn = call && schema.functions[call.function];
    if (!fn) {
      found.push(`${name}: no function ${call?.function}`);
      continue;
    }
    found.push(...typeProblems(call.arguments ?? {}, fn.inputs, `${name}.arguments`));
    if (call.return !== undefined && !(call.return in fn.outputs.properties))
      found.push(`${name}: ${call.function} returns no ${call.return}`);
    named.set(name, call.return === undefined ? fn.outputs : (fn.outputs.properties[call.return] ?? ANY));
  }
  for (const name of config) named.set(name, ANY);
  for (const [reference, name, rest] of text.matchAll(/\$\{([A-Za-z][\w-]*)((?:\.\w+|\["[^"]+"\]|\[\d+\])*)\}/g)) {
    const type = named.get(name!);
    const wrong = type === undefined ? `the program has no ${name}` : walk(type, rest!);
    if (wrong) found.push(`${reference}: ${wrong}`);
  }
  for (const [name, resource] of Object.entries(resources)) {
    for (const dependency of resource.options?.dependsOn ?? []) {
      if (!/^\$\{[\w-]+\}$/.test(dependency) || !(dependency.slice(2, -1) in resources)) found.push(`${name}: dependsOn ${dependency}`);
    }
  }
  return found;
}

test("the YAML guide gives the one Pulumi.yaml entry a project writes, as the package declares it", () => {
  expect(fs.readFileSync(path.join(REPO_ROOT, "docs/guides/yaml.md"), "utf8")).toContain(PROVIDER_PLUGIN_YAML);
});

test("the docs have a YAML example on every reference page, and the example project", () => {
  expect(programs.length).toBeGreaterThanOrEqual(pages.length + 1);
  for (const page of pages) expect({ page, yaml: programs.some(([p]) => p === page) }).toEqual({ page, yaml: true });
});

test.each(programs.map(([where, text], i) => [`${where} (${i})`, text] as const))("%s is a program the schema accepts", (_where, text) => {
  expect(problems(text)).toEqual([]);
});

test("the checker finds what is wrong", () => {
  const bad = [
    "resources:",
    "  net:",
    "    type: compute:index:Vpc",
    "    properties:",
    "      label: 5",
    "      colour: blue",
    "  sub:",
    "    type: compute:index:Nope",
    "variables:",
    "  v:",
    "    fn::invoke:",
    "      function: compute:index:getVpcs",
    "      arguments:",
    "        size: 3",
    "      return: things",
    "  w:",
    "    fn::invoke:",
    "      function: compute:index:getVpcs",
    "      return: items",
    "outputs:",
    "  a: ${net.nothing}",
    "  b: ${missing.id}",
    "  c: ${w.map}",
    "  d: ${w[0].subnets[0].label}",
  ].join("\n");
  expect(problems(bad)).toEqual([
    "net.label: 5 is not a string",
    "net.colour is not a property",
    "net.region is required",
    "sub: no resource type compute:index:Nope",
    "v.arguments.size is not a property",
    "v: compute:index:getVpcs returns no things",
    "${net.nothing}: no nothing",
    "${missing.id}: the program has no missing",
    "${w.map}: no map",
  ]);
});
