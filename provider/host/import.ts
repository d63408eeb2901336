/**
 * Pulumi's import of this package's dynamic resources (the `import` resource option), inside the
 * provider process only.
 *
 * The engine imports an object by sending the provider a Read with its id and nothing recorded
 * (`ImportStep.Apply`): no outputs, no inputs, so no `__provider`, which is where Pulumi's dynamic
 * provider host finds the provider of a resource; the stock host fails with "code must be a string".
 * The request's type (`pulumi-nodejs:dynamic/compute:Vpc`) names the kind all the same, and every
 * resource of a kind carries the same one-line provider (`classes/shim.ts`). So a Read without a
 * `__provider` of one of this package's types is given its kind's line, and the host serves it as
 * any read: the engine's provider answers it (a read with nothing recorded is an import,
 * `engine/import-inputs.ts`: the object's outputs, the inputs that manage it as it is, and a diff
 * that refuses what the program changes), and the host passes both back with the provider line.
 * Every other request, and any other provider's, reaches the host untouched.
 *
 * It fails closed: unless the protocol has every accessor used here and the host's read passes a
 * provider's inputs on (without them the engine refuses the import), the host is left as it is,
 * an import fails as it does without this package, and the preload says why (`notice.ts`).
 */
import { PROVIDER_KEY, providerText } from "../classes/shim";
import { kindOfType } from "../engine/type-tokens";
import { missingMethod, structUnusable, type HostModules } from "./modules";

type Callback = (error: unknown, response?: unknown, ...rest: unknown[]) => void;
type Method = (call: { request: ReadRequest }, callback: Callback) => unknown;
interface Struct {
  toJavaScript(): Record<string, unknown>;
  getFieldsMap(): { has(key: string): boolean };
}
interface ReadRequest {
  getUrn(): string;
  getType(): string;
  getProperties(): Struct | undefined;
  setProperties(properties: Struct): unknown;
}
interface StructClass {
  fromJavaScript(values: Record<string, unknown>): Struct;
}

/** Why the host's protocol cannot carry an import as this module serves it, or undefined when it can. */
export function importUnpatchable(modules: HostModules): string | undefined {
  const missing = missingMethod(modules.proto, [
    ["ReadRequest", "getUrn"],
    ["ReadRequest", "getType"],
    ["ReadRequest", "getProperties"],
    ["ReadRequest", "setProperties"],
    ["ReadResponse", "setInputs"],
  ]);
  const fieldsMap = (modules.struct?.prototype as { getFieldsMap?: unknown } | undefined)?.getFieldsMap;
  return missing ?? structUnusable(modules) ?? (typeof fieldsMap === "function" ? undefined : "protobuf's Struct has no getFieldsMap");
}

/**
 * Why the host's service cannot be wrapped for imports, or undefined when it can: its read finds
 * the provider in the request's properties (a host that finds it otherwise, as one that imports
 * by itself would, is left alone) and passes the provider's inputs on (`setInputs`).
 */
export function hostReadUnpatchable(implementation: Record<string, unknown>): string | undefined {
  const read = implementation.read;
  if (typeof read !== "function") return "the host has no read method";
  const text = String(read);
  if (!/getProperties\(\)/.test(text) || !/getProvider\(props\b/.test(text))
    return "the host's read finds its provider otherwise than in the request's properties";
  if (!/setInputs/.test(text)) return "the host's read does not pass a provider's inputs on";
  return undefined;
}

/** The kind of one of this package's resources a request names (its type, else its URN's), or undefined. */
function kindOfRequest(request: ReadRequest): string | undefined {
  const type = request.getType() || request.getUrn().split("::")[2]?.split("$").pop() || "";
  return kindOfType(type);
}

/** The host's service with the import of this package's resources served (see the module comment). */
export function withImport(modules: HostModules, service: object): object {
  const host = service as Record<string, Method>;
  const struct = modules.struct as unknown as StructClass;
  const wrapped = Object.create(host) as Record<string, Method>;
  wrapped.read = (call, callback) => {
    const request = call.request;
    // Whether anything is recorded, from the Struct's keys: the host converts its values next.
    const recorded = request.getProperties()?.getFieldsMap().has(PROVIDER_KEY) ?? false;
    const kind = recorded ? undefined : kindOfRequest(request);
    if (kind !== undefined) request.setProperties(struct.fromJavaScript({ [PROVIDER_KEY]: providerText(kind) }));
    return host.read!.call(host, call, callback);
  };
  return wrapped;
}
