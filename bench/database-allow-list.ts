/**
 * DatabaseAllowListEntry: what N entries of one database cost when they reach one provider process
 * at once (one `up`), and whether concurrent writers lose entries.
 *
 * 1. N entries created at once by one provider process (as the engine hands one `up`'s creates
 *    over) on a database with a foreign address: the API requests. Fails at 2N or more (a
 *    read-modify-write per entry would be 2N).
 * 2. Three writers adding entries to one database's allow list at the same time, each a provider of
 *    its own (its own client and shared writes, as three stacks' provider processes are), on a
 *    database that already has a foreign address, with half of the database PUTs landing 150 ms late
 *    so that writes are built on reads from before another's, or arrive while another's is being
 *    applied (refused: the database is `updating`); repeated. Fails when any entry is lost, the
 *    foreign one included. Prints the requests and writes per entry it took.
 *
 * The emulator's clock runs 600× (a database update's minute is 0.1 s); the provider's waits for
 * `active` poll as they do against the real API (1 s, then longer), which is most of the time.
 *
 *   npm run bench -- database-allow-list                         N = 20, 20 repetitions
 *   BENCH_ENTRIES=10 BENCH_REPEATS=5 npm run bench -- database-allow-list
 */
import { startEmulator, type RunningEmulator } from "../emulator";
import { ProviderContext } from "../provider/engine/context";
import { makeProvider } from "../provider/engine/engine";
import { sharedWritesOf } from "../provider/engine/shared-writes";
import { databaseAllowListEntrySpec } from "../provider/resources/database-allow-list-entry";
import { ComputeClient } from "../sdk/client";
import type { BenchResult, Benchmark } from "./benchmark";

const WRITERS = 3;
const ENTRIES_PER_WRITER = 2;
const FOREIGN = "192.0.2.0/24";

/** A provider process of its own: its context, client and shared writes. */
function writer(emulator: RunningEmulator) {
  const config: Record<string, string> = { "compute:token": emulator.token, "compute:apiUrl": emulator.url, "compute:pacing": "off" };
  const ctx = new ProviderContext(
    (key) => config[key],
    () => {},
  );
  return { ctx, entries: makeProvider(databaseAllowListEntrySpec, () => ctx) };
}

const entryArgs = (databaseId: number, address: string) => ({
  __provider: "bench",
  engine: "mysql",
  databaseId: String(databaseId),
  address,
});

/** An active MySQL database with one foreign address (another stack's, the console's). */
async function databaseWithForeign(emulator: RunningEmulator, client: ComputeClient, label: string) {
  const db = await client.databases.mysql.create({
    label,
    region: "us-iad",
    type: "g6-nanode-1",
    engine: "mysql/8.0.30",
    allow_list: [FOREIGN],
  });
  emulator.control.databases.setStatus(db.id, { status: "active" }); // provisioning is not what is measured
  return db;
}

/** The requests sent to one database (its GETs and PUTs) while `work` runs. */
async function requestsOn(emulator: RunningEmulator, databaseId: number, work: () => Promise<unknown>) {
  const mark = emulator.control.listRequests().length;
  await work();
  const path = `/v4/databases/mysql/instances/${databaseId}`;
  const sent = emulator.control
    .listRequests()
    .slice(mark)
    .filter((r) => r.path.replace(/\?.*$/, "") === path);
  return { all: sent.length, puts: sent.filter((r) => r.method === "PUT").length };
}

