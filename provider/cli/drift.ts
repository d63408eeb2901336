/**
 * `pulumi-compute drift`: for any stack, runs a refresh preview (nothing is written to state)
 * through the Automation API and reports the managed fields whose value in the cloud differs from
 * the value in state. Exit code 0 without drift, 2 with drift, 1 on error. A field under its
 * resource's `ignoreChanges` is listed as ignored and counts as no drift: `up` leaves it as it is.
 */
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { previewDrift, type ResourceDrift } from "../stack/refresh-drift";
import { interruptedRun } from "../stack/recovery";
import { EXIT } from "./exit";
import { projectStack } from "./project-stack";
import { NOTICE_PREFIX } from "../serve/row-log";

export interface DriftOptions {
  /** The project directory (holding Pulumi.yaml); default the working directory. */
  cwd: string;
  /** The stack; default the project's selected stack. */
  stack?: string;
  json: boolean;
}

export interface DriftReport {
  stack: string;
  /** Resources the refresh looked at (the stack resource and providers excluded). */
  resources: number;
  drift: ResourceDrift[];
  /** Fields that differ where the resource's `ignoreChanges` leaves them to others: not drift; absent when none. */
  ignored?: ResourceDrift[];
  /** What this package's code in the provider process warned of during the refresh (preview support off, say), each once; absent when nothing. */
  warnings?: string[];
}

export { EXIT };

export async function findDrift(options: DriftOptions): Promise<DriftReport> {
  const stack = await projectStack(options.cwd, options.stack);
  const interrupted = await interruptedRun(stack); // a refresh would be refused by a lock, and skips pending creates
  if (interrupted) throw new Error(interrupted);
  const { resources, drift, ignored, events } = await previewDrift(stack);
  const warnings = packageWarnings(events);
  return {
    stack: stack.name,
    resources,
    drift,
    ...(ignored.length > 0 ? { ignored } : {}),
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/**
 * The warnings this package's code said in the provider process (`provider/host/notice.ts`): the
 * engine's Log warnings, or stderr lines where the Log could not be used; each once.
 */
export function packageWarnings(events: EngineEvent[]): string[] {
  const said = events.flatMap(({ diagnosticEvent: d }) =>
    d && (d.severity === "warning" || d.severity === "info#err") && d.message.startsWith(NOTICE_PREFIX) ? [d.message.trimEnd()] : [],
  );
  return [...new Set(said)];
}

/** Left-aligned columns, header underlined: the drift report's and the fleet report's tables. */
export function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return [line(rows[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)];
}

/**
 * The report as text. `refreshed` says whether the refresh wrote the cloud's values to state
 * (`pulumi refresh`) or only previewed them (this command), which changes what restores them.
 */
export function formatReport(report: DriftReport, refreshed = false): string {
  const ignored = ignoredPart(report.ignored ?? [], refreshed);
  if (report.drift.length === 0) {
    const clean = `No drift: ${report.resources} resources of stack ${report.stack} match the cloud.`;
    return ignored.length === 0 ? clean : [clean.replace(/\.$/, ", apart from fields the program ignores."), "", ...ignored].join("\n");
  }
  const changed = new Set(report.drift.map((d) => d.resource)).size;
  return [
    `Drift in stack ${report.stack}: ${report.drift.length} field(s) of ${changed} resource(s) differ from state.`,
    "",
    ...driftTable(report.drift),
    "",
    refreshed
      ? "The refresh recorded the cloud's values in state; `pulumi up` brings them back to the program's."
      : // A refresh preview writes nothing, so a plain `up` still compares against the old state.
        "`pulumi up --refresh` brings them back to the program's values; `pulumi refresh` accepts the cloud's.",
    ...(ignored.length > 0 ? ["", ...ignored] : []),
  ].join("\n");
}

const driftTable = (drift: ResourceDrift[]) =>
  table([
    ["resource", "field", "value in state", "value in the cloud"],
    ...drift.map((d) => [`${d.type} ${d.resource}`, d.field, JSON.stringify(d.state), JSON.stringify(d.cloud)]),
  ]);

/**
 * The lines naming the fields that differ under `ignoreChanges`. `up` copies the recorded value
 * over the program's at those fields, so it never sets them back, with or without `--refresh`.
 */
function ignoredPart(ignored: ResourceDrift[], refreshed: boolean): string[] {
  if (ignored.length === 0) return [];
  const resources = new Set(ignored.map((d) => d.resource)).size;
  return [
    `Ignored: ${ignored.length} field(s) of ${resources} resource(s) differ where the program's ignoreChanges leaves them to others (not drift).`,
    "",
    ...driftTable(ignored),
    "",
    refreshed
      ? "The refresh recorded the cloud's values in state; `pulumi up` leaves them as they are."
      : "`pulumi up` leaves them as they are, with or without `--refresh`; `pulumi refresh` records them in state. To manage one again, remove it from `ignoreChanges`.",
  ];
}

export async function runDrift(options: DriftOptions, out: (text: string) => void = console.log): Promise<number> {
  try {
    const report = await findDrift(options);
    if (!options.json) for (const warning of report.warnings ?? []) console.error(`warning: ${warning}`);
    out(options.json ? JSON.stringify(report, null, 2) : formatReport(report));
    return report.drift.length > 0 ? EXIT.drift : EXIT.clean;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    out(options.json ? JSON.stringify({ error: message }) : `pulumi-compute drift: ${message}`);
    return EXIT.error;
  }
}
