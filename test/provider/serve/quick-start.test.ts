/**
 * A provider process's quick start (`provider/serve/quick-start.ts`), on the pinned `@pulumi/pulumi`,
 * each case in a Node process of its own (as the launchers start one):
 *
 * - the pinned runtime loads TypeScript and `@npmcli/arborist` at once, and its index the Automation
 *   API (when it stops, this fails loudly: the deferral is then moot, or must follow where they moved);
 * - deferred, the SDK loads without any of them, and what uses them gets the real modules
 *   (`serializeFunction` parses a function with TypeScript; arborist's `Arborist` is the real class;
 *   `pulumi.automation.LocalWorkspace` is the real class);
 * - a module that is loaded already keeps its own way of loading, and the process says so once;
 * - the compile cache goes into the `node_modules` that holds `@pulumi/pulumi`, never outside one.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { DEFERRED, compileCacheDir, saySlowStart } from "../../../provider/serve/quick-start";

const ROOT = path.resolve(__dirname, "../../..");
const PULUMI = path.join(ROOT, "node_modules/@pulumi/pulumi");
const QUICK_START = path.join(ROOT, "dist/provider/serve/quick-start.js");

interface Report {
  skipped: string[];
  /** Which of `DEFERRED` were really loaded once the runtime had loaded. */
  loadedWithRuntime: string[];
  serialized?: string;
  loadedAfterUse?: string[];
  arboristIsReal?: boolean;
  automationIsReal?: boolean;
}

/** Runs `script` (which sees `qs`, `PULUMI`, `real(id)`, `loaded()`) in a fresh Node process and returns what it reports. */
function inProcess(script: string): Report {
  const prelude = `
    const path = require("node:path");
    const { createRequire } = require("node:module");
    const qs = require(${JSON.stringify(QUICK_START)});
    const PULUMI = ${JSON.stringify(PULUMI)};
    const DEFERRED = ${JSON.stringify(DEFERRED)};
    const fileOf = ({ id, from }) => createRequire(path.join(PULUMI, from)).resolve(id);
    // Really loaded: in the module cache, and not as a stand-in (a proxy).
    const loaded = () => DEFERRED.filter((d) => { const m = require.cache[fileOf(d)]; return m !== undefined && !require("node:util").types.isProxy(m.exports); }).map((d) => d.id);
    const report = (r) => process.stdout.write(JSON.stringify(r));
  `;
  const run = spawnSync(process.execPath, ["-e", prelude + script], {
    encoding: "utf8",
    cwd: ROOT,
    env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: "1" },
  });
  if (run.status !== 0) throw new Error(`the process failed:\n${run.stderr}`);
  return JSON.parse(run.stdout) as Report;
}

describe("a provider process's quick start", () => {
  it("is needed: the pinned SDK loads TypeScript, arborist and the Automation API at once", () => {
    const report = inProcess(`
      require(PULUMI);
      report({ skipped: [], loadedWithRuntime: loaded() });
    `);
    expect(report.loadedWithRuntime.sort()).toEqual(DEFERRED.map((d) => d.id).sort());
  });

  it("defers them, and whatever uses them gets the real modules", () => {
    const report = inProcess(`
      const skipped = qs.deferUnused(path.join(PULUMI, "package.json"));
      const pulumi = require(PULUMI);
      const loadedWithRuntime = loaded();
      pulumi.runtime.serializeFunction(() => 6 * 7).then((closure) => {
        const arborist = require.cache[fileOf(DEFERRED[1])].exports;
        const real = createRequire(path.join(PULUMI, DEFERRED[1].from))(DEFERRED[1].id);
        const loadedAfterUse = loaded();
        const automationIsReal = typeof pulumi.automation.LocalWorkspace === "function" && pulumi.automation.LocalWorkspace === require(path.join(PULUMI, "automation")).LocalWorkspace;
        report({ skipped, loadedWithRuntime, serialized: closure.text, loadedAfterUse, arboristIsReal: arborist.Arborist === real.Arborist && typeof real.Arborist === "function", automationIsReal });
      });
    `);
    expect(report.skipped).toEqual([]);
    expect(report.loadedWithRuntime).toEqual([]);
    expect(report.serialized).toContain("6 * 7");
    expect(report.loadedAfterUse).toEqual(["typescript"]);
    expect(report.arboristIsReal).toBe(true);
    expect(report.automationIsReal).toBe(true);
  });

  it("leaves a module loaded already as it is, and says so once", () => {
    const report = inProcess(`
      createRequire(path.join(PULUMI, DEFERRED[0].from))(DEFERRED[0].id);
      const skipped = qs.deferUnused(path.join(PULUMI, "package.json"));
      report({ skipped, loadedWithRuntime: [] });
    `);
    expect(report.skipped).toEqual(["typescript is loaded already"]);
    const said: string[] = [];
    saySlowStart(report.skipped, (line) => said.push(line));
    expect(said).toEqual([
      "pulumi-compute: this provider process starts about 0.4 s slower than it could: typescript is loaded already, so it loads at once instead of when first used",
    ]);
    saySlowStart([], (line) => said.push(line));
    expect(said).toHaveLength(1);
  });

  it("caches compiled code in the node_modules that holds @pulumi/pulumi, and nowhere else", () => {
    expect(compileCacheDir(path.join(PULUMI, "package.json"))).toBe(path.join(ROOT, "node_modules/.cache/pulumi-compute/compile"));
    expect(compileCacheDir("/opt/pulumi/package.json")).toBeUndefined();
  });
});
