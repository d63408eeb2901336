/**
 * An operation's results from the engine's own events instead of CLI reads after it. After `up`
 * the Automation API starts the CLI three more times (the stack's outputs masked, then shown, and
 * `stack history` for the summary), and once more after `refresh` and `destroy`: each a `pulumi`
 * start of about 0.3 s of CPU, as much as a small operation's engine work. The engine has already
 * said both things in the operation's event stream: the summary (`summaryEvent`) and the root
 * stack's outputs (its `resOutputsEvent`).
 *
 * - The summary's `kind`, `result` and `resourceChanges` are the engine's; `startTime` and
 *   `endTime` are the operation's as this process saw them; `version` is 0, as the history of a
 *   `file://` or other self-managed backend gives it; `message`, `environment` and `config`, which
 *   only the history holds, are empty (`stack.history()` reads them).
 * - The outputs are the engine's when none is secret or special (an asset, a resource reference):
 *   the events show a secret as `[secret]`, so then the CLI is read (its two reads side by side,
 *   `outputsSideBySide`), as it is when no
 *   outputs event came.
 *
 * `test/e2e/emulated-stack.e2e.test.ts` holds both to the CLI's own reads.
 */
import type { EngineEvent, LocalWorkspace, OutputMap, Stack, UpdateKind, UpdateResult, UpdateSummary } from "@pulumi/pulumi/automation";

/** The key with which Pulumi marks a secret, an asset or a resource reference in a property value. */
const SPECIAL_SIG = "4dabf18193072939515e22adb298388d";

/** What one running operation's events said, as far as its results need. */
interface Heard {
  kind: UpdateKind;
  startTime: Date;
  summary?: NonNullable<EngineEvent["summaryEvent"]>;
  stackOutputs?: Record<string, unknown>;
}

type Operation<O> = (options?: O) => Promise<unknown>;
type WithEvents = { onEvent?: (event: EngineEvent) => void };

/**
 * Makes `stack`'s `up`, `refresh` and `destroy` take their results from the operation's events
 * (the module's comment says which and when). A caller's `onEvent` still gets every event.
 */
export function resultsFromEvents(stack: Stack): Stack {
  outputsSideBySide(stack.workspace as LocalWorkspace);
  const cliOutputs = stack.outputs.bind(stack);
  const cliInfo = stack.info.bind(stack);
  let heard: Heard | undefined;
  const listening = <O extends WithEvents>(operation: Operation<O>, kind: UpdateKind) =>
    (async (options?: O) => {
      const running: Heard = { kind, startTime: new Date() };
      const onEvent = (event: EngineEvent) => {
        if (event.summaryEvent) running.summary = event.summaryEvent;
        const outputs = event.resOutputsEvent?.metadata;
        if (outputs?.type === "pulumi:pulumi:Stack") running.stackOutputs = outputs.new?.outputs;
        options?.onEvent?.(event);
      };
      heard = running;
      try {
        return await operation.call(stack, { ...options, onEvent } as O);
      } finally {
        if (heard === running) heard = undefined;
      }
    }) as never;
  stack.up = listening(stack.up, "update");
  stack.refresh = listening(stack.refresh, "refresh");
  stack.destroy = listening(stack.destroy, "destroy");
  stack.outputs = () => {
    const outputs = heard && plainOutputs(heard.stackOutputs);
    return outputs ? Promise.resolve(outputs) : cliOutputs();
  };
  stack.info = (showSecrets?: boolean) => {
    const summary = heard && summaryOf(heard);
    return summary ? Promise.resolve(summary) : cliInfo(showSecrets);
  };
  return stack;
}

/** The outputs as `stack output` gives them, when none is secret or special; else undefined. */
function plainOutputs(outputs: Record<string, unknown> | undefined): OutputMap | undefined {
  if (!outputs || special(outputs)) return undefined;
  return Object.fromEntries(Object.entries(outputs).map(([key, value]) => [key, { value, secret: false }]));
}

function special(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(special);
  if (value === null || typeof value !== "object") return false;
  return SPECIAL_SIG in value || Object.values(value).some(special);
}

function summaryOf(heard: Heard): UpdateSummary | undefined {
  if (!heard.summary) return undefined;
  return {
    kind: heard.kind,
    startTime: heard.startTime,
    endTime: new Date(),
    message: "",
    environment: {},
    config: {},
    // The event's JSON carries the result, which its typings leave out.
    result: (heard.summary as { result?: UpdateResult }).result ?? "succeeded",
    resourceChanges: heard.summary.resourceChanges,
    version: 0,
  };
}

/** How the Automation API runs a CLI command (`PulumiCommand.run`, which its typings leave out). */
type RunCommand = (args: string[], cwd: string, env: Record<string, string>) => Promise<{ stdout: string }>;

/**
 * Where the outputs are read from the CLI after all (a secret among them), the workspace's
 * `stackOutputs`, its two CLI reads (the outputs masked, which says which are
 * secret, and shown) at once instead of one after the other, combined as the Automation API does.
 * A `@pulumi/pulumi` whose command has no `run` keeps its own.
 */
function outputsSideBySide(workspace: LocalWorkspace): void {
  const command = workspace.pulumiCommand as unknown as { run?: RunCommand };
  if (typeof command.run !== "function") return;
  const env = (): Record<string, string> => ({
    ...(workspace.pulumiHome ? { PULUMI_HOME: workspace.pulumiHome } : {}),
    ...workspace.envVars,
  });
  const read = (args: string[]) => command.run!.call(command, args, workspace.workDir, env());
  workspace.stackOutputs = async (stackName: string): Promise<OutputMap> => {
    const args = ["stack", "output", "--json", "--stack", stackName];
    const [masked, shown] = await Promise.all([read(args), read([...args, "--show-secrets"])]);
    const secret = JSON.parse(masked.stdout) as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(JSON.parse(shown.stdout) as Record<string, unknown>).map(([key, value]) => [
        key,
        { value, secret: secret[key] === "[secret]" },
      ]),
    );
  };
}
