/**
 * What a benchmark module exports for `bench/main.ts`: `export const benchmark: Benchmark`.
 * Benchmarks print numbers; a target a benchmark checks (memory growth, say) is checked in the
 * benchmark itself and reported as a failure, which makes `npm run bench` exit non-zero.
 */

/** One measured number, as printed: `{label: "raw undici PUT", value: "231.4 MB/s"}`. */
export interface Metric {
  label: string;
  value: string;
}

export interface BenchResult {
  /** What was measured, in one line (sizes, setup). */
  summary: string;
  /** A table (Markdown lines), printed as it is after the summary. */
  table?: string[];
  metrics: Metric[];
  /** Targets that were missed; empty when the benchmark passed. */
  failures: string[];
}

export interface Benchmark {
  name: string;
  /** What it shows, for the listing. */
  description: string;
  /** `flags`: the `--…` arguments given to `npm run bench` (`--large`, say); each benchmark reads its own. */
  run(flags?: readonly string[]): Promise<BenchResult>;
}
