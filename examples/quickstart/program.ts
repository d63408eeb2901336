/**
 * The quickstart stack: every resource of pulumi-compute working together.
 *
 * - a VPC with a web and a data subnet;
 * - a firewall guarding the account's compute instances, and one assigned to the nodebalancer (when
 *   configured) through a FirewallDevice, its rule added by a FirewallRule;
 * - a DNS zone with records, including the A record behind a reverse DNS entry;
 * - a MySQL database whose allow list is the data subnet, and a PostgreSQL one for reports whose
 *   allow list gets the data subnet through a DatabaseAllowListEntry;
 * - a private image uploaded from a generated file;
 * - an IPv6 range routed to the first instance;
 * - a worker instance in the data subnet, with a VPC interface only;
 * - the app: two instances in the web subnet behind a firewall of their own (`firewallId`), each
 *   with a public and a VPC interface (its VPC address named), an A record at its public address,
 *   and its VPC address on the reports database's allow list.
 *
 * The edge firewall guards the account's existing instances, found through their public addresses
 * (`getIps`); the stack's own instances (tagged `quickstart`) are left out of it. Config (namespace
 * `compute-quickstart`): `region` (default `us-iad`), `domain` (default `quickstart.example`),
 * `nodebalancerId` (optional), `workerRootPass` (secret; a fixed example value otherwise).
 */
import * as pulumi from "@pulumi/pulumi";
import * as compute from "../../provider";
import { exampleImageFile } from "../support/files";

