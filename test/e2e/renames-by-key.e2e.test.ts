/**
 * Renames of resources without a label, through the `pulumi` CLI from a shell (a JavaScript
 * project, `pulumi-compute` linked to this build) against the emulator over HTTP, as issue 57
 * reproduced them: a `DomainRecord` renamed from `db-name` to `db-cname` planned a create and a
 * delete, and `up` failed half-way offering `recover` and `adoptId`.
 *
 * For a domain record, a firewall rule and a database allow-list entry, one after another:
 * - renamed without aliases, the preview is refused naming the old resource and its `aliases`
 *   (never `recover` or `adoptId`), and sends no write;
 * - with the `aliases` as advised, the preview plans no create and no delete, and `up` writes
 *   nothing and records the new name;
 * the objects stay as they were throughout.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { EMULATED_CLOCK_ENV } from "../../provider/engine/time";
import { startClockService, type ClockService } from "../../provider/testing/clock-service";
import { plannedSteps } from "../support/own-pulumi";
import { runProcess, type ProcessResult } from "../support/process";
import { writesSince } from "../support/requests";
import { expectExit, linkedProject, linkedProjectEnv } from "../support/user-shell";

jest.setTimeout(900_000);

/**
 * The program: each of the three kinds under its old name, or (`RENAMED` lists them) its new one,
 * with the alias of the old name where `ALIASED` lists it. The database is the account's (its id
 * in `DB_ID`), as a shared database usually is another stack's.
 */
const PROGRAM = `
const compute = require("pulumi-compute");
const renamed = (process.env.RENAMED || "").split(",");
const aliased = (process.env.ALIASED || "").split(",");
const named = (kind, old, now) => (renamed.includes(kind) ? now : old);
const opts = (kind, old) => (aliased.includes(kind) ? { aliases: [{ name: old }] } : {});

const zone = new compute.Domain("zone", { domain: "rename.example", type: "master", soaEmail: "admin@rename.example" });
new compute.DomainRecord(
  named("record", "db-name", "db-cname"),
  { domainId: zone.id, type: "CNAME", name: "db", target: "pg.rename.example" },
  opts("record", "db-name"),
);
const edge = new compute.Firewall("edge", { label: "rename-edge", inboundPolicy: "DROP", outboundPolicy: "ACCEPT" });
new compute.FirewallRule(
  named("rule", "https", "https-from-lb"),
  { firewallId: edge.id, direction: "inbound", label: "app-https", action: "ACCEPT", protocol: "TCP", ports: "443", addresses: { ipv4: ["10.0.0.0/24"] } },
  opts("rule", "https"),
);
new compute.DatabaseAllowListEntry(
  named("entry", "app-to-db", "app-db"),
  { engine: "mysql", databaseId: Number(process.env.DB_ID), address: "203.0.113.7" },
  opts("entry", "app-to-db"),
);
`;

let emulator: RunningEmulator;
let client: ComputeClient;
let clock: ClockService;
let base: string;
let project: string;
let env: NodeJS.ProcessEnv;
let dbId: number;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  const db = await client.databases.mysql.create({ label: "shared-db", region: "us-iad", type: "g6-nanode-1", engine: "mysql/8.0.30" });
  emulator.control.databases.setStatus(db.id, { status: "active" });
  dbId = db.id;
  base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-renames-by-key-"));
  project = path.join(base, "project");
  fs.mkdirSync(path.join(base, "state"));
  linkedProject(project, { name: "renames", backendUrl: `file://${base}/state`, program: PROGRAM });
  // The allow list's database is `updating` for a minute of the API's time after each write, which
  // the provider waits out: the provider's waits jump the emulator's clock instead of sleeping
  // (its clock service, as `emulatedStack`'s), two minutes of real waiting less.
  clock = await startClockService(emulator.emulator.clock);
  env = linkedProjectEnv(base, { [EMULATED_CLOCK_ENV]: clock.url });
  expectExit(await pulumi("stack init dev", []), 0);
  expectExit(await pulumi(`config set compute:apiUrl ${emulator.url}`, []), 0);
  expectExit(await pulumi(`config set --secret compute:token ${emulator.token}`, []), 0);
});

