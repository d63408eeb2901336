/**
 * The serialized provider. Pulumi stores the code of a dynamic provider in state (`__provider`)
 * by serializing its closure; this shim is all that gets serialized: a few lines that capture
 * nothing but the resource kind and load the real implementation by package name, at call time,
 * in the provider process. So state stays small (under 2 KB per resource), carries no client,
 * schema or credential, and does not change when the implementation does.
 */
import type * as pulumi from "@pulumi/pulumi";
import { assertProviderPluginLoadable } from "./peer";

const shims = new Map<string, pulumi.dynamic.ResourceProvider>();

/** The provider object for a resource kind; one per kind, so Pulumi serializes each once. */
export function providerFor(kind: string): pulumi.dynamic.ResourceProvider {
  let shim = shims.get(kind);
  if (!shim) {
    // The engine starts the provider plugin in the program's folder, where it looks for the SDK;
    // without it the engine only says `could not read plugin …: EOF`. Checked once per kind.
    assertProviderPluginLoadable();
    shim = makeShim(kind);
    shims.set(kind, shim);
  }
  return shim;
}

function makeShim(kind: string): pulumi.dynamic.ResourceProvider {
  // `$` loads the implementation: `require` is never captured, so in the provider process it
  // resolves from the project directory, where `pulumi-compute` is an installed package. The
  // name is one letter on purpose: the serializer repeats it in each method's closure, and every
  // resource in state carries this text twice.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- resolved when called, in the project, not when serialized
  const $ = () => require("pulumi-compute/registry").provider(kind);
  return {
    configure: (...a) => $().configure(...a),
    check: (...a) => $().check(...a),
    diff: (...a) => $().diff(...a),
    create: (...a) => $().create(...a),
    read: (...a) => $().read(...a),
    update: (...a) => $().update(...a),
    delete: (...a) => $().delete(...a),
  };
}
