/**
 * Which endpoints the spec lists, and which sdk method, emulator route and tests serve each — all
 * read from the code, so the coverage table cannot drift from it. The sdk column comes from the
 * sdk's endpoint declarations (`ENDPOINTS`), the emulator column from the routes that reference them.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { endpointAccessor, type AnyEndpoint } from "../../sdk/core/endpoint";
import { ENDPOINTS } from "../../sdk/endpoints";
import type { SpecEndpointRow } from "../../emulator/core/spec-endpoints";

/** A row of the spec's endpoint tables, as far as the coverage columns need it. */
export interface SpecEndpoint {
  method: string;
  /** As the spec writes it, e.g. `/vpcs/{vpcId}/subnets`. */
  path: string;
}

/** `{vpcId}` and `{id}` name the same slot. */
export function slotKey(endpoint: SpecEndpoint): string {
  return `${endpoint.method} ${endpoint.path.replace(/\{[^}]*\}/g, "{}")}`;
}

/** The "Endpoints" section of the spec. */
function endpointsSection(markdown: string): string {
  const start = markdown.indexOf("\n## Endpoints");
  const end = markdown.indexOf("\n## ", start + 1);
  return markdown.slice(start, end === -1 ? undefined : end);
}

const ROW = /^\|\s*(GET|POST|PUT|DELETE)\s*\|\s*(\/[^\s|]+)\s*\|/;

/**
 * The rows of every endpoint table in the spec's "Endpoints" section, with the OAuth scopes each
 * lists: `-` and `none listed` are none, `same` repeats the row above, a table without a Scope
 * column (Regions) lists none. `{engine}` is expanded to both engines, and the MySQL-only table to
 * its PostgreSQL equivalents (api-facts P4-2). Used only to import a new revision of the spec into
 * the repository's table (`emulator/core/spec-endpoints.ts`).
 */
export function parseSpecTables(markdown: string): SpecEndpointRow[] {
  const rows = new Map<string, SpecEndpointRow>();
  let scopeColumn = -1;
  let previous: string[] = [];
  for (const line of endpointsSection(markdown).split("\n")) {
    const cells = line.split("|").slice(1, -1).map((c) => c.trim());
    if (cells[0] === "Method") scopeColumn = cells.indexOf("Scope");
    const match = ROW.exec(line);
    if (!match) continue;
    const [, method, specPath] = match as unknown as [string, SpecEndpointRow["method"], string];
    const text = scopeColumn === -1 ? "-" : cells[scopeColumn]!;
    const listed = text === "same" ? previous : text === "-" || text === "none listed" ? [] : text.split(/,\s*/);
    previous = listed;
    for (const p of expandEngines(specPath)) if (!rows.has(`${method} ${p}`)) rows.set(`${method} ${p}`, { method, path: p, scopes: listed });
  }
  return [...rows.values()];
}

function expandEngines(specPath: string): string[] {
  if (specPath.includes("{engine}")) return ["mysql", "postgresql"].map((e) => specPath.replace("{engine}", e));
  if (specPath.startsWith("/databases/mysql/")) return [specPath, specPath.replace("/databases/mysql/", "/databases/postgresql/")];
  return [specPath];
}

// ---------------------------------------------------------------------------------------------
// sdk: the declared endpoints of a spec row's slot, and the `ComputeClient` methods that call them

/** The sdk's endpoints in a spec row's slot (`{vpcId}` and `{id}` alike). */
export function sdkEndpointsOf(row: SpecEndpoint, endpoints: readonly AnyEndpoint[] = ENDPOINTS): AnyEndpoint[] {
  const key = slotKey(row);
  return endpoints.filter((e) => slotKey(e) === key);
}

/** `client.vpcs.subnets.create`: the methods that call a spec row's endpoints. */
export function sdkCalls(row: SpecEndpoint, endpoints: readonly AnyEndpoint[] = ENDPOINTS): string[] {
  return [...new Set(sdkEndpointsOf(row, endpoints).map((e) => `client.${endpointAccessor(e)}`))];
}

// ---------------------------------------------------------------------------------------------
// tests: a test exercises an endpoint when it calls its path with its method, calls its sdk
// method, or drives a provider resource or function whose code calls that sdk method

