/**
 * Preview is a promise, through the real engine against the emulator over HTTP, for every resource
 * kind and every input that changes in place (the list comes from the specs: a field without a
 * change below fails the first test).
 *
 * One program holds a subject of every kind, and for each subject one dependent per output it has
 * besides its in-place inputs: a TXT record whose target is a fingerprint of that output, so a
 * dependent changes exactly when the value it reads does. Round by round, each subject changes its
 * next in-place input, and:
 * - the preview plans exactly the changed subjects' updates, and updates of the dependents that read
 *   an output the spec says such an update recomputes (`recomputedBy`), nothing else;
 * - no preview sends a mutating request;
 * - `up` performs exactly the preview's steps, resource by resource and operation by operation;
 * - the next preview is empty.
 * Also: an address added to an allow list reads as its value in `preview --diff`, and an engine
 * version the API does not offer is refused at preview, in the program's words, before any write.
 *
 * All of it through both doors: the dynamic resources (the generated classes) and the provider
 * plugin (`compute:index:<Kind>` resources of the same program, served by `pulumi-resource-compute`).
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { RESOURCE_SPECS } from "../../provider/generated/spec-table";
import type { AnySpec } from "../../provider/engine/spec";
import { exampleImageFile } from "../../examples/support/files";
import { createTestStack, eventRecorder, plannedSteps, type TestStack } from "../support/engine";
import { DOORS, resourceThrough, type Door } from "../support/plugin-resource";
import { writesSince } from "../support/requests";

jest.setTimeout(900_000);

const REGION = "us-iad";
const RDNS_ADDRESS = "198.51.100.40";
type Args = Record<string, unknown>;

/** One subject: its kind, its first arguments, and its in-place changes, one per round, in order. */
interface Subject {
  kind: string;
  base: Args;
  changes: Array<[field: string, value: unknown]>;
  /** Outputs a change gives a new value the preview already knows (check derives them), by changed input. */
  follows?: Record<string, string[]>;
}

const rule = (label: string, ports: string) => ({ label, action: "ACCEPT", protocol: "TCP", ports, addresses: { ipv4: ["0.0.0.0/0"] } });
const window = { frequency: "weekly", duration: 1, hourOfDay: 3, dayOfWeek: 7 };

/** Filled in beforeAll: seeded instances, SLAAC addresses of two instances in another region, the image files, and a subnet for an instance's vpc interface. */
const world = { computes: [] as number[], targets: [] as string[], imageA: "", imageB: "", subnetId: 0 };
/** A region of its own for the range routed by address (an account holds one range per region). */
const TARGET_REGION = "us-ord";

