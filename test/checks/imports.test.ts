/**
 * The tree's imports: no cycles anywhere (type-only imports included), and the layers point down —
 * the sdk imports no other layer, the emulator and the provider import the sdk and never each other;
 * inside the sdk, the service rules import only its core; inside the provider, the engine imports
 * no door, no serving layer and no spec table, and the serving layer no door.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { PROVIDER_LAYERS, cycles, importGraph, layerViolations, specifiersOf, type ImportGraph } from "../../scripts/checks/imports";
import { REPO_ROOT } from "../support/engine";

const graph = importGraph(REPO_ROOT);

test("the import graph covers every layer", () => {
  const layers = new Set([...graph.keys()].map((file) => file.split("/")[0]));
  expect([...layers].sort()).toEqual(["bench", "emulator", "examples", "provider", "scripts", "sdk", "test"]);
  expect(graph.get("provider/registry.ts")).toContain("provider/serve/providers.ts");
  expect(graph.get("provider/serve/providers.ts")).toContain("provider/engine/engine.ts");
});

test("no source file takes part in an import cycle", () => {
  expect(cycles(graph).map((group) => group.join(" ↔ "))).toEqual([]);
});

test("the layers point down: sdk ← emulator, sdk ← provider, both ← provider/testing, and nothing upward", () => {
  expect(layerViolations(graph)).toEqual([]);
});

test("inside the sdk: the service rules (sdk/rules/) import only sdk/core, never the client's areas", () => {
  const rules = [...graph].filter(([file]) => file.startsWith("sdk/rules/"));
  expect(rules.map(([file]) => file)).toEqual(expect.arrayContaining(["sdk/rules/vpcs.ts", "sdk/rules/ips.ts", "sdk/rules/support.ts"]));
  const outside = rules.flatMap(([file, targets]) => targets.filter((t) => !t.startsWith("sdk/core/")).map((t) => `${file} → ${t}`));
  expect(outside).toEqual([]);
});

test("the provider's inner layers name folders only, each once", () => {
  const entries = PROVIDER_LAYERS.flat();
  expect(new Set(entries).size).toBe(entries.length);
  expect(entries.filter((entry) => !fs.statSync(path.join(REPO_ROOT, entry), { throwIfNoEntry: false })?.isDirectory())).toEqual([]);
});

test("inside the provider: engine ← specs and stores ← serving layer ← doors, and the engine imports only itself and the sdk", () => {
  const engine = [...graph].filter(([file]) => file.startsWith("provider/engine/"));
  expect(engine.length).toBeGreaterThan(10);
  const outside = engine.flatMap(([file, targets]) =>
    targets.filter((t) => !t.startsWith("provider/engine/") && !t.startsWith("sdk/")).map((t) => `${file} → ${t}`),
  );
  expect(outside).toEqual([]);
});

describe("the checker itself", () => {
  test("finds every kind of import, type-only ones included", () => {
    const text = [
      'import type { A } from "./a";',
      'import { b } from "../b";',
      'export { c } from "./c";',
      'export * from "./d";',
      'type E = import("./e").E;',
      'const f = require("./f");',
      'import g = require("./g");',
      'const h = await import("./h");',
      'import * as fs from "node:fs";',
    ].join("\n");
    expect(specifiersOf(text)).toEqual(["./a", "../b", "./c", "./d", "./e", "./f", "./g", "./h", "node:fs"]);
  });

  test("reports a circle once, with every file on it, and a file importing itself", () => {
    const g: ImportGraph = new Map([
      ["sdk/a.ts", ["sdk/b.ts"]],
      ["sdk/b.ts", ["sdk/c.ts"]],
      ["sdk/c.ts", ["sdk/a.ts", "sdk/d.ts"]],
      ["sdk/d.ts", []],
      ["sdk/e.ts", ["sdk/e.ts"]],
    ]);
    expect(cycles(g)).toEqual([["sdk/a.ts", "sdk/b.ts", "sdk/c.ts"], ["sdk/e.ts"]]);
  });

  test("names an import that points up or sideways", () => {
    const g: ImportGraph = new Map([
      ["sdk/a.ts", ["provider/x.ts"]],
      ["emulator/b.ts", ["sdk/a.ts", "provider/x.ts"]],
      ["provider/x.ts", ["sdk/a.ts"]],
      ["examples/y.ts", ["emulator/b.ts", "provider/x.ts"]],
    ]);
    expect(layerViolations(g)).toEqual(["emulator/b.ts → provider/x.ts", "sdk/a.ts → provider/x.ts"]);
  });

  test("a folder named as a layer of its own: the testing door may use the provider and the emulator, nothing below it may use it", () => {
    const g: ImportGraph = new Map([
      ["provider/testing/mocks.ts", ["provider/engine/engine.ts", "emulator/index.ts", "sdk/client.ts"]],
      ["provider/engine/engine.ts", ["provider/testing/mocks.ts"]],
      ["emulator/index.ts", []],
      ["sdk/client.ts", []],
    ]);
    expect(layerViolations(g)).toEqual(["provider/engine/engine.ts → provider/testing/mocks.ts"]);
  });

  test("the provider's inner layers: an import up from the engine, the specs or the serving layer is named", () => {
    const g: ImportGraph = new Map([
      // upward: each one is named
      ["provider/engine/engine.ts", ["provider/host/diff-response.ts", "provider/serve/row-log.ts", "provider/engine/spec.ts"]],
      ["provider/engine/managed-drift.ts", ["provider/generated/spec-table.ts"]],
      ["provider/engine/ownership.ts", ["provider/stores/backend-store.ts"]],
      ["provider/resources/vpc.ts", ["provider/serve/config.ts", "provider/engine/spec.ts"]],
      [
        "provider/serve/providers.ts",
        ["provider/registry.ts", "provider/plugin/server.ts", "provider/generated/spec-table.ts", "provider/engine/engine.ts"],
      ],
      // downward or level: allowed
      ["provider/generated/spec-table.ts", ["provider/resources/vpc.ts", "provider/engine/spec.ts"]],
      ["provider/registry.ts", ["provider/serve/providers.ts", "provider/host/diff-response.ts", "provider/engine/engine.ts"]],
      ["provider/plugin/server.ts", ["provider/serve/providers.ts"]],
      ["provider/host/diff-response.ts", ["provider/engine/detailed-diff.ts"]],
      ["provider/serve/row-log.ts", ["provider/engine/ports.ts"]],
      ["provider/engine/spec.ts", []],
      ["provider/engine/detailed-diff.ts", []],
      ["provider/engine/ports.ts", []],
      ["provider/serve/config.ts", []],
      ["provider/stores/backend-store.ts", ["provider/engine/ports.ts"]],
      ["provider/serve/serving-context.ts", ["provider/stores/backend-store.ts", "provider/stores/scopes-log.ts"]],
      ["provider/stack/recovery.ts", ["provider/serve/serving-context.ts", "provider/stores/backend-store.ts"]],
    ]);
    expect(layerViolations(g)).toEqual([
      "provider/engine/engine.ts → provider/host/diff-response.ts",
      "provider/engine/engine.ts → provider/serve/row-log.ts",
      "provider/engine/managed-drift.ts → provider/generated/spec-table.ts",
      "provider/engine/ownership.ts → provider/stores/backend-store.ts",
      "provider/resources/vpc.ts → provider/serve/config.ts",
      "provider/serve/providers.ts → provider/plugin/server.ts",
      "provider/serve/providers.ts → provider/registry.ts",
    ]);
  });
});
