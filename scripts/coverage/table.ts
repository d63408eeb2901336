/**
 * Builds the coverage table: every spec endpoint with its sdk method, emulator route and tests. The
 * endpoints come from the repository's own table (`emulator/core/spec-endpoints.ts`), never from a
 * file outside the repository, so `npm run generate` works in a plain clone.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { API_PREFIX, routePath } from "../../emulator/core/routes";
import { SPEC_ENDPOINTS, type SpecEndpointRow } from "../../emulator/core/spec-endpoints";
import { API_ROUTES } from "../../emulator/services";
import { type SpecEndpoint, readTests, sdkCalls, sdkEndpointsOf, testsExercising } from "./endpoints";

/** A spec endpoint and what serves it in each layer. */
export interface CoverageRow extends SpecEndpoint {
  sdk: string[];
  emulator: string[];
  tests: string[];
}

/** The repository root, from the sources or from `dist/`. */
export const REPO_ROOT = (() => {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "package.json")) && fs.existsSync(path.join(dir, "sdk"))) return dir;
  }
  throw new Error(`no repository root above ${__dirname}`);
})();

export function coverageRows(root = REPO_ROOT, endpoints: readonly SpecEndpoint[] = SPEC_ENDPOINTS): CoverageRow[] {
  const tests = readTests(root);
  return endpoints.map(({ method, path: specPath }) => {
    const endpoint = { method, path: specPath };
    const calls = sdkCalls(endpoint);
    return {
      ...endpoint,
      sdk: calls,
      emulator: emulatorRoutesOf(endpoint),
      tests: testsExercising(root, endpoint, calls, tests),
    };
  });
}

/** The emulator's routes that serve a spec row: those referencing one of its sdk endpoints (aliases included). */
export function emulatorRoutesOf(row: SpecEndpoint): string[] {
  const declared = sdkEndpointsOf(row);
  return API_ROUTES.filter((r) => declared.includes(r.endpoint)).map((r) => `${r.endpoint.method} ${API_PREFIX}${routePath(r)}`);
}

/** The table as Markdown, the text kept in `docs/coverage.md`. */
export function renderCoverage(rows: CoverageRow[]): string {
  const cell = (items: string[], max = 3) =>
    items.length === 0 ? "**missing**" : items.slice(0, max).map((i) => `\`${i}\``).join("<br>") + (items.length > max ? `<br>+${items.length - max} more` : "");
  const complete = rows.filter((r) => r.sdk.length && r.emulator.length && r.tests.length).length;
  return [
    "# Endpoint coverage",
    "",
    "Generated from the code by `npm run coverage` (`scripts/coverage/`): the sdk column from the sdk's endpoint declarations",
    "(`ENDPOINTS`, `sdk/endpoints.ts`), the emulator column from the routes that reference them, the tests column from the test files.",
    "`test/coverage/coverage.test.ts` fails when this file is out of date or when an endpoint of the spec's tables lacks an sdk",
    "method, an emulator route or a test.",
    "The database endpoints are listed for both engines (api-facts P4-2).",
    "",
    `${complete} of ${rows.length} endpoints are covered in all three columns.`,
    "",
    "| method | path | sdk | emulator | tests |",
    "|---|---|---|---|---|",
    ...rows.map((r) => `| ${r.method} | \`${r.path}\` | ${cell(r.sdk, 2)} | ${cell(r.emulator, 1)} | ${cell(r.tests)} |`),
    "",
  ].join("\n");
}

/**
 * The repository's endpoint table as the TypeScript module it is kept in. `npm run coverage --
 * --import-spec <cloud-api-v4.md>` writes it from a new revision of the spec's tables; the test
 * keeps the file in this exact form, so an import shows only real changes in its diff.
 */
export function renderSpecEndpointsModule(endpoints: readonly SpecEndpointRow[]): string {
  const scopes = (list: readonly string[]) => `[${list.map((s) => `"${s}"`).join(", ")}]`;
  return [
    "/**",
    " * Every endpoint of the API spec's tables (`{engine}` expanded to both engines, the MySQL-only table",
    " * to its PostgreSQL equivalents, api-facts P4-2) with the OAuth scopes the spec lists for it. The",
    " * repository owns this table: the emulator answers 501 in the error envelope for any of these it",
    " * does not implement, and `npm run generate` builds `docs/coverage.md` from it without reading the",
    " * spec. When the spec changes, `npm run coverage -- --import-spec <path to cloud-api-v4.md>`",
    " * rewrites it from the spec's tables; review the diff. `test/coverage` keeps its form.",
    " */",
    'import type { HttpMethod } from "./routes";',
    "",
    "/** One row of the spec's endpoint tables. */",
    "export interface SpecEndpointRow {",
    "  method: HttpMethod;",
    "  /** As the spec writes it, e.g. `/vpcs/{vpcId}/subnets`. */",
    "  path: string;",
    "  /** The scopes the spec's table lists (`-` and `none listed` are none, `same` repeats the row above). */",
    "  scopes: readonly string[];",
    "}",
    "",
    "export const SPEC_ENDPOINTS: readonly SpecEndpointRow[] = [",
    ...endpoints.map((e) => `  { method: "${e.method}", path: "${e.path}", scopes: ${scopes(e.scopes)} },`),
    "];",
    "",
  ].join("\n");
}
