/**
 * Loaded in the provider process by the shim: the dynamic door. It maps a resource kind to the
 * provider methods the serving layer serves (`serve/providers.ts`), adapted to Pulumi's dynamic
 * provider host: `configure` keeps the stack config, a diff goes through the host's detailed
 * diff (`host/diff-response.ts`), and a diff and an update get the resource's `ignoreChanges` the
 * host's request carried (`host/ignore-changes.ts`). The process holds one `ProviderContext`
 * (credentials from the stack config that `configure` receives, one API client).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ConfigSource, ProviderContext } from "./engine/context";
import { processTime } from "./engine/time";
import { forHost } from "./host/diff-response";
import { ignoreChangesInHost, ignoredPaths } from "./host/ignore-changes";
import { withoutLauncher } from "./host/notice";
import { previewWanted } from "./serve/config";
import { servingContext } from "./serve/serving-context";
import { Serving } from "./serve/providers";

export { specOf } from "./serve/spec-lookup";

let config: ConfigSource = () => undefined;
let context: ProviderContext | undefined;
const serving = new Serving(currentContext);

function currentContext(): ProviderContext {
  context ??= servingContext((key) => config(key), undefined, processTime());
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
  // Under Pulumi's own launcher, the host is patched here, as it loads its first provider: before any diff.
  ignoreChangesInHost();
  const { methods } = serving.kind(kind);
  return {
    ...methods,
    diff: async (id, olds, news) => forHost(await methods.diff(id, olds, news, ignoredPaths(news))),
    update: (id, olds, news) => methods.update(id, olds, news, ignoredPaths(news)),
    configure: async (req: pulumi.dynamic.ConfigureRequest) => {
      config = (key) => req.config.get(key);
      // Under Pulumi's own launcher (a project without this package's plugin declaration), once: previews are plain.
      withoutLauncher(previewWanted(config));
    },
  };
}
