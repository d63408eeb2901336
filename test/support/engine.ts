/**
 * Runs Pulumi programs through the real engine for end-to-end tests: the CLI built by the
 * project's setup (scripts/run.sh puts it on PATH and in PULUMI_COMPUTE_ENGINE_BIN), the
 * Automation API with an inline program, a `file://` backend in a temporary folder, and secrets
 * under the key of a key service in the test's process (`provider/testing/key-service.ts`, as
 * `emulatedStack`'s: a passphrase costs every CLI call a key derivation of 0.3 s of CPU). Nothing
 * here fakes the engine or the HTTP layer.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, type PulumiFn, type Stack, type EngineEvent } from "@pulumi/pulumi/automation";
import { pulumiCommand } from "../../provider/stack/pulumi-cli";
import { withComputePlugins, type PluginDeclaration } from "../../provider/launch/plugins";
import { EMULATED_CLOCK_ENV } from "../../provider/engine/time";
import { startClockService } from "../../provider/testing/clock-service";
import { startKeyService, type KeyService } from "../../provider/testing/key-service";
import { resultsFromEvents } from "../../provider/testing/event-results";
import type { Clock } from "../../emulator/core/clock";
import { runProcess, type ProcessResult } from "./process";

export const REPO_ROOT = path.resolve(__dirname, "../..");
export const PASSPHRASE = "e2e-test-passphrase";

let keyService: Promise<KeyService> | undefined;
/**
 * The key service of this test process, the secrets provider of every stack `createTestStack`
 * makes: one for all, so that stacks of one backend can read each other's secrets (`pulumi state
 * move`). It lives as long as the process (it keeps the process from nothing).
 */
export function sharedKeyService(): Promise<KeyService> {
  return (keyService ??= startKeyService());
}

export interface TestStackOptions {
  /** Short name, used for the project and folders. */
  name: string;
  /** The stack's name (default `test`). */
  stackName?: string;
  /** The inline program; absent for a Pulumi YAML project (`runtime: "yaml"`). */
  program?: PulumiFn;
  /**
   * `yaml`: a Pulumi YAML project run through the provider plugin, its program the `Main.yaml`
   * the caller writes into `workDir` before each operation (default: the inline program).
   */
  runtime?: "yaml";
  apiUrl: string;
  token: string;
  /** How the provider gets its credentials: secret stack config (default) or environment. */
  credentials?: "config" | "env";
  /**
   * The folder under which the project folder is made (default: the system's temporary folder).
   * Pulumi records each resource's stack trace with paths relative to the project folder, so the
   * state's size depends on it: the scale benchmark puts projects inside the repository, as a
   * user's project holds its program and its `node_modules`.
   */
  baseDir?: string;
  /**
   * Another stack of the same project in the same backend: `dev` beside `staging`, as a team
   * deploys one program twice in one account.
   */
  besides?: TestStack;
  /**
   * What an ephemeral stack skips, as `emulatedStack` does (opt-in, file by file):
   * `checkpoints: false` writes the state once per operation instead of after every step
   * (`PULUMI_SKIP_CHECKPOINTS`; not for a test of what a kill or a crash leaves in state), and
   * `clock`, the clock of the emulator in this process, makes the provider's waits jump it instead
   * of sleeping (its clock service, `provider/testing/clock-service.ts`).
   */
  ephemeral?: { checkpoints?: false; clock?: Clock };
  /** More provider plugins the project declares beside this package's (`plugins: providers:`), as the scale benchmark's native floor. */
  plugins?: PluginDeclaration[];
}

export interface TestStack {
  stack: Stack;
  /** The state file of the stack in the `file://` backend. */
  statePath: string;
  /** The raw text of the state file (as checkpointed on disk). */
  stateText(): string;
  /** Resources of the state file. */
  resources(): StateResource[];
  /** The project folder (Pulumi.yaml), where `pulumi` and `pulumi-compute` commands of this stack run. */
  workDir: string;
  /** The environment the stack's commands run with (the key service, Pulumi home, no update check). */
  env: Record<string, string>;
  /** A `pulumi` command line of this stack's project (`--stack` is the caller's), run by the project's engine. */
  cli(args: string[]): Promise<ProcessResult>;
  /** Removes the temporary folders (the stack should be destroyed first). */
  cleanup(): void;
  /** The project's name and its `file://` backend's folder, which a stack `besides` this one shares. */
  project: string;
  stateDir: string;
}

export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  retainOnDelete?: boolean;
}

