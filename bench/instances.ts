/**
 * Instances: `up` of 20 `Instance`s against `up` of one, through the real Pulumi engine
 * (`emulatedStack`: the Automation API against an emulator in this process), its clock running
 * 10× real time (`SCALE`), so the emulated time of an `up` is mostly the time its instances were waited for:
 * 20 instances waiting in parallel (`--parallel` N) take about as long as one. Prints the emulated
 * and real times and the API requests per instance of each `up` and `destroy` (a create, its
 * waits and reads), and fails when the provisioning of 20 (from the first create to the end of
 * `up`) takes more than 1.2× that of one, or a count per instance passes its bound. The time
 * before the first create, the engine planning and checking each resource, is printed beside it.
 *
 *   npm run bench -- instances                      N = 20
 *   BENCH_INSTANCES=5 npm run bench -- instances    another N
 */
import { Instance } from "../provider";
import { emulatedStack, type EmulatedStack } from "../provider/testing";
import type { BenchResult, Benchmark } from "./benchmark";

/** The provisioning of N may take at most this many times that of one. */
const TARGET_RATIO = 1.2;

/**
 * Emulated time runs this many times faster than real time: an instance's 80 s of provisioning
 * and booting pass in 8 s, and the provider's polls (real time) see it running soon after. Waits do not jump the clock here (as `emulatedStack`'s default does):
 * a jumping clock lets the first instance's waits run the clock on while the others are still
 * being created, which says nothing about waiting in parallel.
 */
const SCALE = 10;

/**
 * The requests per instance each operation may make, by kind (ids elided):
 * - the label's lookups: the plan's check that it is free, and create-exactly-once's before its POST;
 * - the create;
 * - the reads of the instance: it provisions for 60 s and boots for 20 s of emulated time, 8 s
 *   real at `SCALE`, polled 1 s after the create, each pause 1.5× the last up to 5 s (1, 2.5,
 *   4.75 and 8.1 s: running at the fourth), plus the first read and the read after the wait
 *   (observed: 6 in all); one more when a loaded machine moves the running instance past a poll;
 * - its profile, read once for the interfaces and the VPC address;
 * - destroy: a DELETE and the reads that wait out the 10 s of `deleting` (1 s real: polls at 0 and
 *   1 s; observed 2, 3 when the machine is loaded).
 */
const BOUNDS: Record<"up" | "destroy", Record<string, number>> = {
  up: {
    "GET /v4/compute/instances": 2,
    "POST /v4/compute/instances": 1,
    "GET /v4/compute/instances/{id}": 7,
    "GET /v4/compute/instances/{id}/configs": 1,
  },
  destroy: {
    "DELETE /v4/compute/instances/{id}": 1,
    "GET /v4/compute/instances/{id}": 3,
  },
};
/** Requests not per instance (the plan's checks of the region, type and image, once per run), at most per operation. */
const SHARED_BOUND = 4;

type Counts = Map<string, number>;

function program(count: () => number) {
  return async () => {
    for (let i = 0; i < count(); i++) {
      new Instance(`node-${i}`, {
        label: `bench-node-${i}`,
        region: "us-iad",
        type: "g6-nanode-1",
        image: "public/debian12",
        rootPass: "bench-instance-root-password",
      });
    }
  };
}

/** Runs `work`: its emulated and real times (s) and its requests by kind (method and path, ids elided). */
async function measured(
  stack: EmulatedStack,
  work: () => Promise<unknown>,
): Promise<{ emulated: number; real: number; counts: Counts; creates: number[] }> {
  const mark = stack.control.listRequests().length;
  const clockBefore = stack.control.getClock().epochMs;
  const started = performance.now();
  await work();
  const real = (performance.now() - started) / 1000;
  const emulated = (stack.control.getClock().epochMs - clockBefore) / 1000;
  const counts: Counts = new Map();
  const creates: number[] = [];
  for (const r of stack.control.listRequests().slice(mark)) {
    const kind = `${r.method} ${r.path.replace(/\?.*$/, "").replace(/\/\d+/g, "/{id}")}`;
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
    if (kind === "POST /v4/compute/instances") creates.push((Date.parse(r.at) - clockBefore) / 1000);
  }
  return { emulated, real, counts, creates };
}

