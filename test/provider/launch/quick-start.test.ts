/**
 * A provider process's quick start (`provider/launch/quick-start.ts`), on the pinned `@pulumi/pulumi`,
 * each case in a Node process of its own (as the launchers start one):
 *
 * - the pinned runtime loads TypeScript and `@npmcli/arborist` at once, and its index the Automation
 *   API (when it stops, this fails loudly: the deferral is then moot, or must follow where they moved);
 * - deferred, the SDK loads without any of them, and what uses them gets the real modules
 *   (`serializeFunction` parses a function with TypeScript; arborist's `Arborist` is the real class;
 *   `pulumi.automation.LocalWorkspace` is the real class);
 * - a module that is loaded already keeps its own way of loading, and the process says so once;
 * - the compile cache goes into the `node_modules` that holds `@pulumi/pulumi`, never outside one;
 *   the provider processes' code in a folder of their own, also where `NODE_COMPILE_CACHE` is set
 *   for every process the engine starts (both launchers), since V8 rejects code cached under the
 *   flag Pulumi's closure serializer sets in a program's process.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEFERRED, PROVIDER_CACHE, START_NOTICE_ENV, compileCacheDir, saySlowStart } from "../../../provider/launch/quick-start";

const ROOT = path.resolve(__dirname, "../../..");
const PULUMI = path.join(ROOT, "node_modules/@pulumi/pulumi");
const QUICK_START = path.join(ROOT, "dist/provider/launch/quick-start.js");

/** This process's environment with Node's compile cache in `dir` (the suite may have turned it off). */
function withCache(dir: string): NodeJS.ProcessEnv {
  const { NODE_DISABLE_COMPILE_CACHE: _off, ...env } = process.env;
  return { ...env, NODE_COMPILE_CACHE: dir };
}

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

  it("defers zod's locales: the schemas load and speak English without them, and z.locales is the real module once touched", () => {
    const report = inProcess(`
      const skipped = qs.deferUnused(path.join(PULUMI, "package.json"));
      // Really loaded: in the module cache, and not as a stand-in (a proxy); English is zod's own default.
      const locales = () => Object.keys(require.cache).filter((f) => f.includes("/zod/v4/locales/") && !f.endsWith("/en.cjs") && !require("node:util").types.isProxy(require.cache[f].exports)).length;
      const { z } = require("zod");
      const message = z.object({ n: z.number() }).safeParse({ n: "x" }).error.issues[0].message;
      const before = locales();
      const french = typeof z.locales.fr;
      report({ skipped, loadedWithRuntime: [], message, before, french, after: locales() > 40 });
    `);
    expect(report).toEqual({
      skipped: [],
      loadedWithRuntime: [],
      message: "Invalid input: expected number, received string",
      before: 0,
      french: "function",
      after: true,
    });
  });

  it("keeps zod's locales as they are where zod loaded first (the dynamic host's changes load the sdk), and says nothing of them", () => {
    const report = inProcess(`
      require("zod");
      const skipped = qs.deferUnused(path.join(PULUMI, "package.json"));
      const index = Object.keys(require.cache).find((f) => f.endsWith("/zod/v4/locales/index.cjs"));
      report({ skipped, loadedWithRuntime: [], real: !require("node:util").types.isProxy(require.cache[index].exports) });
    `);
    expect(report).toEqual({ skipped: [], loadedWithRuntime: [], real: true });
  });

  it("leaves a module loaded already as it is, and says so once", () => {
    const report = inProcess(`
      createRequire(path.join(PULUMI, DEFERRED[0].from))(DEFERRED[0].id);
      const skipped = qs.deferUnused(path.join(PULUMI, "package.json"));
      report({ skipped, loadedWithRuntime: [] });
    `);
    expect(report.skipped).toEqual(["typescript is loaded already"]);
    const said: string[] = [];
    // A user can do nothing about it: said to a maintainer who asks, never in a user's run.
    saySlowStart(report.skipped, (line) => said.push(line), {});
    expect(said).toEqual([]);
    saySlowStart(report.skipped, (line) => said.push(line), { [START_NOTICE_ENV]: "1" });
    expect(said).toEqual([
      "pulumi-compute: this provider process starts about 0.4 s slower than it could: typescript is loaded already, so it loads at once instead of when first used",
    ]);
    saySlowStart([], (line) => said.push(line), { [START_NOTICE_ENV]: "1" });
    expect(said).toHaveLength(1);
  });

  it("defers the SDK's own copy of TypeScript where the project has none (a Python, Go or YAML project)", () => {
    // @pulumi/pulumi alone (its files as hard links), where `typescript` cannot be found from it.
    const project = fs.mkdtempSync(path.join(os.tmpdir(), "pc-no-typescript-"));
    try {
      const copy = path.join(project, "node_modules/@pulumi/pulumi");
      fs.mkdirSync(path.dirname(copy), { recursive: true });
      expect(spawnSync("cp", ["-al", fs.realpathSync(PULUMI), copy]).status).toBe(0);
      const report = inProcess(`
        const copy = ${JSON.stringify(copy)};
        let typescriptFound = true;
        try { createRequire(path.join(copy, "typescript-shim.js")).resolve("typescript"); } catch { typescriptFound = false; }
        const skipped = qs.deferUnused(path.join(copy, "package.json"));
        const vendored = require.cache[path.join(copy, ${JSON.stringify(DEFERRED[0]!.orElse)})];
        const standIn = vendored !== undefined && require("node:util").types.isProxy(vendored.exports);
        // The shim falls back to it, and gets the real compiler at its first touch.
        const ts = require(path.join(copy, "typescript-shim.js"));
        report({ skipped, loadedWithRuntime: [], typescriptFound, standIn, version: ts.version });
      `);
      expect(report).toMatchObject({ typescriptFound: false, standIn: true, version: "3.8.3" });
      expect(report.skipped.filter((line) => line.startsWith("typescript"))).toEqual([]);
    } finally {
      fs.rmSync(project, { recursive: true, force: true });
    }
  });

  it("caches compiled code in the node_modules that holds @pulumi/pulumi, and nowhere else", () => {
    expect(compileCacheDir(path.join(PULUMI, "package.json"))).toBe(path.join(ROOT, "node_modules/.cache/pulumi-compute/compile"));
    expect(compileCacheDir("/opt/pulumi/package.json")).toBeUndefined();
  });

  it("needs a folder of its own: V8 rejects code cached before the flag Pulumi's closure serializer sets, and the other way round", () => {
    // The flag and where the pinned SDK sets it (when a program first serializes a function).
    const closure = fs.readFileSync(path.join(PULUMI, "runtime/closure/v8.js"), "utf8");
    expect(closure).toContain('v8.setFlagsFromString("--allow-natives-syntax")');
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), "pc-compile-cache-"));
    try {
      const rejected = (flagFirst: boolean) => {
        const script = `${flagFirst ? 'require("node:v8").setFlagsFromString("--allow-natives-syntax");' : ""} require("zod");`;
        const run = spawnSync(process.execPath, ["-e", script], {
          cwd: ROOT,
          encoding: "utf8",
          env: { ...withCache(cache), NODE_DEBUG_NATIVE: "COMPILE_CACHE" },
        });
        return run.stderr.split("\n").filter((line) => line.includes("was rejected")).length;
      };
      expect(rejected(false)).toBe(0); // writes the cache
      expect(rejected(false)).toBe(0); // takes it
      expect(rejected(true)).toBeGreaterThan(10); // a process under the flag rejects it, and writes its own
      expect(rejected(false)).toBeGreaterThan(10); // which the next process without the flag rejects
    } finally {
      fs.rmSync(cache, { recursive: true, force: true });
    }
  });

  it.each(["pulumi-resource-pulumi-nodejs", "pulumi-resource-compute"])(
    "%s keeps the provider's compiled code in a folder of its own within a NODE_COMPILE_CACHE set for every process",
    async (launcher) => {
      const cache = fs.mkdtempSync(path.join(os.tmpdir(), "pc-compile-cache-"));
      try {
        // Started as the engine starts it: in the project's folder, with the engine's address; it
        // answers with its port once it has loaded, and the cache is written soon after its start.
        const child = spawn(path.join(ROOT, "plugins", launcher), ["127.0.0.1:1"], {
          cwd: ROOT,
          env: withCache(cache),
          stdio: ["ignore", "pipe", "pipe"],
        });
        try {
          await new Promise<void>((resolve, reject) => {
            child.stdout.once("data", () => resolve());
            child.once("exit", (code) => reject(new Error(`${launcher} exited ${code}`)));
          });
          const written = () => fs.readdirSync(path.join(cache, PROVIDER_CACHE)).filter((f) => f.startsWith("v")).length;
          for (let i = 0; i < 100 && (!fs.existsSync(path.join(cache, PROVIDER_CACHE)) || written() === 0); i++) {
            await new Promise((r) => setTimeout(r, 50));
          }
        } finally {
          child.kill("SIGKILL");
        }
        const place = fs.readdirSync(cache);
        expect(place).toEqual([PROVIDER_CACHE]);
        const versions = fs.readdirSync(path.join(cache, PROVIDER_CACHE));
        expect(versions).toEqual([expect.stringMatching(/^v24\./)]);
        expect(fs.readdirSync(path.join(cache, PROVIDER_CACHE, versions[0]!)).length).toBeGreaterThan(50);
      } finally {
        fs.rmSync(cache, { recursive: true, force: true });
      }
    },
  );
});
