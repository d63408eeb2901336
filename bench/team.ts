/**
 * Team: K app stacks × R records each, their `up`s at once (K runners) against one emulator
 * account that enforces the documented rate limits (800 requests per 2 minutes, 400 per minute
 * per operation, 200 per minute per paginated collection), every stack's state in a PostgreSQL
 * server the benchmark starts (the engine's `postgres://` backend). Each app stack reads the
 * shared zone from the network stack through a StackReference and adds its R records to it.
 *
 * Printed: the wall time of the K concurrent ups next to the bound the rate limits set (for each
 * window, the requests it counted divided by its allowed rate; the largest is the bound), the 429
 * answers the server gave (absorbed by pacing and retries, each said as an info line), those a
 * user saw (a failed command, a warning or an error), each stack's time and the slowest stack's
 * share of the wall time.
 *
 * Targets checked: no failed command, no 429 seen by a user, every record exactly once, and wall
 * time within 1.25× of the bound.
 *
 *   npm run bench -- team                          K = 3, R = 150
 *   npm run bench -- team --stacks=5 --records=60  other sizes
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import { DEFAULT_RATE_LIMITS } from "../emulator/core/rate-limit";
import { operationTemplate } from "../sdk/core/pacing";
import { ComputeClient } from "../sdk/client";
import { startPostgres } from "../test/support/postgres";
import { NETWORK, appProgram, networkProgram, teamEnv, teamStack } from "../test/support/team";
import type { BenchResult, Benchmark } from "./benchmark";

/** Wall time may exceed the rate-limit bound by this factor at most. */
export const TARGET_BOUND_RATIO = 1.25;

interface LoggedRequest {
  method: string;
  path: string;
}

/**
 * The shortest time the documented limits allow for `requests`: each window's count over its
 * rate (general: all; operation: per method and path template; collection: per listing), the
 * largest of them.
 */
