/**
 * Says once per provider process, as a warning, which of this package's changes to Pulumi's
 * dynamic provider host are off in this run, why, and what the user loses: on the row of the first
 * resource the host serves when the preload can tell which one it is, else in the stack's
 * diagnostics (the engine's `Log` without a URN), else on stderr (which the engine shows too).
 *
 * Two cases reach it:
 * - the project's launcher preloaded this package (`preload.ts`), and a change stepped aside
 *   because the host lacks a part it uses (`preview.ts`, `diff-response.ts`, `ignore-changes.ts`,
 *   `engine-log.ts`, `import.ts`, `transport.ts`);
 * - the project does not declare this package's plugin, so Pulumi's own launcher started the host
 *   and nothing was preloaded (`withoutLauncher`): previews are Pulumi's plain ones.
 * Turning preview support off on purpose (`PULUMI_DISABLE_PROVIDER_PREVIEW`, `compute:previewSupport`)
 * is not warned about.
 */
import { previewOffByEnvironment } from "../serve/config";
import { HOST_ENTRY, HOST_PINNED } from "./entry";
import { detailedDiffInHost } from "./diff-response";
import { ignoreChangesInHost } from "./ignore-changes";
import { hostModules } from "./modules";
import { NOTICE_PREFIX, engineLog, unloggable, type EngineLog, type EngineModules } from "../serve/row-log";
import { engineModules } from "./engine-log";
import { DYNAMIC_PLUGIN, PLUGINS_PATH } from "../launch/plugins";

/** A change to the host that is off in this run. */
export interface StepAside {
  part: "preview support" | "detailed diffs" | "ignoreChanges" | "status lines" | "imports" | "lean gRPC serving";
  /** Which part of the host it found missing, as `modules.ts` names it. */
  why: string;
}

/** What the user loses without each change, in the terms of their run. */
export const LOSES: Record<StepAside["part"], string> = {
  "preview support":
    "previews of in-place updates show output-only properties (hosts, port, size, …) as unknown, and resources that read them may plan updates that `up` will not make",
  "detailed diffs": "`pulumi preview --diff` names a changed list but not which of its elements change",
  ignoreChanges:
    "a value changed by hand under a resource's `ignoreChanges` is set back by the `up` after an update that records it, as if the option were not there",
  "status lines": "progress (waits, retries) is printed under the stack instead of on each resource's row",
  imports: 'the `import` resource option fails with Pulumi\'s "code must be a string"; adopt an existing object with `adoptId` instead',
  "lean gRPC serving":
    "the provider's calls are served by grpc-js's server, which costs about 1–2 ms more CPU per resource and operation; nothing else changes",
};

export { NOTICE_PREFIX };

/** Where the docs explain turning preview support on and what the checks compare. */
const DOCS = "pulumi-compute's docs/getting-started.md#preview-support";

const capital = (text: string) => text[0]!.toUpperCase() + text.slice(1);

