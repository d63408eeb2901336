/**
 * The contract test with the original API's official TypeScript client, `@linode/api-v4`
 * (pinned in package.json): its own functions drive a whole life against the emulator over HTTP,
 * every answer is checked against the client's declared types (`api-v4/shapes.ts`), and every
 * refusal the client sees is recorded (`api-v4/transport.ts`). The life runs three times, each on a
 * fresh emulator: as the client sends it (`/v4beta` for regions, VPCs, firewalls, databases,
 * events…), with every request forced onto `/v4`, and against the strict emulator, which may
 * refuse only the fields newer than API 4.174 that the life sends on purpose (`laterField`).
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import { COMPUTE_LIFE_ENDPOINTS, endpointOf } from "./endpoint-of";
import { sampleZoneRecords, startZoneServer, type ZoneServer } from "../support/dns-server";
import { lifeContext, type LifeContext } from "./api-v4/life/context";
import { runLife, type LifeOutcome } from "./api-v4/life";
import { attachClient, type BaseMode, type Transport } from "./api-v4/transport";

/** Emulated time runs this much faster: provisioning (15–30 min) takes seconds. */
const TIME_SCALE = 600;
const IMPORTED_ZONE = "imported.api-v4.example";

/** Each area's endpoints, at least one per behaviour the life drives (`/v4` paths, as the request log records them). */
const REQUIRED_ENDPOINTS = [
  "GET /v4/regions",
  "GET /v4/regions/{regionId}",
  "GET /v4/regions/availability",
  "GET /v4/regions/{regionId}/availability",
  "POST /v4/vpcs",
  "PUT /v4/vpcs/{vpcId}",
  "GET /v4/vpcs/ips",
  "GET /v4/vpcs/{vpcId}/ips",
  "POST /v4/vpcs/{vpcId}/subnets",
  "PUT /v4/vpcs/{vpcId}/subnets/{vpcSubnetId}",
  "DELETE /v4/vpcs/{vpcId}/subnets/{vpcSubnetId}",
  "DELETE /v4/vpcs/{vpcId}",
  "POST /v4/networking/firewalls",
  "PUT /v4/networking/firewalls/{firewallId}",
  "GET /v4/networking/firewalls/{firewallId}/rules",
  "PUT /v4/networking/firewalls/{firewallId}/rules",
  "POST /v4/networking/firewalls/{firewallId}/devices",
  "DELETE /v4/networking/firewalls/{firewallId}/devices/{deviceId}",
  "DELETE /v4/networking/firewalls/{firewallId}",
  "GET /v4/networking/ips",
  "GET /v4/networking/ips/{address}",
  "PUT /v4/networking/ips/{address}",
  "POST /v4/networking/ips",
  "POST /v4/networking/ips/assign",
  "POST /v4/networking/ips/share",
  "GET /v4/networking/ipv6/pools",
  "POST /v4/networking/ipv6/ranges",
  "GET /v4/networking/ipv6/ranges/{range}",
  "DELETE /v4/networking/ipv6/ranges/{range}",
  "POST /v4/domains",
  "PUT /v4/domains/{domainId}",
  "POST /v4/domains/{domainId}/records",
  "PUT /v4/domains/{domainId}/records/{recordId}",
  "DELETE /v4/domains/{domainId}/records/{recordId}",
  "GET /v4/domains/{domainId}/zone-file",
  "POST /v4/domains/{domainId}/clone",
  "POST /v4/domains/import",
  "DELETE /v4/domains/{domainId}",
  "GET /v4/databases/types",
  "GET /v4/databases/types/{typeId}",
  "GET /v4/databases/engines",
  "GET /v4/databases/engines/{engineId}",
  "GET /v4/databases/instances",
  "POST /v4/databases/mysql/instances",
  "POST /v4/databases/postgresql/instances",
  "PUT /v4/databases/mysql/instances/{instanceId}",
  "PUT /v4/databases/postgresql/instances/{instanceId}",
  "GET /v4/databases/mysql/instances/{instanceId}/credentials",
  "POST /v4/databases/postgresql/instances/{instanceId}/credentials/reset",
  "GET /v4/databases/mysql/instances/{instanceId}/ssl",
  "GET /v4/databases/postgresql/instances/{instanceId}/backups/{backupId}",
  "POST /v4/databases/mysql/instances/{instanceId}/patch",
  "DELETE /v4/databases/mysql/instances/{instanceId}",
  "DELETE /v4/databases/postgresql/instances/{instanceId}",
  "POST /v4/images/upload",
  "POST /v4/images",
  "GET /v4/images/{imageId}",
  "PUT /v4/images/{imageId}",
  "DELETE /v4/images/{imageId}",
  ...COMPUTE_LIFE_ENDPOINTS,
  "GET /v4/compute/instances",
  "GET /v4/compute/instances/{computeId}/configs",
  "POST /v4/support/tickets",
  "POST /v4/support/tickets/{ticketId}/replies",
  "GET /v4/support/tickets/{ticketId}/replies",
  "POST /v4/support/tickets/{ticketId}/close",
  "GET /v4/account/events",
  "GET /v4/account/events/{eventId}",
  "POST /v4/account/events/{eventId}/seen",
  "POST /v4/account/events/{eventId}/read",
];

