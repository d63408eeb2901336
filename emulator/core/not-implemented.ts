/**
 * Every endpoint of the spec that no service implements answers 501 in the error envelope, so a
 * client can tell "the emulator lacks this" from "no such path" (404). Such a route stands on an
 * endpoint of its own (no token needed, no scope), not on the sdk's declaration.
 */
import { endpoint } from "../../sdk/core/endpoint";
import { Empty } from "../../sdk/core/schema";
import { ApiFailure } from "./errors";
import { type HttpMethod, type RouteSpec, routePath } from "./routes";

export const NOT_IMPLEMENTED_REASON = "Not implemented by the emulator";

const slot = (p: string) => p.replace(/\{[^}]*\}/g, "{}");

export function notImplementedRoutes(
  spec: ReadonlyArray<{ method: HttpMethod; path: string }>,
  implemented: readonly RouteSpec[],
): RouteSpec[] {
  const taken = new Set(implemented.map((r) => `${r.endpoint.method} ${slot(routePath(r))}`));
  // Reuse an implemented route's spelling of the same path, so parameter names never clash.
  const spelling = new Map(implemented.map((r) => [slot(routePath(r)), routePath(r)]));
  return spec
    .filter((e) => !taken.has(`${e.method} ${slot(e.path)}`))
    .map((e) => ({
      endpoint: endpoint({
        name: `not-implemented ${e.method} ${e.path}`,
        service: "not-implemented",
        method: e.method,
        path: spelling.get(slot(e.path)) ?? e.path,
        auth: "none",
        scopes: [],
        summary: "Not implemented by the emulator (501)",
        response: Empty,
      }),
      handler: () => {
        throw new ApiFailure(501, [{ reason: NOT_IMPLEMENTED_REASON }]);
      },
    }));
}
