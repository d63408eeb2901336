/**
 * The least-privilege scopes of resource kinds (`provider/stack/least-scopes.ts`): every endpoint a spec
 * declares is in the sdk's endpoint table, the scopes are the fewest that cover them, and reads
 * and writes are told apart. The whole path, a stack run with tokens of exactly those scopes, is
 * `test/e2e/scopes.e2e.test.ts`.
 */
import { RESOURCE_SPECS } from "../../../provider/generated/spec-table";
import { endpointNamed, leastScopes, scopesOf } from "../../../provider/stack/least-scopes";
import { dataFunctionText } from "../../../provider/engine/field-names";
import { DATABASE_REASONS } from "../../../sdk/resources/databases";

const kinds = Object.keys(RESOURCE_SPECS);

test.each(kinds)("%s declares endpoints that the sdk's table has, reads that are reads, and at least one write", (kind) => {
  const { endpoints } = RESOURCE_SPECS[kind]!;
  for (const name of endpoints.read) expect(endpointNamed(name).method).toBe("GET");
  expect(endpoints.write.length).toBeGreaterThan(0);
  for (const name of endpoints.write) expect(endpointNamed(name).name).toBe(name);
});

test("a name the table lacks is refused, naming it", () => {
  expect(() => endpointNamed("vpcs.frobnicate")).toThrow("no endpoint named vpcs.frobnicate in the sdk's endpoint table");
});

test("the fewest scopes: read_write covers read_only, both scopes of a two-scope endpoint, none for open endpoints", () => {
  expect(leastScopes(["regions.list", "vpcs.get"])).toEqual([]);
  expect(leastScopes(["images.get", "images.update"])).toEqual(["images:read_write"]);
  expect(leastScopes(["networking.ipv6.ranges.create", "images.create"])).toEqual([
    "computes:read_write",
    "images:read_write",
    "ips:read_write",
  ]);
  expect(leastScopes(["images.create"])).toEqual(["computes:read_only", "images:read_write"]);
});

test("a kind's scopes: its reads for preview, refresh and drift; its writes besides for up and destroy", () => {
  expect(scopesOf(["Vpc"])).toEqual({ up: ["vpc:read_write"], preview: [] });
  expect(scopesOf(["MysqlDatabase", "DomainRecord"])).toEqual({
    up: ["databases:read_write", "domains:read_write"],
    preview: ["databases:read_only", "domains:read_only"],
  });
  // What the program called in the preview (getIps) is needed by every command.
  expect(scopesOf(["Vpc"], ["networking.ips.list"])).toEqual({ up: ["ips:read_only", "vpc:read_write"], preview: ["ips:read_only"] });
});

test("an API reason that cites a listing points the program to its data function", () => {
  expect(dataFunctionText(DATABASE_REASONS.engineUnknown)).toBe("Engine version is not supported; see getDatabaseEngines()");
  expect(dataFunctionText("see GET /regions")).toBe("see getRegions()");
  expect(dataFunctionText("see GET /account/settings")).toBe("see GET /account/settings"); // nothing else fits
});
