/**
 * The engine's check: inputs validated with the spec's schemas (the sdk's, so texts match the API),
 * preview's unknown values let through, the sdk's cross-field rules, the meta inputs, then the
 * spec's `derive`, `declare` and `checkShared` hooks and the ownership of unique keys and adopted
 * objects; every failure in the program's words.
 */
import type * as pulumi from "@pulumi/pulumi";
import { formatPath } from "../../sdk/core/schema";
import type { ProviderContext } from "./context";
import { explain, inputName } from "./errors";
import { timeoutFor } from "./lifecycle";
import { dataFunctionText, excerpt, programNames, programText, wirePath } from "./field-names";
import { adoptClash, keyClash } from "./natural-key";
import { holdings } from "./ownership";
import { servedResource } from "./ports";
import { META_INPUTS, withoutProvider, type AnySpec, type Failure, type Inputs, type Values } from "./spec";
import { isUnknown, parseDuration, toSnake } from "./values";
import { equalsInputs } from "./wire";

/** `olds`: the inputs the object was last checked with (`{}` for a new object). */
export function check(spec: AnySpec, news: Inputs, olds: Inputs = {}): pulumi.dynamic.CheckResult {
  const failures: Failure[] = [];
  const inputs = withoutProvider(news);

  // Named as the program wrote them (`ttl_sec` here is the program's own word, not the API's).
  const strangers: Failure[] = [];
  for (const key of Object.keys(inputs)) {
    if (!(key in spec.inputs) && !(META_INPUTS as readonly string[]).includes(key)) {
      strangers.push({ property: key, reason: `${key} is not an input of ${spec.name}; valid inputs: ${inputNames(spec).join(", ")}` });
    }
  }
  for (const [key, field] of Object.entries(spec.inputs)) {
    const value = inputs[key];
    if (value === undefined || value === null) {
      if (field.required) failures.push({ property: key, reason: `${key} is required` });
      continue;
    }
    if (isUnknown(value)) continue; // preview: validated once known
    const parsed = field.schema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) failures.push(fieldFailure(key, issue.path, issue.message));
    }
  }
  failures.push(...checkMeta(inputs));
  if (failures.length + strangers.length === 0 && (spec.validatesUnknowns || !Object.values(inputs).some(isUnknown))) {
    failures.push(...(spec.validate?.(inputs, withoutProvider(olds)) ?? []), ...ruleFailures(spec, inputs));
  }
  if (failures.length + strangers.length === 0) return { inputs: news };
  return { inputs: news, failures: [...inProgramWords(spec, inputs, strangers, false), ...inProgramWords(spec, inputs, failures)] };
}

/**
 * Failures as the person running the program reads them: wire names in the reasons put in the
 * program's words (`ttl_sec` → `ttlSec`, `engine` → `engineId`, `see GET /regions` → `see
 * getRegions()`). The engine prints the value of a
 * top-level property next to it; a secret must not be printed and a long value (30 firewall rules)
 * would bury the reason, so those name the field in the reason instead, a long value as a short
 * excerpt.
 */
export function inProgramWords(spec: AnySpec, inputs: Inputs, failures: Failure[], rename = true): Failure[] {
  const names = programNames(spec);
  const words = (text: string) => (rename ? programText(names, text) : dataFunctionText(text));
  return failures.map(({ property, reason }) => {
    const text = words(reason);
    const field = spec.inputs[property];
    const value = inputs[property];
    if (field?.secret) return { property: "", reason: `${property}: ${text}` };
    if (property && value !== undefined && excerpt(value) !== JSON.stringify(value)) {
      return { property: "", reason: `${property} ${excerpt(value)}: ${text}` };
    }
    return { property: words(property), reason: text };
  });
}

/**
 * The sdk's cross-field rules (`wireRules`) on the inputs under their wire names. Unknown values
 * count as not given, and a failure about a field whose value is unknown is dropped (it will be
 * checked once known). Failures name the program's input.
 */
function ruleFailures(spec: AnySpec, inputs: Inputs): Failure[] {
  if (!spec.wireRules) return [];
  const wire: Values = {};
  const unknown = new Set<string>();
  for (const [key, value] of Object.entries(inputs)) {
    const name = key in spec.inputs ? wirePath(key, spec.inputs[key]!) : toSnake(key);
    if (isUnknown(value)) unknown.add(name);
    else wire[name] = value;
  }
  return spec
    .wireRules(wire)
    .filter((e) => e.field === undefined || !unknown.has(e.field))
    .map((e) => ({ property: e.field ? inputName(spec, e.field) : "", reason: e.reason }));
}

/**
 * `check`, then the spec's `derive` hook on inputs that passed it (see `Hooks.derive`), then its
 * `declare` and `checkShared` (what needs the API or the program's other resources), which get
 * the process's context when the provider has one.
 */
