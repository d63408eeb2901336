/**
 * Loaded in the provider process by the shim: maps a resource kind to the provider methods the
 * engine derives from its spec. The process holds one `ProviderContext` (credentials from the
 * stack config that `configure` receives, one API client).
 */
import type * as pulumi from "@pulumi/pulumi";
import { ProviderContext, type ConfigSource } from "./engine/context";
import { makeProvider, previewUpdate } from "./engine/engine";
import type { AnySpec } from "./engine/spec";
import { RESOURCE_SPECS } from "./specs";
import { processTime } from "./engine/time";
import { withoutLauncher } from "./host/notice";
import { previewWanted } from "./host/preview";

let config: ConfigSource = () => undefined;
let context: ProviderContext | undefined;
const providers = new Map<string, pulumi.dynamic.ResourceProvider>();

function currentContext(): ProviderContext {
  context ??= new ProviderContext((key) => config(key), undefined, processTime());
  return context;
}

/**
 * Forgets the process's sessions (clients, coalesced reads, kept domain names). For tests that
 * reset the API behind the provider — the emulator's ids start again, so a kept name could belong
 * to another domain; in a provider process ids are never reused and nothing calls this.
 */
export function forgetSessions(): void {
  context = undefined;
}

/** The provider methods for `kind`. */
export function provider(kind: string): pulumi.dynamic.ResourceProvider {
  let methods = providers.get(kind);
  if (!methods) {
    methods = {
      ...makeProvider(specOf(kind), currentContext),
      configure: async (req: pulumi.dynamic.ConfigureRequest) => {
        config = (key) => req.config.get(key);
        // Under Pulumi's own launcher (a project without this package's plugin declaration), once: previews are plain.
        withoutLauncher(previewWanted(config));
      },
    };
    providers.set(kind, methods);
  }
  return methods;
}

/**
 * The outputs a previewed in-place update of a `kind` shows (`previewUpdate`): called by the
 * host's preview support (`host/preview.ts`) in place of `update`. Reads no config and sends nothing.
 */
export function previewOf(kind: string, olds: Record<string, unknown>, news: Record<string, unknown>): Record<string, unknown> {
  return previewUpdate(specOf(kind), olds, news);
}

/** The spec of a resource kind; throws naming the kind when this package has none. */
export function specOf(kind: string): AnySpec {
  const spec: AnySpec | undefined = RESOURCE_SPECS[kind];
  if (!spec) throw new Error(`pulumi-compute has no resource type ${kind}; is the installed package older than the program?`);
  return spec;
}
