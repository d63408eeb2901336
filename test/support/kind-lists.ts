/**
 * The lists kept by hand beside the spec table (`provider/generated/spec-table.ts`), each checked
 * against it: given the spec table, the sdk's endpoints and the package's exports, what every list
 * lacks, one line per missing entry saying which kind, which list, where it is and what to add.
 * `test/checks/kind-lists.test.ts` runs them on the real table, and on the table with a fake kind.
 *
 * Lists derived from the spec table need no check here: the generated classes, the plugin's schema,
 * the reference pages and their index (`scripts/docs/`), the policy pack's tagged kinds, the
 * plugin's data functions (by file name), the mocks and both doors (through `Serving`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { AnyEndpoint } from "../../sdk/core/endpoint";
import type { AnySpec } from "../../provider/engine/spec";
import { DATA_FUNCTIONS } from "../../provider/engine/field-names";
import { AREAS, NOT_IMPORTED } from "../../provider/cli/import/account";
import { KINDS, NOT_YET, unmodelledKinds } from "./fuzz/kinds";
import { REPO_ROOT } from "./engine";

/** What the checks read: the spec table, the sdk's endpoint table, and the names `provider/index.ts` exports. */
export interface KindTables {
  specs: Readonly<Record<string, AnySpec>>;
  endpoints: readonly AnyEndpoint[];
  exported: ReadonlySet<string>;
}

/**
 * The kinds whose objects a data function of another name reads (every other kind has its own
 * `get<Kind>`): what a program calls to read one it does not own.
 */
export const READ_BY: Readonly<Record<string, string>> = {
  DomainRecordSet: "getDomainRecords",
  FirewallDevice: "getFirewall",
  FirewallRule: "getFirewall",
  ReverseDns: "getIps",
  DatabaseAllowListEntry: "getMysqlDatabase",
};

/** Each kind has a data function that reads its objects, exported by the package. */
function dataFunctions({ specs, exported }: KindTables): string[] {
  const gone = Object.keys(READ_BY).filter((kind) => !(kind in specs));
  const missing = Object.keys(specs).flatMap((kind) => {
    const fn = READ_BY[kind] ?? `get${kind}`;
    if (exported.has(fn) && exported.has(`${fn}Output`)) return [];
    return [
      `${kind}: no data function ${fn} (with ${fn}Output) exported by provider/index.ts: write it in provider/functions/<area>.ts` +
        ` (outputForm for its Output form), or name the function that reads its objects in READ_BY (test/support/kind-lists.ts)`,
    ];
  });
  return [...missing, ...gone.map((kind) => `READ_BY (test/support/kind-lists.ts) names ${kind}, which the spec table lacks`)];
}

/** A listing: a paginated GET without path parameters (`GET /vpcs`), which a reason may cite. */
const isListing = (e: AnyEndpoint) => e.method === "GET" && e.paginated === true && !e.path.includes("{");
/** `getDatabases({ engine: "mysql" })` → `getDatabases`. */
const functionName = (call: string) => call.replace(/\(.*$/, "");

/** Every listing a kind reads has the data function that answers it in `DATA_FUNCTIONS`, and each of those is exported. */
function listings({ specs, endpoints, exported }: KindTables): string[] {
  const byName = new Map(endpoints.map((e) => [e.name, e]));
  const missing = Object.values(specs).flatMap((spec) =>
    spec.endpoints.read.flatMap((name) => {
      const endpoint = byName.get(name);
      if (!endpoint || !isListing(endpoint) || endpoint.path in DATA_FUNCTIONS) return [];
      return [
        `${spec.name}: DATA_FUNCTIONS (provider/engine/field-names.ts) has no data function for GET ${endpoint.path} (${name}),` +
          ` which the kind reads: add the function that lists it, so a reason citing the listing names it`,
      ];
    }),
  );
  const unexported = Object.entries(DATA_FUNCTIONS).flatMap(([listing, call]) =>
    exported.has(functionName(call)) ? [] : [`DATA_FUNCTIONS names ${call} for GET ${listing}, which provider/index.ts does not export`],
  );
  return [...new Set(missing), ...unexported];
}

/** Each kind is written by an area of the importer (`compute-import`), or is in `NOT_IMPORTED` with its reason. */
function importer({ specs }: KindTables): string[] {
  const written = new Set(AREAS.flatMap((area) => area.kinds));
  const missing = Object.keys(specs).flatMap((kind) =>
    written.has(kind) || kind in NOT_IMPORTED
      ? []
      : [
          `${kind}: no area of the importer writes it: add it to an area's kinds in AREAS (provider/cli/import/account.ts)` +
            ` and read its objects there, or say why in NOT_IMPORTED`,
        ],
  );
  const gone = [...written, ...Object.keys(NOT_IMPORTED)].filter((kind) => !(kind in specs));
  return [...missing, ...gone.map((kind) => `the importer (provider/cli/import/account.ts) names ${kind}, which the spec table lacks`)];
}

/** Each kind is modelled by the fuzzer or in its `NOT_YET` with the reason. */
function fuzzer({ specs }: KindTables): string[] {
  const missing = unmodelledKinds(Object.keys(specs)).map(
    (kind) => `${kind}: the fuzzer neither models it (KINDS) nor says why not (NOT_YET) in test/support/fuzz/kinds.ts`,
  );
  const gone = [...KINDS.map((k) => k.kind), ...Object.keys(NOT_YET)].filter((kind) => !(kind in specs));
  return [...missing, ...gone.map((kind) => `the fuzzer (test/support/fuzz/kinds.ts) names ${kind}, which the spec table lacks`)];
}

/** The data function modules: every file of provider/functions/ that exports a `get…` function is re-exported whole by provider/index.ts. */
export function functionModules(index = fs.readFileSync(path.join(REPO_ROOT, "provider/index.ts"), "utf8")): string[] {
  const dir = path.join(REPO_ROOT, "provider/functions");
  return fs.readdirSync(dir).flatMap((file) => {
    const module = file.replace(/\.ts$/, "");
    const source = fs.readFileSync(path.join(dir, file), "utf8");
    if (!/^export (async )?function get[A-Z]/m.test(source) || index.includes(`export * from "./functions/${module}";`)) return [];
    return [
      `provider/functions/${file} exports data functions, which provider/index.ts does not: add export * from "./functions/${module}";`,
    ];
  });
}

/** What every list kept beside the spec table lacks. */
export function missingFromKindLists(tables: KindTables): string[] {
  return [...dataFunctions(tables), ...listings(tables), ...importer(tables), ...fuzzer(tables)];
}
