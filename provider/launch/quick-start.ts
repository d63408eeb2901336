/**
 * What a process the engine starts for this package (Pulumi's dynamic provider host, through
 * `host/preload.ts`; the provider plugin and the policy pack, through `provider/launch/launcher-preload.ts`) does
 * before `@pulumi/pulumi` loads, so that it starts in about half the time. The engine starts such a
 * process for every run (`up`, `preview`, `refresh`, `destroy`), so its start is paid by every run
 * of every user.
 *
 * - **Modules it never uses load when first touched.** `@pulumi/pulumi`'s runtime loads its closure
 *   serializer at once, and with it TypeScript's compiler (to parse functions) and npm's
 *   `@npmcli/arborist` (to find a function's packages): about 0.4 s of a 0.7 s start. A provider
 *   process deserializes providers, it never serializes one. Each of the two is given a stand-in
 *   in `require.cache` (Node's documented module cache) that loads the real module at its first
 *   touch, so whatever does use them still gets them, unchanged. Its Automation API (which
 *   `@pulumi/pulumi`'s index loads at once, with execa and js-yaml: about 60 ms more) is deferred
 *   the same way; a provider process never drives a stack. zod's translations of its messages
 *   into 49 languages (`z.locales`: 50 modules, about a fifth of the plugin's start) are deferred
 *   too where zod has not loaded yet: the sdk's schemas speak English, which zod loads on its own.
 * - **Compiled code is cached** (Node's compile cache, `module.enableCompileCache`) in the
 *   project's `node_modules/.cache/pulumi-compute/compile/provider`, next to the `@pulumi/pulumi`
 *   it serves; `NODE_DISABLE_COMPILE_CACHE=1` turns it off, as for any Node process. The folder is
 *   the provider processes' own (`PROVIDER_CACHE`): V8 rejects code cached under other V8 flags,
 *   and Pulumi's closure serializer sets one (`--allow-natives-syntax`) in a program's process
 *   halfway through its run, so a program and a provider process sharing one folder would each
 *   find the other's code rejected and write their own again, on every run. Where
 *   `NODE_COMPILE_CACHE` is set for all the engine's processes, the launchers in `plugins/` move
 *   the provider's into the same subfolder of it.
 *
 * It fails closed: a module that cannot be found where `@pulumi/pulumi` looks for it, or is loaded
 * already, keeps its own way of loading; the start is then only slower, and `deferUnused` says
 * which, a line a maintainer sees with `PULUMI_COMPUTE_START_NOTICE=1` and a user never does
 * (`test/provider/launch/quick-start.test.ts` fails when the pinned `@pulumi/pulumi` stops
 * loading them this way).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import Module, { createRequire } from "node:module";
import { NOTICE_PREFIX } from "../serve/row-log";

/**
 * The modules deferred, each by the file of `@pulumi/pulumi` that requires it (relative to its
 * package), and what that file loads instead when the module cannot be found (`orElse`, relative
 * to the package): a project without TypeScript of its own (Python, Go, YAML) gets the copy the
 * SDK vendors, which is deferred the same way.
 */
export const DEFERRED: ReadonlyArray<{ id: string; from: string; orElse?: string }> = [
  { id: "typescript", from: "typescript-shim.js", orElse: "vendor/typescript@3.8.3/typescript.js" },
  { id: "@npmcli/arborist", from: "runtime/closure/codePaths.js" },
  { id: "@pulumi/pulumi/automation", from: "index.js" },
];

/**
 * The modules of this package's own dependencies deferred, each by the file of the package that
 * requires it. Deferred where they are not loaded yet (the plugin's and the policy pack's
 * launchers preload this first), and silently kept otherwise: the dynamic host's changes load
 * the sdk, and zod with it, before they can defer anything, and the notice (`saySlowStart`) is
 * about the 0.4 s of Pulumi's own modules, not these few milliseconds.
 */
export const OWN_DEFERRED: ReadonlyArray<{ id: string; from: string; package: string }> = [
  // zod's classic and core indexes re-export it with `__importStar`, which keeps an ES module (the stand-in says it is one) as it is.
  { id: "../locales/index.cjs", from: "v4/classic/external.cjs", package: "zod" },
];

/**
 * A stand-in for the module at `file`: it loads it at the first touch (through `load`) and is
 * then the module itself. It says it is an ES module (`__esModule`) without loading, so that
 * TypeScript's `__importStar` keeps it as it is instead of copying the module's members at once.
 */
