/**
 * Soak: a standalone emulator (`compute-emulator` in its own process, as a team's shared test server
 * runs) serves 1,000,000 mixed API requests over real HTTP, and its RSS must
 * stay flat: after the warm-up, no sample may exceed the RSS at the end of the warm-up by more than
 * 20 MB. It fails otherwise, and when any request gets an answer its kind does not expect.
 *
 * The mix (one of every 20 requests, in this order): collection reads with and without paging and
 * X-Filter, single reads, the event list, regions, 404s (an unknown id, an unknown path), a 405, a
 * 400 refused by validation, a 401 (unknown token), a 401 of a token without the scope, a fault-injected 503
 * (a rule firing at rate 0.5), a label update, and a VPC created and deleted again (both record
 * events), so every per-request path of the emulator runs: the request log, the rate limiter's
 * windows (counted, not enforced), the fault rules' counters, the event log (and, with
 * `--state-file`, the state file: the emulator then rewrites the whole state after every
 * mutation, which makes the run about five times slower).
 *
 * Events are the API's own data: kept for the API's 90 days. The emulator runs with emulated time
 * `--time-scale 200000` (90 days pass in about 39 s), so that retention turns over several times
 * during the run; the warm-up (the first 15 % of the requests) covers at least one full turn.
 *
 *   npm run bench -- soak                      1,000,000 requests (about 9 minutes on two shared cores)
 *   npm run bench -- soak --requests=100000    a quick look (the warm-up is then too short for events)
 *   npm run bench -- soak --state-file         the emulator keeps a state file too
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Pool } from "undici";
import type { BenchResult, Benchmark, Metric } from "./benchmark";

/** The allowed RSS growth after warm-up. */
export const RSS_GROWTH_LIMIT_MB = 20;
const DEFAULT_REQUESTS = 1_000_000;
const WARM_UP_SHARE = 0.15;
const TIME_SCALE = 200_000;
const CONNECTIONS = 8;
const SAMPLE_EVERY_MS = 500;

interface SoakRequest {
  kind: string;
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  token?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  /** The statuses this kind may get. */
  expect: readonly number[];
}

interface Sample {
  atRequest: number;
  rssMb: number;
}

/** What the emulator reports of its own heap (`GET /__emulator/memory`), in MB. */
interface HeapSample {
  atRequest: number;
  heapUsedMb: number;
  newSpaceMb: number;
  oldSpaceMb: number;
}

/** Reads a process's resident set size (Linux `/proc`), in MB. */
function rssMbOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"));
  if (!line) throw new Error(`no VmRSS for process ${pid}`);
  return Number(line.split(/\s+/)[1]) / 1024;
}

/** Starts `compute-emulator` (the built CLI) in its own process; resolves with its URLs and token. */
function startStandaloneEmulator(
  stateFile: string | undefined,
): Promise<{ child: ChildProcess; url: string; controlUrl: string; token: string }> {
  const cli = path.join(__dirname, "../emulator/cli.js");
  const args = [cli, "--port", "0", "--time-scale", String(TIME_SCALE), ...(stateFile ? ["--state-file", stateFile] : [])];
  const child = spawn(process.execPath, args, {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    const early = (code: number | null) => reject(new Error(`compute-emulator exited (${code}) before listening: ${out}`));
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const url = /API:\s+(\S+)/.exec(out)?.[1];
      const controlUrl = /control:\s+(\S+)/.exec(out)?.[1];
      const token = /token:\s+(\S+)/.exec(out)?.[1];
      if (!url || !controlUrl || !token) return;
      child.off("exit", early);
      child.stdout!.off("data", onData);
      child.stdout!.resume(); // its later lines (closing) are not needed, but must not fill the pipe
      resolve({ child, url, controlUrl, token });
    };
    child.once("exit", early);
    child.stdout!.on("data", onData);
  });
}