export async function quickstart(): Promise<Record<string, unknown>> {
  const config = new pulumi.Config("compute-quickstart");
  const region = config.get("region") ?? "us-iad";
  const zone = config.get("domain") ?? "quickstart.example";
  const nodebalancerId = config.getNumber("nodebalancerId");

  // The instances this stack protects and names: every public IPv4 address in the region, but
  // those of the stack's own instances (made below, tagged `quickstart`; found here once they exist).
  const own = (await compute.getInstances({ region })).filter((i) => i.tags.includes("quickstart")).map((i) => i.id);
  const publicIps = (await compute.getIps()).filter(
    (ip) => ip.type === "ipv4" && ip.public && ip.region === region && !own.includes(ip.computeId ?? 0),
  );
  if (publicIps.length === 0) throw new Error(`no compute instance with a public IPv4 address in ${region}`);
  const computeIds = [...new Set(publicIps.flatMap((ip) => (ip.computeId === null ? [] : [ip.computeId])))];
  const webAddress = publicIps[0]!.address;

  // Network
  const vpc = new compute.Vpc("app-net", { label: "quickstart-net", region, description: "quickstart network" });
  const webSubnet = new compute.VpcSubnet("web", { vpcId: vpc.id, label: "web", ipv4: "10.0.1.0/24" });
  const dataSubnet = new compute.VpcSubnet("data", { vpcId: vpc.id, label: "data", ipv4: "10.0.2.0/24" });

  // Web from everyone, SSH from the admin network: the rules of both firewalls that guard instances.
  const webAndSsh = [
    { label: "allow-web", action: "ACCEPT", protocol: "TCP", ports: "80, 443", addresses: { ipv4: ["0.0.0.0/0"], ipv6: ["::/0"] } },
    { label: "allow-ssh", action: "ACCEPT", protocol: "TCP", ports: "22", addresses: { ipv4: ["203.0.113.0/24"] } },
  ] satisfies compute.FirewallArgs["inbound"];
  const firewall = new compute.Firewall("edge", {
    label: "quickstart-edge",
    tags: ["quickstart", "web"],
    inboundPolicy: "DROP",
    outboundPolicy: "ACCEPT",
    inbound: [
      ...webAndSsh,
      // Pings from the monitoring network only: ICMP has no ports, so from everyone it would count
      // as every port open to everyone (the compute-guardrails pack's firewall-exposure policy).
      { label: "allow-ping", action: "ACCEPT", protocol: "ICMP", addresses: { ipv4: ["198.51.100.0/24"] } },
    ],
    devices: { computes: computeIds },
  });

  // The nodebalancer gets a firewall of its own, assigned by a FirewallDevice (a firewall given
  // `devices` manages all of its devices, so the two ways are not mixed on one firewall). Its
  // rules are added one by one with FirewallRule (it gives no `inbound`), as an app stack would
  // add its own port to a firewall another stack owns.
  if (nodebalancerId !== undefined) {
    const balancerFirewall = new compute.Firewall("lb-edge", {
      label: "quickstart-lb",
      inboundPolicy: "DROP",
      outboundPolicy: "ACCEPT",
    });
    new compute.FirewallRule("lb-edge-web", {
      firewallId: balancerFirewall.id,
      direction: "inbound",
      label: "allow-web",
      action: "ACCEPT",
      protocol: "TCP",
      ports: "80, 443",
      addresses: { ipv4: ["0.0.0.0/0"], ipv6: ["::/0"] },
    });
    new compute.FirewallDevice("lb-edge-balancer", {
      firewallId: balancerFirewall.id,
      entityId: nodebalancerId,
      entityType: "nodebalancer",
    });
  }

  // A worker in the data subnet, reachable inside the VPC only (no public interface): the MySQL
  // database's allow list (the data subnet) lets it in.
  const rootPass = config.getSecret("workerRootPass") ?? "quickstart-worker-root-password";
  const workerInstance = new compute.Instance("worker", {
    label: "quickstart-worker",
    region,
    type: "g6-nanode-1",
    image: "public/debian12",
    rootPass,
    tags: ["quickstart"],
    interfaces: [{ purpose: "vpc", subnetId: dataSubnet.id }],
  });

  // The app: two instances in the web subnet, public behind a firewall of their own (set at
  // creation by `firewallId`; the edge firewall owns its device list, so they are not added there).
  const appFirewall = new compute.Firewall("app-edge", {
    label: "quickstart-app",
    tags: ["quickstart", "app"],
    inboundPolicy: "DROP",
    outboundPolicy: "ACCEPT",
    inbound: [...webAndSsh],
  });
  // Each has a VPC address the program names, so the reports database's allow list can name it
  // at preview (and the compute-guardrails pack check it there); `vpcIpv4` reads it back.
  const appAddresses = ["10.0.1.11", "10.0.1.12"];
  const apps = appAddresses.map(
    (address, n) =>
      new compute.Instance(`app-${n + 1}`, {
        label: `quickstart-app-${n + 1}`,
        region,
        type: "g6-nanode-1",
        image: "public/debian12",
        rootPass,
        tags: ["quickstart", "app"],
        firewallId: appFirewall.id,
        interfaces: [{ purpose: "public" }, { purpose: "vpc", subnetId: webSubnet.id, ipv4: { vpc: address } }],
      }),
  );

  // DNS: the zone, its records, and the reverse DNS of the web address
  const domain = new compute.Domain("zone", { domain: zone, type: "master", soaEmail: `hostmaster@${zone}`, ttlSec: 3600 });
  const www = new compute.DomainRecord("www", { domainId: domain.id, type: "A", name: "www", target: webAddress, ttlSec: 300 });
  new compute.DomainRecord("app", { domainId: domain.id, type: "CNAME", name: "app", target: `www.${zone}.` });
  // Records that belong together (mail here; a whole zone elsewhere) as one DomainRecordSet: one resource, one request per record.
  new compute.DomainRecordSet("mail", {
    domainId: domain.id,
    records: [
      { type: "MX", name: "", target: `mail.${zone}`, priority: 10 },
      { type: "TXT", name: "", target: "v=spf1 mx -all" },
    ],
  });
  // Each app instance answers at a name of its own: an A record at its public address.
  const appRecords = apps.map(
    (app, n) =>
      new compute.DomainRecord(`app-${n + 1}`, {
        domainId: domain.id,
        type: "A",
        name: `app-${n + 1}`,
        target: app.ipv4.apply((addresses) => addresses[0]!),
        ttlSec: 300,
      }),
  );
  const reverse = new compute.ReverseDns("www-rdns", { address: webAddress, rdns: `www.${zone}` }, { dependsOn: [www] });

  // Data: a MySQL database reachable from the data subnet only
  const database = new compute.MysqlDatabase("db", {
    label: "quickstart-db",
    region,
    type: "g6-nanode-1",
    engineId: "mysql/8",
    sslConnection: true, // TLS only (the API records an absent value as false)
    allowList: [dataSubnet.ipv4],
    updates: { frequency: "weekly", duration: 1, hourOfDay: 3, dayOfWeek: 7 },
  });
  const { latest } = await compute.getDatabaseEngines({ engine: "postgresql" });
  const reports = new compute.PostgresqlDatabase("reports", {
    label: "quickstart-reports",
    region,
    type: "g6-nanode-1",
    engineId: latest.postgresql!.id,
    sslConnection: true,
  });
  // Its allow list managed entry by entry, as app stacks add their own addresses to a shared database.
  new compute.DatabaseAllowListEntry("reports-from-data", { engine: "postgresql", databaseId: reports.id, address: dataSubnet.ipv4 });
  // and the app instances' VPC addresses, one entry each, made once the instance holds it.
  apps.forEach(
    (app, n) =>
      new compute.DatabaseAllowListEntry(
        `reports-from-app-${n + 1}`,
        { engine: "postgresql", databaseId: reports.id, address: appAddresses[n]! },
        { dependsOn: [app] },
      ),
  );

  // An image uploaded from a generated file, and an IPv6 range for the first instance
  const image = new compute.Image("golden", {
    label: "quickstart-golden",
    description: "uploaded by the quickstart",
    region,
    filePath: await exampleImageFile(),
    cloudInit: true,
  });
  const range = new compute.Ipv6Range("v6", { prefixLength: 64, computeId: computeIds[0]! });

  return {
    region,
    vpcId: vpc.id,
    subnets: { web: webSubnet.ipv4, data: dataSubnet.ipv4 },
    firewallId: firewall.id,
    domain: domain.domain,
    wwwRecord: www.fqdn,
    reverseDns: reverse.rdns,
    databaseHost: database.hosts.apply((h) => h.primary),
    databasePort: database.port,
    databaseRootPassword: database.rootPassword,
    reportsDatabaseHost: reports.hosts.apply((h) => h.primary),
    imageId: image.id,
    ipv6Range: range.range,
    workerAddress: workerInstance.vpcIpv4,
    appRecords: appRecords.map((record) => record.fqdn),
    appVpcAddresses: apps.map((app) => app.vpcIpv4),
  };
}
