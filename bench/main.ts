/**
 * `npm run bench`: runs every benchmark module in this folder (a module that exports
 * `benchmark: Benchmark`), one after the other, and prints their numbers. Exits non-zero when a
 * benchmark missed a target it checks, or failed to run.
 *
 *   node dist/bench/main.js [name…] [--flag…]    only the named benchmarks; flags go to each (`--large`)
 */
import { readdirSync } from "node:fs";
import * as path from "node:path";
import type { Benchmark } from "./benchmark";

/** The benchmark modules beside this file, by name. */
export function discoverBenchmarks(folder = __dirname): Benchmark[] {
  const found: Benchmark[] = [];
  for (const file of readdirSync(folder).sort()) {
    if (!file.endsWith(".js") || file === path.basename(__filename)) continue;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- benchmarks are found by file name
    const exported = (require(path.join(folder, file)) as { benchmark?: Benchmark }).benchmark;
    if (exported && typeof exported.run === "function") found.push(exported);
  }
  return found;
}

async function main(args: string[]): Promise<number> {
  const names = args.filter((a) => !a.startsWith("--"));
  const flags = args.filter((a) => a.startsWith("--"));
  const all = discoverBenchmarks();
  const chosen = names.length ? all.filter((b) => names.includes(b.name)) : all;
  const unknown = names.filter((n) => !all.some((b) => b.name === n));
  if (unknown.length) {
    console.error(`unknown benchmark(s): ${unknown.join(", ")}; available: ${all.map((b) => b.name).join(", ")}`);
    return 64;
  }
  let failed = 0;
  for (const bench of chosen) {
    console.log(`\n${bench.name}: ${bench.description}`);
    const started = Date.now();
    try {
      const result = await bench.run(flags);
      console.log(`  ${result.summary}`);
      for (const line of result.table ?? []) console.log(`  ${line}`);
      const width = Math.max(0, ...result.metrics.map((m) => m.label.length));
      for (const metric of result.metrics) console.log(`  ${metric.label.padEnd(width)}  ${metric.value}`);
      for (const failure of result.failures) console.log(`  FAILED: ${failure}`);
      if (result.failures.length) failed++;
      console.log(`  ${result.failures.length ? "failed" : "ok"} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    } catch (error) {
      failed++;
      console.log(`  FAILED to run: ${(error as Error).stack ?? String(error)}`);
    }
  }
  console.log(`\nbenchmarks: ${chosen.length - failed} ok, ${failed} failed`);
  return failed ? 1 : 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
