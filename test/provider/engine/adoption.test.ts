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

test("a VPC that already has subnets: its outputs list them from the start", async () => {
  const client = harness.client;
  const vpc = await client.vpcs.create({ label: "existing", region: "us-iad", subnets: [{ label: "a", ipv4: "10.0.1.0/24" }] });
  const outs = await adoptThenRead("Vpc", vpc.id, { label: "existing", region: "us-iad" });
  expect(outs.subnets).toEqual([expect.objectContaining({ label: "a", ipv4: "10.0.1.0/24" })]);
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
