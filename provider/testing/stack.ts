/**
 * `emulatedStack()`: a program through the real Pulumi engine (the Automation API and the `pulumi`
 * CLI) against an emulator in the test's process — for what only a real run shows: the cloud after
 * `up`, drift and its repair, failures and retries. Everything it makes lives in one temporary
 * folder (a `file://` backend, the workspace, Pulumi's home and temporary files), its secrets under
 * a key of the test's process (`key-service.ts`); the emulator listens on a free loopback port and its clock runs fast and jumps
 * while the provider waits (`clock-service.ts`), so a database is active without real waiting. An
 * ephemeral stack's state is written once per operation, not checkpointed after every step, and an
 * operation's summary and outputs come from its events, not from CLI reads after it (`event-results.ts`).
 * Parallel test processes share nothing. `dispose()` (and `await using`)
 * stops any operation still running, ends every process it started, removes the folder and stops
 * the emulator (`leftovers.ts`), also when the test failed.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  LocalWorkspace,
  type DestroyOptions,
  type DestroyResult,
  type PreviewOptions,
  type PreviewResult,
  type PulumiCommand,
  type PulumiFn,
  type RefreshOptions,
  type RefreshResult,
  type Stack,
  type UpOptions,
  type UpResult,
} from "@pulumi/pulumi/automation";
import { CLI_TIME_SCALE } from "../../emulator/cli";
import type { EmulatorControl } from "../../emulator";
import type { ComputeClient } from "../../sdk/client";
import { pulumiCommand as pulumiOnPath } from "../stack/pulumi-cli";
import { previewDrift, type ResourceDrift } from "../stack/refresh-drift";
import { CONFIG_API_URL, CONFIG_TOKEN } from "../engine/context";
import { release, track } from "./leftovers";
import { MARKER_ENV, clearNow, clearProcesses } from "./marked";
import { LocalApi, type Seed } from "./local-api";
import { startClockService, type ClockService } from "./clock-service";
import { startKeyService, type KeyService } from "./key-service";
import type { LoopbackService } from "./loopback";
import { EMULATED_CLOCK_ENV } from "../engine/time";
import { folderProject, inlineProject } from "./emulated-project";
import { compileCacheDir } from "../launch/quick-start";
import { resultsFromEvents } from "./event-results";

/** Options of `emulatedStack`. */
export interface EmulatedStackOptions {
  /** The stack's name (default `test`). */
  stackName?: string;
  /** An inline program's project name (default `emulated`); a folder's comes from its `Pulumi.yaml`. */
  projectName?: string;
  /** Objects the account holds before the first `up`: `demoEnvironment`, or `({ control, client }) => …`. */
  seed?: Seed;
  /**
   * Emulated milliseconds per real millisecond. By default the clock runs 300 times faster than
   * real time (as `compute-emulator`'s) and jumps forward whenever the provider waits, by the time
   * it waits (as `computeMocks`'), so a MySQL database is active after the polls its 15–30 minutes
   * take and no real waiting. Given, the clock runs at that scale alone and the provider waits in
   * real time: 1 keeps the API's real timing (a database provisions for minutes).
   */
  timeScale?: number;
  /** More stack config, by full key (`my-infra:size`); `compute:apiUrl` and `compute:token` point at the emulator. */
  config?: Record<string, string | { value: string; secret?: boolean }>;
  /** Refuse request fields an endpoint does not know (default: as `COMPUTE_EMULATOR_STRICT=1` says, else off). */
  strict?: boolean;
  /** The Pulumi CLI to run (default: the `pulumi` on `PATH`). */
  pulumiCommand?: PulumiCommand;
  /** More environment for the CLI and the processes it starts. */
  envVars?: Record<string, string>;
}

/** A stack on an emulated account. */
export interface EmulatedStack extends AsyncDisposable {
  /** The Automation API's stack, for anything the methods below do not cover. */
  readonly stack: Stack;
  /** The typed client of the emulated account, with its unrestricted token: the cloud as it is. */
  readonly client: ComputeClient;
  /** The emulator's control operations: faults (`addFault`), latency, the clock, seeded objects, the request log. */
  readonly control: EmulatorControl;
  /** The API's URL, as the stack's config has it (`compute:apiUrl`). */
  readonly apiUrl: string;
  /** The account's unrestricted token, as the stack's config has it (`compute:token`, a secret). */
  readonly token: string;
  /** `pulumi up`: the Automation API's, with its options (`onEvent`, `refresh`, `target`…). */
  up(options?: UpOptions): Promise<UpResult>;
  /** `pulumi preview`: exact, through the package's launcher (`changeSummary`). */
  preview(options?: PreviewOptions): Promise<PreviewResult>;
  /** `pulumi refresh`: reads every object and records what it finds (`summary.resourceChanges.update` counts the drifted). */
  refresh(options?: RefreshOptions): Promise<RefreshResult>;
  /** `pulumi destroy`. */
  destroy(options?: DestroyOptions): Promise<DestroyResult>;
  /** The stack's outputs, plain values (secrets shown). */
  outputs(): Promise<Record<string, unknown>>;
  /**
   * What a refresh would find changed behind Pulumi's back (managed fields, objects gone), without
   * writing state: what `up` would set back. Fields that differ under their resource's
   * `ignoreChanges` are not in it; its `ignored` lists them.
   */
  drift(): Promise<DriftFound>;
  /** Stops everything and removes every file the stack made. */
  dispose(): Promise<void>;
}