/** The table's rows for one operation of `n` instances, and the bounds it broke. */
function judged(operation: "up" | "destroy", n: number, counts: Counts, failures: string[]): string[] {
  const rows: string[] = [];
  let shared = 0;
  for (const [kind, total] of [...counts].sort()) {
    const bound = BOUNDS[operation][kind];
    const perInstance = total / n;
    if (bound === undefined) shared += total;
    else if (perInstance > bound) failures.push(`${operation} of ${n}: ${perInstance.toFixed(1)}× ${kind} per instance (bound ${bound})`);
    rows.push(
      `| ${operation} of ${n} | ${kind} | ${total} | ${bound === undefined ? "shared" : perInstance.toFixed(1)} | ${bound ?? `≤ ${SHARED_BOUND} shared`} |`,
    );
  }
  for (const kind of Object.keys(BOUNDS[operation]))
    if (!counts.has(kind)) failures.push(`${operation} of ${n}: no ${kind} (each instance makes one)`);
  if (shared > SHARED_BOUND) failures.push(`${operation} of ${n}: ${shared} requests not per instance (bound ${SHARED_BOUND})`);
  return rows;
}

async function run(): Promise<BenchResult> {
  const n = Number(process.env.BENCH_INSTANCES ?? 20);
  let count = 1;
  // The clock runs SCALE× real time, and the provider polls in real time.
  await using stack = await emulatedStack(
    program(() => count),
    { projectName: "bench-instances", timeScale: SCALE },
  );
  const failures: string[] = [];
  const table = ["| operation | request | count | per instance | bound per instance |", "|---|---|---|---|---|"];

  const oneUp = await measured(stack, () => stack.up());
  table.push(...judged("up", 1, oneUp.counts, failures));
  const oneDown = await measured(stack, () => stack.destroy());
  table.push(...judged("destroy", 1, oneDown.counts, failures));
  count = n;
  // As many operations at once as instances (`pulumi up --parallel`): the engine's default (8 at
  // once on this machine) would wait for 20 instances in three waves.
  const manyUp = await measured(stack, () => stack.up({ parallel: n }));
  table.push(...judged("up", n, manyUp.counts, failures));
  const running = (await stack.client.computes.instances.listAll()).filter((i) => i.status === "running").length;
  if (running !== n) failures.push(`${running} of ${n} instances running after up`);
  const manyDown = await measured(stack, () => stack.destroy({ parallel: n }));
  table.push(...judged("destroy", n, manyDown.counts, failures));
  const left = (await stack.client.computes.instances.listAll()).length;
  if (left !== 0) failures.push(`${left} instances left after destroy`);

  // The provisioning time of an up: from its first create to its end (the waits, and the reads
  // after them); before the first create, the engine plans and checks each resource.
  const provisioning = (m: { emulated: number; creates: number[] }) => m.emulated - Math.min(...m.creates);
  const ratio = provisioning(manyUp) / provisioning(oneUp);
  if (ratio > TARGET_RATIO)
    failures.push(
      `up of ${n} provisioned for ${provisioning(manyUp).toFixed(0)} s emulated, ${ratio.toFixed(2)}× up of one (target ≤ ${TARGET_RATIO}×)`,
    );

  const time = (m: { emulated: number; real: number }) => `${m.emulated.toFixed(0)} s emulated, ${m.real.toFixed(1)} s real`;
  return {
    summary: `Instances (g6-nanode-1, public/debian12) through the real engine against an in-process emulator, its clock ${SCALE}× real time`,
    table,
    metrics: [
      { label: "up, 1 instance", value: time(oneUp) },
      { label: `up, ${n} instances`, value: `${time(manyUp)}; ${(manyUp.emulated / oneUp.emulated).toFixed(2)}× one` },
      {
        label: "provisioning (first create to the end of up)",
        value: `1: ${provisioning(oneUp).toFixed(0)} s emulated; ${n}: ${provisioning(manyUp).toFixed(0)} s emulated, ${ratio.toFixed(2)}× one (target ≤ ${TARGET_RATIO}×)`,
      },
      {
        label: `the ${n} creates, emulated s after up began`,
        value: `first ${Math.min(...manyUp.creates).toFixed(0)} s, last ${Math.max(...manyUp.creates).toFixed(0)} s (up of one: ${oneUp.creates[0]?.toFixed(0)} s)`,
      },
      { label: "destroy, 1 instance", value: time(oneDown) },
      { label: `destroy, ${n} instances`, value: `${time(manyDown)}; ${(manyDown.emulated / oneDown.emulated).toFixed(2)}× one` },
    ],
    failures,
  };
}

export const benchmark: Benchmark = {
  name: "instances",
  description: "up and destroy of N instances (BENCH_INSTANCES, default 20): emulated time against one, requests per instance",
  run,
};
