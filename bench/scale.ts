/**
 * Scale: many resources of one kind through the real engine, next to the engine's floor.
 *
 * In one run, interleaved round by round (so a busy machine slows every variant alike; the ratios
 * to the floor are the medians of each round's own ratios):
 *
 * | variant | what the program declares |
 * |---|---|
 * | floor | N no-op dynamic resources: an ordinary inline dynamic provider, as a Pulumi user writes one |
 * | native floor | N no-op resources of a provider plugin in Go (`native-floor.ts`): the engine's own floor, what any provider costs when its work is free |
 * | node floor | the same no-op plugin in Node.js on the provider plugin's own transport (`node-floor-plugin.ts`): what a provider process in Node.js costs before any work |
 * | floor, skip checkpoints | the same with `PULUMI_SKIP_CHECKPOINTS=true` (state written once, at the end) |
 * | DomainRecord | a Domain and N DomainRecords in it, against the in-process emulator |
 * | DomainRecord (plugin) | the same resources as `compute:index:` resources through the provider plugin |
 * | DomainRecordSet | a Domain and one DomainRecordSet of the same N records |
 *
 * Each goes through `up` → `preview` (no changes) → `refresh` → `destroy`. Printed: the median time
 * of each phase and its ratios to both floors, the requests the emulator received per record in each
 * phase, the provider process's peak RSS (VmHWM of the dynamic provider host, or of the plugin), and the state's
 * bytes per resource (after `up`; the file as the `file://` backend wrote it, less the state of
 * the same stack with no resources, divided by N).
 *
 * Then an `up` of 300 records with the emulator's rate limits on, tighter than the documented
 * ones so the pacing has work to do: it must succeed first time, with no failed resource; the
 * achieved request rate is printed next to the limit.
 *
 * Goals checked (the benchmark fails when one is missed): requests per phase — `up` at most one
 * per record plus the domain's lookups (at check and before its create) and its create, one read
 * of its name and the zone's listing that the records' natural-key lookups share
 * (N + 4 + ceil(N/500)), `preview` none, `refresh` at most ceil(N/500) + 2, `destroy` one per
 * record plus the domain's; state at most 1.5 KB per record.
 *
 *   npm run bench -- scale              N = 200, 3 rounds
 *   npm run bench -- scale --large      also N = 1000, 1 round (about 10 minutes more on two cores)
 *   npm run bench -- scale --sizes=50 --rounds=1   other sizes and rounds (a quick look)
 *   npm run bench -- scale --variants=plugin       the two floors and the named variants only (floor, native, node, skip, record, plugin, set), without the rate-limited up unless `record` is named
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, rmdirSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type RunningEmulator } from "../emulator";
import { Domain, DomainRecord, DomainRecordSet } from "../provider";
import { REPO_ROOT, createTestStack, type TestStack } from "../test/support/engine";
import { pluginResource } from "../test/support/plugin-resource";
import type { BenchResult, Benchmark, Metric } from "./benchmark";
import { NATIVE_FLOOR_PLUGIN, NativeNoop, nativeFloorPlugin } from "./native-floor";
import { NODE_FLOOR_PLUGIN } from "./node-floor-plugin";
import { packageRoot } from "../provider/launch/plugins";
import { CALL_PARTS, goSplit, nodeSplit, nodeSplitOfFolder, phaseProfiler, splitRows } from "./profile";

const PHASES = ["up", "preview", "refresh", "destroy"] as const;
type Phase = (typeof PHASES)[number];

/**
 * Where the benchmark's Pulumi projects are made: inside the repository, so the paths Pulumi
 * records in each resource's stack trace (relative to the project folder) are short, as in a
 * user's project that holds its program and its `node_modules`. Removed afterwards.
 */
const PROJECTS = path.join(REPO_ROOT, ".bench");

/** State bytes per DomainRecord allowed after `up`. */
export const STATE_BYTES_GOAL = 1536;