/**
 * The drift `drift()` found, which `up` would set back, and as `ignored` the fields that differ
 * where a resource's `ignoreChanges` leaves them to others. `ignored` is not enumerable, so
 * `expect(await stack.drift()).toEqual([])` holds whatever the ignored fields do.
 */
export type DriftFound = ResourceDrift[] & { readonly ignored: ResourceDrift[] };

/** How long a stopped operation gets to report its end (its processes are killed at once where they can be found). */
const STOP_GRACE_MS = 10_000;

/**
 * A stack of `program` — the folder of a Pulumi project, or an inline function — through the real
 * Pulumi engine (the Automation API and the `pulumi` CLI) against an emulated account of its own,
 * in this process, its clock fast and jumping while the provider waits (`timeScale`). Everything
 * lives in one temporary folder (a `file://` backend, the workspace, Pulumi's home and temporary
 * files); nothing is written into the project but Node's compile cache, in its `node_modules/.cache`
 * (as the package's provider processes keep theirs). `dispose()`, or `await using`, stops what still runs and removes it all.
 *
 * @example
 * ```ts
 * import { emulatedStack } from "pulumi-compute/testing";
 *
 * async function upAndDown(projectFolder: string): Promise<void> {
 *   await using stack = await emulatedStack(projectFolder);
 *   await stack.up();
 *   console.log(await stack.client.vpcs.listAll());
 *   await stack.destroy();
 * }
 * ```
 */
export async function emulatedStack(program: PulumiFn | string, options: EmulatedStackOptions = {}): Promise<EmulatedStack> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-compute-stack-"));
  track(folder);
  let api: LocalApi | undefined;
  let clock: ClockService | undefined;
  let keys: KeyService | undefined;
  try {
    for (const dir of ["state", "work", "home", "tmp"]) fs.mkdirSync(path.join(folder, dir));
    // The emulator starts while the CLI makes the stack (`pulumi stack init`, a CLI start and a key derivation).
    const starting = LocalApi.start({ timeScale: options.timeScale ?? CLI_TIME_SCALE, seed: options.seed, strict: options.strict });
    keys = await startKeyService();
    const [started, stack] = await Promise.allSettled([starting, createStack(program, folder, options, keys)]);
    if (started.status === "fulfilled") api = started.value;
    if (started.status === "rejected") throw started.reason;
    if (stack.status === "rejected") throw stack.reason;
    // The provider process waits on the emulator's clock, which jumps (unless the test set the scale).
    if (options.timeScale === undefined) {
      clock = await startClockService(api!.emulator.clock);
      stack.value.workspace.envVars[EMULATED_CLOCK_ENV] = clock.url;
    }
    await stack.value.setAllConfig({
      [CONFIG_API_URL]: { value: api!.url },
      [CONFIG_TOKEN]: { value: api!.token, secret: true },
      ...Object.fromEntries(Object.entries(options.config ?? {}).map(([k, v]) => [k, typeof v === "string" ? { value: v } : v])),
    });
    return new RunningStack(stack.value, api!, folder, [clock, keys]);
  } catch (error) {
    await clock?.close();
    await keys?.close();
    await api?.close();
    clearNow(folder);
    release(folder);
    throw error;
  }
}

/** The stack, in its new folder: created (`pulumi stack init`), as no stack can be there to select. */
async function createStack(program: PulumiFn | string, folder: string, options: EmulatedStackOptions, keys: KeyService): Promise<Stack> {
  const command = options.pulumiCommand ?? (await pulumiOnPath());
  const backend = `file://${path.join(folder, "state")}`;
  const stackName = options.stackName ?? "test";
  const workspace = {
    workDir: path.join(folder, "work"),
    pulumiHome: path.join(folder, "home"),
    pulumiCommand: command,
    // Its secrets under a key of the test's process, which a CLI call asks in a millisecond (a
    // passphrase costs each call a key derivation).
    secretsProvider: keys.secretsProvider,
    envVars: {
      ...keys.env,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      // The state is thrown away with the stack: written once at the end of an operation, not
      // after every step, and no backup copy of it.
      PULUMI_SKIP_CHECKPOINTS: "true",
      PULUMI_DISABLE_CHECKPOINT_BACKUPS: "true",
      // A TypeScript program is transpiled, not type-checked again on every run of the engine
      // (the test runner or `tsc` checks it).
      PULUMI_NODEJS_TRANSPILE_ONLY: "true",
      // What the CLI, its language host and the provider plugin write for themselves goes with the stack.
      TMPDIR: path.join(folder, "tmp"),
      ...programCompileCache(program),
      ...options.envVars,
      // The CLI takes PULUMI_BACKEND_URL over the project's backend.url: a user's shell or CI job
      // that names its team's backend would otherwise get the test's stack there, left behind by
      // dispose. The stack's backend is its folder, whatever the environment says.
      PULUMI_BACKEND_URL: backend,
      [MARKER_ENV]: folder,
    },
  };
  if (typeof program === "string") {
    const projectSettings = await folderProject(program, command, backend);
    return LocalWorkspace.createStack({ stackName, workDir: workspace.workDir }, { ...workspace, projectSettings });
  }
  const projectName = options.projectName ?? "emulated";
  const projectSettings = inlineProject(projectName, backend);
  return LocalWorkspace.createStack({ stackName, projectName, program }, { ...workspace, projectSettings });
}

