/**
 * `@pulumi/pulumi` is a peer dependency: the program, the Pulumi engine and this package must all
 * use the project's one copy (a second copy would register resources with an SDK the engine never
 * talks to). Without it the failures speak of something else — `Cannot find module` with a
 * require stack, or, from the engine, `could not read plugin […pulumi-resource-pulumi-nodejs]:
 * EOF` (the dynamic provider plugin looks for the SDK from the directory the engine starts it in
 * and finds none). These checks say in one line what to install instead.
 *
 * Where the engine starts that plugin is its `pwd`: the project's `main` resolved against the
 * folder of `Pulumi.yaml` (the project folder; for the Automation API, the workspace's `workDir`,
 * or the caller's folder when the workspace was given no project settings). The engine sends the
 * same `pwd` with the request that runs the program, and the check reads it from there:
 * - a program started by the `pulumi` CLI runs under Pulumi's Node.js language host, which
 *   changes into that `pwd` before the program starts: `process.cwd()` is the place;
 * - an inline program of the Automation API runs in the caller's process, whose own folder can
 *   be anything (`/` under systemd, a repository root, a test runner's folder): the request's
 *   `pwd` is kept per run (`watchInlinePrograms`);
 * - anywhere else (this package loaded after the run began, an SDK without that server) the
 *   place is not known and nothing is checked: a check that can refuse a working setup is worse
 *   than the engine's `EOF`.
 */
import * as path from "node:path";
import { AsyncLocalStorage } from "node:async_hooks";

/** The range of the peer dependency, as package.json declares it. */
export const PULUMI_PEER_RANGE = "^3.259.0";

/** The one-line error: what is missing, where, and what to run. */
export class MissingPulumiError extends Error {
  override name = "MissingPulumiError";
  constructor(directory: string) {
    super(
      `pulumi-compute needs @pulumi/pulumi installed in the project (${directory}): run \`npm install @pulumi/pulumi@${PULUMI_PEER_RANGE}\` there`,
    );
    // One line, as the user reads it: the engine and the shell print the stack otherwise.
    this.stack = `${this.name}: ${this.message}`;
  }
}

/** Whether `module` resolves from `directory` (through its node_modules and its parents'). */
function resolvesFrom(module: string, directory: string): boolean {
  try {
    require.resolve(module, { paths: [directory] });
    return true;
  } catch {
    return false;
  }
}

/** This package can load the SDK (the project's copy, through the peer dependency). */
export function assertPulumiLoadable(): void {
  if (!resolvesFrom("@pulumi/pulumi/package.json", __dirname)) throw new MissingPulumiError(projectOf(__dirname));
}

/** The `pwd` of the inline program running in this async context (set by `watchInlinePrograms`). */
let inlineRun = new AsyncLocalStorage<string>();

/**
 * Marks the wrapped `run` with the store it fills, so a second copy of this package loaded in the
 * same process neither wraps it twice nor looks in a store nobody fills.
 */
const WATCHED = Symbol.for("pulumi-compute.watchInlinePrograms");

interface RunCall {
  request?: { getPwd?(): string };
}
type Run = ((call: RunCall, callback: unknown) => unknown) & { [WATCHED]?: AsyncLocalStorage<string> };

/**
 * Keeps, for each inline program the Automation API runs in this process, the `pwd` the engine
 * sent with it. Pulumi's in-process language server (`@pulumi/pulumi/automation/server`, the one
 * copy the program's SDK uses) takes only the project, stack and config from the run request;
 * this wraps its `run` so the rest of the request's answer — where the plugin starts — is known
 * to the program's own async context, one per run (a service may run several stacks at once).
 * Called when this package loads; without that server nothing changes.
 */
export function watchInlinePrograms(): void {
  let server: { LanguageServer?: { prototype: { run?: Run } } };
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- an internal module of the SDK (its types say nothing): absent, nothing is watched
    server = require("@pulumi/pulumi/automation/server");
  } catch {
    return;
  }
  const prototype = server.LanguageServer?.prototype;
  const run = prototype?.run;
  if (!prototype || typeof run !== "function") return;
  const filled = run[WATCHED];
  if (filled) {
    inlineRun = filled;
    return;
  }
  const store = inlineRun;
  const watched: Run = function (this: unknown, call, callback) {
    const pwd = call?.request?.getPwd?.();
    return pwd ? store.run(pwd, () => run.call(this, call, callback)) : run.call(this, call, callback);
  };
  watched[WATCHED] = store;
  prototype.run = watched;
}

/**
 * Where the engine starts the dynamic provider plugin for the program running now, as the engine
 * said it; `undefined` when this process cannot tell.
 */
export function providerPluginDirectory(): string | undefined {
  const inline = inlineRun.getStore();
  if (inline !== undefined) return inline;
  // Set by the language host's runner (`@pulumi/pulumi/cmd/run`), which changed into the engine's `pwd`.
  if (process.env.PULUMI_NODEJS_MONITOR) return process.cwd();
  return undefined;
}

/** Folders where the plugin was found to load the SDK: a program registers many resources. */
const loadableFrom = new Set<string>();

/**
 * The engine's dynamic provider plugin will find the SDK: it starts in `directory` and resolves
 * `@pulumi/pulumi/cmd/dynamic-provider` from there. Where the place is not known, nothing is said.
 */
export function assertProviderPluginLoadable(directory = providerPluginDirectory()): void {
  if (directory === undefined || loadableFrom.has(directory)) return;
  if (!resolvesFrom("@pulumi/pulumi/cmd/dynamic-provider", directory)) throw new MissingPulumiError(directory);
  loadableFrom.add(directory);
}

/** The project folder holding an installed package: the parent of its node_modules, else the folder itself. */
export function projectOf(directory: string): string {
  const parts = directory.split(path.sep);
  const index = parts.lastIndexOf("node_modules");
  return index > 0 ? parts.slice(0, index).join(path.sep) : directory;
}