/** The variants, by the short names `--variants=` takes. */
const VARIANTS = {
  floor: "floor",
  native: "native floor",
  node: "node floor",
  skip: "floor, skip checkpoints",
  record: "DomainRecord",
  plugin: "DomainRecord (plugin)",
  set: "DomainRecordSet",
} as const;
type VariantName = (typeof VARIANTS)[keyof typeof VARIANTS];

/** The two floors every ratio is to: the dynamic provider's (`floor`) and the engine's own (`native floor`). */
const FLOORS: readonly VariantName[] = ["floor", "native floor"];

/**
 * `--variants=floor,plugin`: the variants to run (their short names, `VARIANTS`), both floors always
 * among them (every ratio is to them); all of them when not given.
 */
function chosenVariants(given: string | undefined): VariantName[] {
  if (given === undefined) return Object.values(VARIANTS);
  const names = given.split(",").map((name) => {
    const variant = VARIANTS[name as keyof typeof VARIANTS];
    if (!variant) throw new Error(`--variants: no variant ${name}; the variants: ${Object.keys(VARIANTS).join(", ")}`);
    return variant;
  });
  return Object.values(VARIANTS).filter((v) => FLOORS.includes(v) || names.includes(v));
}
/** The variants that talk to the API: their requests are counted and checked. */
const OURS: readonly VariantName[] = ["DomainRecord", "DomainRecord (plugin)", "DomainRecordSet"];
/** The variant whose resources go through the provider plugin (`compute:index:<Kind>`). */
const PLUGIN: VariantName = "DomainRecord (plugin)";

interface Run {
  seconds: Record<Phase, number>;
  requests: Record<Phase, number>;
  /** Peak RSS of the dynamic provider host over the run, bytes. */
  providerPeakRss: number;
  stateBytesPerResource: number;
  failed: number;
}

/**
 * The engine's floor: a dynamic provider that does nothing, written inline as the Pulumi docs show
 * one — a plain object with `create` (the only method a provider must have), serialized into state
 * with every resource.
 */
const noopProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs: Record<string, unknown>) {
    return { id: `noop-${Math.random().toString(36).slice(2)}`, outs: inputs };
  },
};

class Noop extends pulumi.dynamic.Resource {
  constructor(name: string, props: Record<string, unknown>) {
    super(noopProvider, name, props);
  }
}

/** The same record as `DomainRecord` gets, for both variants. */
const recordArgs = (i: number) => ({ type: "A" as const, name: `host-${i}`, target: `192.0.2.${(i % 250) + 1}`, ttlSec: 300 });

// ---------------------------------------------------------------------------------------------
// the provider process's memory

/**
 * The pids of a process's descendants, from the kernel's list of each one's children (reading
 * every process's `stat` instead cost this process more CPU than the program it measures, on a
 * machine running hundreds of processes).
 */
function descendants(root: number): number[] {
  const found: number[] = [];
  const visit = (pid: number) => {
    let children = "";
    try {
      // Each thread has its own list: the engine (Go) starts plugins from any of its threads.
      for (const task of readdirSync(`/proc/${pid}/task`)) children += ` ${readFileSync(`/proc/${pid}/task/${task}/children`, "utf8")}`;
    } catch {
      return; // gone meanwhile
    }
    for (const child of children.split(" ").filter(Boolean).map(Number)) {
      found.push(child);
      visit(child);
    }
  };
  visit(root);
  return found;
}

