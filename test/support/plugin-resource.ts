/**
 * A resource of the package through the provider plugin in a TypeScript program: the type token
 * `compute:index:<Kind>` with the arguments a generated class takes and every output a property,
 * registered as the class registers it (`dynamicProps`, `quietStacks`, `unrecordedOutputs`) but without the
 * dynamic provider's `__provider`. The stack's project declares the plugin (`withComputePlugins`, as
 * `createTestStack`'s stacks do). For tests that run one program through both doors.
 */
import * as pulumi from "@pulumi/pulumi";
import { dynamicProps, quietStacks, unrecordedOutputs } from "../../provider/classes/resource";
import { packageType } from "../../provider/engine/type-tokens";
import { RESOURCE_SPECS } from "../../provider/generated/spec-table";
import * as compute from "../../provider";

/** Any kind's resource, registered by token. */
class PluginResource extends pulumi.CustomResource {}

export function pluginResource(kind: string, name: string, args: object, opts?: pulumi.CustomResourceOptions): pulumi.CustomResource {
  const spec = RESOURCE_SPECS[kind];
  if (!spec) throw new Error(`no resource kind ${kind}`);
  const props = dynamicProps(spec, args) as pulumi.Inputs;
  const registered = quietStacks();
  let resource: PluginResource;
  try {
    resource = new PluginResource(packageType(kind), name, props, opts);
  } finally {
    registered();
  }
  unrecordedOutputs(resource, spec, args);
  return resource;
}

/** The two doors to the engine: the generated classes (dynamic resources), or `compute:index:<Kind>` through the provider plugin. */
export type Door = "dynamic resources" | "provider plugin";
export const DOORS: Door[] = ["dynamic resources", "provider plugin"];

/** A resource of `kind` through `door`, with `id` and every output a property. */
export function resourceThrough(
  door: Door,
  kind: string,
  name: string,
  args: object,
  opts?: pulumi.CustomResourceOptions,
): pulumi.CustomResource {
  if (door === "provider plugin") return pluginResource(kind, name, args, opts);
  const classes = compute as unknown as Record<
    string,
    new (n: string, a: object, o?: pulumi.CustomResourceOptions) => pulumi.CustomResource
  >;
  return new classes[kind]!(name, args, opts);
}