/**
 * Node's compile cache for the processes the engine starts in Node (a folder's program, through
 * ts-node; the provider processes), in the `node_modules` that holds the program's `@pulumi/pulumi`
 * (`compileCacheDir`, where those provider processes keep theirs): a program run loads TypeScript
 * and Pulumi's SDK again on every `up` and `preview`, and compiled once they load faster (about
 * 0.3 s a run on two cores). Nothing where no `node_modules` holds it; the test's own
 * `NODE_COMPILE_CACHE` or `NODE_DISABLE_COMPILE_CACHE` (or `envVars`) has the last word.
 */
function programCompileCache(program: PulumiFn | string): Record<string, string> {
  if (process.env.NODE_COMPILE_CACHE || process.env.NODE_DISABLE_COMPILE_CACHE) return {};
  let pulumiPackage: string;
  try {
    pulumiPackage = require.resolve("@pulumi/pulumi/package.json", typeof program === "string" ? { paths: [program] } : undefined);
  } catch {
    return {};
  }
  const dir = compileCacheDir(pulumiPackage);
  return dir ? { NODE_COMPILE_CACHE: dir } : {};
}

/** An emulated stack while it lives: every operation can be stopped by `dispose`. */
class RunningStack implements EmulatedStack {
  private readonly stopping = new AbortController();
  private readonly running = new Set<Promise<unknown>>();
  private disposed: Promise<void> | undefined;
  readonly client: ComputeClient;
  readonly control: EmulatorControl;
  readonly apiUrl: string;
  readonly token: string;

  constructor(
    readonly stack: Stack,
    private readonly api: LocalApi,
    private readonly folder: string,
    /** The stack's services in the test's process (its clock, its key), closed with it. */
    private readonly services: ReadonlyArray<LoopbackService | undefined>,
  ) {
    ({ client: this.client, control: this.control, url: this.apiUrl, token: this.token } = api);
    resultsFromEvents(stack);
  }

  up(options: UpOptions = {}): Promise<UpResult> {
    return this.run((signal) => this.stack.up({ ...options, signal }), options.signal);
  }

  preview(options: PreviewOptions = {}): Promise<PreviewResult> {
    return this.run((signal) => this.stack.preview({ ...options, signal }), options.signal);
  }

  refresh(options: RefreshOptions = {}): Promise<RefreshResult> {
    return this.run((signal) => this.stack.refresh({ ...options, signal }), options.signal);
  }

  destroy(options: DestroyOptions = {}): Promise<DestroyResult> {
    return this.run((signal) => this.stack.destroy({ ...options, signal }), options.signal);
  }

  async outputs(): Promise<Record<string, unknown>> {
    const outputs = await this.run(() => this.stack.outputs());
    return Object.fromEntries(Object.entries(outputs).map(([key, output]) => [key, output.value]));
  }

  async drift(): Promise<DriftFound> {
    const { drift, ignored } = await this.run((signal) => previewDrift(this.stack, { signal }));
    return Object.defineProperty(drift, "ignored", { value: ignored, enumerable: false }) as DriftFound;
  }

  /** Runs one operation, which `dispose` stops (as Ctrl-C would) when it is still running. */
  private run<T>(operation: (signal: AbortSignal) => Promise<T>, own?: AbortSignal): Promise<T> {
    if (this.disposed) return Promise.reject(new Error("pulumi-compute/testing: this emulated stack was disposed"));
    const signal = own ? AbortSignal.any([own, this.stopping.signal]) : this.stopping.signal;
    const result = operation(signal);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.running.add(settled);
    void settled.then(() => this.running.delete(settled));
    return result;
  }

  dispose(): Promise<void> {
    this.disposed ??= this.stop();
    return this.disposed;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }

  private async stop(): Promise<void> {
    try {
      if (this.running.size > 0) {
        // The state goes with the folder, so nothing is worth a graceful stop: Ctrl-C, then every
        // process of the stack is killed (where they can be found; elsewhere the CLI stops them).
        this.stopping.abort();
        clearProcesses(this.folder);
        const grace = new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref());
        await Promise.race([Promise.all(this.running), grace]);
      }
    } finally {
      // Whatever is left (an orphan of a CLI that stopped) is killed; the folder goes.
      clearNow(this.folder);
      release(this.folder);
      for (const service of this.services) await service?.close();
      await this.api.close();
    }
  }
}
