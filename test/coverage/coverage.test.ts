/**
 * Complete coverage of the spec: every endpoint of the spec's tables (the repository's own table,
 * `emulator/core/spec-endpoints.ts`) has an sdk method, an emulator route and a test; the sdk's
 * endpoint declarations agree with the spec's scopes; every emulator route references one of them;
 * the generated table is up to date; the spec importer reads the spec's table forms; whatever the
 * emulator does not implement answers 501 in the error envelope.
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
import { parseSpecTables, sdkEndpointsOf } from "../../scripts/coverage/endpoints";
import { REPO_ROOT, coverageRows, renderCoverage, renderSpecEndpointsModule } from "../../scripts/coverage/table";

const rows = coverageRows(REPO_ROOT);
const key = (e: { method: string; path: string }) => `${e.method} ${e.path}`;

test("the repository's endpoint table holds the spec's tables whole, each endpoint once", () => {
  // 84 rows in the spec's tables; `{engine}` and the MySQL-only table count twice (PostgreSQL equivalents).
  expect(SPEC_ENDPOINTS).toHaveLength(98);
  expect(new Set(SPEC_ENDPOINTS.map(key)).size).toBe(98);
  expect(SPEC_ENDPOINTS.map(key)).toContain("POST /databases/postgresql/instances/{instanceId}/backups/{backupId}/restore");
  expect(SPEC_ENDPOINTS.map(key)).toContain("GET /domains/{domainId}/zone-file");
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
  const differing = SPEC_ENDPOINTS.flatMap((row) =>
    sdkEndpointsOf(row)
      .filter((e) => JSON.stringify([...e.scopes].sort()) !== JSON.stringify([...row.scopes].sort()))
      .map((e) => `${e.method} ${e.path}`),
  );
  expect(differing.sort()).toEqual(Object.keys(SCOPES_UNLIKE_SPEC).sort());
  const scopesOf = (k: string) => SPEC_ENDPOINTS.find((e) => key(e) === k)?.scopes;
  expect(scopesOf("POST /networking/ipv4/share")).toEqual(["ips:read_write", "computes:read_write"]); // `same` in the spec
  expect(scopesOf("GET /regions")).toEqual([]); // no Scope column in the spec
});

/** Second spellings of an endpoint's path the emulator serves too, and why. */
const ALIASES: Record<string, string> = {
  "GET /images/{imageKind}/{imageNumber}": "an image id with its slash unencoded (`/images/private/12`)",
  "PUT /images/{imageKind}/{imageNumber}": "as above",
  "DELETE /images/{imageKind}/{imageNumber}": "as above",
};

test("every emulator route references a declared sdk endpoint, and every sdk endpoint is served once under its own path", () => {
  const declared = ENDPOINTS;
  const undeclared = API_ROUTES.filter((r) => !declared.includes(r.endpoint)).map((r) => r.endpoint.name);
  expect(undeclared).toEqual([]);
  const own = API_ROUTES.filter((r) => routePath(r) === r.endpoint.path);
  expect(own.map((r) => r.endpoint.name).sort()).toEqual(declared.map((e) => e.name).sort());
  const aliases = API_ROUTES.filter((r) => routePath(r) !== r.endpoint.path).map((r) => `${r.endpoint.method} ${routePath(r)}`);
  expect(aliases.sort()).toEqual(Object.keys(ALIASES).sort());
});

test("docs/coverage.md is the table generated from the code (run `npm run coverage`)", () => {
  expect(fs.readFileSync(path.join(REPO_ROOT, "docs/coverage.md"), "utf8")).toBe(renderCoverage(rows));
});

test("the endpoint table is kept in the form the spec importer writes (so an import diffs only real changes)", () => {
  expect(fs.readFileSync(path.join(REPO_ROOT, "emulator/core/spec-endpoints.ts"), "utf8")).toBe(renderSpecEndpointsModule(SPEC_ENDPOINTS));
});

/** The forms the spec's tables take, in the spec's own layout (excerpts of its Endpoints section). */
const SPEC_EXCERPT = [
  "# Cloud API",
  "## Endpoints",
  "### IP addresses",
  "| Method | Path | Scope | Input | Output and effects |",
  "|---|---|---|---|---|",
  "| POST | /networking/ipv4/assign | ips:read_write, computes:read_write | body | |",
  "| POST | /networking/ipv4/share | same | body | |",
  "| GET | /networking/vlans | - | | C |",
  "### Databases",
  "| Method | Path | Scope | Input | Output and effects |",
  "|---|---|---|---|---|",
  "| GET | /databases/{engine}/instances/{instanceId} | databases:read_only | | |",
  "| POST | /databases/mysql/instances/{instanceId}/credentials/reset | databases:read_write | none | |",
  "| GET | /databases/engines | none listed | | C |",
  "### Regions",
  "| Method | Path | Input | Output |",
  "|---|---|---|---|",
  "| GET | /regions | | C |",
  "## Errors",
  "| GET | /not/an/endpoint | - | | |",
].join("\n");

test("the spec importer reads every form of the spec's tables (`same`, `-`, `none listed`, `{engine}`, the MySQL-only table, no Scope column)", () => {
  // Written as one line per row ("METHOD /path scopes"), so this test does not count as exercising the endpoints.
  expect(parseSpecTables(SPEC_EXCERPT).map((e) => `${key(e)} ${e.scopes.join(",")}`)).toEqual([
    "POST /networking/ipv4/assign ips:read_write,computes:read_write",
    "POST /networking/ipv4/share ips:read_write,computes:read_write",
    "GET /networking/vlans ",
    "GET /databases/mysql/instances/{instanceId} databases:read_only",
    "GET /databases/postgresql/instances/{instanceId} databases:read_only",
    "POST /databases/mysql/instances/{instanceId}/credentials/reset databases:read_write",
    "POST /databases/postgresql/instances/{instanceId}/credentials/reset databases:read_write",
    "GET /databases/engines ",
    "GET /regions ",
  ]);
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
