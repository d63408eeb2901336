/**
 * The model-based fuzzer (issue 60): a seeded sequence of a team's steps over months — program
 * edits, operations, hand changes and faults — run through the real engine against the emulator,
 * with invariants after every step, and a failure shrunk to a jest test. Shared by
 * `test/e2e/fuzz.e2e.test.ts` (fixed seeds), `test/e2e/fuzz-found.e2e.test.ts` (the shrunk
 * replays of what it found) and `bench/fuzz.ts` (long runs). docs/design.md says what it covers
 * and what not yet.
 */
import { runSteps, type FuzzWorld, type RunReport } from "./run";
import { asJestTest, shrink, type Shrunk } from "./shrink";
import { generateSteps } from "./steps";
import { doorOf, type Door } from "./doors";
import type { Step } from "./steps";

export { startFuzzWorld, runSteps, type FuzzWorld, type RunReport, type Violation } from "./run";
export { generateSteps, type Step } from "./steps";
export { KINDS, NOT_YET, unmodelledKinds } from "./kinds";
export { DOORS, doorOf, type Door } from "./doors";
export { shrink, asJestTest } from "./shrink";

/** A firewall `fw1` and an inbound rule `rule1` on it: the start of tests of both fuzz files. */
export const FIREWALL_WITH_RULE: Step[] = [
  { op: "add", kind: "Firewall", name: "fw1", props: { label: "fz-fw-2", inboundPolicy: "DROP", outboundPolicy: "ACCEPT" } },
  {
    op: "add",
    kind: "FirewallRule",
    name: "rule1",
    parent: "fw1",
    props: { direction: "inbound", label: "rule-11", action: "ACCEPT", protocol: "TCP", ports: "1012" },
  },
];

export interface FuzzResult {
  seed: number;
  door: Door;
  report: RunReport;
  /** On a violation: the shrunk sequence and the jest test that replays it. */
  shrunk?: Shrunk & { test: string };
}

/**
 * Generates `steps` steps from `seed` (with `kills`, at that rate), runs them through the seed's door (or `door`), and shrinks
 * a violation (at most `maxReplays` replays) through the same door.
 */
export async function fuzz(
  world: FuzzWorld,
  seed: number,
  steps: number,
  options: { door?: Door; maxReplays?: number; log?: (line: string) => void; trace?: boolean; kills?: number } = {},
): Promise<FuzzResult> {
  const door = options.door ?? doorOf(seed);
  const sequence = generateSteps(seed, steps, { kills: options.kills });
  const report = await runSteps(world, sequence, { door, log: options.log, trace: options.trace });
  if (!report.violation) return { seed, door, report };
  const shrunk = await shrink(world, sequence, report.violation, { ...options, door });
  const test = asJestTest(`seed ${seed} (${door}): ${shrunk.violation.invariant}`, shrunk, door);
  options.log?.(`shrunk from ${report.steps} to ${shrunk.steps.length} steps in ${shrunk.replays} replays:\n${test}`);
  return { seed, door, report, shrunk: { ...shrunk, test } };
}