function subjects(): Record<string, Subject> {
  const [fwA, fwB, device, range, range2] = world.computes;
  const [targetA, targetB] = world.targets;
  return {
    vpc: {
      kind: "Vpc",
      base: { label: "truth-vpc", region: REGION, description: "one" },
      changes: [
        ["label", "truth-vpc-2"],
        ["description", "two"],
      ],
    },
    subnet: { kind: "VpcSubnet", base: { label: "web", ipv4: "10.0.1.0/24" }, changes: [["label", "web-2"]] },
    "domain-a": {
      kind: "Domain",
      base: { domain: "a.truth.example", type: "master", soaEmail: "admin@truth.example" },
      changes: [
        ["domain", "a2.truth.example"],
        ["status", "disabled"],
        ["soaEmail", "hostmaster@truth.example"],
        ["masterIps", ["192.0.2.1"]],
        ["axfrIps", ["192.0.2.2"]],
        ["description", "zone a"],
      ],
    },
    "domain-b": {
      kind: "Domain",
      base: { domain: "b.truth.example", type: "master", soaEmail: "admin@truth.example", tags: ["one"] },
      changes: [
        ["group", "team"],
        ["tags", ["one", "two"]],
        ["refreshSec", 3600],
        ["retrySec", 3600],
        ["expireSec", 2419200],
        ["ttlSec", 3600],
      ],
    },
    "record-a": {
      kind: "DomainRecord",
      base: { type: "A", name: "www", target: "192.0.2.10", ttlSec: 300 },
      changes: [
        ["name", "www2"],
        ["target", "192.0.2.11"],
        ["ttlSec", 3600],
      ],
    },
    "record-srv": {
      kind: "DomainRecord",
      base: { type: "SRV", service: "sip", protocol: "tcp", priority: 10, weight: 5, port: 5060, target: "sip.records.truth.example" },
      changes: [
        ["priority", 20],
        ["weight", 10],
        ["port", 5061],
        ["protocol", "udp"],
        ["service", "xmpp"],
      ],
    },
    "record-caa": {
      kind: "DomainRecord",
      base: { type: "CAA", name: "", tag: "issue", target: "letsencrypt.org" },
      changes: [["tag", "issuewild"]],
    },
    set: {
      kind: "DomainRecordSet",
      base: { records: [{ type: "A", name: "www", target: "192.0.2.20" }] },
      changes: [
        [
          "records",
          [
            { type: "A", name: "www", target: "192.0.2.20" },
            { type: "A", name: "api", target: "192.0.2.21" },
          ],
        ],
        ["exclusive", true],
      ],
    },
    "firewall-a": {
      kind: "Firewall",
      base: {
        label: "truth-fw-a",
        tags: ["one"],
        inboundPolicy: "DROP",
        outboundPolicy: "ACCEPT",
        inbound: [rule("web", "443")],
        devices: { computes: [fwA] },
      },
      changes: [
        ["label", "truth-fw-a2"],
        ["tags", ["one", "two"]],
        ["status", "disabled"],
        ["inbound", [rule("web", "443"), rule("ssh", "22")]],
      ],
    },
    "firewall-b": {
      kind: "Firewall",
      base: {
        label: "truth-fw-b",
        inboundPolicy: "DROP",
        outboundPolicy: "ACCEPT",
        outbound: [rule("out", "443")],
        devices: { computes: [] },
      },
      changes: [
        ["outbound", [rule("out", "80")]],
        ["inboundPolicy", "ACCEPT"],
        ["outboundPolicy", "DROP"],
        ["devices", { computes: [fwB] }],
      ],
    },
    rule: {
      kind: "FirewallRule",
      base: {
        direction: "inbound",
        label: "truth-rule",
        action: "ACCEPT",
        protocol: "TCP",
        ports: "443",
        addresses: { ipv4: ["10.0.0.0/24"] },
      },
      changes: [
        ["action", "DROP"],
        ["protocol", "UDP"],
        ["ports", "53"],
        ["addresses", { ipv4: ["10.0.1.0/24"] }],
        ["description", "a rule"],
        ["position", "first"],
      ],
    },
    device: { kind: "FirewallDevice", base: { entityId: device, entityType: "compute" }, changes: [] },
    image: {
      kind: "Image",
      base: { filePath: world.imageA, region: REGION, label: "truth-image", description: "one" },
      changes: [
        ["label", "truth-image-2"],
        ["description", "two"],
        ["filePath", world.imageB],
      ],
      // The copy has the same size and content (no replacement) and its own modification time.
      follows: { filePath: ["fileModified"] },
    },
    mysql: {
      kind: "MysqlDatabase",
      base: { label: "truth-mysql", region: REGION, type: "g6-nanode-1", engineId: "mysql/8", allowList: ["203.0.113.1"] },
      changes: [
        ["allowList", ["203.0.113.1", "192.0.2.0/28"]],
        ["label", "truth-mysql-2"],
        ["updates", window],
        ["type", "g6-standard-1"],
      ],
    },
    postgresql: {
      kind: "PostgresqlDatabase",
      base: { label: "truth-pg", region: REGION, type: "g6-nanode-1", engineId: "postgresql/16", allowList: [] },
      changes: [
        ["label", "truth-pg-2"],
        ["allowList", ["198.51.100.0/24"]],
        ["updates", window],
        ["type", "g6-standard-1"],
      ],
    },
    rdns: {
      kind: "ReverseDns",
      base: { address: RDNS_ADDRESS, rdns: "www.rdns.truth.example" },
      changes: [["rdns", "www2.rdns.truth.example"]],
    },
    // A new target moves the same range (an assign): by instance, and by SLAAC address.
    range: { kind: "Ipv6Range", base: { prefixLength: 64, computeId: range }, changes: [["computeId", range2]] },
    "range-by-target": { kind: "Ipv6Range", base: { prefixLength: 64, routeTarget: targetA }, changes: [["routeTarget", targetB]] },
    // Its interfaces gain a vpc interface while it runs (a reboot applies them); it is shut down last.
    instance: {
      kind: "Instance",
      base: {
        label: "truth-web",
        region: REGION,
        type: "g6-nanode-1",
        image: "public/debian12",
        rootPass: "a-truth-root-password",
        interfaces: [{ purpose: "public" }],
      },
      changes: [
        ["label", "truth-web-2"],
        ["tags", ["truth"]],
        ["type", "g6-standard-1"],
        ["interfaces", [{ purpose: "public" }, { purpose: "vpc", subnetId: world.subnetId }]],
        ["booted", false],
        // Asking for rebuilds changes nothing the API holds: an update that sends nothing.
        ["rebuildOnImageChange", true],
      ],
    },
    // Every input replaces: a subject for its outputs' dependents (its database is `entry-parent`).
    entry: { kind: "DatabaseAllowListEntry", base: { engine: "postgresql", address: "203.0.113.9" }, changes: [] },
  };
}

