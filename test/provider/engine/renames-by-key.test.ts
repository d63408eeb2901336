/**
 * Renames of kinds without a label, seen at check (`keyClash` in `provider/engine/natural-key.ts`,
 * driven by each spec's `naturalKey.inputs` and `atCheck`), against the emulator over HTTP with a
 * `file://` backend whose checkpoints say who holds what:
 * - a domain record, a firewall rule, a firewall device and an allow-list entry created under a new
 *   name while this stack holds the object under the old one: refused, naming the `aliases` and
 *   `pulumi state rename`, never `adoptId`; nothing written;
 * - the same object held by another stack: a rule is refused (its create would be), never with
 *   `adoptId`; an allow-list entry is not (its create takes over an address already there);
 * - an existing resource (recorded inputs) is not looked up: an update may repeat a key.
 */
import { keyClash } from "../../../provider/engine/natural-key";
import type { Inputs } from "../../../provider/engine/spec";
import { servingContext } from "../../../provider/serve/serving-context";
import { specOf } from "../../../provider/registry";
import { ruleId } from "../../../provider/resources/firewall-rule";
import { entryId } from "../../../provider/resources/database-allow-list-entry";
import { useDiyBackend } from "../../support/diy-backend";
import { writesSince } from "../../support/requests";
import { useProviderHarness } from "../harness";

const harness = useProviderHarness();
const urn = (stack: string, kind: string, name: string) => `urn:pulumi:${stack}::app::compute:index:${kind}::${name}`;

const diy = useDiyBackend("pc-renames-by-key-");

/** The backend of the run: project `app`'s stacks `dev` (always) and any other, each holding the given resources. */
function backend(stacks: Record<string, Array<{ kind: string; name: string; id: string }>>): void {
  const entries = (stack: string, held: Array<{ kind: string; name: string; id: string }>) =>
    held.map((r) => ({ urn: urn(stack, r.kind, r.name), type: `compute:index:${r.kind}`, id: r.id }));
  const all = { dev: [], ...stacks };
  process.env.PULUMI_BACKEND_URL = diy.stacks(
    Object.fromEntries(Object.entries(all).map(([stack, held]) => [stack, entries(stack, held)])),
  );
}

/** `keyClash` for a new resource `name` of stack `dev` (no recorded inputs, unless `olds`), held to sending no write. */
async function clash(kind: string, name: string, inputs: Inputs, olds: Inputs = {}): Promise<string[]> {
  const ctx = servingContext((key) => harness.config[key]);
  const mark = harness.emulator.control.listRequests().length;
  const failures = await keyClash(specOf(kind), ctx, olds, inputs, urn("dev", kind, name), AbortSignal.timeout(30_000));
  expect(writesSince(harness.emulator, mark)).toEqual([]);
  return failures.map((f) => `${f.property}: ${f.reason}`);
}

/** A rename's refusal: the old name's aliases and `pulumi state rename`, never `adoptId`. */
function expectRenameAdvice(failures: string[], kind: string, from: string, to: string): void {
  expect(failures).toHaveLength(1);
  expect(failures[0]).toContain(`which this stack manages as resource "${from}"`);
  expect(failures[0]).toContain(`add aliases: [{ name: "${from}" }] to this resource's options`);
  expect(failures[0]).toContain(`pulumi state rename '${urn("dev", kind, from)}' ${to}`);
  expect(failures[0]).not.toContain("adoptId");
  expect(failures[0]).not.toContain("recover");
}

