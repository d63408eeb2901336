/**
 * After a `pulumi up` (or `destroy`) killed with SIGKILL — the CLI and every plugin process, as a
 * cancelled CI runner leaves it — one `pulumi-compute recover --yes` and one `pulumi up` bring the
 * stack back: exactly one object per declared resource, a clean preview, and a destroy that
 * leaves nothing. Each kill point is chosen with the emulator's latency rules and request log
 * (requests held in flight, the kill once they have arrived), so it is the same on every run. The
 * `pulumi` CLI runs from a project folder as a user runs it; one project, one stack and one
 * emulator serve every case in turn (each ends with an empty account).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { RequestLogEntry, RunningEmulator } from "../../emulator";
import type { ComputeClient } from "../../sdk/client";
import { REPO_ROOT } from "../support/engine";
import { killedRun } from "../support/killed-run";
import { runProcess, type ProcessResult } from "../support/process";
import { expectExit } from "../support/user-shell";
import { linkedStack, type LinkedStack } from "../support/linked-stack";
import { heldRequestsDone } from "../support/requests";

jest.setTimeout(600_000);

/** How long a held request waits in the emulator before it is processed (the client is gone by then). */
const HOLD_MS = 4_000;

let emulator: RunningEmulator;
let client: ComputeClient;
let base: string;
let project: string;
let env: NodeJS.ProcessEnv;

/**
 * The program: which resources it declares depends on `RECOVER_CASE`, so one project serves every
 * case (a user's program would be one of them).
 */
const PROGRAM = `
const compute = require("pulumi-compute");
const which = process.env.RECOVER_CASE;
if (which === "network") {
  new compute.Vpc("net-a", { label: "rc-net-a", region: "us-iad" });
  new compute.Vpc("net-b", { label: "rc-net-b", region: "us-iad" });
  new compute.Firewall("edge", { label: "rc-edge", inboundPolicy: "DROP", outboundPolicy: "ACCEPT" });
}
if (which === "records") {
  const zone = new compute.Domain("zone", { domain: "recover.example", type: "master", soaEmail: "admin@recover.example" });
  for (const name of ["www", "api", "mail"]) {
    new compute.DomainRecord(name, { domainId: zone.id, type: "A", name, target: "203.0.113.7" });
  }
}
if (which === "database") {
  new compute.MysqlDatabase("db", { label: "rc-db", region: "us-iad", type: "g6-nanode-1", engineId: "mysql/8.0.30" });
}
if (which === "vpc" || which === "update" || which === "destroy") {
  new compute.Vpc("net", { label: "rc-net", region: "us-iad", description: process.env.RECOVER_DESCRIPTION || "" });
}
if (which === "destroy") {
  new compute.Vpc("net-2", { label: "rc-net-2", region: "us-iad" });
}
`;

let linked: LinkedStack | undefined;

beforeAll(async () => {
  // Databases provision in seconds instead of minutes.
  linked = await linkedStack({ name: "recover", program: PROGRAM, timeScale: 300 });
  ({ emulator, client, base, project, env } = linked);
});

afterAll(async () => {
  await linked?.close();
});

/** `pulumi <args>` in the project, declaring the resources of case `which`; `description` goes to the update case's VPC. */
function pulumi(args: string, which = "", description = ""): Promise<ProcessResult> {
  return runProcess("pulumi", args.split(" "), {
    cwd: project,
    env: { ...env, RECOVER_CASE: which, RECOVER_DESCRIPTION: description },
    timeoutMs: 300_000,
  });
}

function recoverCommand(...args: string[]): Promise<ProcessResult> {
  return runProcess(process.execPath, [path.join(REPO_ROOT, "dist/provider/cli/main.js"), "recover", ...args], {
    cwd: project,
    env,
    timeoutMs: 300_000,
  });
}

/** `pulumi <args>` for the case `which`, killed (every process it started) once `ready` holds for this run's requests. */
async function killedCase(args: string, which: string, ready: (log: RequestLogEntry[]) => boolean, description = ""): Promise<number> {
  emulator.control.clearRequests(); // the kill point counts this run's requests only
  const caseEnv = { ...env, RECOVER_CASE: which, RECOVER_DESCRIPTION: description };
  return killedRun({ args, cwd: project, env: caseEnv, emulator, ready, point: "the kill point" });
}

