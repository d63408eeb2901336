/**
 * The provider plugin's schema (`provider/plugin/schema.json`): the committed file is the render
 * of the code (`npm run generate` rewrites it), `pulumi package get-schema` on the plugin prints
 * it, Pulumi's own checker (`pulumi schema check`, the engine's binding and validation of a
 * package schema) accepts it without a diagnostic, and it says of every field what its spec says.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { engineBin } from "../../../provider/stack/pulumi-cli";
import { CONFIG_VARIABLES } from "../../../provider/serve/config";
import { META_INPUTS, type AnySpec } from "../../../provider/engine/spec";
import { packageType } from "../../../provider/engine/type-tokens";
import { dataFunctions } from "../../../provider/plugin/functions";
import { RESOURCE_SPECS } from "../../../provider/generated/spec-table";
import { SCHEMA_FILE, renderSchema } from "../../../scripts/schema/schema";
import { CODEGEN_SUFFIXES, type ObjectTypeSpec, sameProperties } from "../../../scripts/schema/types";
import { REPO_ROOT } from "../../support/engine";
import { runProcess } from "../../support/process";

// The schema's types are read with the TypeScript checker from the sources.
jest.setTimeout(300_000);

const LAUNCHER = path.join(REPO_ROOT, "plugins/pulumi-resource-compute");
const committed = fs.readFileSync(path.join(REPO_ROOT, SCHEMA_FILE), "utf8");
const schema = JSON.parse(committed);
let home: string;

/** `pulumi` with a home of its own, offline. */
const pulumi = (args: string[]) =>
  runProcess(path.join(engineBin(), "pulumi"), args, {
    env: { ...process.env, PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true" },
  });

/** A schema's text in a file, for `pulumi schema check <file>`. */
const schemaFile = (name: string, text: string) => {
  const file = path.join(home, name);
  fs.writeFileSync(file, text);
  return file;
};

beforeAll(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "pc-schema-home-"));
});
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

test(`${SCHEMA_FILE} is the render of the code (run \`npm run generate\`)`, () => {
  expect(committed).toBe(renderSchema(REPO_ROOT));
});

test("`pulumi package get-schema` on the plugin prints the schema, and `pulumi schema check` accepts it without a word", async () => {
  const printed = await pulumi(["package", "get-schema", LAUNCHER]);
  expect({ code: printed.code, out: printed.code ? printed.out : "" }).toEqual({ code: 0, out: "" });
  expect(JSON.parse(printed.stdout)).toEqual(schema);

  const checked = await pulumi(["schema", "check", schemaFile("printed.json", printed.stdout)]);
  expect({ code: checked.code, out: checked.out.trim() }).toEqual({ code: 0, out: "" });
  // The checker does refuse: a property typed by a type the schema lacks.
  const broken = structuredClone(schema);
  broken.resources[packageType("Vpc")].inputProperties.label = { $ref: "#/types/compute:index:Missing" };
  const refused = await pulumi(["schema", "check", schemaFile("broken.json", JSON.stringify(broken))]);
  expect(refused.code).not.toBe(0);
  expect(refused.out).toContain("compute:index:Missing");
});

test("every resource kind is a resource of the schema, each field with its spec's required, secret and replacing flags", () => {
  expect(Object.keys(schema.resources).sort()).toEqual(Object.keys(RESOURCE_SPECS).map(packageType).sort());
  for (const [kind, spec] of Object.entries<AnySpec>(RESOURCE_SPECS)) {
    const resource = schema.resources[packageType(kind)];
    expect({ kind, description: resource.description }).toEqual({ kind, description: spec.description });
    expect({ kind, inputs: Object.keys(resource.inputProperties).sort() }).toEqual({
      kind,
      // A derived input (an image file's hash) is computed by the check, never written by the program.
      inputs: [...Object.keys(spec.inputs).filter((k) => !spec.inputs[k]!.derived), ...META_INPUTS].sort(),
    });
    expect({ kind, outputs: Object.keys(resource.properties).sort() }).toEqual({
      kind,
      outputs: [...new Set([...Object.keys(spec.inputs), ...Object.keys(spec.outputs), ...META_INPUTS])].sort(),
    });
    expect({ kind, required: resource.requiredInputs ?? [] }).toEqual({
      kind,
      required: Object.keys(spec.inputs).filter((k) => spec.inputs[k]!.required),
    });
    for (const [name, field] of Object.entries(spec.inputs).filter(([, f]) => !f.derived)) {
      const input = resource.inputProperties[name];
      expect({ kind, name, replaces: input.willReplaceOnChanges ?? false, secret: input.secret ?? false }).toEqual({
        kind,
        name,
        // An input the program may ask to change in place (`inPlaceWhen`: an image rebuilt) is not marked: the
        // Python and Go SDKs turn the mark into `replaceOnChanges`, which would replace it anyway.
        replaces: (field.replaceOnChange ?? false) && !field.inPlaceWhen,
        secret: field.secret ?? false,
      });
      expect({ kind, name, description: input.description.startsWith(field.description) }).toEqual({ kind, name, description: true });
    }
    for (const [name, field] of Object.entries(spec.outputs)) {
      expect({ kind, name, secret: resource.properties[name].secret ?? false }).toEqual({ kind, name, secret: field.secret ?? false });
    }
  }
  // A database's root password is a secret output; an id reads as a string or a number.
  expect(schema.resources[packageType("MysqlDatabase")].properties.rootPassword).toMatchObject({ type: "string", secret: true });
  expect(schema.resources[packageType("VpcSubnet")].inputProperties.vpcId.oneOf).toEqual([{ type: "string" }, { type: "number" }]);
});

