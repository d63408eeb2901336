/**
 * The data functions through the plugin's door. `compute:index:<name>` runs the package's data
 * function `<name>` (every `getX` of `provider/functions/` with its `getXOutput` form beside it,
 * which `provider/index.ts` exports and the schema lists), with the plugin's credentials in place of
 * the program's. An invoke answers an object, so a function whose result is a list answers
 * `{ items: [...] }`. A part of the result the function made secret (`pulumi.secret`: a database's
 * root password) is answered secret, with the whole property it stands in.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type * as Pulumi from "@pulumi/pulumi";
import type { FunctionOptions } from "../functions/client";
import { isRecord } from "../engine/values";
import type { Values } from "./struct-values";

/** The property under which a list result is answered. */
export const LIST_RESULT = "items";

type DataFunction = (args: Values, options: FunctionOptions) => Promise<unknown>;

const FUNCTIONS_DIR = path.join(__dirname, "../functions");

let table: Map<string, DataFunction> | undefined;

/** Every data function by name, loaded once. */
export function dataFunctions(): Map<string, DataFunction> {
  if (table) return table;
  table = new Map();
  const modules = new Set(
    fs
      .readdirSync(FUNCTIONS_DIR)
      .filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith(".d.ts"))
      .map((f) => f.replace(/\.(ts|js)$/, "")),
  );
  for (const module of [...modules].sort()) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- function modules are found by file name
    const exports = require(path.join(FUNCTIONS_DIR, module)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(exports)) {
      if (/^get[A-Z]\w*$/.test(name) && !name.endsWith("Output") && typeof exports[`${name}Output`] === "function") {
        table.set(name, value as DataFunction);
      }
    }
  }
  return table;
}

/** Runs data function `name` on `args`: the answer's properties, and which of them are secret. */
export async function invoke(name: string, args: Values, options: FunctionOptions): Promise<{ result: Values; secrets: string[] }> {
  const fn = dataFunctions().get(name);
  if (!fn)
    throw new Error(`pulumi-compute has no data function ${name}; the functions are ${[...dataFunctions().keys()].sort().join(", ")}`);
  const answer = await fn(args, options);
  const result: Values = Array.isArray(answer) ? { [LIST_RESULT]: answer } : isRecord(answer) ? answer : { value: answer };
  const secrets: string[] = [];
  for (const [key, value] of Object.entries(result)) {
    const resolved = await resolveOutputs(value);
    result[key] = resolved.value;
    if (resolved.secret) secrets.push(key);
  }
  return { result, secrets };
}

/**
 * Pulumi's SDK, loaded at the first answer to resolve: the data functions load it anyway, and a
 * plugin that serves only resources starts without it (about a third of its start-up).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded when first needed
const sdk = (): typeof Pulumi => require("@pulumi/pulumi") as typeof Pulumi;

/** A value with every `pulumi.Output` in it replaced by its value; `secret` when one of them was. */
async function resolveOutputs(value: unknown): Promise<{ value: unknown; secret: boolean }> {
  const pulumi = sdk();
  if (pulumi.Output.isInstance(value)) {
    const [inner, isSecret] = await Promise.all([new Promise((resolve) => value.apply((v) => resolve(v))), pulumi.isSecret(value)]);
    const resolved = await resolveOutputs(inner);
    return { value: resolved.value, secret: isSecret || resolved.secret };
  }
  if (Array.isArray(value) || isRecord(value)) {
    const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await resolveOutputs(v)] as const));
    const parts = entries.map(([k, r]) => [k, r.value] as const);
    return {
      value: Array.isArray(value) ? parts.map(([, v]) => v) : Object.fromEntries(parts),
      secret: entries.some(([, r]) => r.secret),
    };
  }
  return { value, secret: false };
}