/** Samples the peak RSS (VmHWM) of the provider processes under this one (the dynamic provider host, the plugin, a floor's no-op plugin) until stopped. */
function providerMemory(): { stop(): number } {
  let peak = 0;
  const sample = () => {
    for (const pid of descendants(process.pid)) {
      try {
        if (
          !/dynamic-provider|provider\/plugin\/main\.js|pulumi-resource-noop|node-floor-plugin\.js/.test(
            readFileSync(`/proc/${pid}/cmdline`, "utf8"),
          )
        )
          continue;
        const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
        if (hwm) peak = Math.max(peak, Number(hwm[1]) * 1024);
      } catch {
        // exited meanwhile
      }
    }
  };
  const timer = setInterval(sample, 200);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// one run of one variant

let stackCount = 0;

/** Which phases to profile, and where (`--profile`): see `profile.ts`. */
interface Profiling {
  dir: string;
  phases: readonly Phase[];
}

async function runVariant(variant: VariantName, n: number, emulator: RunningEmulator, profiling?: Profiling): Promise<Run> {
  // The native floor's plugin, built once (seconds from the engine build's caches) and declared by the project.
  // The Node.js floor's launcher is in the repository (bench/node-floor/), its code in dist/bench/.
  const plugins =
    variant === "native floor"
      ? [{ name: NATIVE_FLOOR_PLUGIN, path: await nativeFloorPlugin() }]
      : variant === "node floor"
        ? [{ name: NODE_FLOOR_PLUGIN, path: path.join(packageRoot(), "bench", "node-floor") }]
        : [];
  // Short names: the project's name is repeated in every URN in state, as a user's short project name would be.
  const tag = `s${++stackCount}`;
  let declare = true;
  const program = async () => {
    if (!declare) return {};
    const zoneArgs = { domain: `${tag}-${process.pid}.scale.example`, type: "master", soaEmail: "admin@scale.example" } as const;
    const records = Array.from({ length: n }, (_, i) => recordArgs(i));
    if (variant === PLUGIN) {
      const zone = pluginResource("Domain", "zone", zoneArgs);
      records.forEach((record, i) => pluginResource("DomainRecord", `r${i}`, { domainId: zone.id, ...record }));
    } else if (OURS.includes(variant)) {
      const zone = new Domain("zone", zoneArgs);
      if (variant === "DomainRecordSet") new DomainRecordSet("records", { domainId: zone.id, records });
      else records.forEach((record, i) => new DomainRecord(`r${i}`, { domainId: zone.id, ...record }));
    } else if (variant === "native floor") {
      for (let i = 0; i < n; i++) new NativeNoop(`r${i}`, recordArgs(i));
    } else if (variant === "node floor") {
      for (let i = 0; i < n; i++) new NativeNoop(`r${i}`, recordArgs(i), {}, NODE_FLOOR_PLUGIN);
    } else {
      for (let i = 0; i < n; i++) new Noop(`r${i}`, recordArgs(i));
    }
    return {};
  };
  if (profiling) mkdirSync(path.join(profiling.dir, variant), { recursive: true });
  const testStack = await createTestStack({
    name: tag,
    program,
    apiUrl: emulator.url,
    token: emulator.token,
    baseDir: PROJECTS,
    plugins,
  });
  if (variant === "floor, skip checkpoints") testStack.stack.workspace.envVars.PULUMI_SKIP_CHECKPOINTS = "true";
  // This emulator counts the documented rate-limit windows without enforcing them: timing the
  // engine and the provider, not the API's budget (the rate-limited up below paces).
  testStack.stack.workspace.envVars.COMPUTE_PACING = "off";
  const memory = providerMemory();
  const seconds = {} as Record<Phase, number>;
  const requests = {} as Record<Phase, number>;
  let stateBytes = 0;
  let failed = 0;
  try {
    // The state of the same stack with nothing in it, to subtract.
    declare = false;
    await testStack.stack.up();
    const emptyBytes = stateSize(testStack);
    declare = true;
    for (const phase of PHASES) {
      emulator.control.clearRequests();
      const profiler = profiling?.phases.includes(phase)
        ? phaseProfiler(testStack.stack, path.join(profiling.dir, variant, phase))
        : undefined;
      await profiler?.start();
      const started = process.hrtime.bigint();
      if (phase === "up") {
        const up = await testStack.stack.up();
        if (up.summary.result !== "succeeded") failed += n;
        stateBytes = (stateSize(testStack) - emptyBytes) / n;
        // Kept with the profiles, to read what each resource stores.
        if (profiling) writeFileSync(path.join(profiling.dir, variant, "state-after-up.json"), testStack.stateText());
      } else if (phase === "preview") {
        const preview = await testStack.stack.preview();
        const changes = Object.keys(preview.changeSummary).filter((op) => op !== "same");
        if (changes.length) throw new Error(`${variant}: preview after up shows changes: ${JSON.stringify(preview.changeSummary)}`);
      } else if (phase === "refresh") {
        await testStack.stack.refresh();
      } else {
        await testStack.stack.destroy();
      }
      seconds[phase] = Number(process.hrtime.bigint() - started) / 1e9;
      await profiler?.stop();
      requests[phase] = emulator.control.listRequests().length;
    }
  } finally {
    await testStack.stack.destroy().catch(() => undefined);
    testStack.cleanup();
  }
  return { seconds, requests, providerPeakRss: memory.stop(), stateBytesPerResource: stateBytes, failed };
}

function stateSize(testStack: TestStack): number {
  return statSync(testStack.statePath).size;
}

// ---------------------------------------------------------------------------------------------
// the rate-limited up

/** Tighter than the documented limits (P8-1), so that 300 creates need several windows. */
export const TIGHT_LIMITS = {
  general: { limit: 200, windowMs: 10_000 },
  operation: { limit: 50, windowMs: 5_000 },
};

interface RateLimitedRun {
  seconds: number;
  creates: number;
  refused: number;
  failed: number;
  /** Creates per second over the busiest window-length stretch, and overall. */
  rate: number;
}

async function rateLimitedUp(n: number): Promise<RateLimitedRun> {
  const emulator = await startEmulator({ port: 0, rateLimits: TIGHT_LIMITS });
  const tag = "rl";
  const testStack = await createTestStack({
    name: tag,
    baseDir: PROJECTS,
    apiUrl: emulator.url,
    token: emulator.token,
    program: async () => {
      const zone = new Domain("zone", { domain: `${tag}-${process.pid}.scale.example`, type: "master", soaEmail: "admin@scale.example" });
      for (let i = 0; i < n; i++) new DomainRecord(`r${i}`, { domainId: zone.id, ...recordArgs(i) });
    },
  });
  try {
    const started = Date.now();
    const up = await testStack.stack.up();
    const seconds = (Date.now() - started) / 1000;
    const log = emulator.control.listRequests();
    const creates = log.filter((r) => r.method === "POST" && /\/records$/.test(r.path));
    const ok = creates.filter((r) => r.status === 200);
    const times = ok.map((r) => Date.parse(r.at));
    const span = (Math.max(...times) - Math.min(...times)) / 1000;
    return {
      seconds,
      creates: ok.length,
      refused: log.filter((r) => r.status === 429).length,
      failed: up.summary.result === "succeeded" ? n - ok.length : n,
      rate: ok.length / Math.max(span, 0.001),
    };
  } finally {
    await testStack.stack.destroy().catch(() => undefined);
    testStack.cleanup();
    await emulator.close();
  }
}

// ---------------------------------------------------------------------------------------------

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** The request goals of one phase for N records in one domain. */
export function requestGoal(phase: Phase, n: number): number {
  switch (phase) {
    case "up":
      // A create per record; the domain's natural-key lookup at check (a taken name is found at
      // preview), again right before its create, and the create; one read of its name; the zone's
      // listing that the records' natural-key lookups share.
      return n + 4 + Math.ceil(n / 500);
    case "preview":
      return 0;
    case "refresh":
      return Math.ceil(n / 500) + 2; // the listing's pages, the domain's read, its name with the listing
    case "destroy":
      return n + 1;
  }
}

/** The emulator's answer delay of the networked pass, as across a real network (`--latency-ms=…`; 0 skips the pass). */
export const DEFAULT_LATENCY_MS = 80;

const TABLE_HEAD = [
  "| N | latency | variant | up s | preview s | refresh s | destroy s | up/floor | preview/floor | refresh/floor | destroy/floor | up/native | preview/native | refresh/native | destroy/native | requests per record up/preview/refresh/destroy | provider peak RSS | state per record |",
  "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
];

/**
 * One table's worth of runs: every variant at N, `rounds` times, interleaved (the order turned each
 * round), with `latencyMs` added to every API request. Returns the table rows; missed goals go to `failures`.
 */
async function measure(
  n: number,
  rounds: number,
  variants: readonly VariantName[],
  latencyMs: number,
  emulator: RunningEmulator,
  failures: string[],
): Promise<string[]> {
  emulator.control.clearFaults();
  if (latencyMs > 0) emulator.control.addFault({ pathPattern: "/v4/*", kind: "latency", latencyMs });
  const rows: string[] = [];
  try {
    const runs = new Map<VariantName, Run[]>(variants.map((v) => [v, []]));
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 ? [...variants].reverse() : variants;
      for (const variant of order) {
        const run = await runVariant(variant, n, emulator);
        runs.get(variant)!.push(run);
        // Progress as it goes (a run at N = 1000 takes minutes): one line per run, on stderr.
        const phases = PHASES.map((p) => `${p} ${run.seconds[p].toFixed(1)} s/${run.requests[p]} req`).join(", ");
        console.error(`  [N=${n}, ${latencyMs} ms, round ${round + 1}] ${variant}: ${phases}; ${kb(run.stateBytesPerResource)} per record`);
      }
    }
    for (const variant of variants) {
      const all = runs.get(variant)!;
      const times = PHASES.map((p) => median(all.map((r) => r.seconds[p])));
      // Each ratio is the median of the rounds' own ratios: a round's runs follow one another,
      // so a machine whose load changes during the benchmark skews them alike.
      const ratiosTo = (floor: VariantName) =>
        PHASES.map((p) => median(all.map((r, round) => r.seconds[p] / runs.get(floor)![round]!.seconds[p])).toFixed(2));
      const ratios = [...ratiosTo("floor"), ...ratiosTo("native floor")];
      const last = all[all.length - 1]!;
      const perRecord = PHASES.map((p) => (OURS.includes(variant) ? (last.requests[p] / n).toFixed(3) : "–")).join(" / ");
      const state = median(all.map((r) => r.stateBytesPerResource));
      const rss = Math.max(...all.map((r) => r.providerPeakRss));
      rows.push(
        `| ${n} | ${latencyMs} ms | ${variant} | ${times.map((t) => t.toFixed(2)).join(" | ")} | ${ratios.join(" | ")} | ${perRecord} | ${mb(rss)} | ${kb(state)} |`,
      );
      for (const run of all) if (run.failed) failures.push(`${variant} at N=${n}, ${latencyMs} ms: ${run.failed} resources failed`);
      if (OURS.includes(variant)) {
        for (const run of all) {
          for (const phase of PHASES) {
            const goal = requestGoal(phase, n);
            if (run.requests[phase] > goal) {
              failures.push(`${variant}, N=${n}, ${phase}: ${run.requests[phase]} requests, goal at most ${goal}`);
            }
          }
        }
        if (state > STATE_BYTES_GOAL) {
          failures.push(`${variant}, N=${n}: ${kb(state)} of state per record, goal at most ${kb(STATE_BYTES_GOAL)}`);
        }
      }
    }
  } finally {
    emulator.control.clearFaults();
  }
  return rows;
}