const METHOD_MARKERS: Record<string, RegExp> = {
  GET: /(\.get\s*[(<]|"GET"|'GET')/,
  POST: /(\.post\s*[(<]|"POST"|'POST'|\battach\()/,
  PUT: /(\.put\s*[(<]|"PUT"|'PUT')/,
  DELETE: /(\.del\s*[(<]|\.delete\s*[(<]|"DELETE"|'DELETE')/,
};

function pathPattern(specPath: string): RegExp {
  const body = specPath
    .split(/\{[^}]*\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))
    .join("(?:\\$\\{[^}]+\\}|[A-Za-z0-9_.:%-]+(?:/[A-Za-z0-9_.:%-]+)?)")
    // The spec's `{engine}` slot, expanded to one engine per row, may be interpolated in a test.
    .replace(/\/databases\/(mysql|postgresql)\//, "/databases/(?:$1|\\$\\{[^}]+\\})/");
  return new RegExp(`["'\`/](?:\\$\\{[^}]+\\})?(?:/v4)?${body}(?=["'\`?])`);
}

/** Provider files → the sdk calls their hooks make and the names tests use to drive them. */
function providerDrivers(root: string): Array<{ names: string[]; calls: string[] }> {
  const drivers: Array<{ names: string[]; calls: string[] }> = [];
  for (const dir of ["provider/resources", "provider/functions"]) {
    const full = path.join(root, dir);
    if (!fs.existsSync(full)) continue;
    for (const file of fs.readdirSync(full).filter((f) => f.endsWith(".ts"))) {
      const text = fs.readFileSync(path.join(full, file), "utf8");
      const calls = [...text.matchAll(/client(?:\(\))?\.([a-zA-Z.]+)\(/g)].map((m) => `client.${m[1]}`);
      // A resource is named by its spec (its class is generated); a data function by its export.
      const names = [
        ...[...text.matchAll(/^\s*name: "([A-Z]\w+)"/gm)].map((m) => m[1]!),
        ...[...text.matchAll(/export (?:async )?function (\w+)/g)].map((m) => m[1]!),
      ];
      if (calls.length && names.length) drivers.push({ names, calls });
    }
  }
  return drivers;
}

export function testsExercising(
  root: string,
  endpoint: SpecEndpoint,
  sdkCalls: string[],
  testFiles: Map<string, string>,
  drivers = providerDrivers(root),
): string[] {
  const pattern = pathPattern(endpoint.path);
  const marker = METHOD_MARKERS[endpoint.method]!;
  // `listAll()` pages through `list()`, so either name exercises a collection endpoint.
  const names = [...sdkCalls, ...sdkCalls.filter((c) => c.endsWith(".list")).map((c) => `${c}All`)];
  const calls = names.map((c) => c.replace(/^client\./, ""));
  const drivenBy = drivers.filter((d) => d.calls.some((c) => names.includes(c)));
  const hits: string[] = [];
  for (const [file, raw] of testFiles) {
    const text = inlineConstants(raw);
    const byPath = text.split("\n").some((line) => pattern.test(line) && marker.test(line));
    const bySdk = calls.some((c) => text.includes(`.${c}(`));
    const byProvider = drivenBy.some((d) => d.names.some((n) => new RegExp(`\\b(new ${n}\\(|${n}\\(|provider\\("${n}"\\))`).test(text)));
    if (byPath || bySdk || byProvider) hits.push(file);
  }
  return hits.sort();
}

/** Substitutes a file's simple string constants (`const BASE = "/databases/mysql/instances"`) into `${BASE}` uses. */
function inlineConstants(text: string): string {
  const constants = new Map<string, string>();
  for (const m of text.matchAll(/\bconst ([A-Za-z_$][\w$]*)\s*=\s*["'`]([^"'`$\n]*)["'`]/g)) constants.set(m[1]!, m[2]!);
  if (constants.size === 0) return text;
  return text
    .replace(/\$\{([A-Za-z_$][\w$]*)\}/g, (whole, name: string) => constants.get(name) ?? whole)
    // A constant passed as a call argument on its own: `emu.get(BASE)`.
    .replace(/([(,]\s*)([A-Za-z_$][\w$]*)(?=\s*[,)])/g, (whole, lead: string, name: string) => (constants.has(name) ? `${lead}"${constants.get(name)}"` : whole));
}

/** The test files, and the replay modules the emulator's fixture test runs (`replays.ts` under `test/emulator`). */
export function readTests(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".test.ts") || entry.name === "replays.ts") {
        files.set(path.relative(root, full), fs.readFileSync(full, "utf8"));
      }
    }
  };
  walk(path.join(root, "test"));
  return files;
}
