/**
 * Preview support for Pulumi's dynamic provider host, inside the provider process only.
 *
 * The host (`@pulumi/pulumi/cmd/dynamic-provider`) does not declare preview support when the
 * engine configures it, so for a previewed update the engine hands back the new inputs as the
 * outputs: every output-only property (`hosts`, `size`, `updated`, …) turns unknown in the program
 * for the rest of the preview, and every resource that reads one plans a change that `up` will not
 * make. Declaring support makes the engine call `Create` and `Update` with `preview: true`, which
 * the stock host ignores: it would really create and update. So both go together here:
 *
 * - the host's `configure` answer declares `supportsPreview`, unless the stack's config sets
 *   `compute:previewSupport` to `false`;
 * - a previewed `create` or `update` of one of this package's resources is answered by the
 *   serving layer, as the plugin's and the mocks' are (`Served` of `serve/providers.ts`: a create's
 *   inputs as the state; an update's recorded values, new input values but where the resource's
 *   `ignoreChanges` names them (`ignore-changes.ts`), and unknowns where the spec says the update
 *   recomputes them); it never reaches the provider's `create` or `update`;
 * - a previewed create or update of any other dynamic provider's resource gets the engine's own
 *   answer for a provider without preview support: the inputs as the state.
 *
 * This module only adapts: it reads the kind from the provider text, converts the host's messages
 * to the serving layer's calls and back, and leaves every rule of what a preview answers to `Served`.
 *
 * The preload (`preload.ts`) installs it when the host adds its provider service. It fails closed:
 * unless every message, accessor and method it uses is there (`previewUnpatchable`,
 * `hostUnpatchable`), nothing is wrapped, nothing is declared, the engine previews as it does
 * without it, and the preload says why (`notice.ts`). The checks compare shapes, not versions: a
 * newer `@pulumi/pulumi` whose host still has every part is patched; `test/provider/host/preview.test.ts`
 * pins the host's code they were written against and fails, naming what to re-read, when it changes.
 */
import { previewWanted } from "../serve/config";
import type { Served } from "../serve/providers";
import { ignoredPaths } from "./ignore-changes";
import { missingMethod, structUnusable, type HostModules } from "./modules";

/** This package's provider text (`classes/shim.ts`); older serialized closures are not matched, and preview as before. */
const SHIM = /^exports\.handler=\(\)=>require\('pulumi-compute\/registry'\)\.provider\('([A-Za-z][A-Za-z0-9]*)'\)$/;

type Callback = (error: unknown, response?: unknown, ...rest: unknown[]) => void;
type Method = (call: { request: RpcRequest }, callback: Callback) => unknown;
/** The host's provider service, as `addService` receives it. */
export type HostService = Record<string, Method>;
interface RpcRequest {
  getArgs(): Struct | undefined;
  getId(): string;
  getPreview(): boolean;
  getProperties(): Struct;
  getOlds(): Struct;
  getNews(): Struct;
}
interface Struct {
  toJavaScript(): Record<string, unknown>;
}
interface RpcResponse {
  setProperties(properties: Struct): unknown;
  setSupportspreview(supports: boolean): unknown;
}
interface StructClass {
  fromJavaScript(values: Record<string, unknown>): Struct;
}

/** The resource kind of a provider text of this package, or undefined. */
export const kindOf = (text: unknown): string | undefined => (typeof text === "string" ? SHIM.exec(text)?.[1] : undefined);

/** The host's methods the patch wraps. */
const METHODS = ["configure", "create", "update"] as const;

/**
 * Why the host's protocol cannot carry previews as this module answers them, or undefined when it
 * can: every message accessor it calls, protobuf's `Struct` both ways, and the service it wraps.
 */