/** The inputs of a spec that change in place (not replacing, not derived). */
const inPlace = (spec: AnySpec) => Object.entries(spec.inputs).flatMap(([k, f]) => (f.replaceOnChange || f.derived ? [] : [k]));

/** The outputs of a subject that dependents read: every output besides the kind's in-place inputs, and the id. */
const watched = (spec: AnySpec) => [
  "id",
  ...[...Object.keys(spec.inputs), ...Object.keys(spec.outputs)].filter((k) => !inPlace(spec).includes(k)),
];

/** The arguments of every subject in round `round` (0: the first up): its base, with the changes of rounds 1…round. */
const argsAt = (subject: Subject, round: number): Args => ({ ...subject.base, ...Object.fromEntries(subject.changes.slice(0, round)) });

const fingerprint = (value: unknown) =>
  `v${createHash("sha256")
    .update(JSON.stringify(value ?? null))
    .digest("hex")
    .slice(0, 16)}`;

let emulator: RunningEmulator;
let client: ComputeClient;
let round = 0;

const make = (door: Door, kind: string, name: string, args: Args): pulumi.CustomResource => resourceThrough(door, kind, name, args);

/** A stack of `program` through `door`: its project names the plugin for the plugin's door. */
const stackThrough = (door: Door, name: string, program: () => Promise<Record<string, unknown>>) =>
  createTestStack({
    name,
    apiUrl: emulator.url,
    token: emulator.token,
    program,
    ephemeral: { checkpoints: false, clock: emulator.emulator.clock },
  });

type Outputs = Record<string, pulumi.Output<unknown>>;

