/**
 * Policy: what the compute-guardrails pack adds to a preview of the quickstart. The quickstart's
 * stack (every resource, against an in-process emulator seeded as the demo seeds it) is previewed
 * with and without `policyPacks: [GUARDRAILS]`, in interleaved rounds of the same run: before its
 * first up (every resource a create) and after it (no changes). Prints the medians, the time the
 * pack adds and the ratio; the pack's start (a Node process loading @pulumi/policy and the
 * package's specs) is most of it. Fails when a preview with the pack reports a violation: the
 * quickstart passes the pack at its defaults.
 *
 *   npm run bench -- policy            3 rounds
 *   BENCH_ROUNDS=5 npm run bench -- policy
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { EngineEvent, Stack } from "@pulumi/pulumi/automation";
import { startEmulator } from "../emulator";
import { demoEnvironmentConfig, seedDemoEnvironment } from "../emulator/control/demo-environment";
import { EXAMPLES } from "../examples/catalog";
import { GUARDRAILS } from "../provider/launch/plugins";
import type { BenchResult, Benchmark } from "./benchmark";
import { benchStack } from "./stack";

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** One preview's wall time (ms) and the policy violations it reported. */
async function timedPreview(stack: Stack, withPack: boolean): Promise<{ ms: number; violations: string[] }> {
  const events: EngineEvent[] = [];
  const started = performance.now();
  await stack.preview({ ...(withPack ? { policyPacks: [GUARDRAILS] } : {}), onEvent: (e) => events.push(e) });
  const ms = performance.now() - started;
  return { ms, violations: events.flatMap((e) => (e.policyEvent ? [`${e.policyEvent.policyName}: ${e.policyEvent.message}`] : [])) };
}

export const benchmark: Benchmark = {
  name: "policy",
  description: "the time the compute-guardrails policy pack adds to a preview of the quickstart",
  async run(): Promise<BenchResult> {
    const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "bench-policy-"));
    const emulator = await startEmulator({ port: 0, timeScale: 600 });
    try {
      const seeded = seedDemoEnvironment(emulator.control);
      const stack = await benchStack("policy", EXAMPLES.quickstart!.program, emulator, base);
      await stack.setAllConfig({
        // The quickstart's data functions run in this process: they read the stack's config.
        "compute:token": { value: emulator.token, secret: true },
        "compute:apiUrl": { value: emulator.url },
        ...Object.fromEntries(Object.entries(demoEnvironmentConfig(seeded)).map(([key, value]) => [key, { value }])),
      });
      const failures: string[] = [];
      const measure = async (phase: string) => {
        const times: Record<"plain" | "pack", number[]> = { plain: [], pack: [] };
        for (let round = 0; round < rounds; round++) {
          // Interleaved, the order alternating: both see the same moments of a busy machine.
          for (const withPack of round % 2 ? [true, false] : [false, true]) {
            const { ms, violations } = await timedPreview(stack, withPack);
            times[withPack ? "pack" : "plain"].push(ms);
            if (violations.length) failures.push(`the ${phase} preview with the pack reported ${violations.join("; ")}`);
          }
        }
        const plain = median(times.plain);
        const pack = median(times.pack);
        return { phase, plain, pack, added: pack - plain, ratio: pack / plain };
      };
      const fresh = await measure("first (17 creates)");
      await stack.up();
      const after = await measure("after up (no changes)");
      await stack.destroy();
      const rows = [fresh, after];
      return {
        summary: `the quickstart's preview, ${rounds} interleaved rounds each, medians; the pack is policy/compute-guardrails at its defaults`,
        table: [
          "| preview | without the pack | with the pack | added | ratio |",
          "|---|---|---|---|---|",
          ...rows.map(
            (r) =>
              `| ${r.phase} | ${(r.plain / 1000).toFixed(2)} s | ${(r.pack / 1000).toFixed(2)} s | ${(r.added / 1000).toFixed(2)} s | ${r.ratio.toFixed(2)} |`,
          ),
        ],
        metrics: rows.map((r) => ({ label: `pack adds, ${r.phase}`, value: `${(r.added / 1000).toFixed(2)} s (${r.ratio.toFixed(2)}×)` })),
        failures,
      };
    } finally {
      await emulator.close();
      fs.rmSync(base, { recursive: true, force: true });
    }
  },
};