export function previewUnpatchable(modules: HostModules): string | undefined {
  if (typeof modules.server?.prototype?.addService !== "function") return "gRPC's Server has no addService";
  if (!modules.service) return "the protocol has no ResourceProviderService";
  const missing = missingMethod(modules.proto, [
    ["ConfigureRequest", "getArgs"],
    ["ConfigureResponse", "setSupportspreview"],
    ["CreateRequest", "getPreview"],
    ["CreateRequest", "getProperties"],
    ["CreateResponse", "setProperties"],
    ["UpdateRequest", "getId"],
    ["UpdateRequest", "getPreview"],
    ["UpdateRequest", "getOlds"],
    ["UpdateRequest", "getNews"],
    ["UpdateResponse", "setProperties"],
  ]);
  return missing ?? structUnusable(modules);
}

/**
 * Why the host's provider service cannot be wrapped, or undefined when it can: it has each method
 * the patch wraps, and they do not handle previews themselves (a host that does needs no patch,
 * and must not get one).
 */
export function hostUnpatchable(implementation: Record<string, unknown>): string | undefined {
  for (const name of METHODS) if (typeof implementation[name] !== "function") return `the host has no ${name} method`;
  for (const name of METHODS) {
    if (/[Pp]review/.test(String(implementation[name]))) return `the host's ${name} already handles previews`;
  }
  return undefined;
}

/** A kind as the serving layer serves it (`Serving.kind`): what a preview of its create or update answers. */
export type ServedKind = (kind: string) => Pick<Served, "create" | "update">;

/** The host's provider service with previews answered here (see the module comment). */
export function withPreview(modules: HostModules, host: HostService, served: ServedKind): object {
  const proto = modules.proto as unknown as Record<string, new () => RpcResponse>;
  const struct = modules.struct as unknown as StructClass;
  const wrapped = Object.create(host) as Record<string, Method>;
  wrapped.configure = (call, callback) =>
    host.configure!.call(host, call, (error, response, ...rest) => {
      if (!error && response && previewWanted(configOf(call.request))) (response as RpcResponse).setSupportspreview(true);
      callback(error, response, ...rest);
    });
  wrapped.create = (call, callback) => {
    if (!call.request.getPreview()) return host.create!.call(host, call, callback);
    const request = call.request;
    void previewed(struct, request.getProperties(), (kind, inputs) => served(kind).create(inputs, true)).then((properties) => {
      const response = new proto.CreateResponse!();
      response.setProperties(properties);
      callback(undefined, response);
    });
  };
  wrapped.update = (call, callback) => {
    if (!call.request.getPreview()) return host.update!.call(host, call, callback);
    const request = call.request;
    const olds = () => request.getOlds().toJavaScript();
    void previewed(struct, request.getNews(), (kind, news) =>
      served(kind).update(request.getId(), olds(), news, true, ignoredPaths(news)),
    ).then((properties) => {
      const response = new proto.UpdateResponse!();
      response.setProperties(properties);
      callback(undefined, response);
    });
  };
  return wrapped;
}

/** The stack config a Configure request carries (`ConfigureRequest.args`), as a lookup. */
function configOf(request: RpcRequest): (key: string) => unknown {
  let args: Record<string, unknown> = {};
  try {
    args = request.getArgs()?.toJavaScript() ?? {};
  } catch {
    // No readable config: preview support stays at its default, on.
  }
  return (key) => args[key];
}

/**
 * The properties a previewed create or update answers: for this package's resources, the outputs
 * the serving layer answers for the new `inputs` (`serve`), with the provider text kept; for any
 * other provider, or on any failure, the inputs themselves (the engine's answer without preview support).
 */
async function previewed(
  struct: StructClass,
  inputs: Struct,
  serve: (kind: string, inputs: Record<string, unknown>) => Promise<{ outs: Record<string, unknown> }>,
): Promise<Struct> {
  try {
    const values = inputs.toJavaScript();
    const kind = kindOf(values.__provider);
    if (!kind) return inputs;
    const { outs } = await serve(kind, values);
    return struct.fromJavaScript({ ...outs, __provider: values.__provider });
  } catch (error) {
    console.error(`pulumi-compute: previewing as Pulumi does without provider previews: ${String(error)}`);
    return inputs;
  }
}
