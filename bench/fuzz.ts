/**
 * The model-based fuzzer's long runs (`test/support/fuzz/`, issue 60): seeded step sequences
 * through the real engine against the in-process emulator, every invariant after every step, a
 * violation shrunk and printed as a jest test to paste into `test/e2e/fuzz-found.e2e.test.ts`.
 *
 *   npm run bench -- fuzz --steps=200 --seed=7                 one seed, through its door (odd: classes, even: plugin)
 *   npm run bench -- fuzz --steps=100 --seed=1 --seeds=20        seeds 1 to 20
 *   npm run bench -- fuzz --steps=100 --seeds=20 --door=plugin   every seed through the provider plugin (or `classes`)
 *   npm run bench -- fuzz --steps=30 --seed=3 --kills=0.1        about one step in ten an `up` killed and recovered (`kill`)
 *
 * Prints, per seed: steps, engine operations, faults fired, resources moved to a second stack and
 * back (`stateMove`), `up`s killed and recovered, invariant checks, the most requests of one operation, and the time per step. A violation is a failure of the benchmark.
 */
import { DOORS, fuzz, startFuzzWorld, type Door } from "../test/support/fuzz";
import type { BenchResult, Benchmark } from "./benchmark";

const flag = (flags: readonly string[], name: string, fallback: number): number => {
  const given = flags.find((f) => f.startsWith(`--${name}=`));
  const value = given === undefined ? fallback : Number(given.slice(name.length + 3));
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a whole number ≥ 1, not ${given}`);
  return value;
};

export const benchmark: Benchmark = {
  name: "fuzz",
  description: "model-based fuzzing through the real engine: steps, operations, faults, invariants checked, time per step",
  async run(flags = []): Promise<BenchResult> {
    const steps = flag(flags, "steps", 40);
    const first = flag(flags, "seed", 1);
    const seeds = flag(flags, "seeds", 1);
    const doorFlag = flags.find((f) => f.startsWith("--door="))?.slice("--door=".length);
    if (doorFlag !== undefined && !(DOORS as readonly string[]).includes(doorFlag))
      throw new Error(`--door takes ${DOORS.join(" or ")}, not ${doorFlag}`);
    const door = doorFlag as Door | undefined;
    const killsFlag = flags.find((f) => f.startsWith("--kills="))?.slice("--kills=".length);
    const kills = killsFlag === undefined ? 0 : Number(killsFlag);
    if (!(kills >= 0 && kills <= 1)) throw new Error(`--kills takes a rate from 0 to 1, not ${killsFlag}`);
    const world = await startFuzzWorld();
    const table = [
      "| seed | door | steps | operations | faults fired | moved and back | kills | invariant checks | most requests per operation | s per step | result |",
      "|---|---|---|---|---|---|---|---|---|---|---|",
    ];
    const failures: string[] = [];
    const total = { steps: 0, operations: 0, faults: 0, kills: 0, checks: 0, ms: 0 };
    try {
      for (let seed = first; seed < first + seeds; seed++) {
        const result = await fuzz(world, seed, steps, {
          door,
          log: (line) => console.log(`  seed ${seed}: ${line}`),
          trace: flags.includes("--trace"),
          kills,
        });
        const { report, shrunk } = result;
        total.steps += report.steps;
        total.operations += report.operations;
        total.faults += report.faults;
        total.kills += report.kills;
        total.checks += report.checks;
        total.ms += report.ms;
        const v = report.violation;
        const row = `| ${seed} | ${result.door} | ${report.steps} | ${report.operations} | ${report.faults} | ${report.moved} | ${report.kills} | ${report.checks} | ${report.mostRequests} | ${(report.ms / 1000 / report.steps).toFixed(2)} | ${v ? `${v.invariant} at step ${v.step}` : "clean"} |`;
        table.push(row);
        // Each seed as it ends, for a long run watched from its log.
        console.log(`  ${row}`);
        if (shrunk) {
          failures.push(
            `seed ${seed} (${result.door}): ${shrunk.violation.invariant} (shrunk to ${shrunk.steps.length} steps in ${shrunk.replays} replays):\n${shrunk.test}`,
          );
        }
      }
    } finally {
      await world.close();
    }
    return {
      summary: `${seeds} seed(s) from ${first}, ${steps} steps each, on one in-process emulator (reset per run), ${door ? `all through the ${door} door` : "each seed through its door (odd: classes, even: plugin)"}${kills ? `, kills at a rate of ${kills}` : ""}`,
      table,
      metrics: [
        { label: "steps", value: String(total.steps) },
        { label: "operations", value: String(total.operations) },
        { label: "faults fired", value: String(total.faults) },
        { label: "ups killed and recovered", value: String(total.kills) },
        { label: "invariant checks", value: String(total.checks) },
        { label: "time per step", value: `${(total.ms / 1000 / Math.max(1, total.steps)).toFixed(2)} s` },
      ],
      failures,
    };
  },
};
