/**
 * The serialized provider. Pulumi stores the code of a dynamic provider in state (`__provider`),
 * once in each resource's inputs and again in its outputs, and the provider process runs it as a
 * module whose `handler()` returns the provider object. `pulumi.dynamic.Resource` produces that
 * text by serializing a closure, which for a shim of seven methods is about 2 KB of wrappers
 * (4 KB per resource). This module writes the text itself instead — one line that captures nothing
 * but the resource kind and loads the real implementation by package name, at call time, in the
 * provider process:
 *
 * ```js
 * exports.handler=()=>require('pulumi-compute/registry').provider('DomainRecord')
 * ```
 *
 * So state stays small (under 100 bytes per copy), carries no client, schema or credential, and
 * does not change when the implementation, the TypeScript emit or Pulumi's serializer does.
 * `require` resolves from the provider process's working directory (the project), where
 * `pulumi-compute` is an installed package. State written by earlier versions (a serialized
 * closure calling the same registry) keeps working: the provider host runs whatever text a
 * resource carries, and both reach `provider(kind)`.
 */

import { PROVIDER_KEY } from "../engine/spec";
import { assertProviderPluginLoadable } from "../launch/peer";

/** The key under which a dynamic resource carries its provider's code (in inputs and outputs). */
export { PROVIDER_KEY };

/** The registry module the text loads (`registry/` at the package root, a face of its own): short, and never moved. */
export const REGISTRY_MODULE = "pulumi-compute/registry";

/** The `__provider` text of a resource kind: the same for every resource of the kind. */
export function providerText(kind: string): string {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(kind)) throw new Error(`not a resource kind: ${JSON.stringify(kind)}`);
  // The engine starts the provider plugin in the program's `pwd`, where it looks for the SDK;
  // without it the engine only says `could not read plugin …: EOF`. Checked once per folder.
  assertProviderPluginLoadable();
  // Single quotes: the text is stored as a JSON string, where each double quote would cost a backslash.
  return `exports.handler=()=>require('${REGISTRY_MODULE}').provider('${kind}')`;
}