async function send(pool: Pool, origin: string, prefix: string, token: string, r: SoakRequest): Promise<number> {
  const headers: Record<string, string> = { ...(r.headers ?? {}) };
  const presented = r.token === undefined ? token : r.token;
  if (presented) headers["authorization"] = `Bearer ${presented}`;
  if (r.body !== undefined) headers["content-type"] = "application/json";
  const response = await pool.request({
    origin,
    method: r.method,
    path: `${prefix}${r.path}`,
    headers,
    body: r.body === undefined ? undefined : JSON.stringify(r.body),
  });
  await response.body.dump();
  return response.statusCode;
}

/** The set-up the mix needs: a VPC to read and update, a restricted token, a fault rule. */
async function prepare(pool: Pool, origin: string, controlPrefix: string, token: string) {
  const control = async (method: "POST", p: string, body: unknown) => {
    const response = await pool.request({
      origin,
      method,
      path: `${controlPrefix}${p}`,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const parsed = (await response.body.json()) as Record<string, unknown>;
    if (response.statusCode !== 200) throw new Error(`control ${p}: ${response.statusCode} ${JSON.stringify(parsed)}`);
    return parsed;
  };
  const restricted = (await control("POST", "/tokens", { scopes: ["vpc:read_write"] })).token as string;
  await control("POST", "/faults", { pathPattern: "/v4/networking/vlans*", kind: "503", rate: 0.5 });
  const created = await pool.request({
    origin,
    method: "POST",
    path: "/v4/vpcs",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ label: "soak-kept", region: "es-mad", subnets: [{ label: "s", ipv4: "10.0.0.0/24" }] }),
  });
  const vpc = (await created.body.json()) as { id: number };
  if (created.statusCode !== 200) throw new Error(`creating the soak VPC: ${created.statusCode} ${JSON.stringify(vpc)}`);
  return { restricted, vpcId: vpc.id };
}

/** The i-th request of the mix; `churn` holds the ids of the VPCs created and not yet deleted. */
function mixed(i: number, setup: { restricted: string; vpcId: number }, churn: number[]): SoakRequest {
  const v = setup.vpcId;
  switch (i % 20) {
    case 0:
      return { kind: "list", method: "GET", path: "/vpcs", expect: [200] };
    case 1:
      return { kind: "list, paged", method: "GET", path: `/vpcs?page=${(i % 3) + 1}&page_size=25`, expect: [200] };
    case 2:
      return { kind: "list, filtered", method: "GET", path: "/vpcs", headers: { "X-Filter": '{"label":"soak-kept"}' }, expect: [200] };
    case 3:
      return { kind: "get", method: "GET", path: `/vpcs/${v}`, expect: [200] };
    case 4:
      return { kind: "get subnets", method: "GET", path: `/vpcs/${v}/subnets`, expect: [200] };
    case 5:
      return { kind: "events", method: "GET", path: "/account/events?page_size=25", expect: [200] };
    case 6:
      return { kind: "regions", method: "GET", path: "/regions", expect: [200] };
    case 7:
      return { kind: "404 id", method: "GET", path: `/vpcs/${900_000_000 + (i % 1000)}`, expect: [404] };
    case 8:
      return { kind: "404 path", method: "GET", path: `/no-such-thing/${i % 1000}`, expect: [404] };
    case 9:
      return { kind: "405", method: "PUT", path: "/regions", body: {}, expect: [405] };
    case 10:
      return { kind: "400", method: "POST", path: "/vpcs", body: { label: "x", region: "nowhere" }, expect: [400] };
    case 11:
      return { kind: "401", method: "GET", path: "/vpcs", token: `bad-${i % 1000}`, expect: [401] };
    case 12:
      return { kind: "401 scope", method: "GET", path: "/domains", token: setup.restricted, expect: [401] };
    case 13:
      return { kind: "fault 503", method: "GET", path: "/networking/vlans", expect: [200, 503] };
    case 14:
      return { kind: "update", method: "PUT", path: `/vpcs/${v}`, body: { description: `soak ${i}` }, expect: [200] };
    case 15:
      return { kind: "get one region", method: "GET", path: "/regions/es-mad", expect: [200] };
    case 16:
      return { kind: "list, last page", method: "GET", path: "/vpcs?page=999", expect: [200] };
    case 17:
      return { kind: "ips", method: "GET", path: `/vpcs/${v}/ips`, expect: [200] };
    case 18:
      return { kind: "create", method: "POST", path: "/vpcs", body: { label: `soak-${i}`, region: "es-mad" }, expect: [200] };
    default: {
      // The VPC of an earlier create, once it was answered (requests run concurrently).
      const id = churn.shift();
      if (id === undefined) return { kind: "list", method: "GET", path: "/vpcs", expect: [200] };
      return { kind: "delete", method: "DELETE", path: `/vpcs/${id}`, expect: [200] };
    }
  }
}