/**
 * `--profile[=dir]`: one round of the native floor, the floor, DomainRecord and DomainRecord through
 * the provider plugin at N with the phases `phases` profiled in the engine, the provider process (the
 * dynamic provider host, or the plugin, by the parts of a call: `CALL_PARTS`; the native floor's Go
 * plugin is not profiled) and the program (`profile.ts`); returns the CPU split of each as table
 * rows, with the CPU per record. The files stay in `dir` for `go tool pprof` and Chrome's profiler.
 */
async function profileSplit(n: number, dir: string, phases: readonly Phase[], emulator: RunningEmulator): Promise<string[]> {
  rmSync(dir, { recursive: true, force: true });
  const rows = [
    "| variant | phase | process | part | CPU ms | share of the process | CPU ms per record |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const variant of PROFILED) {
    const run = await runVariant(variant, n, emulator, { dir, phases });
    for (const phase of phases) {
      const at = path.join(dir, variant, phase);
      const prefix = `| ${variant} | ${phase} (${run.seconds[phase].toFixed(2)} s)`;
      const processes: Array<[string, Map<string, number>]> = [["engine", goSplit(at)]];
      if (variant !== "native floor") {
        processes.push([variant === PLUGIN ? "provider plugin" : "provider host", nodeSplitOfFolder(path.join(at, "host"), CALL_PARTS)]);
      }
      processes.push(["program (and the emulator)", nodeSplit(path.join(at, "program.cpuprofile"))]);
      for (const [name, split] of processes) rows.push(...splitRows(name, split, n).map((row) => `${prefix} ${row}`));
    }
  }
  return [...rows, "", ...perCallTable(dir, n, phases)];
}

