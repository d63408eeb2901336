/**
 * Every endpoint of the spec that no service implements answers 501 in the error envelope, so a
 * client can tell "the emulator lacks this" from "no such path" (404).
 */
import { ApiFailure } from "./errors";
import type { HttpMethod, RouteSpec } from "./routes";

export const NOT_IMPLEMENTED_REASON = "Not implemented by the emulator";

const slot = (p: string) => p.replace(/\{[^}]*\}/g, "{}");

export function notImplementedRoutes(spec: ReadonlyArray<{ method: HttpMethod; path: string }>, implemented: readonly RouteSpec[]): RouteSpec[] {
  const taken = new Set(implemented.map((r) => `${r.method} ${slot(r.path)}`));
  // Reuse an implemented route's spelling of the same path, so parameter names never clash.
  const spelling = new Map(implemented.map((r) => [slot(r.path), r.path]));
  return spec
    .filter((e) => !taken.has(`${e.method} ${slot(e.path)}`))
    .map((e) => ({
      method: e.method,
      path: spelling.get(slot(e.path)) ?? e.path,
      service: "not-implemented",
      auth: "none",
      scopes: [],
      summary: "Not implemented by the emulator (501)",
      handler: () => {
        throw new ApiFailure(501, [{ reason: NOT_IMPLEMENTED_REASON }]);
      },
    }));
}
