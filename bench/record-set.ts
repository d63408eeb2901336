/**
 * Record set: `up` of N records through one `DomainRecordSet` against `up` of the same N records
 * as N `DomainRecord`s, in the same run, through the real Pulumi engine (Automation API, file
 * backend) against one in-process emulator. Each stack also creates its domain. Prints the wall
 * times, their ratio and the API requests of each `up` (and of a refresh of the set), and fails
 * when the set is not at least 10× faster, or makes more than one request per record plus O(1).
 *
 *   npm run bench -- record-set                      N = 1000
 *   BENCH_RECORDS=200 npm run bench -- record-set    a smaller N (the N DomainRecords take minutes)
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../emulator";
import { Domain, DomainRecord, DomainRecordSet } from "../provider";
import type { BenchResult, Benchmark } from "./benchmark";
import { benchStack } from "./stack";

/** The set must be at least this much faster than one resource per record. */
const TARGET_RATIO = 10;

const records = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ type: "A" as const, name: `host${i}`, target: `10.${(i >> 8) & 255}.${i & 255}.1` }));

/** Runs `work`, returning its wall time (s) and the API requests it made (method and path, ids elided). */
async function measured(emulator: RunningEmulator, work: () => Promise<unknown>): Promise<{ seconds: number; requests: string[] }> {
  const mark = emulator.control.listRequests().length;
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  const requests = emulator.control
    .listRequests()
    .slice(mark)
    .map((r) => `${r.method} ${r.path.replace(/\?.*$/, "").replace(/\/\d+/g, "/{id}")}`);
  return { seconds, requests };
}

const tally = (requests: string[]) => {
  const counts = new Map<string, number>();
  for (const r of requests) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts].map(([r, n]) => `${n}× ${r}`).join(", ");
};

async function run(): Promise<BenchResult> {
  const n = Number(process.env.BENCH_RECORDS ?? 1000);
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "bench-record-set-"));
  const emulator = await startEmulator({ port: 0 });
  try {
    const declared = records(n);
    const setStack = await benchStack(
      "set",
      async () => {
        const zone = new Domain("zone", { domain: "set.bench", type: "master", soaEmail: "admin@set.bench" });
        new DomainRecordSet("records", { domainId: zone.id, records: declared });
      },
      emulator,
      base,
    );
    const eachStack = await benchStack(
      "each",
      async () => {
        const zone = new Domain("zone", { domain: "each.bench", type: "master", soaEmail: "admin@each.bench" });
        declared.forEach((r, i) => new DomainRecord(`r${i}`, { domainId: zone.id, ...r }));
      },
      emulator,
      base,
    );
    const set = await measured(emulator, () => setStack.up());
    const refresh = await measured(emulator, () => setStack.refresh());
    const each = await measured(emulator, () => eachStack.up());
    const ratio = each.seconds / set.seconds;

    const failures: string[] = [];
    // The goal is stated for 1000 records, where the engine's per-resource cost (a checkpoint
    // write each, growing with the state) dominates; a smaller N prints the ratio without judging it.
    if (n >= 1000 && ratio < TARGET_RATIO)
      failures.push(`one DomainRecordSet is ${ratio.toFixed(1)}× faster than ${n} DomainRecords; the target is ${TARGET_RATIO}×`);
    const posts = set.requests.filter((r) => r === "POST /v4/domains/{id}/records").length;
    // The set's up: the domain's natural-key lookup and POST, the zone's GET, one listing of its
    // (new, empty) records, one POST per record.
    if (posts !== n || set.requests.length !== n + 4)
      failures.push(`the set's up made ${set.requests.length} requests for ${n} records: ${tally(set.requests)}`);
    const pages = Math.ceil(n / 500);
    // The set's refresh: the domain's GET and one list per 500 records.
    if (refresh.requests.length > pages + 1)
      failures.push(`the set's refresh made ${refresh.requests.length} requests: ${tally(refresh.requests)}`);

    return {
      summary: `${n} A records in one domain, up through the real engine against one in-process emulator, in the same run`,
      metrics: [
        {
          label: `up, 1 DomainRecordSet of ${n} records`,
          value: `${set.seconds.toFixed(1)} s; ${set.requests.length} requests (${tally(set.requests)})`,
        },
        {
          label: `up, ${n} DomainRecords`,
          value: `${each.seconds.toFixed(1)} s; ${each.requests.length} requests (${tally(each.requests)})`,
        },
        {
          label: "ratio (DomainRecords / DomainRecordSet)",
          value: `${ratio.toFixed(1)}× (target ≥ ${TARGET_RATIO}× at N ≥ 1000)`,
        },
        {
          label: "refresh, the DomainRecordSet",
          value: `${refresh.seconds.toFixed(1)} s; ${refresh.requests.length} requests (${tally(refresh.requests)})`,
        },
      ],
      failures,
    };
  } finally {
    await emulator.close();
    fs.rmSync(base, { recursive: true, force: true });
  }
}

export const benchmark: Benchmark = {
  name: "record-set",
  description: "up of N records: one DomainRecordSet against N DomainRecords (BENCH_RECORDS, default 1000)",
  run,
};
