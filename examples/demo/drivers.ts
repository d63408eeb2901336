/**
 * Two ways to drive an example's stack through the real engine, behind one interface, so the demo
 * runs the same phases either way:
 * - `automation`: the Automation API with the example's program inline (`npm run demo`);
 * - `cli`: the `pulumi` CLI as a child process in the folder of the example's own `Pulumi.yaml`,
 *   which runs the compiled program through the Node.js language host (`npm run demo -- --cli`),
 *   or a YAML program through the YAML language host and the provider plugin (`--cli yaml`),
 *   exactly as a user's `pulumi up` in that folder does.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { spawn } from "node:child_process";
import { LocalWorkspace, type EngineEvent, type Stack } from "@pulumi/pulumi/automation";
import { engineBin, pulumiCommand } from "../../provider/stack/pulumi-cli";
import { changesBetween, isProgramResource, refreshFindings } from "../../provider/stack/refresh-drift";
import type { Example } from "../catalog";
import { withComputePlugins } from "../../provider/launch/plugins";
import { resultsFromEvents } from "../../provider/testing/event-results";
import type { KeyService } from "../../provider/testing/key-service";

export type DriverKind = "automation" | "cli";

/** The demo's programs use no `ignoreChanges`, so its report is the drift alone. */
export type RefreshReport = Omit<ReturnType<typeof refreshFindings>, "ignored">;

export interface StackDriver {
  /** How the stack is driven, for the demo's first lines. */
  readonly description: string;
  /** The state file of the stack in the `file://` backend. */
  readonly statePath: string;
  /** Previews the program; resolves to a summary of the plan. */
  preview(): Promise<string>;
  /** Applies the program; resolves to a summary of the result. */
  up(): Promise<string>;
  /** The stack outputs, secret values shown as `[secret]`. */
  outputs(): Promise<Array<[string, string]>>;
  /** Refreshes the state from the cloud; resolves to the managed fields that changed. */
  refresh(): Promise<RefreshReport>;
  /** Previews again; resolves to the planned changes, `{}` when there are none. */
  plannedChanges(): Promise<Record<string, number>>;
  destroy(): Promise<string>;
}

export interface DriverOptions {
  example: Example;
  /** The project name (that of the example's Pulumi.yaml). */
  project: string;
  /** A temporary folder the driver may use; the `file://` backend lives in it. */
  base: string;
  /** Stack config, secrets marked. */
  config: Record<string, { value: string; secret?: boolean }>;
  /** Engine output, line by line. */
  onOutput: (text: string) => void;
  /** A policy pack every preview and up runs with (`--policy`: compute-guardrails). */
  policyPack?: string;
  /**
   * The key of the stack's secrets, in the demo's process (`hashivault://`, as emulated stacks
   * have it): the stack lives as long as the demo does, and a passphrase would cost every CLI call
   * that reads or writes a secret a key derivation of about 0.3 s of CPU.
   */
  keys: KeyService;
}

export const STACK = "demo";
const OFFLINE = {
  PULUMI_SKIP_UPDATE_CHECK: "true",
  PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
};
/** The repository root, where `dist/` and the root Pulumi.yaml are (this file runs from dist/examples/demo). */
export const REPO_ROOT = path.resolve(__dirname, "../../..");

export async function createDriver(kind: DriverKind, options: DriverOptions): Promise<StackDriver> {
  const stateDir = path.join(options.base, "state");
  fs.mkdirSync(stateDir, { recursive: true });
  const statePath = path.join(stateDir, ".pulumi", "stacks", options.project, `${STACK}.json`);
  return kind === "cli" ? cliDriver(options, stateDir, statePath) : automationDriver(options, stateDir, statePath);
}

async function automationDriver(options: DriverOptions, stateDir: string, statePath: string): Promise<StackDriver> {
  const { example, project, onOutput } = options;
  const program = example.program;
  if (!program) throw new Error(`the example in ${example.folder} has no inline program: the pulumi CLI runs it (--cli)`);
  const policyPacks = options.policyPack ? [options.policyPack] : undefined;
  // A new stack in the demo's new folder (no `stack select` first), whose operations' summaries and
  // plain outputs come from their events instead of CLI reads after them (`event-results.ts`).
  const stack: Stack = resultsFromEvents(
    await LocalWorkspace.createStack(
      { stackName: STACK, projectName: project, program },
      {
        workDir: options.base,
        pulumiCommand: await pulumiCommand(),
        secretsProvider: options.keys.secretsProvider,
        // The demo's own backend, even when the user's shell names another (PULUMI_BACKEND_URL wins over Pulumi.yaml's).
        envVars: { ...OFFLINE, ...options.keys.env, PULUMI_BACKEND_URL: `file://${stateDir}` },
        projectSettings: withComputePlugins({ name: project, runtime: "nodejs", main: REPO_ROOT, backend: { url: `file://${stateDir}` } }),
      },
    ),
  );
  await stack.setAllConfig(options.config);
  let lastOutputs: Record<string, { value: unknown; secret: boolean }> = {};
  return {
    description: `the Automation API, with the program inline; stack "${STACK}" of project ${project}, file:// backend in ${stateDir}`,
    statePath,
    preview: async () => JSON.stringify((await stack.preview({ onOutput, policyPacks })).changeSummary),
    up: async () => {
      const result = await stack.up({ onOutput, policyPacks });
      lastOutputs = result.outputs;
      return `${result.summary.result} ${JSON.stringify(result.summary.resourceChanges)}`;
    },
    outputs: async () => Object.entries(lastOutputs).map(([key, v]) => [key, v.secret ? "[secret]" : JSON.stringify(v.value)]),
    refresh: async () => {
      const events: EngineEvent[] = [];
      await stack.refresh({ onEvent: (e) => events.push(e) });
      return refreshFindings(events);
    },
    plannedChanges: async () => changesOnly((await stack.preview()).changeSummary),
    destroy: async () => (await stack.destroy({ onOutput })).summary.result,
  };
}