export async function checkAndDerive(
  spec: AnySpec,
  olds: Inputs,
  news: Inputs,
  context?: () => ProviderContext,
): Promise<pulumi.dynamic.CheckResult> {
  const checked = await checkOwn(spec, olds, news);
  if (checked.failures?.length || !context) return checked;
  const ctx = context();
  const inputs = withoutProvider(checked.inputs ?? news);
  const prior = withoutProvider(olds);
  // The program declares it here in this run: a resource a move left behind is one not checked (`movedAlongside`).
  holdings(ctx).checked(ctx.log.urn());
  spec.declare?.({ ctx, inputs });
  // What the program adopts is held by it in this run: no other resource's delete removes it.
  if (inputs.adoptId !== undefined && !isUnknown(inputs.adoptId)) holdings(ctx).hold(spec, String(inputs.adoptId), servedResource(ctx.log));
  // What a delete will do with what it adopts, said on its row when it adopts.
  if (inputs.adoptId !== undefined && prior.adoptId === undefined && inputs.deleteAdopted !== true) {
    ctx.progress(adoptedRowLine(spec, inputs.adoptId));
  }
  const signal = () => ctx.time.deadline(timeoutFor(spec, inputs, "update"));
  const failures =
    spec.checkShared && !Object.values(inputs).some(isUnknown)
      ? await spec.checkShared({ ctx, inputs, olds: prior, signal: signal() })
      : [];
  if (failures.length === 0) failures.push(...(await ownershipFailures(spec, ctx, prior, inputs, signal)));
  return failures.length === 0 ? checked : { inputs: checked.inputs, failures: inProgramWords(spec, inputs, failures) };
}

/** The row line of a resource that adopts: its object is released, not deleted, by a delete unless the program says so. */
export function adoptedRowLine(spec: AnySpec, adoptId: unknown): string {
  const id = isUnknown(adoptId) ? "the object of its adoptId" : `${spec.noun} ${String(adoptId)}`;
  return (
    `adopts ${id}: a delete of this resource (pulumi destroy, or removing it from the program) releases the ${spec.noun} ` +
    "and leaves it in place, as this stack did not create it; set deleteAdopted: true to have the delete delete it"
  );
}

/** A unique key another object holds, or an adoptId of another stack's object (`natural-key.ts`), in the program's words. */
async function ownershipFailures(
  spec: AnySpec,
  ctx: ProviderContext,
  olds: Inputs,
  inputs: Inputs,
  signal: () => AbortSignal,
): Promise<Failure[]> {
  if (!spec.naturalKey) return [];
  const urn = ctx.log.urn();
  try {
    const clash = await keyClash(spec, ctx, olds, inputs, urn, signal(), equalsInputs(spec, inputs));
    return [...clash, ...(await adoptClash(spec, ctx, olds, inputs, urn))];
  } catch (error) {
    // The lookup is the create's own (it runs again right before the POST): refused, it names what the create needs.
    throw explain(spec, "create", error);
  }
}

async function checkOwn(spec: AnySpec, olds: Inputs, news: Inputs): Promise<pulumi.dynamic.CheckResult> {
  const result = check(spec, news, olds);
  if (result.failures?.length || !spec.hooks.derive) return result;
  const derived = await spec.hooks.derive(withoutProvider(olds), withoutProvider(news));
  if (derived.failures?.length) return { inputs: news, failures: inProgramWords(spec, withoutProvider(news), derived.failures) };
  return { inputs: { ...news, ...derived.inputs } };
}

function fieldFailure(key: string, path: ReadonlyArray<PropertyKey>, message: string): Failure {
  // The engine prints the value of a top-level property only; a nested path is named in the reason.
  if (path.length > 0) return { property: "", reason: `${formatPath([key, ...path])}: ${message}` };
  return { property: key, reason: message };
}

function checkMeta(inputs: Inputs): Failure[] {
  const failures: Failure[] = [];
  const adoptId = inputs.adoptId;
  if (adoptId !== undefined && !isUnknown(adoptId)) {
    const valid =
      (typeof adoptId === "string" && /^\S+$/.test(adoptId)) || (typeof adoptId === "number" && Number.isInteger(adoptId) && adoptId > 0);
    if (!valid) failures.push({ property: "adoptId", reason: "adoptId must be the id of an existing object" });
  }
  const deleteAdopted = inputs.deleteAdopted;
  if (deleteAdopted !== undefined && !isUnknown(deleteAdopted) && typeof deleteAdopted !== "boolean") {
    failures.push({ property: "deleteAdopted", reason: "deleteAdopted must be true or false" });
  }
  const timeouts = inputs.timeouts;
  if (timeouts !== undefined && !isUnknown(timeouts)) {
    if (timeouts === null || typeof timeouts !== "object" || Array.isArray(timeouts)) {
      failures.push({ property: "timeouts", reason: 'timeouts must be an object such as { create: "10m" }' });
    } else {
      for (const [op, value] of Object.entries(timeouts)) {
        if (!["create", "update", "delete"].includes(op)) {
          failures.push({ property: "", reason: `timeouts.${op}: unknown operation; use create, update or delete` });
        } else if (parseDuration(value as string) === undefined) {
          failures.push({
            property: "",
            reason: `timeouts.${op}: ${JSON.stringify(value)} is not a duration such as "90s", "10m" or "1h"`,
          });
        }
      }
    }
  }
  return failures;
}

function inputNames(spec: AnySpec): string[] {
  return [...Object.keys(spec.inputs), ...META_INPUTS];
}
