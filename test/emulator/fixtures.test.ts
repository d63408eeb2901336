/**
 * Every recorded exchange in `test/fixtures` (subfolders included) replayed against the
 * emulator. Each fixture's method and path find its sdk endpoint (`findEndpoint`); the areas'
 * replay modules (`core/replays.ts`, `services/<name>/replays.ts`) give the emulator's counterpart;
 * the replay's request must reach that endpoint (or the one its entry names, with the reason); and
 * the answer must match the recording: the same status, exactly the recorded error body, the same
 * keys recursively (through nested objects and the first item of arrays) apart from documented
 * differences, each explained where it is listed. A fixture without a replay fails the suite
 * unless `NOT_REPLAYED` says why.
 */
import type { EmulatorOptions } from "../../emulator";
import { findEndpoint } from "../../sdk/endpoints";
import { expectMatchesRecording, fixtureNames, load, shapeDifferences } from "../support/fixtures";
import { type TestEmulator, startTestEmulator } from "./helpers";
import type { ReplayEntry, ReplayModule } from "./replay";
import { coreReplays } from "./core/replays";
import { regionReplays } from "./services/regions/replays";
import { vpcReplays } from "./services/vpcs/replays";
import { eventReplays } from "./services/events/replays";
import { supportReplays } from "./services/support/replays";
import { databaseReplays } from "./services/databases/replays";
import { firewallReplays } from "./services/firewalls/replays";
import { domainReplays } from "./services/domains/replays";
import { ipReplays } from "./services/ips/replays";
import { vlanReplays } from "./services/vlans/replays";
import { imageReplays } from "./services/images/replays";

const MODULES: readonly ReplayModule[] = [
  coreReplays,
  regionReplays,
  vpcReplays,
  eventReplays,
  supportReplays,
  databaseReplays,
  firewallReplays,
  domainReplays,
  ipReplays,
  vlanReplays,
  imageReplays,
];

const LATER_PLATFORM =
  "a later platform's database record (`members`, `platform`, `hosts.standby`); the emulator mirrors 4.174, the sdk parses both";

/** Recordings the emulator does not replay, and why. */
const NOT_REPLAYED: Record<string, string> = {
  "database_instance.list.current.json": LATER_PLATFORM,
  "database_mysql.create.current.json": LATER_PLATFORM,
  "database_mysql.get.current.json": LATER_PLATFORM,
  "database_mysql.ssl.current.json": LATER_PLATFORM,
  "database_postgresql.get.current.json": LATER_PLATFORM,
  "error.400.busy.json":
    "POST /compute/instances/{id}/disks: the emulator serves no disk endpoints; its instance actions answer this reason mid-way (test/emulator/services/computes)",
  "error.400.multiple_errors.json":
    "PUT /vpcs/{vpcId} with custom `ipv4` ranges (a later API): 4.174 refuses `ipv4` as unknown and words the label rule otherwise",
  "error.503.not_yet_available.json": "GET /lke/clusters/{id}/kubeconfig: Kubernetes is outside the emulator",
  "profile_token.create.json": "POST /profile/tokens: the emulator's tokens come from its control API (POST /__emulator/tokens)",
  "profile_token.create.no_expiry.json": "as above",
  "profile_token.get.json": "GET /profile/tokens/{tokenId}: as above",
};

/** Each area's recordings, the modules that replay them, and how many there are. */
const AREAS: Array<{ fixtures: RegExp; modules: string[]; count: number | { atLeast: number } }> = [
  { fixtures: /^(region|region_availability|vpc|subnet|vpc_ip|event)\./, modules: ["regions", "vpcs", "events"], count: { atLeast: 20 } },
  { fixtures: /^database_(?!.*\.current\.)/, modules: ["databases"], count: { atLeast: 30 } },
  { fixtures: /^domain(_record)?\./, modules: ["domains"], count: 15 },
  { fixtures: /^(firewall|firewall_device|firewall_rules)\.|^error\.404\.firewall_device\.json$/, modules: ["firewalls"], count: 13 },
  { fixtures: /^image\./, modules: ["images"], count: 8 },
  { fixtures: /^(ip|ipv6_range|vlan)\.|^error\.\d+\.ip[._]|^unrecorded\/ipv6_pool\./, modules: ["ips", "vlans"], count: { atLeast: 17 } },
  { fixtures: /^unrecorded\/support_ticket\./, modules: ["support"], count: 2 },
];

/**
 * The emulators the modules need, one per set of options, started by the first test that needs
 * one. The replays close over a stand-in that forwards to it, so they can be listed before it runs.
 */
