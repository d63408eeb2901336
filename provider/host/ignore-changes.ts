/**
 * Hands a resource's `ignoreChanges` to the engine's diff and update in Pulumi's dynamic provider
 * host. The engine sends the option's paths with each Diff and Update (`DiffRequest.ignoreChanges`,
 * `UpdateRequest.ignoreChanges`) for the provider to leave out of its diff, and the host
 * (`@pulumi/pulumi/cmd/dynamic-provider`) drops them: a provider gets `diff(id, olds, news)` and
 * `update(id, olds, news)` only. Without them, once an update has recorded a value set by hand at
 * an ignored path (the API's answer), the next diff plans to set it back.
 *
 * So, in that process only, both requests' `getNews` give the news `Struct` a `toJavaScript` whose
 * values carry the request's paths under a symbol (not enumerable: nothing spreads, sends or
 * records them); the host passes those very values to the provider's `diff` and `update` (pinned
 * by `test/provider/host/ignore-changes.test.ts`), where `ignoredPaths` reads them. Each request's
 * paths travel with its own values, so concurrent requests cannot mix them.
 *
 * It fails closed: unless the protocol has every accessor it uses (`unignorable`), nothing is
 * patched, the paths stay lost as in Pulumi's host, and the reason is said once (`notice.ts`). The
 * preload (`preload.ts`) decides at the host's start; under another launcher (Pulumi's own) the
 * first provider the host loads decides, before its first diff (the engine checks a resource's
 * inputs first). Anywhere else (tests, a program) nothing is patched and no values carry paths.
 */
import { decideInHost, missingMethod, type HostDecision, type ProtoModule } from "./modules";

/** The symbol the values of a request carry its paths under, shared by every copy of this package in the process. */
const PATHS = Symbol.for("pulumi-compute.ignore-changes");

/** The process's one decision, shared by every copy of this package in the process. */
const STATE = Symbol.for("pulumi-compute.ignore-changes-patch");
const state = (): HostDecision | undefined => (globalThis as Record<symbol, HostDecision | undefined>)[STATE];
const decide = (decided: HostDecision): HostDecision => ((globalThis as Record<symbol, HostDecision>)[STATE] = decided);

/** The requests whose news the provider's methods receive. */
const REQUESTS = ["DiffRequest", "UpdateRequest"] as const;

interface Request {
  getIgnorechangesList(): unknown;
}
interface Struct {
  toJavaScript(): Record<string | symbol, unknown>;
}

/** Why the protocol cannot hand the paths over as this module does, or undefined when it can. */
export function unignorable(proto: ProtoModule): string | undefined {
  return missingMethod(
    proto,
    REQUESTS.flatMap((message) => [
      [message, "getNews"],
      [message, "getIgnorechangesList"],
    ]),
  );
}

/**
 * Patches the host's `DiffRequest.getNews` and `UpdateRequest.getNews` once per process, unless
 * the protocol lacks a part; returns why it did not, or undefined when it did (or already had).
 */
export function installIgnoreChanges(proto: ProtoModule): string | undefined {
  const decided = state();
  if (decided) return decided.reason;
  const reason = unignorable(proto);
  if (reason) return decide({ patched: false, reason }).reason;
  for (const message of REQUESTS) {
    const prototype = proto[message]!.prototype;
    const getNews = prototype.getNews as (this: Request) => unknown;
    prototype.getNews = function (this: Request) {
      const news = getNews.call(this);
      const paths = this.getIgnorechangesList();
      if (Array.isArray(paths) && paths.length > 0) carryPaths(news, paths.map(String));
      return news;
    };
  }
  return decide({ patched: true }).reason;
}

/** Gives `news` (the request's `Struct`) a `toJavaScript` whose values carry `paths`; anything else is left as it is. */
function carryPaths(news: unknown, paths: readonly string[]): void {
  const toJavaScript = (Object.getPrototypeOf(news ?? {}) as Partial<Struct> | null)?.toJavaScript;
  if (typeof news !== "object" || news === null || typeof toJavaScript !== "function") return;
  (news as Struct).toJavaScript = function (this: Struct) {
    const values = toJavaScript.call(this);
    Object.defineProperty(values, PATHS, { value: paths, enumerable: false });
    return values;
  };
}

/**
 * Decides under a launcher that did not preload this package: when this process runs the host,
 * patch it from the host's own protocol. Returns why ignoreChanges cannot reach the provider, if so.
 */
export function ignoreChangesInHost(): string | undefined {
  return decideInHost(state(), decide, installIgnoreChanges);
}

/** The `ignoreChanges` paths the request that gave `values` carries; none outside the patched host. */
export function ignoredPaths(values: object): readonly string[] {
  const paths = (values as Record<symbol, unknown>)[PATHS];
  return Array.isArray(paths) ? (paths as string[]) : [];
}