/** `text` in lines of at most `width` characters: the first after `lead`, the others after `indent`. */
export function wrap(text: string, indent: string, lead = "", width = 96): string[] {
  const lines: string[] = [];
  let line = lead;
  for (const word of text.split(" ")) {
    if (line.trim() && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else line = line.trim() ? `${line} ${word}` : line + word;
  }
  return [...lines, line];
}

/** The warning when a change steps aside: which, why, and what it costs. `version`: the host's @pulumi/pulumi. */
export function stepAsideText(asides: readonly StepAside[], version: string | undefined): string {
  const one = asides.length === 1;
  const names = asides.map((a) => a.part);
  const parts = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names[0];
  return [
    ...wrap(
      `${NOTICE_PREFIX}${parts} ${one ? "is" : "are"} off for this run: Pulumi's dynamic provider host ` +
        `(@pulumi/pulumi ${version ?? "of unknown version"}) lacks a part ${one ? "it uses" : "they use"}, so the run goes on with Pulumi's plain behaviour:`,
      "  ",
    ),
    ...asides.flatMap((a) => wrap(`- ${a.part}: ${a.why}. ${capital(LOSES[a.part])}.`, "    ", "  ")),
    ...wrap(
      `These changes were written against @pulumi/pulumi ${HOST_PINNED}: install that version in the project, ` +
        `or a pulumi-compute made for yours (${DOCS}).`,
      "  ",
      "  ",
    ),
  ].join("\n");
}

/** The warning when the project's host was started without this package's launcher; `ignoreWhy`: why ignoreChanges cannot reach the provider there, if so. */
export function noLauncherText(diffWhy: string | undefined, ignoreWhy?: string): string {
  return [
    ...wrap(
      `${NOTICE_PREFIX}preview support is off: this project does not declare pulumi-compute's plugin, so Pulumi's own dynamic provider host runs its resources. ` +
        `${capital(LOSES["preview support"])}, and ${LOSES.imports}. To turn preview support and imports on, add to Pulumi.yaml:`,
      "  ",
    ),
    "    plugins:",
    "      providers:",
    `        - name: ${DYNAMIC_PLUGIN}`,
    `          path: ${PLUGINS_PATH}`,
    ...wrap(`(Automation API: projectSettings: withComputePlugins({...}) from pulumi-compute; ${DOCS}.)`, "  ", "  "),
    ...(diffWhy ? wrap(`Detailed diffs are off too: ${diffWhy}. ${capital(LOSES["detailed diffs"])}.`, "  ", "  ") : []),
    ...(ignoreWhy
      ? wrap(`ignoreChanges does not reach the provider either: ${ignoreWhy}. ${capital(LOSES.ignoreChanges)}.`, "  ", "  ")
      : []),
  ].join("\n");
}

/** Marks this process's host as started by this package's launcher (set by the preload), shared by every copy of the package. */
const LAUNCHED = Symbol.for("pulumi-compute.launcher");
/** Set once the process has said its warning. */
const SAID = Symbol.for("pulumi-compute.notice-said");
const slot = globalThis as Record<symbol, unknown>;
/** A provider resource's URN (`…::pulumi:providers:pulumi-nodejs::default`). */
const PROVIDER_URN = /::pulumi:providers:[^:]*::/;

export function markLaunched(): void {
  slot[LAUNCHED] = true;
}

/** Runs `say` unless this process has already said its warning. */
function once(say: () => void): void {
  if (slot[SAID]) return;
  slot[SAID] = true;
  say();
}

/** Sends a warning through the engine's `Log` when it can, else to stderr. */
export type Warn = (message: string, urn?: string) => void;

export function warner(log: EngineLog | undefined): Warn {
  return (message, urn = "") => (log ? log("warning", message, urn, false) : console.error(message));
}

/** The engine's `Log` for a host whose modules and engine address are these; undefined when it cannot be used. */
export function hostLog(engine: Partial<EngineModules> | undefined, engineAddress: string | undefined): EngineLog | undefined {
  return unloggable(engine, engineAddress) === undefined ? engineLog(engine as EngineModules, engineAddress!) : undefined;
}

/**
 * The warnings of a host started by this package's launcher: `stepAside` records a change that is
 * off, `served` says the warning on the row of the first resource served (the preload calls it
 * for each URN), `now` says it where it can at once (no resource row is known).
 */
export class HostNotice {
  private readonly asides: StepAside[] = [];
  constructor(
    private readonly warn: Warn,
    private readonly version: string | undefined,
  ) {}

  stepAside(part: StepAside["part"], why: string | undefined): void {
    if (why !== undefined) this.asides.push({ part, why });
  }

  /** Hears each URN served; the first resource's (not a provider's, whose Configure comes first) gets the warning. */
  served = (urn: string): void => {
    if (!PROVIDER_URN.test(urn)) this.say(urn);
  };

  now(): void {
    this.say("");
  }

  private say(urn: string): void {
    if (this.asides.length) once(() => this.warn(stepAsideText(this.asides, this.version), urn));
  }
}

/**
 * Called by the provider's `configure` in every provider process: when Pulumi's own launcher
 * started the host (no preload marked it), says once that preview support is off and how to turn
 * it on, unless the user turned it off. Anywhere but the host, nothing.
 */
export function withoutLauncher(previewWanted: boolean, env: NodeJS.ProcessEnv = process.env): void {
  const main = require.main;
  if (slot[LAUNCHED] || !main || !HOST_ENTRY.test(main.filename)) return;
  const diffWhy = detailedDiffInHost();
  const ignoreWhy = ignoreChangesInHost();
  if (!previewWanted || previewOffByEnvironment(env)) return;
  once(() => {
    let log: EngineLog | undefined;
    try {
      log = hostLog(engineModules(hostModules(main.filename).engine), process.argv[2]);
    } catch {
      log = undefined;
    }
    warner(log)(noLauncherText(diffWhy, ignoreWhy));
  });
}