function program(door: Door): Promise<Record<string, unknown>> {
  const all = subjects();
  const zone = (name: string, domain: string) => make(door, "Domain", name, { domain, type: "master", soaEmail: "admin@truth.example" });
  const deps = zone("deps", "deps.truth.example");
  const records = zone("records-zone", "records.truth.example");
  const setZone = zone("set-zone", "set.truth.example");
  const subnetParent = make(door, "Vpc", "subnet-parent", { label: "truth-parent", region: REGION });
  const policies = { inboundPolicy: "DROP", outboundPolicy: "ACCEPT" } as const;
  const ruleParent = make(door, "Firewall", "rule-parent", { label: "truth-rule-parent", ...policies });
  const deviceParent = make(door, "Firewall", "device-parent", { label: "truth-device-parent", ...policies });
  // A database whose allow list is managed entry by entry (it sets no `allowList` of its own).
  const entryParent = make(door, "PostgresqlDatabase", "entry-parent", {
    label: "truth-entry-parent",
    region: REGION,
    type: "g6-nanode-1",
    engineId: "postgresql/16",
  });
  const parents: Record<string, Args> = {
    subnet: { vpcId: subnetParent.id },
    "record-a": { domainId: records.id },
    "record-srv": { domainId: records.id },
    "record-caa": { domainId: records.id },
    set: { domainId: setZone.id },
    rule: { firewallId: ruleParent.id },
    device: { firewallId: deviceParent.id },
    entry: { databaseId: entryParent.id },
  };
  for (const [name, subject] of Object.entries(all)) {
    const resource = make(door, subject.kind, name, { ...argsAt(subject, round), ...parents[name] });
    for (const output of watched(RESOURCE_SPECS[subject.kind]!)) {
      const value = (resource as unknown as Outputs)[output]!;
      make(door, "DomainRecord", `dep-${name}-${output}`, {
        domainId: deps.id,
        type: "TXT",
        name: `${name}-${output}`.toLowerCase(),
        target: value.apply(fingerprint),
      });
    }
  }
  return Promise.resolve({});
}

beforeAll(async () => {
  world.imageA = await exampleImageFile("truth");
  world.imageB = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "truth-image-")), "moved.img.gz");
  fs.copyFileSync(world.imageA, world.imageB); // the same content at another path: an in-place change
});

afterAll(() => {
  if (world.imageB) fs.rmSync(path.dirname(world.imageB), { recursive: true, force: true });
});

/**
 * A door's emulator and what its program expects there: each door runs against an emulator of its
 * own, so neither has to destroy its stack for the other (a destroy of every subject is an engine
 * run that checks nothing).
 */
