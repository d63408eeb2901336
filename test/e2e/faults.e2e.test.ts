/**
 * Faults end to end through the real Pulumi engine against the emulator over HTTP. One stack of
 * every kind that creates through the API (VPC, subnet, firewall, domain, two records, a MySQL
 * database, an uploaded image) lives through its whole life while the emulator injects faults:
 *
 * - the matrix: for each fault kind, that fault at the step where it hurts — each create's POST,
 *   the lookup that follows an ambiguous create, the wait polls of the database and the image,
 *   each kind's update and each kind's delete;
 * - the random mix: about 20% of every `/v4` request fails (429, 500, 502, 503, reset, reset
 *   after processing), over three seeds, through up → preview → refresh → destroy.
 *
 * Every command must succeed on its first attempt; the emulator's state, sampled all along, must
 * never hold more than one object per resource (no twin), and nothing may be left after destroy.
 * Faults fired, retries made, adoptions and re-sent creates are reported.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import type { FaultKind, FaultRuleInput } from "../../emulator/core/faults";
import { Domain, DomainRecord, Firewall, Image, MysqlDatabase, Vpc, VpcSubnet } from "../../provider";
import { writeGzipImage } from "../../examples/support/gzip-image";
import { createTestStack, eventRecorder, type TestStack } from "../support/engine";

jest.setTimeout(600_000);

/** Provisioning (15–30 min) and image processing (1 min) in a few seconds. */
const TIME_SCALE = 3000;

let emulator: RunningEmulator;
let folder: string;
let imageFile: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, timeScale: TIME_SCALE });
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "pc-e2e-faults-"));
  imageFile = (await writeGzipImage(path.join(folder, "disk.img.gz"), { compressedBytes: 1024 * 1024, seed: 3 })).file;
});