test("a domain record renamed: refused with its aliases; as an existing resource it is not looked up", async () => {
  const domain = await harness.client.domains.create({ domain: "keys.example", type: "master", soa_email: "admin@keys.example" });
  const record = await harness.client.domains.records.create(domain.id, { type: "CNAME", name: "db", target: "pg.keys.example" });
  backend({ dev: [{ kind: "DomainRecord", name: "db-name", id: String(record.id) }] });
  const inputs = { domainId: domain.id, type: "CNAME", name: "db", target: "pg.keys.example", ttlSec: 0 };
  const failures = await clash("DomainRecord", "db-cname", inputs);
  expectRenameAdvice(failures, "DomainRecord", "db-name", "db-cname");
  expect(failures[0]).toMatch(/^target: CNAME name "db" and target "pg.keys.example" is taken by domain record \d+/);
  // Renamed as advised, the resource has its recorded inputs: no lookup, no refusal (an update may repeat a key).
  const before = harness.emulator.control.listRequests().length;
  expect(await clash("DomainRecord", "db-cname", inputs, inputs)).toEqual([]);
  expect(harness.emulator.control.listRequests().length).toBe(before);
});

test("a firewall rule renamed: refused with its aliases; the same label in another stack is refused without adoptId", async () => {
  const inbound = [
    { action: "ACCEPT" as const, protocol: "TCP" as const, ports: "443", addresses: { ipv4: ["10.0.0.0/24"] }, label: "app-https" },
  ];
  const fw = await harness.client.networking.firewalls.create({
    label: "edge",
    rules: { inbound, inbound_policy: "DROP", outbound_policy: "ACCEPT" },
  });
  const inputs = { firewallId: fw.id, direction: "inbound", label: "app-https", action: "ACCEPT", protocol: "TCP", ports: "443" };
  const id = ruleId(fw.id, "inbound", "app-https");

  backend({ dev: [{ kind: "FirewallRule", name: "https", id }] });
  expectRenameAdvice(await clash("FirewallRule", "https-from-lb", inputs), "FirewallRule", "https", "https-from-lb");

  backend({ staging: [{ kind: "FirewallRule", name: "https", id }] });
  const other = await clash("FirewallRule", "https", inputs);
  expect(other).toEqual([expect.stringContaining(`which stack "staging" manages as resource "https". Do not set adoptId to it`)]);
  expect(other[0]).not.toMatch(/set adoptId: /);
  // A label nobody holds is free.
  expect(await clash("FirewallRule", "ssh", { ...inputs, label: "ssh" })).toEqual([]);
});

test("a firewall device renamed: refused with its aliases", async () => {
  const fw = await harness.client.networking.firewalls.create({
    label: "guard",
    rules: { inbound_policy: "DROP", outbound_policy: "ACCEPT" },
  });
  const instance = harness.emulator.control.seedCompute({ label: "web-1", region: "us-iad" }).id;
  const device = await harness.client.networking.firewalls.devices.create(fw.id, { id: instance, type: "compute" });
  backend({ dev: [{ kind: "FirewallDevice", name: "web-1", id: String(device.id) }] });
  const failures = await clash("FirewallDevice", "web", { firewallId: fw.id, entityId: instance, entityType: "compute" });
  expectRenameAdvice(failures, "FirewallDevice", "web-1", "web");
});

test("an allow-list entry renamed: refused with its aliases; held by another stack or nobody, taken over as before", async () => {
  const shared = { label: "shared-db", region: "us-iad", type: "g6-nanode-1", engine: "mysql/8.0.30" };
  const db = await harness.client.databases.mysql.create({ ...shared, allow_list: ["203.0.113.7/32"] });
  const inputs = { engine: "mysql", databaseId: db.id, address: "203.0.113.7" };
  const id = entryId("mysql", db.id, "203.0.113.7");

  backend({ dev: [{ kind: "DatabaseAllowListEntry", name: "app-to-db", id }] });
  const failures = await clash("DatabaseAllowListEntry", "app-db", inputs);
  expectRenameAdvice(failures, "DatabaseAllowListEntry", "app-to-db", "app-db");
  expect(failures[0]).toMatch(
    /^address: address "203.0.113.7" on MySQL database \d+ is taken by database allow list entry mysql:\d+:203.0.113.7\/32/,
  );

  backend({ staging: [{ kind: "DatabaseAllowListEntry", name: "app-to-db", id }] });
  expect(await clash("DatabaseAllowListEntry", "app-to-db", inputs)).toEqual([]);
  backend({});
  expect(await clash("DatabaseAllowListEntry", "app-to-db", inputs)).toEqual([]);
});