async function startWorld(): Promise<void> {
  emulator = await startEmulator({ port: 0, timeScale: 600 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  world.computes = ["fw-a", "fw-b", "device", "range", "range-2"].map(
    (label) => emulator.control.seedCompute({ label, region: REGION }).id,
  );
  world.targets = ["target-a", "target-b"].map((label) => emulator.control.seedCompute({ label, region: TARGET_REGION }).ipv6!);
  emulator.control.seedCompute({ label: "rdns", region: REGION, ipv4: [RDNS_ADDRESS] });
  const forward = await client.domains.create({ domain: "rdns.truth.example", type: "master", soa_email: "admin@truth.example" });
  for (const name of ["www", "www2"]) await client.domains.records.create(forward.id, { type: "A", name, target: RDNS_ADDRESS });
  const net = await client.vpcs.create({ label: "truth-instances", region: REGION, subnets: [{ label: "web", ipv4: "10.0.9.0/24" }] });
  world.subnetId = net.subnets[0]!.id;
}

/** What a round's changes must update: the changed subjects, and the dependents of outputs those changes recompute. */
function expectedPlan(roundNumber: number): Record<string, string> {
  const steps: Record<string, string> = {};
  for (const [name, subject] of Object.entries(subjects())) {
    const change = subject.changes[roundNumber - 1];
    if (!change) continue;
    steps[name] = "update";
    const spec = RESOURCE_SPECS[subject.kind]!;
    // An input sent `never` goes by other requests, or by none (an image's file path): no "any update".
    const field = spec.inputs[change[0]]!;
    const sends = field.send !== "never" && field.send !== "create";
    for (const output of watched(spec)) {
      const by = spec.outputs[output]?.recomputedBy ?? spec.inputs[output]?.recomputedBy;
      const follows = subject.follows?.[change[0]]?.includes(output) ?? false;
      if (follows || (by === "any update" && sends) || (Array.isArray(by) && by.includes(change[0])))
        steps[`dep-${name}-${output}`] = "update";
    }
  }
  return steps;
}

const mutations = (mark: number) => writesSince(emulator, mark);

test("every in-place input of every kind has a change below, and every kind a subject", () => {
  const all = Object.values(subjects());
  for (const [kind, spec] of Object.entries(RESOURCE_SPECS)) {
    expect(all.some((s) => s.kind === kind)).toBe(true);
    const changed = new Set(all.filter((s) => s.kind === kind).flatMap((s) => s.changes.map(([field]) => field)));
    expect({ kind, missing: inPlace(spec).filter((f) => !changed.has(f)) }).toEqual({ kind, missing: [] });
  }
});

describe.each(DOORS)("through the %s", (door) => {
  let testStack: TestStack;

  beforeAll(async () => {
    round = 0;
    await startWorld();
    testStack = await stackThrough(door, door === "provider plugin" ? "truth-plugin" : "preview-truth", () => program(door));
  });

  afterAll(async () => {
    testStack?.cleanup();
    await client?.close();
    await emulator?.close();
  });

  test("round by round, each preview plans exactly what up does, sends no write, and leaves the next preview empty", async () => {
    const first = await testStack.stack.up();
    expect(first.summary.result).toBe("succeeded");
    const settled = eventRecorder();
    await testStack.stack.preview({ onEvent: settled.onEvent, diff: true });
    expect(plannedSteps(settled.events)).toEqual({});

    const rounds = Math.max(...Object.values(subjects()).map((s) => s.changes.length));
    for (round = 1; round <= rounds; round++) {
      const previewEvents = eventRecorder();
      let mark = emulator.control.listRequests().length;
      const preview = await testStack.stack.preview({ onEvent: previewEvents.onEvent, diff: true });
      expect({ round, writes: mutations(mark) }).toEqual({ round, writes: [] });
      const planned = plannedSteps(previewEvents.events);
      expect({ round, planned }).toEqual({ round, planned: expectedPlan(round) });
      if (round === 1) {
        // An address added to an allow list reads as its value, not as a key with an unknown value.
        expect(preview.stdout).toMatch(/allowList: \[\s+\+ \[1\]: "192\.0\.2\.0\/28"/);
        expect(preview.stdout).not.toMatch(/192\.0\.2\.0\/28: \[unknown\]/);
      }

      const upEvents = eventRecorder();
      const up = await testStack.stack.up({ onEvent: upEvents.onEvent });
      expect(up.summary.result).toBe("succeeded");
      expect({ round, done: plannedSteps(upEvents.events) }).toEqual({ round, done: planned });

      mark = emulator.control.listRequests().length;
      const afterEvents = eventRecorder();
      await testStack.stack.preview({ onEvent: afterEvents.onEvent });
      expect({ round, after: plannedSteps(afterEvents.events) }).toEqual({ round, after: {} });
      expect(mutations(mark)).toEqual([]);
    }
  });

  test("an engine version the API does not offer is refused at preview, in the program's words, before any write", async () => {
    const stack = await stackThrough(door, door === "provider plugin" ? "engine-plugin" : "preview-engine", async () => {
      make(door, "MysqlDatabase", "db", { label: "not-on-offer", region: REGION, type: "g6-nanode-1", engineId: "mysql/8.0.99" });
      return {};
    });
    try {
      const mark = emulator.control.listRequests().length;
      const failed = await stack.stack.up().then(
        () => "",
        (e: Error) => e.message,
      );
      expect(failed).toContain("engineId mysql/8.0.99 is not on offer");
      expect(failed).toContain("getDatabaseEngines lists the versions a new database can use");
      expect(failed).not.toMatch(/GET \/databases/);
      // What up sent: the reads that know the offer (regions, engines, the version asked for), no write.
      const sent = emulator.control
        .listRequests()
        .slice(mark)
        .map((r) => `${r.method} ${r.path.replace(/\?.*$/, "")}`);
      expect(sent.sort()).toEqual(["GET /v4/databases/engines", "GET /v4/databases/engines/mysql%2F8.0.99", "GET /v4/regions"]);
    } finally {
      // Nothing to destroy: the up wrote nothing (above), and the door's emulator goes with it.
      stack.cleanup();
    }
  });
});