/** Three providers of their own add their entries to one database at once; what is in its list after. */
async function concurrentRound(emulator: RunningEmulator, client: ComputeClient, round: number) {
  const db = await databaseWithForeign(emulator, client, `bench-shared-${round}`);
  const writers = Array.from({ length: WRITERS }, () => writer(emulator));
  const addresses = writers.map((_, i) => Array.from({ length: ENTRIES_PER_WRITER }, (_, j) => `10.${round}.${i}.${j + 1}`));
  const sent = await requestsOn(emulator, db.id, () =>
    Promise.all(writers.flatMap((w, i) => addresses[i]!.map((address) => w.entries.create(entryArgs(db.id, address))))),
  );
  const list = new Set((await client.databases.mysql.get(db.id)).allow_list);
  const stats = writers.map((w) => sharedWritesOf(w.ctx).stats);
  const sum = (key: "writes" | "busy" | "rewrites") => stats.reduce((n, s) => n + s[key], 0);
  return {
    lost: [FOREIGN, ...addresses.flat()].filter((a) => !list.has(a)),
    requests: sent.all,
    puts: sent.puts,
    writes: sum("writes"),
    busy: sum("busy"),
    rewrites: sum("rewrites"),
  };
}

async function run(): Promise<BenchResult> {
  const n = Number(process.env.BENCH_ENTRIES ?? 20);
  const repeats = Number(process.env.BENCH_REPEATS ?? 20);
  const emulator = await startEmulator({ port: 0, timeScale: 600 });
  const client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  const failures: string[] = [];
  try {
    // 1. N entries reaching one provider process at once.
    const db = await databaseWithForeign(emulator, client, "bench-one-up");
    const one = writer(emulator);
    const oneUp = await requestsOn(emulator, db.id, () =>
      Promise.all(Array.from({ length: n }, (_, i) => one.entries.create(entryArgs(db.id, `198.51.100.${i + 1}`)))),
    );
    const listed = (await client.databases.mysql.get(db.id)).allow_list.length;
    if (oneUp.all >= 2 * n) failures.push(`the ${n} entries took ${oneUp.all} requests (target < ${2 * n})`);
    if (listed !== n + 1) failures.push(`the list holds ${listed} addresses after ${n} entries on 1 foreign (target ${n + 1})`);

    // 2. Three writers at once, repeated, with late writes.
    emulator.control.addFault({
      pathPattern: "/v4/databases/mysql/instances/*",
      method: "PUT",
      kind: "latency",
      latencyMs: 150,
      rate: 0.5,
    });
    const total = { lost: 0, requests: 0, puts: 0, writes: 0, busy: 0, rewrites: 0 };
    const started = performance.now();
    for (let round = 0; round < repeats; round++) {
      const result = await concurrentRound(emulator, client, round);
      total.lost += result.lost.length;
      for (const key of ["requests", "puts", "writes", "busy", "rewrites"] as const) total[key] += result[key];
      if (result.lost.length > 0) failures.push(`round ${round}: lost ${result.lost.join(", ")}`);
    }
    const seconds = (performance.now() - started) / 1000;
    const entries = repeats * WRITERS * ENTRIES_PER_WRITER;
    return {
      summary: `DatabaseAllowListEntry: ${n} entries at once in one provider process; ${WRITERS} writers × ${ENTRIES_PER_WRITER} entries at once on one database with a foreign address, ${repeats} repetitions`,
      metrics: [
        { label: `${n} entries at once, one process (target < ${2 * n})`, value: `${oneUp.all} requests, ${oneUp.puts} PUT` },
        {
          label: `${WRITERS} writers at once, ${repeats} repetitions`,
          value: `${total.lost} of ${entries + repeats} addresses lost (target 0), in ${seconds.toFixed(1)} s`,
        },
        {
          label: "  requests per entry (GETs and PUTs)",
          value: `${(total.requests / entries).toFixed(2)} (${total.requests} for ${entries} entries; a read-modify-write per entry, unconfirmed, would be 2)`,
        },
        { label: "  PUTs per entry", value: `${(total.puts / entries).toFixed(2)}` },
        { label: "  writes / refused busy / written again", value: `${total.writes} / ${total.busy} / ${total.rewrites}` },
      ],
      failures,
    };
  } finally {
    await client.close();
    await emulator.close();
  }
}

export const benchmark: Benchmark = {
  name: "database-allow-list",
  description:
    "DatabaseAllowListEntry: requests of N entries at once, and entries lost by concurrent writers on one database (BENCH_ENTRIES, BENCH_REPEATS)",
  run,
};