/** The object type of this package a property holds, itself or as the elements of its list or map. */
const objectRef = (property: Record<string, any>): string | undefined =>
  [property.$ref, property.items?.$ref, property.additionalProperties?.$ref].find((ref) => ref?.startsWith("#/types/"));

test("no object type ends in a suffix Pulumi's code generators add; an input and its output twin with the same properties are one type", () => {
  // The Go and Python SDKs name an input type's classes `<Name>Args`: `FirewallInboundArgs` would be `FirewallInboundArgsArgs`.
  const tokens = Object.keys(schema.types);
  expect(tokens.filter((token) => CODEGEN_SUFFIXES.some((suffix) => token.endsWith(suffix)))).toEqual([]);
  const types: Record<string, ObjectTypeSpec> = schema.types;
  const pairs: string[] = [];
  const twins = (input: string, output: string) => {
    pairs.push(`${input} ${output}`);
    const [inputType, outputType] = [types[input.slice("#/types/".length)]!, types[output.slice("#/types/".length)]!];
    if (sameProperties(inputType, outputType)) expect(output).toBe(input);
    else expect(output).toBe(`${input}Response`);
    for (const [key, property] of Object.entries(inputType.properties)) {
      const [i, o] = [objectRef(property), outputType.properties[key] && objectRef(outputType.properties[key])];
      if (i && o) twins(i, o);
    }
  };
  for (const resource of Object.values<any>(schema.resources)) {
    for (const [key, property] of Object.entries<any>(resource.inputProperties)) {
      const [input, output] = [objectRef(property), resource.properties[key] && objectRef(resource.properties[key])];
      if (input && output) twins(input, output);
    }
  }
  // A firewall's rules are one type on both sides; its devices are ids (or their strings) in, numbers out.
  expect(pairs).toEqual(
    expect.arrayContaining([
      "#/types/compute:index:FirewallInbound #/types/compute:index:FirewallInbound",
      "#/types/compute:index:FirewallInboundAddresses #/types/compute:index:FirewallInboundAddresses",
      "#/types/compute:index:MysqlDatabaseUpdates #/types/compute:index:MysqlDatabaseUpdates",
      "#/types/compute:index:FirewallDevices #/types/compute:index:FirewallDevicesResponse",
    ]),
  );
  expect(tokens).toContain(packageType("Timeouts"));
});

test("every data function the plugin serves is a function of the schema; a list answers `items`", () => {
  expect(Object.keys(schema.functions).sort()).toEqual([...dataFunctions().keys()].map(packageType).sort());
  expect(schema.functions[packageType("getVpcs")].outputs).toMatchObject({
    properties: { items: { type: "array", items: { $ref: "#/types/compute:index:VpcResult" } } },
    required: ["items"],
  });
  expect(schema.functions[packageType("getMysqlDatabase")].outputs.properties.rootPassword).toEqual({ type: "string", secret: true });
});

test("the configuration variables are the package's, the token secret", () => {
  expect(Object.keys(schema.config.variables)).toEqual(Object.keys(CONFIG_VARIABLES));
  expect(schema.config.variables.token).toMatchObject({ type: "string", secret: true });
  expect(schema.provider.inputProperties).toEqual(schema.config.variables);
});