/**
 * Event actions the life causes that the client's `EventActionKeys` does not name: the spec's
 * `dns_*` names (api-facts P6-1: OAS 4.174 and linodego; Cloud Manager's list has `domain_*` names
 * and only `dns_record_create/delete`, `dns_zone_create/delete`).
 */
const ACTIONS_THE_CLIENT_LACKS = ["dns_record_update", "dns_zone_import", "dns_zone_update"];

/** What the strict emulator refuses: the later fields the life sends (`laterField`), each one an `Unknown field`. */
const STRICT_REFUSALS = ["PUT /v4/images/{imageId} 400 Unknown field: tags"];

// Three lives of a few hundred requests each, with databases provisioning at 600×.
jest.setTimeout(5 * 60_000);

let zoneServer: ZoneServer;
beforeAll(async () => {
  zoneServer = await startZoneServer({
    zone: IMPORTED_ZONE,
    soa: {
      mname: "ns1.elsewhere.example",
      rname: "hostmaster.elsewhere.example",
      serial: 1,
      refresh: 3600,
      retry: 600,
      expire: 604800,
      minimum: 300,
    },
    records: [
      { type: "NS", name: IMPORTED_ZONE, ttl: 3600, class: "IN", data: "ns1.elsewhere.example" },
      ...sampleZoneRecords(IMPORTED_ZONE, 12),
    ],
  });
});
afterAll(() => zoneServer?.close());

interface Run {
  outcome: LifeOutcome;
  ctx: LifeContext;
  transport: Transport;
  endpoints: string[];
  logged: number;
}

async function live(mode: BaseMode, strict: boolean): Promise<Run> {
  const emu: RunningEmulator = await startEmulator({ port: 0, timeScale: TIME_SCALE, strict, zoneTransferPort: zoneServer.port });
  const transport = attachClient(new URL(emu.url).origin, emu.token, mode);
  try {
    const ctx = lifeContext(emu, { zone: IMPORTED_ZONE, host: zoneServer.host }, strict);
    const outcome = await runLife(ctx);
    const requests = emu.control.listRequests();
    const endpoints = [...new Set(requests.map((r) => endpointOf(r.method, r.path)))].sort();
    return { outcome, ctx, transport, endpoints, logged: requests.length };
  } finally {
    transport.detach();
    await emu.close();
  }
}

function report(name: string, run: Run): void {
  const bases = run.transport.sent.reduce<Record<string, number>>((n, s) => ({ ...n, [s.base]: (n[s.base] ?? 0) + 1 }), {});
  console.log(
    `api-v4 ${name}: ${run.transport.sent.length} requests (${JSON.stringify(bases)}), ${run.endpoints.length} endpoints, ` +
      `${run.transport.refusals.length} refused\n` +
      [...run.outcome.failures, ...run.ctx.mismatches, ...run.transport.refusals.map((r) => JSON.stringify(r))].join("\n"),
  );
}

function expectWholeLife(run: Run): void {
  expect(run.outcome.failures).toEqual([]);
  expect(run.endpoints.filter((e) => e.includes("(unknown)"))).toEqual([]);
  expect(run.endpoints).toEqual(expect.arrayContaining(REQUIRED_ENDPOINTS));
  // Every request the client sent reached the emulator's log, and nothing else did.
  expect(run.logged).toBe(run.transport.sent.length);
  expect(run.ctx.mismatches).toEqual([]);
}

describe.each([
  ["as the client sends it", "as-sent"],
  ["forced onto /v4", "v4"],
] as const)("@linode/api-v4 0.158.0, %s, default emulator", (_name, mode) => {
  let run: Run;
  beforeAll(async () => {
    run = await live(mode, false);
    report(mode, run);
  });

  test("the whole life runs, every answer has the client's declared shape, every area was reached", () => expectWholeLife(run));

  test("no request was refused", () => expect(run.transport.refusals).toEqual([]));

  test("the requests went to the bases this run asks for", () => {
    const bases = new Set(run.transport.sent.map((s) => s.base));
    expect([...bases].sort()).toEqual(mode === "v4" ? ["v4"] : ["v4", "v4beta"]);
  });

  test("every event action is one the client declares, apart from the spec's dns_* names it lacks", () =>
    expect(run.outcome.unknownActions).toEqual(ACTIONS_THE_CLIENT_LACKS));
});

describe("@linode/api-v4 0.158.0 against the strict emulator", () => {
  let run: Run;
  beforeAll(async () => {
    run = await live("as-sent", true);
    report("strict", run);
  });

  test("the whole life runs apart from the later fields' steps", () => expectWholeLife(run));

  test("the only refusals are the fields newer than API 4.174 that the life sends", () => {
    expect(run.ctx.laterFields.map((f) => f.field)).toEqual(["tags (PUT /images/{imageId})"]);
    const refused = run.transport.refusals.map((r) => `${endpointOf(r.method, r.path)} ${r.status} ${r.reasons.join("; ")}`);
    expect(refused).toEqual(STRICT_REFUSALS);
  });
});