export async function runSoak(total: number, { stateFile = false } = {}): Promise<BenchResult> {
  const folder = mkdtempSync(path.join(os.tmpdir(), "bench-soak-"));
  const emulator = await startStandaloneEmulator(stateFile ? path.join(folder, "state.json") : undefined);
  const { origin, pathname: prefix } = new URL(emulator.url);
  const controlPrefix = new URL(emulator.controlUrl).pathname;
  const pool = new Pool(origin, { connections: CONNECTIONS });
  const pid = emulator.child.pid!;
  const samples: Sample[] = [];
  const statuses = new Map<string, Map<number, number>>();
  const unexpected: string[] = [];
  let issued = 0;
  let answered = 0;
  const started = Date.now();
  // The emulator's own account of its heap, next to the RSS: what grows, live data or generations.
  const heapSamples: HeapSample[] = [];
  const readHeap = async () => {
    const atRequest = answered;
    const response = await pool.request({ origin, method: "GET", path: `${controlPrefix}/memory` });
    const m = (await response.body.json()) as { heapUsed: number; newSpace: number; oldSpace: number };
    const mb = (bytes: number) => bytes / 1024 / 1024;
    heapSamples.push({ atRequest, heapUsedMb: mb(m.heapUsed), newSpaceMb: mb(m.newSpace), oldSpaceMb: mb(m.oldSpace) });
  };
  const sampler = setInterval(() => {
    samples.push({ atRequest: answered, rssMb: rssMbOf(pid) });
    readHeap().catch(() => undefined); // a sample lost while the emulator closes is no finding
  }, SAMPLE_EVERY_MS);
  try {
    const setup = await prepare(pool, origin, controlPrefix, emulator.token);
    samples.push({ atRequest: 0, rssMb: rssMbOf(pid) });
    const churn: number[] = [];
    const worker = async () => {
      while (issued < total) {
        const request = mixed(issued++, setup, churn);
        const status = await (request.kind === "create"
          ? createForChurn(pool, origin, prefix, emulator.token, request, churn)
          : send(pool, origin, prefix, emulator.token, request));
        answered++;
        const byStatus = statuses.get(request.kind) ?? new Map<number, number>();
        byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
        statuses.set(request.kind, byStatus);
        if (!request.expect.includes(status) && unexpected.length < 10)
          unexpected.push(`${request.kind} ${request.method} ${request.path}: ${status}`);
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS * 2 }, worker));
  } finally {
    clearInterval(sampler);
    samples.push({ atRequest: answered, rssMb: rssMbOf(pid) });
    await pool.close();
    emulator.child.kill("SIGTERM");
    await new Promise((resolve) => emulator.child.once("exit", resolve));
    rmSync(folder, { recursive: true, force: true });
  }
  return report(total, samples, heapSamples, statuses, unexpected, (Date.now() - started) / 1000, stateFile);
}

/** A create whose id the next delete of the mix removes again. */
async function createForChurn(
  pool: Pool,
  origin: string,
  prefix: string,
  token: string,
  request: SoakRequest,
  churn: number[],
): Promise<number> {
  const response = await pool.request({
    origin,
    method: "POST",
    path: `${prefix}${request.path}`,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(request.body),
  });
  const body = (await response.body.json()) as { id?: number };
  if (response.statusCode === 200 && body.id !== undefined) churn.push(body.id);
  return response.statusCode;
}

