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