afterAll(async () => {
  await client?.close();
  await clock?.close();
  await emulator?.close();
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

/** `pulumi <args>` in the project, with the kinds in `renamed` under their new names and those in `aliased` aliased. */
function pulumi(args: string, renamed: string[], aliased: string[] = []): Promise<ProcessResult> {
  return runProcess("pulumi", args.split(" "), {
    cwd: project,
    env: { ...env, RENAMED: renamed.join(","), ALIASED: aliased.join(","), DB_ID: String(dbId) },
    timeoutMs: 300_000,
  });
}

/** The objects the program manages, as the API has them. */
async function objects() {
  const [zone] = await client.domains.listAll({ filter: { domain: "rename.example" } });
  const [edge] = await client.networking.firewalls.listAll({ filter: { label: "rename-edge" } });
  return {
    records: (await client.domains.records.listAll(zone!.id)).map((r) => `${r.type} ${r.name} ${r.target}`),
    rules: ((await client.networking.firewalls.rules.get(edge!.id)).inbound ?? []).map((r) => r.label),
    allowList: (await client.databases.mysql.get(dbId)).allow_list,
  };
}

const names = () =>
  (
    JSON.parse(fs.readFileSync(path.join(base, "state/.pulumi/stacks/renames/dev.json"), "utf8")) as {
      checkpoint: { latest: { resources: Array<{ urn: string }> } };
    }
  ).checkpoint.latest.resources.map((r) => r.urn.slice(r.urn.lastIndexOf("::") + 2));

test("a domain record, a firewall rule and an allow-list entry renamed: each refused at preview with its aliases; followed, nothing changes", async () => {
  expectExit(await pulumi("up --yes --skip-preview", []), 0);
  const deployed = await objects();
  expect(deployed).toEqual({ records: ["CNAME db pg.rename.example"], rules: ["app-https"], allowList: ["203.0.113.7"] });

  const renames = [
    {
      kind: "record",
      from: "db-name",
      to: "db-cname",
      field: "target",
      taken: /CNAME name "db" and target "pg.rename.example" is taken by domain record \d+/,
    },
    {
      kind: "rule",
      from: "https",
      to: "https-from-lb",
      field: "label",
      taken: /inbound label "app-https" on firewall \d+ is taken by firewall rule \d+:inbound:app-https/,
    },
    {
      kind: "entry",
      from: "app-to-db",
      to: "app-db",
      field: "address",
      taken: /address "203.0.113.7" on MySQL database \d+ is taken by database allow list entry mysql:\d+:203.0.113.7\/32/,
    },
  ];
  const done: string[] = [];
  for (const { kind, from, to, field, taken } of renames) {
    const renamed = [...done, kind];
    let mark = emulator.control.listRequests().length;
    const refused = await pulumi("preview", renamed, done);
    expectExit(refused, "fails");
    expect(writesSince(emulator, mark)).toEqual([]);
    const message = refused.out.replace(/\s+/g, " ");
    // In the engine's words, as docs/guides/refactoring.md shows it.
    expect(message).toMatch(new RegExp(`resource '${to}': property ${field} value \\{[^}]*\\} has a problem: `));
    expect(message).toMatch(taken);
    expect(message).toContain(`which this stack manages as resource "${from}"`);
    expect(message).toContain(`add aliases: [{ name: "${from}" }] to this resource's options`);
    expect(message).toContain("pulumi state rename");
    expect(message).not.toMatch(/adoptId|recover/);

    // Followed as written: no create, no delete; `up` writes nothing and records the new name.
    mark = emulator.control.listRequests().length;
    const preview = await pulumi("preview --json", renamed, renamed);
    expectExit(preview, 0);
    expect(Object.values(plannedSteps(preview.stdout)).filter((op) => op === "create" || op === "delete")).toEqual([]);
    expectExit(await pulumi("up --yes --skip-preview", renamed, renamed), 0);
    expect(writesSince(emulator, mark)).toEqual([]);
    expect(names()).toContain(to);
    expect(names()).not.toContain(from);
    done.push(kind);
  }
  expect(await objects()).toEqual(deployed);
  expectExit(await pulumi("preview --expect-no-changes", done, done), 0);
  expectExit(await pulumi("destroy --yes --skip-preview", done, done), 0);
  expect(await client.domains.listAll({ filter: { domain: "rename.example" } })).toEqual([]);
  expect((await client.databases.mysql.get(dbId)).allow_list).toEqual([]);
});