export function rateLimitBound(requests: LoggedRequest[], limits = DEFAULT_RATE_LIMITS): { seconds: number; window: string } {
  const rate = (w: { limit: number; windowMs: number }) => w.limit / (w.windowMs / 1000);
  let best = { seconds: requests.length / rate(limits.general), window: `general (${requests.length} requests)` };
  const groups = new Map<string, number>();
  for (const r of requests) {
    const key = `${r.method} ${operationTemplate(r.path)}`;
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  for (const [key, count] of groups) {
    const collection =
      key.startsWith("GET ") && requests.some((r) => `${r.method} ${operationTemplate(r.path)}` === key && r.path.includes("page"));
    const window = collection ? limits.collection : limits.operation;
    const seconds = count / rate(window);
    if (seconds > best.seconds) best = { seconds, window: `${collection ? "collection" : "operation"} ${key} (${count} requests)` };
  }
  return best;
}

async function run(flags: readonly string[] = []): Promise<BenchResult> {
  const given = (name: string, fallback: number) => Number(flags.find((f) => f.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
  const k = given("stacks", 3);
  const r = given("records", 150);
  const apps = Array.from({ length: k }, (_, i) => `app-${String.fromCharCode(97 + i)}`);
  const postgres = await startPostgres();
  const emulator = await startEmulator({ port: 0, rateLimits: true });
  const client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "bench-team-"));
  try {
    const team = teamEnv(root, postgres.url, emulator);
    const network = await teamStack(team, NETWORK, networkProgram("team.bench"));
    const zoneId = Number((await network.up()).outputs.domainId!.value);
    const stacks = [];
    for (const app of apps) stacks.push(await teamStack(team, app, appProgram(app, r)));
    const mark = emulator.control.listRequests().length;

    const started = performance.now();
    const outcomes = await Promise.all(
      stacks.map(async (stack, i) => {
        const begun = performance.now();
        // What the user is shown, by severity: a retried 429 is an info line saying why a request
        // waited; a 429 the user saw is one that failed the command or came as a warning or error.
        const shown = { retried429: 0, problems: [] as string[] };
        try {
          const up = await stack.up({
            onEvent: (event) => {
              const diagnostic = event.diagnosticEvent;
              if (!diagnostic || !/\b429\b|too many requests/i.test(diagnostic.message)) return;
              if (/^(warning|error)/.test(diagnostic.severity)) shown.problems.push(`${diagnostic.severity}: ${diagnostic.message.trim()}`);
              else if (/^info/.test(diagnostic.severity)) shown.retried429 += 1;
            },
          });
          console.error(`  [team] ${apps[i]} up ${up.summary.result} in ${((performance.now() - begun) / 1000).toFixed(1)} s`);
          return {
            app: apps[i]!,
            seconds: (performance.now() - begun) / 1000,
            failed: up.summary.result !== "succeeded",
            seen429: shown.problems.length,
            retried429: shown.retried429,
            errors: shown.problems,
          };
        } catch (error) {
          const message = (error as Error).message;
          return {
            app: apps[i]!,
            seconds: (performance.now() - begun) / 1000,
            failed: true,
            seen429: shown.problems.length + (/429|too many requests/i.test(message) ? 1 : 0),
            retried429: shown.retried429,
            errors: [...shown.problems, message.slice(0, 500)],
          };
        }
      }),
    );
    const wall = (performance.now() - started) / 1000;
    const requests = emulator.control.listRequests().slice(mark);
    const refused = requests.filter((q) => q.status === 429).length;
    const answered = requests.filter((q) => q.status !== 429);
    const bound = rateLimitBound(answered);
    const records = (await client.domains.records.listAll(zoneId)).filter((x) => x.type === "A");
    const twins = records.length - new Set(records.map((x) => x.name)).size;

    const failed = outcomes.filter((o) => o.failed).length;
    const seen429 = outcomes.reduce((s, o) => s + o.seen429, 0);
    const retried429 = outcomes.reduce((s, o) => s + o.retried429, 0);
    const slowest = Math.max(...outcomes.map((o) => o.seconds));
    const ratio = wall / bound.seconds;
    const failures: string[] = [];
    if (failed)
      failures.push(
        `${failed} of ${k} ups failed: ${outcomes
          .flatMap((o) => o.errors)
          .slice(0, 5)
          .join(" | ")}`,
      );
    if (seen429)
      failures.push(
        `${seen429} 429(s) reached a user: ${outcomes
          .filter((o) => o.seen429)
          .flatMap((o) => o.errors)
          .slice(0, 3)
          .join(" | ")}`,
      );
    if (records.length !== k * r || twins) failures.push(`the zone holds ${records.length} records (${twins} twins); expected ${k * r}`);
    if (ratio > TARGET_BOUND_RATIO)
      failures.push(`wall time ${wall.toFixed(1)} s is ${ratio.toFixed(2)}× the rate-limit bound; the target is ≤ ${TARGET_BOUND_RATIO}×`);

    return {
      summary: `${k} app stacks × ${r} records, their ups at once against one account with the documented rate limits enforced; state in PostgreSQL ${path.basename(path.dirname(postgres.bin))}`,
      table: [
        "| stack | up s | share of wall |",
        "|---|---|---|",
        ...outcomes.map((o) => `| ${o.app} | ${o.seconds.toFixed(1)} | ${((o.seconds / wall) * 100).toFixed(0)}% |`),
      ],
      metrics: [
        { label: "wall time, all ups", value: `${wall.toFixed(1)} s` },
        // The engines' own CPU time bounds the wall time too: on a loaded machine it, not the API, decides.
        { label: "machine load while it ran", value: `load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores` },
        {
          label: "rate-limit bound",
          value: `${bound.seconds.toFixed(1)} s (${bound.window}); wall / bound ${ratio.toFixed(2)}× (target ≤ ${TARGET_BOUND_RATIO}×)`,
        },
        { label: "requests answered", value: `${answered.length} (${records.length} records in the zone, ${twins} twins)` },
        { label: "429 answers (paced and retried)", value: String(refused) },
        { label: "429 retries said as progress (info)", value: String(retried429) },
        { label: "429s a user saw (a failed command, a warning or an error)", value: String(seen429) },
        { label: "failed commands", value: `${failed} of ${k}` },
        { label: "slowest stack", value: `${slowest.toFixed(1)} s, ${((slowest / wall) * 100).toFixed(0)}% of the wall time` },
      ],
      failures,
    };
  } finally {
    // The account and the database are this run's own: dropped with them, no destroy needed.
    await client.close();
    await emulator.close();
    await postgres.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export const benchmark: Benchmark = {
  name: "team",
  description:
    "K stacks × R records, ups at once on one account with the documented rate limits, state in PostgreSQL (--stacks=3 --records=150)",
  run,
};
