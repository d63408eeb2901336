/**
 * The mocks cannot drift from reality. Generated from the specs: every resource kind is made twice
 * by the program of its reference page (`completeExample`, what `docs/reference/<kind>.md` shows) —
 * under `computeMocks`, and by `emulatedStack` through the real engine against the emulator — each
 * time on a fresh account seeded with the demo environment and configured as the page says. For
 * each kind, the resources of that kind must show the same outputs, of the same types, secret the
 * same way; and the same values, but for what depends on time (timestamps) or ids (an object's id,
 * and any value that holds one), and generated secrets (a database's password).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import ts from "typescript";
import * as pulumi from "@pulumi/pulumi";
import * as compute from "../../provider";
import { RESOURCE_SPECS } from "../../provider/generated/spec-table";
import { META_INPUTS, type AnySpec } from "../../provider/engine/spec";
import { computeMocks, emulatedStack, outputValue, type Seed } from "../../provider/testing";
import { demoEnvironmentConfig, seedDemoEnvironment } from "../../emulator/control/demo-environment";
import { completeExample } from "../../scripts/docs/reference";

// Each kind goes through the engine once (a database provisions at the emulator's fast clock).
jest.setTimeout(300_000);

const specs = Object.values(RESOURCE_SPECS) as AnySpec[];

/** One output as the program sees it: present or not, its type, its value, whether it is secret. */
interface Seen {
  type: string;
  value: unknown;
  secret: boolean;
}
/** The outputs of each resource of the kind, by `<resource name>.<output>`. */
type Outputs = Record<string, Seen>;

const typeOf = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);

/** The keys a resource of `spec` registers as outputs (the ones it never records are made on first read, and left alone). */
function registeredKeys(resource: pulumi.CustomResource, spec: AnySpec): string[] {
  return ["id", ...Object.keys(spec.inputs), ...Object.keys(spec.outputs), ...META_INPUTS].filter((key) =>
    pulumi.Output.isInstance(Object.getOwnPropertyDescriptor(resource, key)?.value),
  );
}

/**
 * A run of the kind's page program: its source compiled and evaluated with `pulumi-compute`'s
 * resource classes recording what they make (every class extends the real one, so registration
 * is unchanged).
 */
function pageProgram(spec: AnySpec, imageFile: string) {
  const source = completeExample(spec, specs).replaceAll('"build/disk.img.gz"', JSON.stringify(imageFile));
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  return () => {
    const made: Array<{ kind: string; name: string; resource: pulumi.CustomResource }> = [];
    const recording = new Proxy(compute as Record<string, unknown>, {
      get(target, key: string) {
        const value = target[key];
        if (typeof value !== "function" || !(value.prototype instanceof pulumi.CustomResource)) return value;
        const Real = value as new (...args: unknown[]) => pulumi.CustomResource;
        return class extends Real {
          constructor(...args: unknown[]) {
            super(...args);
            made.push({ kind: key, name: args[0] as string, resource: this });
          }
        };
      },
    });
    const load = (name: string) => {
      if (name === "pulumi-compute") return recording;
      if (name === "@pulumi/pulumi") return pulumi;
      throw new Error(`the reference program of ${spec.name} imports ${name}`);
    };
    const module = { exports: {} as Record<string, unknown> };
    new Function("require", "exports", "module", js)(load, module.exports, module);
    return made.filter((m) => m.kind === spec.name);
  };
}

/** A seed of the demo environment that keeps its ids, for the config the page names. */
function demoSeed(): { seed: Seed; config: () => Record<string, string> } {
  let config: Record<string, string> = {};
  return { seed: ({ control }) => void (config = demoEnvironmentConfig(seedDemoEnvironment(control))), config: () => config };
}

