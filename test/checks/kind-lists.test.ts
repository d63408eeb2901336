/**
 * No list a new kind can miss: every list kept beside the spec table names every kind of it
 * (`test/support/kind-lists.ts`), the derived ones follow it, and a kind added to the spec table
 * alone makes the checks say exactly what is missing and where.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ENDPOINTS } from "../../sdk/endpoints";
import type { AnyEndpoint } from "../../sdk/core/endpoint";
import type { AnySpec } from "../../provider/engine/spec";
import { RESOURCE_SPECS } from "../../provider/generated/spec-table";
import * as compute from "../../provider";
import { indexPage } from "../../scripts/docs/reference";
import { REPO_ROOT } from "../support/engine";
import { functionModules, missingFromKindLists, type KindTables } from "../support/kind-lists";

const specs: Record<string, AnySpec> = Object.fromEntries(Object.keys(RESOURCE_SPECS).map((kind) => [kind, RESOURCE_SPECS[kind]!]));
const real: KindTables = { specs, endpoints: ENDPOINTS, exported: new Set(Object.keys(compute)) };

/** A kind of a new area, added to the spec table and nowhere else: its spec, and its area's listing in the sdk. */
const fake: AnySpec = { ...specs.Vpc!, name: "Fake", endpoints: { read: ["fakes.list", "fakes.get"], write: ["fakes.create"] } };
const fakeListing = { name: "fakes.list", service: "fakes", method: "GET", path: "/fakes", paginated: true } as unknown as AnyEndpoint;
const withFake: KindTables = { ...real, specs: { ...specs, Fake: fake }, endpoints: [...ENDPOINTS, fakeListing] };

test("every list kept beside the spec table names every kind of it", () => {
  expect(missingFromKindLists(real)).toEqual([]);
});

test("a kind added to the spec table alone: each list says that it lacks it, where, and what to add", () => {
  expect(missingFromKindLists(withFake)).toEqual([
    "Fake: no data function getFake (with getFakeOutput) exported by provider/index.ts: write it in provider/functions/<area>.ts" +
      " (outputForm for its Output form), or name the function that reads its objects in READ_BY (test/support/kind-lists.ts)",
    "Fake: DATA_FUNCTIONS (provider/engine/field-names.ts) has no data function for GET /fakes (fakes.list), which the kind reads:" +
      " add the function that lists it, so a reason citing the listing names it",
    "Fake: no area of the importer writes it: add it to an area's kinds in AREAS (provider/cli/import/account.ts)" +
      " and read its objects there, or say why in NOT_IMPORTED",
    "Fake: the fuzzer neither models it (KINDS) nor says why not (NOT_YET) in test/support/fuzz/kinds.ts",
  ]);
});

test("a kind the spec table lost, still named by a list, is named", () => {
  const { FirewallRule: _gone, ...without } = specs;
  expect(missingFromKindLists({ ...real, specs: without })).toEqual([
    "READ_BY (test/support/kind-lists.ts) names FirewallRule, which the spec table lacks",
    "the importer (provider/cli/import/account.ts) names FirewallRule, which the spec table lacks",
    "the fuzzer (test/support/fuzz/kinds.ts) names FirewallRule, which the spec table lacks",
  ]);
});

test("every module of data functions is exported whole by the package, and one left out is named", () => {
  expect(functionModules()).toEqual([]);
  const index = fs.readFileSync(path.join(REPO_ROOT, "provider/index.ts"), "utf8");
  expect(functionModules(index.replace('export * from "./functions/vlans";\n', ""))).toEqual([
    'provider/functions/vlans.ts exports data functions, which provider/index.ts does not: add export * from "./functions/vlans";',
  ]);
});

test("the reference's index is derived from the specs: a new kind has its row", () => {
  expect(indexPage([...Object.values(specs), fake], [])).toContain(
    "| [`Fake`](fake.md) | A VPC: a private virtual network in one region, holding subnets. |",
  );
});
