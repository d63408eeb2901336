/**
 * FirewallRule: what N rules on one firewall cost in one `up`, and whether concurrent writers lose
 * rules.
 *
 * 1. `up` of a firewall (no rule lists) and N `FirewallRule`s on it, through the real Pulumi
 *    engine (Automation API, file backend) against an in-process emulator: the API requests of the
 *    `up`, and of a refresh. Fails when the rules take 2N requests or more.
 * 2. Three writers adding rules to one firewall at the same time, each a provider of its own (its
 *    own client, shared writes and declarations, as three stacks' provider processes are), with a
 *    firewall that already has a foreign rule and writes that land late (latency on half the PUTs,
 *    so writes are built on reads from before another's); repeated. Fails when a rule is lost, the
 *    foreign one included.
 *
 *   npm run bench -- firewall-rule                          N = 20, 20 repetitions
 *   BENCH_RULES=10 BENCH_REPEATS=5 npm run bench -- firewall-rule
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../emulator";
import { Firewall, FirewallRule } from "../provider";
import { ProviderContext } from "../provider/engine/context";
import { makeProvider } from "../provider/engine/engine";
import type { SharedWrites } from "../provider/engine/shared-writes";
import { firewallRuleSpec } from "../provider/resources/firewall-rule";
import { ComputeClient } from "../sdk/client";
import type { BenchResult, Benchmark } from "./benchmark";
import { benchStack } from "./stack";

const WRITERS = 3;
const RULES_PER_WRITER = 2;

async function requestsOf(emulator: RunningEmulator, work: () => Promise<unknown>): Promise<string[]> {
  const mark = emulator.control.listRequests().length;
  await work();
  return emulator.control
    .listRequests()
    .slice(mark)
    .map((r) => `${r.method} ${r.path.replace(/\?.*$/, "").replace(/\/\d+/g, "/{id}")}`);
}

const tally = (requests: string[]) => {
  const counts = new Map<string, number>();
  for (const r of requests) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts].map(([r, n]) => `${n}× ${r}`).join(", ");
};

const ruleArgs = (firewallId: number, label: string, port: number) => ({
  __provider: "bench",
  firewallId: String(firewallId),
  direction: "inbound",
  label,
  action: "ACCEPT",
  protocol: "TCP",
  ports: String(port),
  addresses: { ipv4: ["10.0.0.0/24"] },
});

/** Three providers of their own add two rules each to one firewall at once; how many rules are there after. */
async function concurrentRound(emulator: RunningEmulator, client: ComputeClient, round: number) {
  const fw = await client.networking.firewalls.create({
    label: `bench-shared-${round}`,
    rules: {
      inbound: [{ action: "ACCEPT", protocol: "TCP", ports: "22", addresses: { ipv4: ["192.0.2.0/24"] }, label: "foreign" }],
      inbound_policy: "DROP",
      outbound_policy: "ACCEPT",
    },
  });
  const config: Record<string, string> = { "compute:token": emulator.token, "compute:apiUrl": emulator.url, "compute:pacing": "off" };
  const writers = Array.from({ length: WRITERS }, () => {
    const ctx = new ProviderContext((key) => config[key]);
    return { ctx, rules: makeProvider(firewallRuleSpec, () => ctx) };
  });
  await Promise.all(
    writers.flatMap((w, i) =>
      Array.from({ length: RULES_PER_WRITER }, (_, j) => w.rules.create(ruleArgs(fw.id, `w${i}-r${j}`, 2000 + i * 10 + j))),
    ),
  );
  const labels = new Set((await client.networking.firewalls.rules.get(fw.id)).inbound!.map((r) => r.label));
  const expected = ["foreign", ...writers.flatMap((_, i) => Array.from({ length: RULES_PER_WRITER }, (_, j) => `w${i}-r${j}`))];
  const stats = writers.map((w) => w.ctx.shared<SharedWrites | undefined>("shared writes", () => undefined)?.stats);
  return {
    lost: expected.filter((l) => !labels.has(l)),
    interleaved: stats.reduce((n, s) => n + (s?.interleaved ?? 0), 0),
    rewrites: stats.reduce((n, s) => n + (s?.rewrites ?? 0), 0),
    writes: stats.reduce((n, s) => n + (s?.writes ?? 0), 0),
  };
}

async function run(): Promise<BenchResult> {
  const n = Number(process.env.BENCH_RULES ?? 20);
  const repeats = Number(process.env.BENCH_REPEATS ?? 20);
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "bench-firewall-rule-"));
  const emulator = await startEmulator({ port: 0 });
  const client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  const failures: string[] = [];
  try {
    // 1. N rules in one up.
    const stack = await benchStack(
      "rules",
      async () => {
        const fw = new Firewall("shared", { label: "bench-rules", inboundPolicy: "DROP", outboundPolicy: "ACCEPT" });
        for (let i = 0; i < n; i++) {
          new FirewallRule(`r${i}`, {
            firewallId: fw.id,
            direction: "inbound",
            label: `rule-${i}`,
            action: "ACCEPT",
            protocol: "TCP",
            ports: String(1000 + i),
            addresses: { ipv4: ["10.0.0.0/24"] },
          });
        }
      },
      emulator,
      base,
    );
    const up = await requestsOf(emulator, () => stack.up());
    const ruleRequests = up.filter((r) => r.includes("/rules"));
    const refresh = await requestsOf(emulator, () => stack.refresh());
    if (ruleRequests.length >= 2 * n) failures.push(`the ${n} rules took ${ruleRequests.length} requests (target < ${2 * n})`);
    await stack.destroy();

    // 2. Three writers at once, repeated.
    emulator.control.addFault({
      pathPattern: "/v4/networking/firewalls/*/rules",
      method: "PUT",
      kind: "latency",
      latencyMs: 150,
      rate: 0.5,
    });
    let lost = 0;
    let interleaved = 0;
    let rewrites = 0;
    let writes = 0;
    const started = performance.now();
    for (let round = 0; round < repeats; round++) {
      const result = await concurrentRound(emulator, client, round);
      lost += result.lost.length;
      interleaved += result.interleaved;
      rewrites += result.rewrites;
      writes += result.writes;
      if (result.lost.length > 0) failures.push(`round ${round}: lost ${result.lost.join(", ")}`);
    }
    const seconds = (performance.now() - started) / 1000;
    return {
      summary: `FirewallRule: ${n} rules on one firewall in one up (real engine); ${WRITERS} writers × ${RULES_PER_WRITER} rules at once on one firewall with a foreign rule, ${repeats} repetitions`,
      metrics: [
        { label: `up, firewall + ${n} FirewallRules`, value: `${up.length} requests (${tally(up)})` },
        { label: `  of them on the rules (target < ${2 * n})`, value: `${ruleRequests.length}` },
        { label: `refresh, ${n} FirewallRules`, value: `${refresh.length} requests (${tally(refresh)})` },
        { label: `${WRITERS} writers at once, ${repeats} repetitions`, value: `${lost} rules lost (target 0), in ${seconds.toFixed(1)} s` },
        { label: "  writes / seen interleaved / written again", value: `${writes} / ${interleaved} / ${rewrites}` },
      ],
      failures,
    };
  } finally {
    await client.close();
    await emulator.close();
    fs.rmSync(base, { recursive: true, force: true });
  }
}

export const benchmark: Benchmark = {
  name: "firewall-rule",
  description: "FirewallRule: requests of N rules in one up, and rules lost by concurrent writers (BENCH_RULES, BENCH_REPEATS)",
  run,
};