async function underMocks(spec: AnySpec, imageFile: string): Promise<Outputs> {
  const demo = demoSeed();
  await using mocks = computeMocks({ seed: demo.seed });
  await pulumi.runtime.setMocks(mocks, "equality", "mocks", false);
  await mocks.api();
  for (const [key, value] of Object.entries(demo.config())) pulumi.runtime.setConfig(key, value);
  const made = pageProgram(spec, imageFile)();
  const outputs: Outputs = {};
  for (const { name, resource } of made) {
    for (const key of registeredKeys(resource, spec)) {
      const output = (resource as unknown as Record<string, pulumi.Output<unknown>>)[key]!;
      const value = await outputValue(output);
      // Boolean: Pulumi's runtime answers a falsy value itself (`""`, `0`, `null`) for "not secret" (its `isRpcSecret`).
      if (value !== undefined) outputs[`${name}.${key}`] = { type: typeOf(value), value, secret: Boolean(await pulumi.isSecret(output)) };
    }
  }
  return outputs;
}

async function throughTheEngine(spec: AnySpec, imageFile: string): Promise<Outputs> {
  const demo = demoSeed();
  const run = pageProgram(spec, imageFile);
  await using stack = await emulatedStack(
    async () =>
      Object.fromEntries(
        run().flatMap(({ name, resource }) =>
          registeredKeys(resource, spec).map((key) => [`${name}.${key}`, (resource as unknown as Record<string, unknown>)[key]]),
        ),
      ),
    { projectName: "equality", seed: demo.seed },
  );
  await stack.stack.setAllConfig(Object.fromEntries(Object.entries(demo.config()).map(([k, v]) => [k, { value: v }])));
  const up = await stack.up();
  const outputs: Outputs = {};
  for (const [key, { value, secret }] of Object.entries(up.outputs)) {
    if (value !== undefined) outputs[key] = { type: typeOf(value), value, secret };
  }
  return outputs;
}

/**
 * The outputs with what may differ between two accounts masked: timestamps, ids (the resources'
 * own, and any number or string that holds one) and secrets' values (generated credentials).
 */
function comparable(outputs: Outputs): Outputs {
  const ids = Object.entries(outputs)
    .filter(([key]) => key.endsWith(".id"))
    .map(([, seen]) => String(seen.value));
  const mask = (value: unknown): unknown => {
    if (typeof value === "number" && ids.includes(String(value))) return "<id>";
    if (typeof value === "string") {
      let text = value.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?/g, "<time>");
      for (const id of ids) text = text.replace(new RegExp(`(?<!\\d)${id}(?!\\d)`, "g"), "<id>");
      return text;
    }
    if (Array.isArray(value)) return value.map(mask).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mask(v)]));
    return value;
  };
  return Object.fromEntries(
    Object.entries(outputs).map(([key, seen]) => [key, { ...seen, value: seen.secret ? `<secret ${seen.type}>` : mask(seen.value) }]),
  );
}

let base: string;
let imageFile: string;
beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-equality-"));
  imageFile = path.join(base, "disk.img.gz");
  fs.writeFileSync(imageFile, zlib.gzipSync(Buffer.alloc(1024 * 1024, 7)));
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

test("every kind has a reference program that makes it", () => {
  // Every kind of the spec table, each loaded as itself (no count to move when a kind is added).
  expect(Object.entries(RESOURCE_SPECS).map(([kind, spec]) => [kind, spec.name])).toEqual(specs.map((s) => [s.name, s.name]));
  expect(specs.length).toBeGreaterThan(0);
  for (const spec of specs) expect(completeExample(spec, specs)).toContain(`new compute.${spec.name}(`);
});

test.each(specs.map((s) => [s.name, s] as const))(
  "%s: under computeMocks, the outputs an up against the emulator records",
  async (_name, spec) => {
    const mocked = await underMocks(spec, imageFile);
    const deployed = await throughTheEngine(spec, imageFile);
    // Something of the kind was made, with its id, both ways.
    expect(Object.keys(deployed).filter((key) => key.endsWith(".id")).length).toBeGreaterThan(0);
    // The same outputs, of the same types, secret the same way.
    const shape = (outputs: Outputs) =>
      Object.fromEntries(Object.entries(outputs).map(([k, s]) => [k, `${s.type}${s.secret ? " (secret)" : ""}`]));
    expect(shape(mocked)).toEqual(shape(deployed));
    // And the same values, where they depend on neither time nor ids.
    expect(comparable(mocked)).toEqual(comparable(deployed));
  },
);
