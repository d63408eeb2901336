/**
 * Profiles of one phase (`preview`, `destroy`, …) of a stack in the three processes that do the
 * work, for `npm run bench -- scale --profile`:
 *
 * | process | how | read with |
 * |---|---|---|
 * | the engine (`pulumi`) | its `--profiling <prefix>` flag, added to the phase's command | `go tool pprof` (`goSplit` below) |
 * | the dynamic provider host | `NODE_OPTIONS=--cpu-prof` in the engine's environment, which plugins inherit | `nodeSplit` below |
 * | the program (an inline program runs in this process, beside the emulator) | the inspector's CPU profiler | `nodeSplit` below |
 *
 * The splits are CPU time, not wall time: on a shared machine the CPU a phase spends in each
 * process and in each part of it does not depend on what else runs, where its seconds do.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";

/** What profiling the next phase of a stack needs: where the files go. */
export interface PhaseProfiler {
  /** Starts the three profiles; the phase runs between `start` and `stop`. */
  start(): Promise<void>;
  /** Stops them and writes the program's; the engine's and the host's are written by their processes on exit. */
  stop(): Promise<void>;
}

interface CommandLike {
  run(args: string[], ...rest: unknown[]): Promise<unknown>;
}

/**
 * Profiles the phases of `stack` into `dir` (`engine.<pid>.cpu`, `host/*.cpuprofile`,
 * `program.cpuprofile`). Only the commands run between `start` and `stop` are profiled (not
 * `pulumi version`, config, or the stack's selection).
 */