export async function createTestStack(options: TestStackOptions): Promise<TestStack> {
  if (options.baseDir) fs.mkdirSync(options.baseDir, { recursive: true });
  const base = fs.mkdtempSync(path.join(options.baseDir ?? os.tmpdir(), `pc-e2e-${options.name}-`));
  const stateDir = options.besides?.stateDir ?? path.join(base, "state");
  const workDir = path.join(base, "work");
  fs.mkdirSync(stateDir, { recursive: true });
  fs.mkdirSync(workDir);
  const project = options.besides?.project ?? `e2e-${options.name}`;
  const envVars: Record<string, string> = {
    // The program's `main` is this repository, where the provider process starts: the backend
    // named here is how it finds the stacks (`provider/engine/ownership.ts`), as a shell's is.
    PULUMI_BACKEND_URL: `file://${stateDir}`,
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_HOME: process.env.PULUMI_HOME ?? path.join(base, "home"),
  };
  if (options.ephemeral?.checkpoints === false) {
    envVars.PULUMI_SKIP_CHECKPOINTS = "true";
    envVars.PULUMI_DISABLE_CHECKPOINT_BACKUPS = "true";
  }
  const keys = await sharedKeyService();
  Object.assign(envVars, keys.env);
  const clock = options.ephemeral?.clock ? await startClockService(options.ephemeral.clock) : undefined;
  if (clock) envVars[EMULATED_CLOCK_ENV] = clock.url;
  if (options.credentials === "env") {
    envVars.COMPUTE_TOKEN = options.token;
    envVars.COMPUTE_API_URL = options.apiUrl;
  }
  const command = await pulumiCommand();
  // A stack beside another's may exist already; a fresh state folder holds none (`createStack`
  // skips the `stack select` that would fail first: one CLI start less).
  const open = (options.besides ? LocalWorkspace.createOrSelectStack : LocalWorkspace.createStack).bind(LocalWorkspace);
  const stackName = options.stackName ?? "test";
  const workspace = { workDir, pulumiCommand: command, envVars, secretsProvider: keys.secretsProvider };
  const backend = { url: `file://${stateDir}` };
  // An operation's summary and outputs come from its events, as emulatedStack's do: up to three
  // `pulumi` starts less per operation (`event-results.ts`).
  const stack = resultsFromEvents(
    options.runtime === "yaml"
      ? await open(
          { stackName, workDir },
          {
            ...workspace,
            projectSettings: withComputePlugins({
              name: project,
              runtime: { name: "yaml" },
              backend,
              plugins: { providers: options.plugins ?? [] },
            }),
          },
        )
      : await open(
          { stackName, projectName: project, program: options.program! },
          // The provider process starts in `main`; from there `pulumi-compute` resolves to this repo.
          {
            ...workspace,
            projectSettings: withComputePlugins({
              name: project,
              runtime: "nodejs",
              main: REPO_ROOT,
              backend,
              plugins: { providers: options.plugins ?? [] },
            }),
          },
        ),
  );
  if (options.credentials !== "env") {
    // One CLI run for both keys: each `pulumi` start costs about 0.3 s of CPU.
    await stack.setAllConfig({
      "compute:token": { value: options.token, secret: true },
      "compute:apiUrl": { value: options.apiUrl },
    });
  }
  const statePath = path.join(stateDir, ".pulumi", "stacks", project, `${stackName}.json`);
  const stateText = () => fs.readFileSync(statePath, "utf8");
  return {
    stack,
    statePath,
    workDir,
    env: envVars,
    cli: (args) =>
      runProcess(command.command, [...args, "--non-interactive"], {
        cwd: workDir,
        env: { ...process.env, ...envVars },
        timeoutMs: 300_000,
      }),
    stateText,
    resources: () => (JSON.parse(stateText()).checkpoint.latest.resources ?? []) as StateResource[],
    cleanup: () => {
      void clock?.close();
      fs.rmSync(base, { recursive: true, force: true });
    },
    project,
    stateDir,
  };
}

/**
 * For a test that reads an operation's `outputs` or `summary` nowhere. `createTestStack`'s stacks
 * take both from the operation's events (`event-results.ts`), but a secret output is not in them,
 * so the outputs of a program with one are read from the CLI (masked and shown, each a `pulumi`
 * start of about 0.3 s of CPU); a stack made otherwise reads both from the CLI after every `up`
 * (the summary also after `refresh` and `destroy`). What is skipped answers empty (`outputs` `{}`,
 * `summary` undefined), so a test that reads it after all fails at once rather than passing on nothing.
 */
export function skipReads(stack: Stack, skip: { outputs?: boolean; summary?: boolean }): Stack {
  if (skip.outputs) stack.outputs = async () => ({});
  if (skip.summary) stack.info = async () => undefined;
  return stack;
}

/** Collects engine events of one operation, for per-resource assertions. */
export function eventRecorder(): { onEvent: (e: EngineEvent) => void; events: EngineEvent[]; diagnostics(): string } {
  const events: EngineEvent[] = [];
  return {
    events,
    onEvent: (e) => events.push(e),
    diagnostics: () => events.flatMap((e) => (e.diagnosticEvent ? [e.diagnosticEvent.message] : [])).join(""),
  };
}

/** Resource name → operation, for the steps of a preview or an up that are not `same`. */
export function plannedSteps(events: EngineEvent[]): Record<string, string> {
  const steps: Record<string, string> = {};
  for (const e of events) {
    const meta = e.resourcePreEvent?.metadata;
    if (!meta || meta.type.startsWith("pulumi:") || meta.op === "same") continue;
    steps[meta.urn.split("::").pop()!] = meta.op;
  }
  return steps;
}

/** The step metadata of each resource (by URN suffix `type::name`) for one operation. */
export function stepsByName(
  events: EngineEvent[],
): Map<string, { op: string; old?: Record<string, unknown>; new?: Record<string, unknown> }> {
  const steps = new Map<string, { op: string; old?: Record<string, unknown>; new?: Record<string, unknown> }>();
  for (const e of events) {
    const meta = e.resOutputsEvent?.metadata ?? e.resourcePreEvent?.metadata;
    if (!meta || meta.type.startsWith("pulumi:")) continue;
    const name = meta.urn.split("::").pop()!;
    steps.set(name, {
      op: meta.op,
      old: meta.old?.outputs as Record<string, unknown> | undefined,
      new: meta.new?.outputs as Record<string, unknown> | undefined,
    });
  }
  return steps;
}