class LateEmulator {
  private running: TestEmulator | undefined;
  private starting: Promise<TestEmulator> | undefined;
  readonly emu = new Proxy({} as TestEmulator, {
    get: (_target, key) => {
      if (!this.running) throw new Error("the emulator is not running yet");
      const value = (this.running as unknown as Record<PropertyKey, unknown>)[key];
      return typeof value === "function" ? value.bind(this.running) : value;
    },
  });

  constructor(private readonly options: EmulatorOptions) {}

  async ready(): Promise<TestEmulator> {
    this.starting ??= startTestEmulator(this.options).then((emu) => (this.running = emu));
    return this.starting;
  }

  async close(): Promise<void> {
    if (this.starting) await (await this.starting).close();
  }
}

const emulators = new Map<string, LateEmulator>();
function emulatorFor(options: EmulatorOptions = {}): LateEmulator {
  const key = JSON.stringify(options);
  if (!emulators.has(key)) emulators.set(key, new LateEmulator(options));
  return emulators.get(key)!;
}
afterAll(async () => {
  for (const emulator of emulators.values()) await emulator.close();
});

interface Case {
  name: string;
  module: ReplayModule;
  emulator: LateEmulator;
  entry: ReplayEntry;
}

const CASES: Case[] = MODULES.flatMap((module) => {
  const emulator = emulatorFor(module.options);
  return Object.entries(module.replays(emulator.emu)).map(([name, replay]) => ({
    name,
    module,
    emulator,
    entry: typeof replay === "function" ? { replay } : replay,
  }));
});
const replayed = new Set(CASES.map((c) => c.name));
const ALL = fixtureNames();

describe("every recorded exchange has its emulator counterpart", () => {
  test("every fixture has a replay, or is listed with the reason it has none", () => {
    expect(ALL.length).toBeGreaterThanOrEqual(126);
    expect(ALL.filter((name) => !replayed.has(name) && !(name in NOT_REPLAYED))).toEqual([]);
    expect(Object.keys(NOT_REPLAYED).filter((name) => replayed.has(name) || !ALL.includes(name))).toEqual([]);
  });

  test.each(AREAS.map((area) => [area.modules.join(", "), area] as const))("the %s replays cover their area's fixtures", (_m, area) => {
    const inArea = ALL.filter((name) => area.fixtures.test(name));
    if (typeof area.count === "number") expect(inArea).toHaveLength(area.count);
    else expect(inArea.length).toBeGreaterThanOrEqual(area.count.atLeast);
    const covered = new Set(CASES.filter((c) => area.modules.includes(c.module.name)).map((c) => c.name));
    expect(inArea.filter((name) => !covered.has(name))).toEqual([]);
  });

  const titled = CASES.map((c) => {
    const endpoint = findEndpoint(load(c.name).method, load(c.name).path)?.endpoint.name ?? "no sdk endpoint";
    return [`${c.name} → ${endpoint} (${c.module.name})`, c] as const;
  });
  test.each(titled)("%s", async (_title, { name, module, emulator, entry }) => {
    const emu = await emulator.ready();
    emu.control.reset();
    const fixture = load(name);
    const own = findEndpoint(fixture.method, fixture.path)?.endpoint;
    const response = await entry.replay(fixture);

    // The replay asked the recording's endpoint, or says which one instead and why.
    if (entry.elsewhere) expect(entry.elsewhere.endpoint).not.toBe(own);
    const expected = entry.elsewhere?.endpoint ?? own;
    const last = emu.control.listRequests().at(-1);
    const reached = last && findEndpoint(last.method, last.path.replace(/^\/v4/, ""))?.endpoint;
    expect(reached?.name ?? "no request").toBe(expected?.name ?? "an endpoint named by `elsewhere`");

    const documented = entry.documented ?? [];
    if (module.compare) module.compare(name, response, fixture, documented);
    else expectMatchesRecording(response, fixture, [...documented]);
  });
});

describe("recorded details", () => {
  const details = MODULES.flatMap((module) => {
    const emulator = emulatorFor(module.options);
    return Object.entries(module.details?.(emulator.emu) ?? {}).map(([title, check]) => [title, emulator, check] as const);
  });
  test.each(details)("%s", async (_title, emulator, check) => {
    const emu = await emulator.ready();
    emu.control.reset();
    await check();
  });
});

test("the shape comparison itself notices missing, extra and nested keys", () => {
  expect(shapeDifferences({ a: 1, b: { c: 1 } }, { a: 2, b: { c: 2 } })).toEqual([]);
  expect(shapeDifferences({ a: 1 }, { a: 1, b: 2 })).toEqual(["$.b: missing"]);
  expect(shapeDifferences({ a: [{ x: 1, y: 2 }] }, { a: [{ x: 1 }] })).toEqual(["$.a[0].y: not in the recording"]);
  expect(shapeDifferences({ a: { b: 1 } }, { a: { c: 1 } })).toEqual(["$.a.c: missing", "$.a.b: not in the recording"]);
});