export function phaseProfiler(stack: Stack, dir: string): PhaseProfiler {
  mkdirSync(path.join(dir, "host"), { recursive: true });
  const workspace = stack.workspace as unknown as { _pulumiCommand: CommandLike };
  const real = workspace._pulumiCommand;
  let on = false;
  // The Automation API runs every command through this object: while on, the engine writes its profiles.
  workspace._pulumiCommand = Object.create(real, {
    run: {
      value: (args: string[], ...rest: unknown[]) => real.run(on ? [...args, "--profiling", path.join(dir, "engine")] : args, ...rest),
    },
  }) as CommandLike;
  let session: Session | undefined;
  return {
    async start() {
      on = true;
      // The engine stops the provider host with a signal, and Node writes `--cpu-prof` only when it
      // exits: the preloaded module turns the signal into an exit.
      const exitOnSignal = path.join(dir, "exit-on-signal.js");
      writeFileSync(exitOnSignal, 'for (const s of ["SIGINT", "SIGTERM"]) process.on(s, () => process.exit(0));\n');
      // Quoted: a variant's folder has spaces ("DomainRecord (plugin)"), and Node splits NODE_OPTIONS
      // at spaces outside quotes, which left the plugin unprofiled.
      stack.workspace.envVars.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir ${nodeOptionQuoted(path.join(dir, "host"))} --require ${nodeOptionQuoted(exitOnSignal)}`;
      session = new Session();
      session.connect();
      await session.post("Profiler.enable");
      await session.post("Profiler.setSamplingInterval", { interval: 500 });
      await session.post("Profiler.start");
    },
    async stop() {
      on = false;
      delete stack.workspace.envVars.NODE_OPTIONS;
      const { profile } = await session!.post("Profiler.stop");
      session!.disconnect();
      writeFileSync(path.join(dir, "program.cpuprofile"), JSON.stringify(profile));
    },
  };
}

/** A value in `NODE_OPTIONS`, which Node splits at spaces outside double quotes (and reads `\\` and `\"` inside them). */
export function nodeOptionQuoted(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

// ---------------------------------------------------------------------------------------------
// reading the profiles

/** CPU milliseconds by part. */
export type Split = Map<string, number>;

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface CpuProfile {
  nodes: CpuProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The parts of a Node process, by the file a function is in (first match wins). */
const NODE_PARTS: readonly Part[] = [
  // The plugin's own transport and Struct reader count with the libraries they stand in for.
  ["gRPC and protobuf", /\/(dist\/)?provider\/(plugin\/(struct-values|protocol)|serve\/grpc)\.js$/],
  ["ours: provider", /\/(dist\/)?provider\/|\/registry\.js$/],
  ["ours: sdk", /\/(dist\/)?sdk\//],
  ["ours: zod (check's schemas)", /\/node_modules\/zod\//],
  ["ours: undici (the sdk's HTTP)", /\/node_modules\/undici\//],
  [
    "emulator",
    /\/(dist\/)?emulator\/|\/node_modules\/(fastify|@fastify|find-my-way|light-my-request|avvio|pino|fast-json-stringify|ajv)[/-]/,
  ],
  ["gRPC and protobuf", /\/node_modules\/(@grpc|google-protobuf|protobufjs|@protobufjs)\//],
  ["Pulumi Automation API", /\/@pulumi\/pulumi\/automation\//],
  ["Pulumi SDK / dynamic provider host", /\/@pulumi\/pulumi\//],
  ["benchmark", /\/(dist\/)?bench\//],
];

/** A part of a process: its name, the files of its functions, and optionally the functions' names. */
export type Part = [part: string, test: RegExp, functionName?: RegExp];

/** The prefix of the parts whose callees count with them (`nodeSplit`): a conversion calls protobuf's accessors. */
const CONVERSION = "value conversion";

/**
 * The parts of a provider process's call, for the per-call table (`scale --profile`, bench/README
 * "Where each millisecond above the floor goes"): by the file a function is in (and its name, for
 * google-protobuf's Struct), first match wins. The same parts in both doors, so a row compares the
 * plugin with the dynamic provider host.
 */
export const CALL_PARTS: readonly Part[] = [
  // A request's Structs into plain values and back, and everything they call: the plugin's reader
  // and writer; the dynamic host's Struct.toJavaScript/fromJavaScript (google-protobuf) and Pulumi's
  // rpc helpers (secrets, unknowns).
  [`${CONVERSION}: protocol ↔ values`, /\/google-protobuf\/google\/protobuf\/struct_pb\.js$/, /JavaScript$/],
  [`${CONVERSION}: protocol ↔ values`, /\/(dist\/)?provider\/plugin\/struct-values\.js$|\/@pulumi\/pulumi\/runtime\/rpc\.js$/],
  // Inputs into request bodies, the API's records into outputs (names, wire forms).
  [`${CONVERSION}: values ↔ API wire`, /\/(dist\/)?provider\/engine\/(wire|field-names)\.js$/],
  // gRPC's framing and HTTP/2, the messages' (de)serialization: grpc-js and google-protobuf in the
  // dynamic host, the plugin's own transport and Pulumi's generated messages in the plugin, and
  // Node's HTTP/2 where the event loop runs it (a session's frames arrive with no caller of ours).
  [
    "protocol: gRPC, HTTP/2, protobuf",
    /\/(dist\/)?provider\/(plugin\/protocol|serve\/grpc)\.js$|\/node_modules\/(@grpc|google-protobuf|protobufjs|@protobufjs)\/|\/@pulumi\/pulumi\/proto\/|^node:internal\/http2\//,
  ],
  ["logging (row log, Pulumi's log)", /\/(dist\/)?provider\/(serve\/row-log|host\/engine-log)\.js$|\/@pulumi\/pulumi\/log\//],
  ["the API call: sdk, undici", /\/(dist\/)?sdk\/|\/node_modules\/undici\//],
  ["the engine's work: check, diff, normalisation (provider, zod)", /\/(dist\/)?provider\/|\/registry\.js$|\/node_modules\/zod\//],
  ["Pulumi's dynamic host: dispatch, the provider's closure", /\/@pulumi\/pulumi\//],
];

/**
 * The most one sample counts for, ms: twice the profile's usual interval (the median of its time
 * deltas). A sample's delta runs until the next sample is taken, so on a busy machine it includes
 * the time the thread waited for a core: one sample of a plugin's profile carried 248 ms of its
 * 1,031, all charged to the function that happened to be on the stack. Capped, the parts add up to
 * the thread's CPU (within the sampling's own error), not to its waits.
 */
export function sampleCapMs(timeDeltas: readonly number[]): number {
  const positive = timeDeltas.filter((d) => d > 0).sort((a, b) => a - b);
  const median = positive.length > 0 ? positive[Math.floor(positive.length / 2)]! : 1000;
  return (2 * median) / 1000;
}

/**
 * CPU time of a `.cpuprofile` by part (`parts`: by default the processes' parts, `NODE_PARTS`). A
 * function of Node itself (`node:net`, a native) counts for
 * the part that called it, so gRPC's socket writes are gRPC's; GC and V8's unattributed time are
 * their own parts; idle time is left out; a sample counts for at most `sampleCapMs`.
 */
export function nodeSplit(file: string, parts: readonly Part[] = NODE_PARTS): Split {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Start-up: everything below a module load (`require`), whoever's module it is.
  const loading = new Map<number, boolean>();
  const isLoading = (id: number): boolean => {
    let known = loading.get(id);
    if (known === undefined) {
      const { functionName } = byId.get(id)!.callFrame;
      const up = parent.get(id);
      known = functionName === "wrapModuleLoad" || functionName === "Module._load" || (up !== undefined && isLoading(up));
      loading.set(id, known);
    }
    return known;
  };
  const partOf = new Map<number, string>();
  const part = (id: number): string => {
    const known = partOf.get(id);
    if (known !== undefined) return known;
    const { functionName, url } = byId.get(id)!.callFrame;
    let found: string | undefined;
    if (isLoading(id)) found = "start-up: loading modules (all of them)";
    else if (functionName === "(garbage collector)") found = "GC";
    else if (functionName === "(program)") found = "V8 / native (unattributed)";
    else if (functionName === "(idle)") found = "idle";
    else if (url && !url.startsWith("node:")) {
      const up = parent.get(id);
      const above = up === undefined ? undefined : part(up);
      // What a conversion calls is the conversion's; otherwise the function's own file (and name).
      if (above?.startsWith(CONVERSION)) found = above;
      else found = parts.find(([, test, name]) => test.test(url) && (!name || name.test(functionName)))?.[0] ?? "other modules";
    }
    if (found === undefined) {
      const up = parent.get(id);
      found = up === undefined ? "Node.js (no caller)" : part(up);
      if (found === "Node.js (no caller)" && url.startsWith("node:")) found = "Node.js (event loop, I/O)";
      // Node's own modules a part names (`node:internal/http2/…` for the protocol), where no module of ours called them.
      if (found === "Node.js (event loop, I/O)") found = parts.find(([, test, name]) => test.test(url) && !name)?.[0] ?? found;
    }
    partOf.set(id, found);
    return found;
  };
  const split: Split = new Map();
  const capMs = sampleCapMs(profile.timeDeltas);
  profile.samples.forEach((id, i) => {
    const ms = Math.min((profile.timeDeltas[i + 1] ?? 0) / 1000, capMs);
    const p = part(id);
    if (p !== "idle") split.set(p, (split.get(p) ?? 0) + ms);
  });
  return split;
}

/** The sum of the splits of every `.cpuprofile` in a folder (the provider host may be several processes). */
export function nodeSplitOfFolder(dir: string, parts?: readonly Part[]): Split {
  const total: Split = new Map();
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"))) {
    for (const [k, v] of nodeSplit(path.join(dir, file), parts)) total.set(k, (total.get(k) ?? 0) + v);
  }
  return total;
}

/**
 * The engine's parts, each the functions below which its samples fall (pprof's `-focus`), taken
 * in order so no sample counts twice (`-ignore` of the parts before). Checkpoint writes are the
 * snapshot manager's and the backend's saves; gRPC is the transport and the (un)marshalling of
 * messages (to the program, the provider and the language host), outside checkpoints.
 */
const GO_PARTS: ReadonlyArray<[part: string, focus: string]> = [
  [
    "checkpoint writes",
    String.raw`SnapshotManager|snapshotPersister|saveCheckpoint|saveStack|persistSnapshot|SerializeDeployment|VerifyIntegrity`,
  ],
  // Pulumi 3.2xx writes its verbose log, gzipped and encrypted, on every command.
  ["verbose log (slog, gzip, encryption)", String.raw`VerboseLogger|log/slog|encryptedlog|PropertySinkHandler`],
  ["passphrase key derivation (once per command)", String.raw`pbkdf2`],
  [
    "gRPC and protobuf (transport, (un)marshalling)",
    String.raw`grpc/internal/transport|grpc\.encode|grpc\.recv|grpc\.\(\*Server\)\.sendResponse|google\.golang\.org/protobuf/|golang\.org/x/net/http2|plugin\.MarshalPropert|plugin\.UnmarshalPropert`,
  ],
  ["the profiler's execution trace", String.raw`runtime\.trace|runtime\.\(\*trace`],
  ["GC (background)", String.raw`runtime\.gcBgMarkWorker|runtime\.bgsweep|runtime\.bgscavenge`],
];

/** The go binary (`go tool pprof`), from PATH or /usr/local/go. */
function goBinary(): string {
  for (const candidate of ["go", "/usr/local/go/bin/go"]) {
    try {
      execFileSync(candidate, ["version"], { stdio: "ignore" });
      return candidate;
    } catch {
      // next
    }
  }
  throw new Error("go is not installed: the engine's profile needs `go tool pprof`");
}

/** Total CPU ms of a pprof profile, optionally only below `focus` and not below `ignore`. */
function pprofTotal(go: string, file: string, focus?: string, ignore?: string): number {
  const args = ["tool", "pprof", "-top", "-nodecount=100000", "-nodefraction=0", "-edgefraction=0"];
  if (focus) args.push(`-focus=${focus}`);
  if (ignore) args.push(`-ignore=${ignore}`);
  const out = execFileSync(go, [...args, file], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  // "Showing nodes accounting for 1.23s, 45.6% of 2.70s total" / "… of 2.70s total" with filters:
  // the first number of "Active filters … Showing nodes accounting for X" is the focused total.
  const accounting = /accounting for ([\d.]+)(m?s|min|h)/.exec(out);
  const total = /of ([\d.]+)(m?s|min|h) total/.exec(out);
  const match = focus || ignore ? accounting : total;
  if (!match) return 0;
  const unit = { ms: 1, s: 1000, min: 60_000, h: 3_600_000 }[match[2]!] ?? 1;
  return Number(match[1]) * unit;
}

/** CPU ms of the engine's `.cpu` profiles in a folder, by part (the rest is the engine's own work). */
export function goSplit(dir: string): Split {
  const go = goBinary();
  const split: Split = new Map();
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".cpu"))) {
    const full = path.join(dir, file);
    const total = pprofTotal(go, full);
    let counted = 0;
    const before: string[] = [];
    for (const [part, focus] of GO_PARTS) {
      const ms = pprofTotal(go, full, focus, before.length ? before.join("|") : undefined);
      split.set(part, (split.get(part) ?? 0) + ms);
      counted += ms;
      before.push(focus);
    }
    split.set(
      "the engine's own work (steps, diffs, events, plugins)",
      (split.get("the engine's own work (steps, diffs, events, plugins)") ?? 0) + total - counted,
    );
  }
  return split;
}

/** A split as table rows: part, CPU ms, share of the process, and CPU ms per record when `records` is given. */
export function splitRows(process: string, split: Split, records?: number): string[] {
  const total = [...split.values()].reduce((a, b) => a + b, 0);
  const perRecord = (ms: number) => (records ? ` ${(ms / records).toFixed(3)} |` : "");
  return [...split.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([part, ms]) => `| ${process} | ${part} | ${ms.toFixed(0)} | ${total ? ((100 * ms) / total).toFixed(0) : "0"}% |${perRecord(ms)}`);
}
