/**
 * What `pulumi-compute drift --all` prints: one block per stack (the single-stack report of
 * `drift.ts`), a summary table, the report as JSON, and JUnit XML with one test case per stack,
 * which CI systems display. Pure functions of the results, so each form is tested without a stack.
 */
import type { ResourceDrift } from "../stack/refresh-drift";
import { EXIT } from "./exit";
import { formatReport, table } from "./drift";

/** What the check of one stack found. `busy`: another runner holds its lock; nothing was checked. */
export type StackStatus = "clean" | "drift" | "busy" | "error";

export const STATUSES: readonly StackStatus[] = ["clean", "drift", "busy", "error"];

export interface StackResult {
  /** The stack as the backend names it (`organization/app/prod` in a diy backend). */
  stack: string;
  project: string;
  status: StackStatus;
  /** Resources the refresh looked at; 0 when the stack was not checked. */
  resources: number;
  drift: ResourceDrift[];
  /** Fields that differ where a resource's `ignoreChanges` leaves them to others: not drift; absent when none. */
  ignored?: ResourceDrift[];
  /** Why the stack was busy or failed (the engine's first lines). */
  message?: string;
  seconds: number;
}

export interface FleetReport {
  stacks: StackResult[];
  summary: Record<StackStatus, number>;
}

export function fleetReport(stacks: StackResult[]): FleetReport {
  const summary = Object.fromEntries(STATUSES.map((s) => [s, stacks.filter((r) => r.status === s).length])) as Record<StackStatus, number>;
  return { stacks, summary };
}

/** 1 when a stack could not be checked (an error), else 2 when one drifted, else 0. A busy stack is neither. */
export function fleetExitCode(report: FleetReport): number {
  if (report.summary.error > 0) return EXIT.error;
  return report.summary.drift > 0 ? EXIT.drift : EXIT.clean;
}

/** The one-line outcome of a stack, for progress lines and the summary table. */
export function outcome(result: StackResult): string {
  switch (result.status) {
    case "clean":
      return result.ignored?.length ? `no drift (${result.ignored.length} ignored field(s) differ)` : "no drift";
    case "drift":
      return `drift: ${result.drift.length} field(s) of ${new Set(result.drift.map((d) => d.resource)).size} resource(s)`;
    case "busy":
      return "busy: its lock is held by another runner, not checked";
    case "error":
      return `error: ${firstLine(result.message)}`;
  }
}

const firstLine = (text = "") => text.split("\n").find((l) => l.trim()) ?? "";

function block(result: StackResult): string {
  if (result.status === "clean" || result.status === "drift") {
    return formatReport({ stack: result.stack, resources: result.resources, drift: result.drift, ignored: result.ignored });
  }
  const title = result.status === "busy" ? `Stack ${result.stack} is busy (not checked):` : `Stack ${result.stack} could not be checked:`;
  return [title, ...(result.message ?? "").split("\n").map((l) => `  ${l}`)].join("\n").trimEnd();
}

export function formatFleetReport(report: FleetReport): string {
  const blocks = report.stacks.map(block);
  const summary = table([
    ["stack", "status", "resources", "drifted fields", "seconds"],
    ...report.stacks.map((r) => [r.stack, r.status, String(r.resources), String(r.drift.length), r.seconds.toFixed(1)]),
  ]);
  const { clean, drift, busy, error } = report.summary;
  return [
    ...blocks.flatMap((b) => [b, ""]),
    ...summary,
    "",
    `${report.stacks.length} stack(s): ${clean} without drift, ${drift} drifted, ${busy} busy, ${error} failed.`,
  ].join("\n");
}

const xml = (text: string) =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    // XML 1.0 allows neither most control characters nor lone escape codes from terminals.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");

/**
 * JUnit XML: a suite, one test case per stack (class: the project, name: the stack). Drift is a
 * failure, an error an error, a busy stack skipped with the lock's holder as the message. A clean
 * stack whose ignored fields differ passes, its report in `system-out`.
 */
export function junitXml(report: FleetReport, timestamp = new Date()): string {
  const total = report.stacks.reduce((s, r) => s + r.seconds, 0).toFixed(3);
  const { drift, busy, error } = report.summary;
  const counts = `tests="${report.stacks.length}" failures="${drift}" errors="${error}" skipped="${busy}" time="${total}"`;
  const cases = report.stacks.map((r) => {
    const open = `    <testcase classname="${xml(r.project)}" name="${xml(r.stack)}" time="${r.seconds.toFixed(3)}"`;
    switch (r.status) {
      case "clean":
        return r.ignored?.length ? `${open}>\n      <system-out>${xml(block(r))}</system-out>\n    </testcase>` : `${open}/>`;
      case "drift":
        return `${open}>\n      <failure type="drift" message="${xml(outcome(r))}">${xml(block(r))}</failure>\n    </testcase>`;
      case "busy":
        return `${open}>\n      <skipped message="${xml(outcome(r))}">${xml(r.message ?? "")}</skipped>\n    </testcase>`;
      case "error":
        return `${open}>\n      <error type="error" message="${xml(firstLine(r.message))}">${xml(r.message ?? "")}</error>\n    </testcase>`;
    }
  });
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="pulumi-compute drift" ${counts}>`,
    `  <testsuite name="pulumi-compute drift" ${counts} timestamp="${timestamp.toISOString().replace(/\.\d+Z$/, "")}">`,
    ...cases,
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ].join("\n");
}
