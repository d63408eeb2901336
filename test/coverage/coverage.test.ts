/**
 * Complete coverage of the spec: every endpoint of the spec's tables has an sdk method, an
 * emulator route and a test; the sdk's endpoint declarations agree with the spec's scopes; every
 * emulator route references one of them; the generated table and the emulator's embedded endpoint
 * list are up to date; whatever the emulator does not implement answers 501 in the error envelope.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { request } from "undici";
import { Emulator } from "../../emulator/emulator";
import { NOT_IMPLEMENTED_REASON, notImplementedRoutes } from "../../emulator/core/not-implemented";
import { SPEC_ENDPOINTS } from "../../emulator/core/spec-endpoints";
import { routePath } from "../../emulator/core/routes";
import { API_ROUTES } from "../../emulator/services";
import { ENDPOINTS } from "../../sdk/endpoints";
import { REGION_ENDPOINTS } from "../../sdk/resources/regions";
import { parseSpecEndpoints, parseSpecScopes, sdkEndpointsOf } from "../../scripts/coverage/endpoints";
import { REPO_ROOT, coverageRows, renderCoverage, renderSpecEndpointsModule, specPath } from "../../scripts/coverage/table";

const specText = fs.readFileSync(specPath(), "utf8");
const rows = coverageRows(REPO_ROOT, specText);

test("the spec's endpoint tables are read whole", () => {
  const endpoints = parseSpecEndpoints(specText);
  // 84 rows in the tables; `{engine}` and the MySQL-only table count twice (PostgreSQL equivalents).
  expect(endpoints).toHaveLength(98);
  expect(endpoints).toContainEqual({ method: "POST", path: "/databases/postgresql/instances/{instanceId}/backups/{backupId}/restore" });
  expect(endpoints).toContainEqual({ method: "GET", path: "/domains/{domainId}/zone-file" });
});

test.each(rows.map((r) => [`${r.method} ${r.path}`, r] as const))("%s has an sdk method, an emulator route and a test", (_name, row) => {
  expect({ sdk: row.sdk.length > 0, emulator: row.emulator.length > 0, tests: row.tests.length > 0 }).toEqual({ sdk: true, emulator: true, tests: true });
});

/** Where an sdk endpoint declares other scopes than the spec's table lists, and why. */
const SCOPES_UNLIKE_SPEC: Record<string, string> = {
  "GET /images": "every recording advertises `X-Accepted-OAuth-Scopes: *` for the list (api-facts P5-1): no scope",
  "GET /networking/ipv6/ranges/{range}": "the spec's `ips:read` is a slip: no such scope exists; `ips:read_only` as for every IP read",
};

test("every sdk endpoint of a spec row declares the scopes the spec lists (or says why not)", () => {
  const scopes = parseSpecScopes(specText);
  const differing = [...scopes].flatMap(([key, listed]) => {
    const [method, specPath] = key.split(" ") as [string, string];
    return sdkEndpointsOf({ method, path: specPath })
      .filter((e) => JSON.stringify([...e.scopes].sort()) !== JSON.stringify([...listed].sort()))
      .map((e) => `${e.method} ${e.path}`);
  });
  expect(differing.sort()).toEqual(Object.keys(SCOPES_UNLIKE_SPEC).sort());
  expect(scopes.get("POST /networking/ipv4/share")).toEqual(["ips:read_write", "computes:read_write"]); // `same`
  expect(scopes.get("GET /regions")).toEqual([]); // no Scope column
});

/** Second spellings of an endpoint's path the emulator serves too, and why. */
const ALIASES: Record<string, string> = {
  "GET /images/{imageKind}/{imageNumber}": "an image id with its slash unencoded (`/images/private/12`)",
  "PUT /images/{imageKind}/{imageNumber}": "as above",
  "DELETE /images/{imageKind}/{imageNumber}": "as above",
};

test("every emulator route references a declared sdk endpoint, and every sdk endpoint is served once under its own path", () => {
  const undeclared = API_ROUTES.filter((r) => !ENDPOINTS.includes(r.endpoint)).map((r) => r.endpoint.name);
  expect(undeclared).toEqual([]);
  const own = API_ROUTES.filter((r) => routePath(r) === r.endpoint.path);
  expect(own.map((r) => r.endpoint.name).sort()).toEqual(ENDPOINTS.map((e) => e.name).sort());
  const aliases = API_ROUTES.filter((r) => routePath(r) !== r.endpoint.path).map((r) => `${r.endpoint.method} ${routePath(r)}`);
  expect(aliases.sort()).toEqual(Object.keys(ALIASES).sort());
});

test("docs/coverage.md is the table generated from the code (run `npm run coverage`)", () => {
  expect(fs.readFileSync(path.join(REPO_ROOT, "docs/coverage.md"), "utf8")).toBe(renderCoverage(rows));
});

test("the emulator's embedded endpoint list is the spec's (run `npm run coverage`)", () => {
  expect(fs.readFileSync(path.join(REPO_ROOT, "emulator/core/spec-endpoints.ts"), "utf8")).toBe(renderSpecEndpointsModule(specText));
  expect(SPEC_ENDPOINTS).toEqual(parseSpecEndpoints(specText));
});

test("a spec endpoint the emulator does not implement answers 501 in the error envelope", async () => {
  // An emulator whose table lacks GET /regions/{regionId}.
  const served = API_ROUTES.filter((r) => r.endpoint !== REGION_ENDPOINTS.get);
  const missing = notImplementedRoutes(SPEC_ENDPOINTS, served);
  expect(missing.map((r) => `${r.endpoint.method} ${r.endpoint.path}`)).toEqual(["GET /regions/{regionId}"]);
  const partial = new Emulator();
  Object.defineProperty(partial, "routes", { value: [...served, ...missing] });
  const app = partial.buildApp();
  await app.listen({ port: 0, host: "127.0.0.1" });
  try {
    const { port } = app.server.address() as { port: number };
    const response = await request(`http://127.0.0.1:${port}/v4/regions/us-iad`);
    expect(response.statusCode).toBe(501);
    expect(await response.body.json()).toEqual({ errors: [{ reason: NOT_IMPLEMENTED_REASON }] });
    const served200 = await request(`http://127.0.0.1:${port}/v4/regions`);
    expect(served200.statusCode).toBe(200);
    await served200.body.dump();
  } finally {
    await app.close();
  }
});

test("the emulator implements every endpoint of the spec (none answers 501)", () => {
  expect(notImplementedRoutes(SPEC_ENDPOINTS, API_ROUTES).map((r) => `${r.endpoint.method} ${r.endpoint.path}`)).toEqual([]);
});