function report(
  total: number,
  samples: Sample[],
  heapSamples: HeapSample[],
  statuses: Map<string, Map<number, number>>,
  unexpected: string[],
  seconds: number,
  stateFile: boolean,
): BenchResult {
  const warmUpEnd = Math.floor(total * WARM_UP_SHARE);
  const atWarmUp = samples.find((s) => s.atRequest >= warmUpEnd) ?? samples.at(-1)!;
  const after = samples.filter((s) => s.atRequest >= warmUpEnd);
  const peakAfter = Math.max(...after.map((s) => s.rssMb));
  const minAfter = Math.min(...after.map((s) => s.rssMb));
  const growth = peakAfter - atWarmUp.rssMb;
  const mb = (n: number) => `${n.toFixed(1)} MB`;
  // RSS along the run, in tenths of it: where it stands, so a trend shows.
  const tenths = Array.from({ length: 10 }, (_, k) => samples.find((s) => s.atRequest >= ((k + 1) * total) / 10) ?? samples.at(-1)!);
  const metrics: Metric[] = [
    {
      label: "requests",
      value: `${total.toLocaleString("en")} in ${seconds.toFixed(0)} s (${Math.round(total / seconds)}/s, ${CONNECTIONS} connections)`,
    },
    { label: "RSS at start (after set-up)", value: mb(samples[0]!.rssMb) },
    { label: `RSS after warm-up (${warmUpEnd.toLocaleString("en")} requests)`, value: mb(atWarmUp.rssMb) },
    { label: "RSS after warm-up: min / peak / end", value: `${mb(minAfter)} / ${mb(peakAfter)} / ${mb(samples.at(-1)!.rssMb)}` },
    { label: "RSS growth after warm-up (peak − after warm-up)", value: `${mb(growth)} (limit ${mb(RSS_GROWTH_LIMIT_MB)})` },
    { label: "RSS at each tenth of the run", value: tenths.map((s) => s.rssMb.toFixed(0)).join(" ") },
    { label: "RSS samples", value: String(samples.length) },
    ...heapAtTenths(total, heapSamples),
  ];
  const table = ["| kind | answers by status |", "|---|---|"];
  for (const [kind, byStatus] of [...statuses].sort()) {
    table.push(`| ${kind} | ${[...byStatus].map(([status, n]) => `${status}: ${n}`).join(", ")} |`);
  }
  const failures: string[] = [];
  if (growth > RSS_GROWTH_LIMIT_MB) failures.push(`RSS grew ${mb(growth)} after warm-up (limit ${mb(RSS_GROWTH_LIMIT_MB)})`);
  if (unexpected.length) failures.push(`answers the mix does not expect: ${unexpected.join("; ")}`);
  const options = `${stateFile ? "--state-file, " : ""}--time-scale ${TIME_SCALE}`;
  return {
    summary: `a standalone compute-emulator process (${options}) under ${total.toLocaleString("en")} mixed requests over HTTP`,
    table,
    metrics,
    failures,
  };
}

/** The emulator's heap at each tenth of the run: live data (heap used) apart from the generations' size. */
function heapAtTenths(total: number, heapSamples: HeapSample[]): Metric[] {
  if (!heapSamples.length) return [];
  const tenths = Array.from(
    { length: 10 },
    (_, k) => heapSamples.find((s) => s.atRequest >= ((k + 1) * total) / 10) ?? heapSamples.at(-1)!,
  );
  const row = (pick: (s: HeapSample) => number) => tenths.map((s) => pick(s).toFixed(0)).join(" ");
  return [
    { label: "heap used at each tenth (MB)", value: row((s) => s.heapUsedMb) },
    { label: "young generation at each tenth (MB)", value: row((s) => s.newSpaceMb) },
    { label: "old generation at each tenth (MB)", value: row((s) => s.oldSpaceMb) },
  ];
}

export const benchmark: Benchmark = {
  name: "soak",
  description: `1,000,000 mixed requests against one standalone emulator: its RSS stays within ${RSS_GROWTH_LIMIT_MB} MB after warm-up`,
  run: async (flags = []) => {
    const given = flags.find((f) => f.startsWith("--requests="));
    const total = given ? Number(given.slice("--requests=".length)) : DEFAULT_REQUESTS;
    if (!Number.isSafeInteger(total) || total < 1000) throw new Error(`--requests: a whole number ≥ 1000, got ${given}`);
    return runSoak(total, { stateFile: flags.includes("--state-file") });
  },
};
