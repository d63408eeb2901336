/**
 * The emulator process's memory: what `GET /__emulator/memory` reports (so a long run can tell
 * live data from memory V8 keeps between collections), and the V8 settings the standalone
 * `compute-emulator` process runs with.
 */
import * as v8 from "node:v8";

/** Bytes, as `process.memoryUsage()` and V8's heap spaces report them. */
export interface ProcessMemory {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  /** The young generation (both semi-spaces): where every request's short-lived objects go. */
  newSpace: number;
  /** The old generation: the state, the request log, the events, and what survived two scavenges. */
  oldSpace: number;
}

export function processMemory(): ProcessMemory {
  const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
  const spaces = new Map(v8.getHeapSpaceStatistics().map((s) => [s.space_name, s.space_size]));
  return {
    rss,
    heapTotal,
    heapUsed,
    external,
    arrayBuffers,
    newSpace: spaces.get("new_space") ?? 0,
    oldSpace: spaces.get("old_space") ?? 0,
  };
}

/**
 * The V8 settings of the standalone server (`compute-emulator`, which owns its process; the
 * in-process emulator of tests and programs leaves its host's heap alone).
 *
 * Why: a server answering hundreds of requests a second allocates fast, and almost all of it dies
 * with the request. Measured over 100,000 soak requests (`npm run bench -- soak`, memory read
 * inside the emulator) with V8's defaults, the live heap stayed about 31 MB, but:
 * - V8 doubled the young generation after the warm-up, from 32 MB to 64 MB (two semi-spaces of up
 *   to 32 MB on 64-bit Node 24), and keeps it: +32 MB of RSS that holds only dead objects.
 *   `--semi-space-growth-factor=1` keeps it at its initial size (two 1 MB semi-spaces); scavenges
 *   run more often, each over less memory, and cost little because almost nothing survives them.
 * - the old generation filled from 18 to 43 MB before a full collection, with objects that
 *   survived two scavenges and then died (more of them with the small young generation). V8 lets
 *   it grow up to 4× the live size after a collection, so on a loaded machine the next full
 *   collection came later and later (the 1,000,000-request run reached 220 MB of RSS).
 *   `--heap-growing-percent=50` sets the next limit to 1.5× what survived, so the old generation
 *   stays within half of the live data above it; the live data is what must not grow.
 * Together: RSS +11 MB after warm-up over 100,000 requests, against +48 MB with the defaults, at
 * the same throughput.
 *
 * The settings are applied at run time (`v8.setFlagsFromString`), not as `node` flags, so they
 * hold however the command starts (`npx compute-emulator`, `npm run emulator`, `node
 * dist/emulator/cli.js`). Both are read each time V8 sizes a generation, so they take effect in a
 * running process (the maximum semi-space size, by contrast, is read only when the heap is set
 * up, before any code of ours runs).
 */
export const STANDALONE_V8_FLAGS = ["--semi-space-growth-factor=1", "--heap-growing-percent=50"] as const;

export function applyStandaloneV8Flags(): void {
  for (const flag of STANDALONE_V8_FLAGS) v8.setFlagsFromString(flag);
}