/** The variants of `--profile`, in its per-call table's column order. */
const PROFILED = ["native floor", "floor", "DomainRecord", PLUGIN] as const;

/** The provider's calls in each phase, one per record (and the engine's Diff after each Read or Check where it sends one). */
const CALLS: Record<Phase, string> = {
  up: "Check, Create",
  preview: "Check, Diff",
  refresh: "Read",
  destroy: "Delete",
};

/**
 * The per-call table of `--profile` (bench/README, "Where each millisecond above the floor goes"):
 * for each phase, the provider process's CPU per record by the parts of a call (`CALL_PARTS`) in
 * each profiled variant, its start-up once per process, and the engine's CPU per record. Read from
 * the profiles in `dir`, so a run's files can be read again.
 */
export function perCallTable(dir: string, n: number, phases: readonly Phase[] = PHASES): string[] {
  const rows = [
    `| phase (calls per record) | part, CPU ms per record | ${PROFILED.join(" | ")} |`,
    `|---|---|${PROFILED.map(() => "---").join("|")}|`,
  ];
  const cell = (ms: number | undefined) => (ms === undefined ? "–" : ms.toFixed(3));
  const START_UP = "start-up: loading modules (all of them)";
  for (const phase of phases) {
    const hosts = PROFILED.map((variant) =>
      variant === "native floor" ? undefined : nodeSplitOfFolder(path.join(dir, variant, phase, "host"), CALL_PARTS),
    );
    const engines = PROFILED.map((variant) => goSplit(path.join(dir, variant, phase)));
    const parts = [...CALL_PARTS.map(([part]) => part), "Node.js (event loop, I/O)", "GC", "V8 / native (unattributed)", "other modules"];
    const label = `${phase} (${CALLS[phase]})`;
    for (const part of [...new Set(parts)]) {
      rows.push(`| ${label} | ${part} | ${hosts.map((h) => (h ? cell((h.get(part) ?? 0) / n) : "–")).join(" | ")} |`);
    }
    const sum = (split: Map<string, number>, skip?: string) =>
      [...split].filter(([part]) => part !== skip).reduce((total, [, ms]) => total + ms, 0);
    rows.push(
      `| ${label} | **the provider process per record, start-up aside** | ${hosts.map((h) => (h ? `**${cell(sum(h, START_UP) / n)}**` : "–")).join(" | ")} |`,
    );
    rows.push(
      `| ${label} | the provider's start-up, ms once per process | ${hosts.map((h) => (h ? (h.get(START_UP) ?? 0).toFixed(0) : "–")).join(" | ")} |`,
    );
    rows.push(`| ${label} | the engine (pulumi), CPU ms per record | ${engines.map((e) => cell(sum(e) / n)).join(" | ")} |`);
  }
  return rows;
}

