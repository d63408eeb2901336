/**
 * Adoption reads a clean baseline: for every resource that creates through the API, an object made
 * outside Pulumi (with state of its own: a VPC's subnets, a firewall's rules, a domain's settings)
 * is adopted with `adoptId`, and the read that a refresh makes right after reports exactly the
 * outputs the adoption recorded — no field moves from "unknown" or `[]` to the API's value.
 */
import { provider } from "../../../provider/registry";
import { useProviderHarness } from "../harness";

const harness = useProviderHarness({ timeScale: 3000 });

/** Adopts `id` with `inputs`, then reads it as a refresh would; the two must be equal. */
async function adoptThenRead(kind: string, id: string | number, inputs: Record<string, unknown>) {
  const methods = provider(kind);
  const adopted = await methods.create!({ ...inputs, adoptId: id });
  expect(adopted.id).toBe(String(id));
  const read = await methods.read!(adopted.id, adopted.outs);
  expect(read.props).toEqual(adopted.outs);
  return adopted.outs;
}

test("a VPC that already has subnets: adopted without them (its subnets are VpcSubnets' own)", async () => {
  const client = harness.client;
  const vpc = await client.vpcs.create({ label: "existing", region: "us-iad", subnets: [{ label: "a", ipv4: "10.0.1.0/24" }] });
  const outs = await adoptThenRead("Vpc", vpc.id, { label: "existing", region: "us-iad" });
  expect(outs).not.toHaveProperty("subnets");
  const [subnet] = vpc.subnets;
  await adoptThenRead("VpcSubnet", subnet!.id, { vpcId: String(vpc.id), label: "a", ipv4: "10.0.1.0/24" });
});

test("a firewall with rules, a domain with settings and a record", async () => {
  const client = harness.client;
  const firewall = await client.networking.firewalls.create({
    label: "existing-fw",
    rules: {
      inbound_policy: "DROP",
      outbound_policy: "ACCEPT",
      inbound: [{ action: "ACCEPT", protocol: "TCP", ports: "22", addresses: { ipv4: ["192.0.2.0/24"] } }],
    },
  });
  await adoptThenRead("Firewall", firewall.id, { label: "existing-fw", inboundPolicy: "DROP", outboundPolicy: "ACCEPT" });

  const domain = await client.domains.create({
    domain: "adopted.example",
    type: "master",
    soa_email: "admin@adopted.example",
    ttl_sec: 3600,
  });
  await adoptThenRead("Domain", domain.id, { domain: "adopted.example", type: "master", soaEmail: "admin@adopted.example" });
  const record = await client.domains.records.create(domain.id, { type: "A", name: "www", target: "192.0.2.10" });
  await adoptThenRead("DomainRecord", record.id, { domainId: String(domain.id), type: "A", name: "www", target: "192.0.2.10" });
});

test("a database", async () => {
  const client = harness.client;
  const db = await client.databases.mysql.create({ label: "existing-db", region: "us-iad", type: "g6-nanode-1", engine: "mysql/8.0.30" });
  await client.databases.mysql.waitForStatus(db.id, { until: ["active"], timeoutMs: 60_000 });
  await adoptThenRead("MysqlDatabase", db.id, { label: "existing-db", region: "us-iad", type: "g6-nanode-1", engineId: "mysql/8.0.30" });
});

test("a PostgreSQL database, an IPv6 range, a firewall device, a captured image and a reverse DNS name", async () => {
  const { client, emulator } = harness;
  const pg = await client.databases.postgresql.create({
    label: "existing-pg",
    region: "us-iad",
    type: "g6-nanode-1",
    engine: "postgresql/14.6",
  });
  await client.databases.postgresql.waitForStatus(pg.id, { until: ["active"], timeoutMs: 60_000 });
  await adoptThenRead("PostgresqlDatabase", pg.id, {
    label: "existing-pg",
    region: "us-iad",
    type: "g6-nanode-1",
    engineId: "postgresql/14.6",
  });

  const compute = emulator.control.seedCompute({ label: "web", region: "us-iad", ipv4: ["198.51.100.10"] });
  const range = await client.networking.ipv6.ranges.create({ prefix_length: 64, compute_id: compute.id });
  const rangeId = range.range.split("/")[0]!;
  await adoptThenRead("Ipv6Range", rangeId, { prefixLength: 64, routeTarget: compute.ipv6! });

  const firewall = await client.networking.firewalls.create({
    label: "fw-for-device",
    rules: { inbound_policy: "DROP", outbound_policy: "ACCEPT" },
  });
  const device = await client.networking.firewalls.devices.create(firewall.id, { id: compute.id, type: "compute" });
  await adoptThenRead("FirewallDevice", device.id, { firewallId: String(firewall.id), entityId: compute.id, entityType: "compute" });

  const image = await client.images.create({ disk_id: compute.disks![0]!.id, label: "captured" });
  await client.images.waitForStatus(image.id, "available");
  await adoptThenRead("Image", image.id, { diskId: compute.disks![0]!.id, label: "captured" });

  const zone = await client.domains.create({ domain: "example.org", type: "master", soa_email: "admin@example.org" });
  await client.domains.records.create(zone.id, { type: "A", name: "www", target: "198.51.100.10" });
  await client.networking.ips.update("198.51.100.10", { rdns: "www.example.org" });
  await adoptThenRead("ReverseDns", "198.51.100.10", { address: "198.51.100.10", rdns: "www.example.org" });
});

