/**
 * undici, loaded on first use. A Pulumi program that only declares resources never sends a
 * request, yet it loads this package; so does the provider process for a preview that reads
 * nothing. Loading undici eagerly cost every such process about 50 ms of its start.
 */
import type * as Undici from "undici";

let loaded: typeof Undici | undefined;

/** The undici module, required the first time it is needed. */
export function undici(): typeof Undici {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred on purpose (see above); the types come from the import above
  loaded ??= require("undici") as typeof Undici;
  return loaded;
}