afterAll(async () => {
  await emulator?.close();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

/** What the program declares; `changed` is the second version, which updates every kind in place. */
function program(prefix: string, variant: { changed: boolean }) {
  return async () => {
    const { changed } = variant;
    const vpc = new Vpc("net", { label: `${prefix}-net`, region: "us-iad", description: changed ? "updated" : "" });
    new VpcSubnet("web", { vpcId: vpc.id, label: changed ? "frontend" : "web", ipv4: "10.0.1.0/24" });
    new Firewall("fw", {
      label: `${prefix}-fw`,
      inboundPolicy: "DROP",
      outboundPolicy: "ACCEPT",
      inbound: [{ action: "ACCEPT", protocol: "TCP", ports: changed ? "443" : "22", addresses: { ipv4: ["192.0.2.0/24"] } }],
    });
    const zone = new Domain("zone", {
      domain: `${prefix}.example`,
      type: "master",
      soaEmail: "admin@e2e.example",
      ttlSec: changed ? 3600 : 300,
    });
    new DomainRecord("www", { domainId: zone.id, type: "A", name: "www", target: "192.0.2.10", ttlSec: changed ? 3600 : 300 });
    new DomainRecord("spf", { domainId: zone.id, type: "TXT", name: "", target: changed ? "v=spf1 mx -all" : "v=spf1 -all" });
    new MysqlDatabase("db", {
      label: `${prefix}-db`,
      region: "us-iad",
      type: "g6-nanode-1",
      engineId: "mysql/8.0.30",
      allowList: changed ? ["203.0.113.0/24"] : ["203.0.113.1"],
    });
    const image = new Image("img", { filePath: imageFile, region: "us-iad", label: `${prefix}-img`, description: changed ? "v2" : "v1" });
    return { imageId: image.id };
  };
}

/** How many of each object the program makes. */
const EXPECTED = { vpcs: 1, subnets: 1, firewalls: 1, domains: 1, records: 2, databases: 1, images: 1 };
type Counts = typeof EXPECTED;
const NOTHING: Counts = { vpcs: 0, subnets: 0, firewalls: 0, domains: 0, records: 0, databases: 0, images: 0 };

/** The objects of each kind in the emulator's state, read in-process (no request, so no fault). */
function countObjects(): Counts {
  const state = emulator.control.dumpState();
  const account = state.accounts[state.primaryAccount] as unknown as Record<string, Array<Record<string, unknown[]>>>;
  const list = (key: string) => account[key] ?? [];
  return {
    vpcs: list("vpcs").length,
    subnets: list("vpcs").reduce((n, v) => n + v.subnets!.length, 0),
    firewalls: list("firewalls").length,
    domains: list("domains").length,
    records: list("domains").reduce((n, d) => n + d.records!.length, 0),
    databases: list("databases").length,
    images: list("images").length,
  };
}

/** Samples the state every 50 ms and keeps the highest count of each kind. */
function twinWatch() {
  const highest: Counts = { ...NOTHING };
  const sample = () => {
    const now = countObjects();
    for (const key of Object.keys(highest) as Array<keyof Counts>) highest[key] = Math.max(highest[key], now[key]);
  };
  const timer = setInterval(sample, 50);
  return {
    highest,
    stop: () => {
      clearInterval(timer);
      sample();
    },
  };
}

/** What the provider said while riding out faults, from the engine's diagnostics. */
interface Tally {
  retries: number;
  adopted: number;
  resent: number;
}
const tally = (diagnostics: string): Tally => ({
  retries: (diagnostics.match(/^retrying /gm) ?? []).length,
  adopted: (diagnostics.match(/but had created it; adopted/g) ?? []).length,
  resent: (diagnostics.match(/it did not land; sending it again|deleting it and creating again/g) ?? []).length,
});
const add = (a: Tally, b: Tally): Tally => ({
  retries: a.retries + b.retries,
  adopted: a.adopted + b.adopted,
  resent: a.resent + b.resent,
});

const firedTotal = () => emulator.control.listFaults().reduce((n, f) => n + f.fired, 0);

async function newStack(name: string, variant: { changed: boolean }): Promise<TestStack> {
  return createTestStack({ name, apiUrl: emulator.url, token: emulator.token, program: program(name, variant) });
}

/** Creates (POST) of every kind. */
const CREATES = [
  "/v4/vpcs",
  "/v4/vpcs/*/subnets",
  "/v4/networking/firewalls",
  "/v4/domains",
  "/v4/domains/*/records",
  "/v4/databases/mysql/instances",
  "/v4/images/upload",
];
/** The natural-key lookups: the first one (before the create) passes, the one after an ambiguous create is hit. */
const LOOKUPS = [
  "/v4/vpcs",
  "/v4/vpcs/*/subnets",
  "/v4/networking/firewalls",
  "/v4/domains",
  "/v4/domains/*/records",
  "/v4/databases/mysql/instances",
  "/v4/images",
];
/** The wait polls (GET) of the database and the image. */
const POLLS = ["/v4/databases/mysql/instances/*", "/v4/images/*"];
/** Each kind's own path (regexes, so a VPC's does not also match its subnets'). */
const OWN = {
  vpc: "^/v4/vpcs/\\d+$",
  subnet: "^/v4/vpcs/\\d+/subnets/\\d+$",
  firewall: "^/v4/networking/firewalls/\\d+$",
  firewallRules: "^/v4/networking/firewalls/\\d+/rules$",
  domain: "^/v4/domains/\\d+$",
  record: "^/v4/domains/\\d+/records/\\d+$",
  database: "^/v4/databases/mysql/instances/\\d+$",
  image: "^/v4/images/private%2F\\d+$",
};
/** What the changed program updates (a firewall's rules have their own PUT). */
const UPDATES = [OWN.vpc, OWN.subnet, OWN.firewallRules, OWN.domain, OWN.record, OWN.database, OWN.image];
const DELETES = [OWN.vpc, OWN.subnet, OWN.firewall, OWN.domain, OWN.record, OWN.database, OWN.image];

/** A rule of the matrix; a 429 asks for no wait, so the matrix stays quick. */
const rule = (kind: FaultKind, method: string, pathPattern: string, more: Partial<FaultRuleInput> = {}): FaultRuleInput => ({
  kind,
  method,
  pathPattern,
  count: 1,
  ...(kind === "429" ? { retryAfterSeconds: 0 } : {}),
  ...more,
});

/** Faults that leave it unknown whether a POST acted, so a lookup follows. */
const AMBIGUOUS: readonly FaultKind[] = ["500", "502", "reset", "reset-after"];

const report: string[] = [];
afterAll(() => console.log(`faults end to end:\n${report.join("\n")}`));

describe.each(["429", "500", "502", "503", "reset", "reset-after"] as FaultKind[])("a %s at every step", (kind) => {
  test("create, lookup, wait polls, update and delete of every kind succeed at once, with one object each", async () => {
    emulator.control.reset();
    emulator.control.setClock({ scale: TIME_SCALE });
    const name = `m-${kind.replace(/[^a-z0-9]/g, "")}`;
    const variant = { changed: false };
    const testStack = await newStack(name, variant);
    const watch = twinWatch();
    let seen: Tally = { retries: 0, adopted: 0, resent: 0 };
    try {
      // up: each create's POST, the lookup after it, the polls of the waits
      const created = [
        ...CREATES.map((p) => emulator.control.addFault(rule(kind, "POST", p))),
        ...POLLS.map((p) => emulator.control.addFault(rule(kind, "GET", p, { count: 2 }))),
      ];
      const lookups = LOOKUPS.map((p) => emulator.control.addFault(rule(kind, "GET", p, { skip: 1 })));
      const up = eventRecorder();
      expect((await testStack.stack.up({ onEvent: up.onEvent })).summary.result).toBe("succeeded");
      seen = add(seen, tally(up.diagnostics()));
      const fired = new Map(emulator.control.listFaults().map((f) => [f.id, f.fired]));
      for (const f of created) expect([f.method, f.pathPattern, fired.get(f.id)]).toEqual([f.method, f.pathPattern, f.count]);
      if (AMBIGUOUS.includes(kind)) {
        for (const f of lookups) expect([f.pathPattern, fired.get(f.id)]).toEqual([f.pathPattern, 1]);
      }
      expect(countObjects()).toEqual(EXPECTED);
      const firedUp = firedTotal();

      // up with every kind changed in place: each update's PUT
      emulator.control.clearFaults();
      const updates = UPDATES.map((p) => emulator.control.addFault(rule(kind, "PUT", p)));
      variant.changed = true;
      const update = eventRecorder();
      const updated = await testStack.stack.up({ onEvent: update.onEvent });
      expect(updated.summary.result).toBe("succeeded");
      expect(updated.summary.resourceChanges).toMatchObject({ update: 8 });
      seen = add(seen, tally(update.diagnostics()));
      expect(emulator.control.listFaults().map((f) => f.fired)).toEqual(updates.map(() => 1));
      const firedUpdate = firedTotal();

      // destroy: each delete
      emulator.control.clearFaults();
      const deletes = DELETES.map((p) => emulator.control.addFault(rule(kind, "DELETE", p)));
      const destroy = eventRecorder();
      expect((await testStack.stack.destroy({ onEvent: destroy.onEvent })).summary.result).toBe("succeeded");
      seen = add(seen, tally(destroy.diagnostics()));
      expect(emulator.control.listFaults().map((f) => f.fired)).toEqual(deletes.map(() => 1));
      watch.stop();
      expect(countObjects()).toEqual(NOTHING);
      expect(watch.highest).toEqual(EXPECTED);
      report.push(
        `  matrix ${kind}: faults fired ${firedUp + firedUpdate + firedTotal()}, retries ${seen.retries}, adopted ${seen.adopted}, creates sent again ${seen.resent}`,
      );
    } finally {
      watch.stop();
      emulator.control.clearFaults();
      // Only after a failure: a stack the test destroyed has nothing left to delete.
      if (countObjects().vpcs > 0) await testStack.stack.destroy().catch(() => undefined);
      testStack.cleanup();
    }
  });
});

/** The mix: each kind about 3.65%, so about 20% of requests fail (1 − (1 − 0.0365)^6 ≈ 0.2). */
const MIX: FaultKind[] = ["429", "500", "502", "503", "reset", "reset-after"];
const MIX_RATE = 1 - Math.pow(0.8, 1 / MIX.length);

test.each([1, 2, 3])("seed %i: 20%% of requests fail, and up → preview → refresh → destroy each succeed at once", async (seed) => {
  emulator.control.reset({ seed });
  emulator.control.setClock({ scale: TIME_SCALE });
  const name = `mix-${seed}`;
  const testStack = await newStack(name, { changed: false });
  const watch = twinWatch();
  let seen: Tally = { retries: 0, adopted: 0, resent: 0 };
  try {
    for (const kind of MIX) {
      emulator.control.addFault({ pathPattern: "/v4/*", kind, rate: MIX_RATE, ...(kind === "429" ? { retryAfterSeconds: 0 } : {}) });
    }
    const up = eventRecorder();
    expect((await testStack.stack.up({ onEvent: up.onEvent })).summary.result).toBe("succeeded");
    expect(countObjects()).toEqual(EXPECTED);
    seen = add(seen, tally(up.diagnostics()));

    const preview = await testStack.stack.preview();
    expect(Object.keys(preview.changeSummary)).toEqual(["same"]);

    const refresh = eventRecorder();
    const refreshed = await testStack.stack.refresh({ onEvent: refresh.onEvent });
    expect(refreshed.summary.result).toBe("succeeded");
    expect(refreshed.summary.resourceChanges).toEqual({ same: 9 });
    seen = add(seen, tally(refresh.diagnostics()));

    const destroy = eventRecorder();
    expect((await testStack.stack.destroy({ onEvent: destroy.onEvent })).summary.result).toBe("succeeded");
    seen = add(seen, tally(destroy.diagnostics()));
    watch.stop();
    expect(countObjects()).toEqual(NOTHING);
    expect(watch.highest).toEqual(EXPECTED);
    const requests = emulator.control.listRequests().length;
    const fired = firedTotal();
    // Each request meets a fault with probability 0.2: the count its seed gives lies within four
    // standard deviations of that rate (a rule that fired too rarely or too often fails here).
    // (About 60 requests a seed: 20% ± 20%, so the lower side is held by "some fired" too.)
    const spread = 4 * Math.sqrt(requests * 0.2 * 0.8);
    expect(fired).toBeGreaterThan(0);
    expect(Math.abs(fired - 0.2 * requests)).toBeLessThanOrEqual(spread);
    report.push(
      `  mix seed ${seed}: ${requests} requests, faults fired ${fired} (${Math.round((fired / requests) * 100)}%), retries ${seen.retries}, adopted ${seen.adopted}, creates sent again ${seen.resent}`,
    );
  } finally {
    watch.stop();
    emulator.control.clearFaults();
    // Only after a failure: a stack the test destroyed has nothing left to delete.
    if (countObjects().vpcs > 0) await testStack.stack.destroy().catch(() => undefined);
    testStack.cleanup();
  }
});