describe("an adopted object is released, not deleted, unless the program sets deleteAdopted", () => {
  const vpcs = provider("Vpc");
  const writes = () => harness.writes();
  /** Runs `body` with the lines the provider prints gathered (no Pulumi host: progress is printed). */
  async function printed(body: () => Promise<void>): Promise<string> {
    const lines: string[] = [];
    const log = jest.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
    try {
      await body();
    } finally {
      log.mockRestore();
    }
    return lines.join("\n");
  }

  test("a delete of an adopted VPC sends nothing and says the VPC stays; with deleteAdopted: true it deletes it", async () => {
    const kept = await harness.client.vpcs.create({ label: "theirs", region: "us-iad" });
    const adopted = await vpcs.create!({ label: "theirs", region: "us-iad", adoptId: kept.id });
    const mark = writes().length;
    const said = await printed(() => vpcs.delete!(adopted.id, adopted.outs));
    expect(writes().slice(mark)).toEqual([]);
    expect(said).toContain(`VPC ${kept.id} was adopted (adoptId), not created by this stack: released, the VPC stays`);
    expect((await harness.client.vpcs.get(kept.id)).label).toBe("theirs");

    const mine = await vpcs.create!({ label: "theirs", region: "us-iad", adoptId: kept.id, deleteAdopted: true });
    await vpcs.delete!(mine.id, mine.outs);
    expect(writes().slice(mark)).toEqual([`DELETE /v4/vpcs/${kept.id}`]);
    // An object the stack created is deleted as before.
    const made = await vpcs.create!({ label: "made", region: "us-iad" });
    await vpcs.delete!(made.id, made.outs);
    expect(await harness.client.vpcs.listAll()).toEqual([]);
  });

  test("check says on the adopting row what a delete will do", async () => {
    const kept = await harness.client.vpcs.create({ label: "row", region: "us-iad" });
    const said = await printed(async () => {
      await vpcs.check!({}, { label: "row", region: "us-iad", adoptId: kept.id });
    });
    expect(said).toContain(
      `adopts VPC ${kept.id}: a delete of this resource (pulumi destroy, or removing it from the program) releases the VPC`,
    );
    expect(said).toContain("set deleteAdopted: true");
    // Asked for: nothing to say; adopted already: said once, when it adopted.
    const quiet = await printed(async () => {
      await vpcs.check!({}, { label: "row", region: "us-iad", adoptId: kept.id, deleteAdopted: true });
      await vpcs.check!({ label: "row", region: "us-iad", adoptId: kept.id }, { label: "row", region: "us-iad", adoptId: kept.id });
    });
    expect(quiet).toBe("");
    expect((await vpcs.check!({}, { label: "row", region: "us-iad", adoptId: kept.id, deleteAdopted: "yes" })).failures).toEqual([
      { property: "deleteAdopted", reason: "deleteAdopted must be true or false" },
    ]);
  });

  test("deleteAdopted set later is an update that sends nothing; the adoption stays recorded when adoptId leaves the program", async () => {
    const kept = await harness.client.vpcs.create({ label: "later", region: "us-iad" });
    const inputs = { label: "later", region: "us-iad" };
    const adopted = await vpcs.create!({ ...inputs, adoptId: kept.id });
    // adoptId removed from the program: no change, and an update for another reason keeps the adoption.
    expect((await vpcs.diff!(adopted.id, adopted.outs, inputs)).changes).toBe(false);
    const described = await vpcs.update!(adopted.id, adopted.outs, { ...inputs, description: "now" });
    expect(described.outs).toMatchObject({ adoptId: kept.id, description: "now" });
    // deleteAdopted: true is a change of its own, recorded without a request.
    const asked = { ...inputs, description: "now", deleteAdopted: true };
    expect(await vpcs.diff!(adopted.id, described.outs!, asked)).toMatchObject({ changes: true, replaces: [], diffs: ["deleteAdopted"] });
    const mark = harness.emulator.control.listRequests().length;
    const recorded = await vpcs.update!(adopted.id, described.outs!, asked);
    expect(harness.emulator.control.listRequests().slice(mark)).toEqual([]);
    expect(recorded.outs).toEqual({ ...described.outs, deleteAdopted: true });
    await vpcs.delete!(adopted.id, recorded.outs!);
    expect(await harness.client.vpcs.listAll()).toEqual([]);
    // On an object the stack created, deleteAdopted changes nothing.
    const made = await vpcs.create!(inputs);
    expect((await vpcs.diff!(made.id, made.outs, { ...inputs, deleteAdopted: true })).changes).toBe(false);
  });
});