function standIn(file: string, load: () => unknown): object {
  let real: object | undefined;
  const target = (): object => {
    if (!real) {
      delete require.cache[file];
      real = Object(load()) as object;
    }
    return real;
  };
  return new Proxy(Object.create(null) as object, {
    get: (_, key) => (key === "__esModule" ? true : Reflect.get(target(), key)),
    has: (_, key) => key === "__esModule" || Reflect.has(target(), key),
    set: (_, key, value) => Reflect.set(target(), key, value),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
      // A proxy may not report as configurable what its (empty, extensible) target lacks.
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}

/**
 * Gives each module of `DEFERRED` a stand-in, for the `@pulumi/pulumi` whose `package.json` is
 * `pulumiPackage`; returns why a module keeps its own way of loading, one line each (empty when
 * none does).
 */
export function deferUnused(pulumiPackage: string): string[] {
  const skipped: string[] = [];
  const root = path.dirname(pulumiPackage);
  for (const { id, from, orElse } of DEFERRED) {
    const found = resolvedFrom(path.join(root, from), id);
    const fallback = orElse === undefined ? undefined : path.join(root, orElse);
    const file = found ?? (fallback !== undefined && fs.existsSync(fallback) ? fallback : undefined);
    if (file === undefined) skipped.push(`${id} cannot be found from @pulumi/pulumi/${from}`);
    else if (require.cache[file]) skipped.push(`${file === found ? id : `${id} (the SDK's own copy)`} is loaded already`);
    else defer(file, found ? () => createRequire(path.join(root, from))(id) : () => createRequire(file)(file));
  }
  for (const { id, from, package: name } of OWN_DEFERRED) {
    const own = packageRoot(name);
    if (own === undefined) continue;
    const file = resolvedFrom(path.join(own, from), id);
    if (file !== undefined && !require.cache[file]) defer(file, () => createRequire(path.join(own, from))(id));
  }
  return skipped;
}

/** Puts a stand-in for the module at `file` in Node's module cache, which loads it (`load`) at its first touch. */
function defer(file: string, load: () => unknown): void {
  const module = new Module(file);
  module.filename = file;
  module.loaded = true;
  module.exports = standIn(file, load);
  require.cache[file] = module;
}

/** `id` as the module at `from` resolves it; undefined when it cannot. */
function resolvedFrom(from: string, id: string): string | undefined {
  try {
    return createRequire(from).resolve(id);
  } catch {
    return undefined;
  }
}

/** The folder of one of this package's dependencies, as this package resolves it. */
function packageRoot(name: string): string | undefined {
  try {
    return path.dirname(require.resolve(`${name}/package.json`));
  } catch {
    return undefined;
  }
}

/** The subfolder of a compile cache that holds the provider processes' code (why: the module's comment). */
export const PROVIDER_CACHE = "provider";

/** When, after the start, compiled code is written again (ms). */
const FLUSH_AFTER_MS = [200, 500, 1_000, 3_000];

/** Where compiled code is cached: the `node_modules` that holds `@pulumi/pulumi`; undefined outside one. */
export function compileCacheDir(pulumiPackage: string): string | undefined {
  const nodeModules = path.resolve(path.dirname(pulumiPackage), "../..");
  return path.basename(nodeModules) === "node_modules" ? path.join(nodeModules, ".cache/pulumi-compute/compile") : undefined;
}

/**
 * Turns Node's compile cache on for this process (unless the environment says otherwise or it is
 * on already), and writes what it compiled once the process has started: the engine may end a
 * provider process without letting it exit, and Node writes the cache only at exit.
 */
export function cacheCompiledCode(pulumiPackage: string): void {
  const dir = compileCacheDir(pulumiPackage);
  const { enableCompileCache, flushCompileCache } = Module as unknown as {
    enableCompileCache?: (dir: string) => unknown;
    flushCompileCache?: () => void;
  };
  if (!dir || typeof enableCompileCache !== "function" || typeof flushCompileCache !== "function") return;
  try {
    const own = path.join(dir, PROVIDER_CACHE);
    fs.mkdirSync(own, { recursive: true });
    enableCompileCache(own);
  } catch {
    return; // a read-only node_modules: the process starts as it always did
  }
  // The engine ends a provider process without letting it exit (where Node would write the cache),
  // often within a second: written once the process's own modules have loaded, then as the first
  // requests load the provider's (each write adds only what is new).
  setImmediate(() => flushCompileCache()).unref();
  for (const ms of FLUSH_AFTER_MS) setTimeout(() => flushCompileCache(), ms).unref();
}

/**
 * Writes what this process has compiled so far, when its compile cache is on: a process that
 * answers the engine sooner than its first scheduled write (`cacheCompiledCode`) calls it before
 * it answers, since the engine may end it right after. Each write adds only what is new, so a
 * start whose code is all cached writes nothing.
 */
export function writeCompiledCode(): void {
  const { getCompileCacheDir, flushCompileCache } = Module as unknown as {
    getCompileCacheDir?: () => string | undefined;
    flushCompileCache?: () => void;
  };
  if (typeof flushCompileCache === "function" && getCompileCacheDir?.()) flushCompileCache();
}

/** What `startQuickly` could not defer in this process, shared by every copy of the package. */
const SKIPPED = Symbol.for("pulumi-compute.slow-start");
const slot = globalThis as Record<symbol, readonly string[] | undefined>;

/** Both, for the `@pulumi/pulumi` at `pulumiPackage`; returns (and records) what `deferUnused` skipped. */
export function startQuickly(pulumiPackage: string): readonly string[] {
  cacheCompiledCode(pulumiPackage);
  return (slot[SKIPPED] = deferUnused(pulumiPackage));
}

/** What `startQuickly` skipped in this process; empty when it did not run. */
export function recordedSlowStart(): readonly string[] {
  return slot[SKIPPED] ?? [];
}

/**
 * The variable that shows `saySlowStart`'s line: a maintainer's, since a user can do nothing about
 * how `@pulumi/pulumi` loads its modules (`PULUMI_COMPUTE_START_NOTICE=1 pulumi preview`).
 */
export const START_NOTICE_ENV = "PULUMI_COMPUTE_START_NOTICE";

/**
 * Says, once at the start (an info line of the engine's log), which modules load at once after
 * all, and what that costs; only where `START_NOTICE_ENV` asks for it, never in a user's run.
 */
export function saySlowStart(skipped: readonly string[], say: (line: string) => void, env: NodeJS.ProcessEnv = process.env): void {
  if (skipped.length === 0 || !env[START_NOTICE_ENV]) return;
  say(
    `${NOTICE_PREFIX}this provider process starts about 0.4 s slower than it could: ${skipped.join("; ")}, so it loads at once instead of when first used`,
  );
}
