/**
 * The serialized provider. Pulumi stores the code of a dynamic provider in state (`__provider`)
 * by serializing its closure; this shim is all that gets serialized: a few lines that capture
 * nothing but the resource kind and load the real implementation by package name, at call time,
 * in the provider process. So state stays small, carries no client, schema or credential, and
 * does not change when the implementation does.
 */
import type * as pulumi from "@pulumi/pulumi";

const shims = new Map<string, pulumi.dynamic.ResourceProvider>();

/** The provider object for a resource kind; one per kind, so Pulumi serializes each once. */
export function providerFor(kind: string): pulumi.dynamic.ResourceProvider {
  let shim = shims.get(kind);
  if (!shim) {
    shim = makeShim(kind);
    shims.set(kind, shim);
  }
  return shim;
}

function makeShim(kind: string): pulumi.dynamic.ResourceProvider {
  // `require` is never captured: in the provider process it resolves from the project directory,
  // where `pulumi-compute` is an installed package.
  const impl = () => require("pulumi-compute/dist/provider/registry").provider(kind);
  return {
    configure: (req) => impl().configure(req),
    check: (olds, news) => impl().check(olds, news),
    diff: (id, olds, news) => impl().diff(id, olds, news),
    create: (inputs) => impl().create(inputs),
    read: (id, props) => impl().read(id, props),
    update: (id, olds, news) => impl().update(id, olds, news),
    delete: (id, props) => impl().delete(id, props),
  };
}