export const benchmark: Benchmark = {
  name: "scale",
  description:
    "N DNS records through the real engine (dynamic resources and the provider plugin) next to N no-op dynamic resources and N no-op resources of a Go plugin (the native floor): time per phase, requests, memory, state size",
  async run(flags: readonly string[] = []): Promise<BenchResult> {
    const given = (name: string) => flags.find((f) => f.startsWith(`--${name}=`))?.split("=")[1];
    const sizes = given("sizes")?.split(",").map(Number) ?? (flags.includes("--large") ? [200, 1000] : [200]);
    const rounds = given("rounds");
    const roundsFor = (n: number) => (rounds ? Number(rounds) : n >= 1000 ? 1 : 3);
    const latencyMs = Number(given("latency-ms") ?? DEFAULT_LATENCY_MS);
    const variants = chosenVariants(given("variants"));
    // The networked pass compares what the network changes: the floor sends no request, so it stays the reference.
    const networked = variants.filter((v) => [...FLOORS, "DomainRecord", "DomainRecordSet"].includes(v));
    const metrics: Metric[] = [];
    const failures: string[] = [];
    const emulator = await startEmulator({ port: 0 });
    const profile = flags.find((f) => f === "--profile" || f.startsWith("--profile="));
    try {
      if (profile) {
        const dir = given("profile") ?? path.join(REPO_ROOT, ".bench-profiles");
        const table = await profileSplit(sizes[0]!, dir, PHASES, emulator);
        return {
          table,
          summary: `CPU split of up, preview, refresh and destroy at N=${sizes[0]}, one run each; profiles in ${dir}`,
          metrics,
          failures,
        };
      }
      const table = [...TABLE_HEAD];
      for (const n of sizes) {
        table.push(...(await measure(n, roundsFor(n), variants, 0, emulator, failures)));
        if (latencyMs > 0) table.push(...(await measure(n, roundsFor(n), networked, latencyMs, emulator, failures)));
      }

      // The rate-limited up is DomainRecord's: a run of other variants alone leaves it out.
      if (!variants.includes("DomainRecord"))
        return { table, summary: `sizes ${sizes.join(", ")}; ${variants.join(", ")} only`, metrics, failures };
      const limited = await rateLimitedUp(300);
      const limit = TIGHT_LIMITS.operation.limit / (TIGHT_LIMITS.operation.windowMs / 1000);
      metrics.push(
        {
          label: "rate-limited up of 300 records",
          value: `${limited.seconds.toFixed(1)} s, ${limited.creates} records created, ${limited.failed} failed, ${limited.refused} answers 429 (retried)`,
        },
        {
          label: "  achieved create rate vs the limit",
          value: `${limited.rate.toFixed(1)}/s vs ${limit.toFixed(1)}/s (${TIGHT_LIMITS.operation.limit} per ${TIGHT_LIMITS.operation.windowMs / 1000} s per operation, ${TIGHT_LIMITS.general.limit} per ${TIGHT_LIMITS.general.windowMs / 1000} s in all)`,
        },
      );
      if (limited.failed) failures.push(`rate-limited up: ${limited.failed} records failed`);
      return {
        table,
        summary: `sizes ${sizes.join(", ")}; medians of ${sizes.map((n) => `${roundsFor(n)} round(s) at N=${n}`).join(", ")}${sizes.length === 1 ? " (--large adds N=1000)" : ""}${latencyMs > 0 ? `; raw and with ${latencyMs} ms on every API request` : ""}`,
        metrics,
        failures,
      };
    } finally {
      await emulator.close();
      // Each run removed its own project; the folder goes when no other run (a `--profile` beside this one) still uses it.
      rmdirQuietly(PROJECTS);
    }
  },
};

function rmdirQuietly(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // not empty, or gone
  }
}