const arrived = (log: RequestLogEntry[], method: string, pattern: RegExp) =>
  log.filter((r) => r.method === method && pattern.test(r.path.split("?")[0]!));

/** What the account holds, by kind (labels, names): the API's view, to count objects per declared resource. */
async function account() {
  const domains = await client.domains.listAll();
  const records = (await Promise.all(domains.map((d) => client.domains.records.listAll(d.id)))).flat();
  return {
    vpcs: (await client.vpcs.listAll()).map((v) => v.label).sort(),
    firewalls: (await client.networking.firewalls.listAll()).map((f) => f.label).sort(),
    domains: domains.map((d) => d.domain),
    records: records.map((r) => `${r.type} ${r.name}`).sort(),
    databases: (await client.databases.mysql.listAll()).map((d) => d.label),
  };
}

type Account = Record<"vpcs" | "firewalls" | "domains" | "records" | "databases", string[]>;
const EMPTY: Account = { vpcs: [], firewalls: [], domains: [], records: [], databases: [] };

/** `recover --yes`: its report, and the requests it sent (reads only). */
async function recover(): Promise<{ lines: string[]; requests: RequestLogEntry[] }> {
  await heldRequestsDone(emulator, HOLD_MS + 1_000); // the held requests are processed (or not) before anyone looks
  emulator.control.clearFaults();
  emulator.control.clearRequests();
  const result = await recoverCommand("--yes");
  expectExit(result, 0);
  const requests = emulator.control.listRequests();
  expect(requests.filter((r) => r.method !== "GET")).toEqual([]);
  // The measured counts (the table of docs/guides/crash-recovery.md): the lookups, then the refresh's reads.
  console.log(
    `${expect.getState().currentTestName}: recover sent ${requests.length} requests, all GET:\n${requests.map((r) => r.path).join("\n")}`,
  );
  return { lines: result.stdout.trim().split("\n"), requests };
}

/** `up`, a preview that expects no changes, a destroy that leaves nothing. */
async function finish(which: string, expected: Partial<Account>, description = ""): Promise<void> {
  expectExit(await pulumi("up --yes --skip-preview", which, description), 0);
  expect(await account()).toEqual({ ...EMPTY, ...expected });
  expectExit(await pulumi("preview --expect-no-changes", which, description), 0);
  expectExit(await pulumi("destroy --yes --skip-preview", which, description), 0);
  expect(await account()).toEqual(EMPTY);
}

const hold = (method: string, pathPattern: string) =>
  emulator.control.addFault({ method, pathPattern, kind: "latency", latencyMs: HOLD_MS });

test("killed before the first create request leaves: the pending create is cleared", async () => {
  hold("GET", "/v4/vpcs"); // the check's label lookup, then the create's lookup right before it posts
  await killedCase("up --yes --skip-preview", "vpc", (log) => arrived(log, "GET", /^\/v4\/vpcs$/).length >= 2);
  expect(arrived(emulator.control.listRequests(), "POST", /^\/v4\/vpcs$/)).toEqual([]);

  // `drift` would be refused by the lock, and skip the pending create: it says what to run instead.
  const drift = await runProcess(process.execPath, [path.join(REPO_ROOT, "dist/provider/cli/main.js"), "drift"], { cwd: project, env });
  expectExit(drift, 1);
  expect(drift.out).toMatch(
    /^pulumi-compute drift: stack dev has 1 pending operation\(s\) \(net creating\) and a lock held by .* \(pid \d+\).*, which is gone from an interrupted run: run `npx pulumi-compute recover` first\n$/,
  );

  const { lines, requests } = await recover();
  expect(lines).toContain('Vpc net: cleared (no VPC with label "rc-net" exists: the create never landed)');
  expect(lines.some((l) => /^lock .*: held by .*; process \d+ is gone: removed$/.test(l))).toBe(true);
  expect(requests).toHaveLength(1); // the lookup
  await finish("vpc", { vpcs: ["rc-net"] });
});

