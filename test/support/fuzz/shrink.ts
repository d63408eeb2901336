/**
 * Shrinking: a failing step list made as small as it still fails with the same invariant. The
 * steps after the broken one go first; then chunks of halving size, then single steps, are
 * removed, keeping each removal whose replay (a fresh stack on a reset emulator) still breaks the
 * same invariant. A step whose target a removal took away replays as a no-op (`steps.ts`).
 */
import { runSteps, type FuzzWorld, type RunOptions, type Violation } from "./run";
import type { Step } from "./steps";
import type { Door } from "./doors";

export interface Shrunk {
  steps: Step[];
  violation: Violation;
  /** Replays made while shrinking. */
  replays: number;
}

export async function shrink(
  world: FuzzWorld,
  steps: readonly Step[],
  violation: Violation,
  options: { door?: Door; maxReplays?: number; log?: (line: string) => void; afterStep?: RunOptions["afterStep"] } = {},
): Promise<Shrunk> {
  const maxReplays = options.maxReplays ?? 40;
  let best = { steps: steps.slice(0, violation.step + 1), violation };
  let replays = 0;
  const stillFails = async (candidate: Step[]): Promise<Violation | undefined> => {
    replays++;
    const report = await runSteps(world, candidate, { door: options.door, afterStep: options.afterStep });
    return report.violation?.invariant === violation.invariant ? report.violation : undefined;
  };
  for (
    let chunk = Math.max(1, Math.floor(best.steps.length / 2));
    chunk >= 1;
    chunk = chunk === 1 ? 0 : Math.max(1, Math.floor(chunk / 2))
  ) {
    for (let start = 0; start < best.steps.length && replays < maxReplays;) {
      const candidate = [...best.steps.slice(0, start), ...best.steps.slice(start + chunk)];
      const failed = candidate.length ? await stillFails(candidate) : undefined;
      if (failed) {
        best = { steps: candidate.slice(0, failed.step + 1), violation: failed };
        options.log?.(`shrunk to ${best.steps.length} steps`);
      } else start += chunk;
    }
    if (replays >= maxReplays) break;
  }
  return { ...best, replays };
}

/** A shrunk sequence as a jest test to paste into `test/e2e/fuzz-found.e2e.test.ts` (its `replay`, through `door`). */
export function asJestTest(title: string, shrunk: { steps: readonly Step[]; violation: Violation }, door: Door = "classes"): string {
  return [
    `// ${shrunk.violation.invariant}: ${shrunk.violation.message.split("\n")[0]}`,
    `test(${JSON.stringify(title)}, async () => {`,
    "  await replay([",
    ...shrunk.steps.map((s) => `    ${JSON.stringify(s)},`),
    door === "classes" ? "  ]);" : `  ], ${JSON.stringify(door)});`,
    "});",
  ].join("\n");
}
