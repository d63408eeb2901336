/**
 * The engine's context as every door serves it: the engine's `ProviderContext` with the ports the
 * house fills (`engine/ports.ts`): the row log that `withRowLog` fills (`row-log.ts`), the
 * backend's checkpoints as `drift --all` and `recover` read them (`stores/backend-store.ts`), and the
 * scopes log of a preview's calls (`stores/scopes-log.ts`).
 */
import { ProviderContext, type ConfigSource } from "../engine/context";
import { PROCESS_LOG, type ContextPorts } from "../engine/ports";
import type { ProviderTime } from "../engine/time";
import { scopesLogger } from "../stores/scopes-log";

/** The backend's checkpoints, loaded when first read: only a taken name or address asks who holds it (`ownership.ts`). */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded when first needed
const backendStore = () => require("../stores/backend-store") as typeof import("../stores/backend-store");

/** The ports of a served context. */
export const SERVING_PORTS: ContextPorts = {
  // Filled while a door serves a request (`row-log.ts`).
  log: PROCESS_LOG,
  backend: {
    url: () => backendStore().currentBackendUrl(),
    stacks: (url) => backendStore().readStacks(url),
    resources: (url, stack) => backendStore().readStackResources(url, stack),
  },
  onCall: () => scopesLogger(),
};

/** A context with the house's ports (and a door's own, `language`): `print` and `time` as `ProviderContext` takes them. */
export function servingContext(
  config?: ConfigSource,
  print?: (line: string) => void,
  time?: ProviderTime,
  ports: Pick<ContextPorts, "language"> = {},
): ProviderContext {
  return new ProviderContext(config, print, time, { ...SERVING_PORTS, ...ports });
}