test("killed while VPC and firewall creates are in flight: the objects they made are adopted", async () => {
  hold("POST", "/v4/vpcs");
  hold("POST", "/v4/networking/firewalls");
  await killedCase(
    "up --yes --skip-preview",
    "network",
    (log) => arrived(log, "POST", /^\/v4\/vpcs$/).length === 2 && arrived(log, "POST", /^\/v4\/networking\/firewalls$/).length === 1,
  );
  const { lines, requests } = await recover();
  expect(lines.filter((l) => l.includes(": adopted id "))).toHaveLength(3);
  expect(requests).toHaveLength(6); // 3 lookups (filtered listings), 3 reads by the refresh
  await finish("network", { vpcs: ["rc-net-a", "rc-net-b"], firewalls: ["rc-edge"] });
});

test("killed while record creates are in flight: the records are adopted, no twin", async () => {
  hold("POST", "/v4/domains/*/records");
  await killedCase("up --yes --skip-preview", "records", (log) => arrived(log, "POST", /^\/v4\/domains\/\d+\/records$/).length === 3);
  const { lines, requests } = await recover();
  expect(lines.filter((l) => /^DomainRecord \w+: adopted id \d+/.test(l))).toHaveLength(3);
  expect(requests).toHaveLength(5); // the 3 lookups share one listing of the zone and one read of its name; then the refresh: the domain, and the records in one listing
  await finish("records", { domains: ["recover.example"], records: ["A api", "A mail", "A www"] });
});

test("killed while waiting for a database to become active: the database is adopted", async () => {
  hold("GET", "/v4/databases/mysql/instances/*"); // the wait's first poll
  await killedCase(
    "up --yes --skip-preview",
    "database",
    (log) => arrived(log, "GET", /^\/v4\/databases\/mysql\/instances\/\d+$/).length >= 1,
  );
  const { lines, requests } = await recover();
  expect(lines.filter((l) => /^MysqlDatabase db: adopted id \d+/.test(l))).toHaveLength(1);
  expect(requests).toHaveLength(4); // the lookup, then the refresh's read: the instance, its credentials and its certificate
  await finish("database", { databases: ["rc-db"] });
});

test("killed during an in-place update: the refresh records what the API holds", async () => {
  expectExit(await pulumi("up --yes --skip-preview", "update", "first"), 0);
  hold("PUT", "/v4/vpcs/*");
  await killedCase("up --yes --skip-preview", "update", (log) => arrived(log, "PUT", /^\/v4\/vpcs\/\d+$/).length === 1, "second");
  const { lines, requests } = await recover();
  expect(lines).toContain("Vpc net: interrupted while updating; the refresh reads it and records what the API holds");
  expect(requests).toHaveLength(1); // no lookup: the refresh's read
  await finish("update", { vpcs: ["rc-net"] }, "second");
  expect(emulator.control.listRequests().some((r) => r.method === "PUT")).toBe(false); // the killed run's update had landed
});

test("killed during destroy: the refresh drops what was deleted, up makes it again", async () => {
  expectExit(await pulumi("up --yes --skip-preview", "destroy"), 0);
  hold("DELETE", "/v4/vpcs/*");
  await killedCase("destroy --yes --skip-preview", "destroy", (log) => arrived(log, "DELETE", /^\/v4\/vpcs\/\d+$/).length === 2);
  const { lines, requests } = await recover();
  expect(lines.filter((l) => l.includes("interrupted while deleting"))).toHaveLength(2);
  expect(requests).toHaveLength(2); // no lookup: the refresh reads each (404: gone)
  await finish("destroy", { vpcs: ["rc-net", "rc-net-2"] });
});

test("recover on a healthy stack changes nothing and sends nothing", async () => {
  expectExit(await pulumi("up --yes --skip-preview", "vpc"), 0);
  const statePath = path.join(base, "state/.pulumi/stacks/recover/dev.json");
  const state = fs.readFileSync(statePath, "utf8");
  emulator.control.clearRequests();
  const result = await recoverCommand("--yes");
  expectExit(result, 0);
  expect(result.stdout.trim()).toBe("Nothing to recover: stack dev has no pending operations and no lock.");
  expect(emulator.control.listRequests()).toEqual([]);
  expect(fs.readFileSync(statePath, "utf8")).toBe(state);
  expectExit(await pulumi("destroy --yes --skip-preview", "vpc"), 0);
});
