/**
 * undici, loaded on first use. A Pulumi program that only declares resources never sends a
 * request, yet it loads this package; so does the provider process for a preview that reads
 * nothing. Loading undici eagerly cost every such process about 50 ms of its start.
 *
 * And only the parts the client uses: its `Agent` (a pool of keep-alive connections per origin)
 * and the `request` it sends through it, `FormData` when an upload needs one. undici's index loads
 * everything else it has too (fetch, WebSocket, EventSource, caches, mocks, proxies: 109 modules
 * against 30), and a provider process pays that load before its first answer in every `up`,
 * `refresh` and `destroy`. The paths are those of the pinned undici (`package.json` pins it
 * exactly); `test/sdk/core/undici.test.ts` holds them to the index's own classes.
 */
import type * as Undici from "undici";

/** The parts of undici the client uses. */
export type UndiciParts = Pick<typeof Undici, "Agent" | "request" | "FormData">;

let loaded: UndiciParts | undefined;

/** undici's request function: a request through the dispatcher it is called on (`this`). */
type DispatcherRequest = (this: Undici.Dispatcher, options: Undici.Dispatcher.RequestOptions) => Promise<Undici.Dispatcher.ResponseData>;

/** The parts of undici the client uses, required the first time they are needed. */
export function undici(): UndiciParts {
  if (loaded) return loaded;
  /* eslint-disable @typescript-eslint/no-require-imports -- deferred on purpose (see above); the types come from the import above */
  const Agent = require("undici/lib/dispatcher/agent") as typeof Undici.Agent;
  const send = require("undici/lib/api/api-request") as DispatcherRequest;
  /** As undici's own `request`, for the calls the client makes: a URL, and options that name the dispatcher. */
  const request = (
    url: string | URL,
    { dispatcher, ...options }: { dispatcher: Undici.Dispatcher } & Omit<Undici.Dispatcher.RequestOptions, "origin" | "path">,
  ) => {
    const target = typeof url === "string" ? new URL(url) : url;
    return send.call(dispatcher, { ...options, origin: target.origin, path: `${target.pathname}${target.search}` });
  };
  loaded = {
    Agent,
    request: request as unknown as typeof Undici.request,
    get FormData() {
      return (require("undici/lib/web/fetch/formdata") as { FormData: typeof Undici.FormData }).FormData;
    },
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  return loaded;
}