/**
 * The CLI in the example's folder. `stack init` writes the stack's settings file
 * (`Pulumi.demo.yaml`, with the stack's encrypted data key) beside Pulumi.yaml; it is moved into the
 * temporary folder at once and named by `--config-file` from then on, so the repository keeps no
 * trace of the run.
 */
async function cliDriver(options: DriverOptions, stateDir: string, statePath: string): Promise<StackDriver> {
  const folder = path.join(REPO_ROOT, options.example.folder);
  const configFile = path.join(options.base, `Pulumi.${STACK}.yaml`);
  const env = { ...process.env, ...OFFLINE, ...options.keys.env, PULUMI_BACKEND_URL: `file://${stateDir}` };
  const pulumi = (args: string[], show = true) => runPulumi(folder, args, env, show ? options.onOutput : () => undefined);
  const withStack = ["--stack", STACK, "--config-file", configFile];
  const withPolicy = options.policyPack ? ["--policy-pack", options.policyPack] : [];

  await pulumi(["stack", "init", STACK, "--secrets-provider", options.keys.secretsProvider, "--non-interactive"], false);
  fs.renameSync(path.join(folder, `Pulumi.${STACK}.yaml`), configFile);
  for (const [key, { value, secret }] of Object.entries(options.config)) {
    await pulumi(["config", "set", ...withStack, ...(secret ? ["--secret"] : []), key, "--", value], false);
  }
  const exportState = async () => JSON.parse((await pulumi(["stack", "export", "--stack", STACK], false)).stdout) as ExportedStack;

  return {
    description: `the pulumi CLI in ${path.relative(REPO_ROOT, folder) || "the repository root"} (its Pulumi.yaml, ${options.example.program ? "the compiled program, the Node.js language host" : "the YAML language host, the provider plugin"}); file:// backend in ${stateDir}`,
    statePath,
    preview: async () => resourcesSummary((await pulumi(["preview", ...withStack, ...withPolicy, "--non-interactive"])).stdout),
    up: async () =>
      resourcesSummary((await pulumi(["up", ...withStack, ...withPolicy, "--yes", "--skip-preview", "--non-interactive"])).stdout),
    outputs: async () => {
      const values = JSON.parse((await pulumi(["stack", "output", "--json", "--stack", STACK], false)).stdout) as Record<string, unknown>;
      return Object.entries(values).map(([key, value]) => [key, value === "[secret]" ? "[secret]" : JSON.stringify(value)]);
    },
    refresh: async () => {
      const before = await exportState();
      await pulumi(["refresh", ...withStack, "--yes", "--skip-preview", "--non-interactive"], false);
      const after = await exportState();
      const recorded = new Map((before.deployment.resources ?? []).map((r) => [r.urn, r]));
      const refreshed = (after.deployment.resources ?? []).filter((r) => isProgramResource(r.type));
      const drift = refreshed.flatMap((r) => {
        const old = recorded.get(r.urn);
        return old ? changesBetween(r.type, r.urn, old.outputs ?? {}, r.outputs ?? {}, old.inputs ?? {}).drift : [];
      });
      return { resources: refreshed.length, drift };
    },
    plannedChanges: async () => {
      const digest = JSON.parse((await pulumi(["preview", ...withStack, "--json", "--non-interactive"], false)).stdout) as {
        changeSummary?: Record<string, number>;
      };
      return changesOnly(digest.changeSummary ?? {});
    },
    destroy: async () => resourcesSummary((await pulumi(["destroy", ...withStack, "--yes", "--skip-preview", "--non-interactive"])).stdout),
  };
}

interface ExportedStack {
  deployment: { resources?: Array<{ urn: string; type: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }> };
}

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

class CliError extends Error {
  constructor(
    readonly args: string[],
    readonly result: CliResult,
  ) {
    const tail = `${result.stdout}\n${result.stderr}`.trim().split("\n").slice(-15).join("\n");
    super(`pulumi ${args.join(" ")} exited ${result.code}:\n${tail}`);
  }
}

/**
 * Runs the CLI without blocking this process, whose embedded emulator must keep answering the
 * provider while the command runs. Rejects with a `CliError` on a non-zero exit.
 */
function runPulumi(cwd: string, args: string[], env: NodeJS.ProcessEnv, onOutput: (text: string) => void): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(engineBin(), "pulumi"), args, { cwd, env });
    let stdout = "";
    let stderr = "";
    let partial = ""; // output is shown by whole lines; chunks end anywhere
    const show = (chunk: string) => {
      const lines = (partial + chunk).split("\n");
      partial = lines.pop()!;
      if (lines.length) onOutput(lines.join("\n"));
    };
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk;
      show(chunk.toString());
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk;
      show(chunk.toString());
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (partial) onOutput(partial);
      const result = { code, stdout, stderr };
      if (code === 0) resolve(result);
      else reject(new CliError(args, result));
    });
  });
}

/** The CLI's closing `Resources:` block on one line: `+ 15 to create`, `~ 1 updated, 14 unchanged`. */
export function resourcesSummary(output: string): string {
  const lines = output.split("\n");
  const start = lines.findIndex((line) => line.trim() === "Resources:");
  if (start < 0) return "(no summary)";
  const counts: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!/^\s+\S/.test(line) || !/\d/.test(line)) break;
    counts.push(line.trim());
  }
  return counts.join(", ");
}

function changesOnly(summary: Record<string, number | undefined>): Record<string, number> {
  return Object.fromEntries(Object.entries(summary).filter(([op, n]) => op !== "same" && n)) as Record<string, number>;
}
