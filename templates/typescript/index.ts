import * as compute from "pulumi-compute";

const vpc = new compute.Vpc("app", { label: "app-net", region: "us-iad" });
const data = new compute.VpcSubnet("data", { vpcId: vpc.id, label: "data", ipv4: "10.0.2.0/24" });
const web = new compute.VpcSubnet("web", { vpcId: vpc.id, label: "web", ipv4: "10.0.1.0/24" });
// The app's firewall: web from everyone, everything else dropped.
const appFirewall = new compute.Firewall("app-fw", {
  label: "app-fw",
  inboundPolicy: "DROP",
  outboundPolicy: "ACCEPT",
  inbound: [
    { label: "allow-web", action: "ACCEPT", protocol: "TCP", ports: "80, 443", addresses: { ipv4: ["0.0.0.0/0"], ipv6: ["::/0"] } },
  ],
});
// The app: two instances, each with a public interface behind the firewall and a VPC interface at
// an address the program names (the database's allow list names them too, so previews are exact).
const appAddresses = ["10.0.1.11", "10.0.1.12"];
const apps = appAddresses.map(
  (address, n) =>
    new compute.Instance(`app-${n + 1}`, {
      label: `app-${n + 1}`,
      region: "us-iad",
      type: "g6-nanode-1",
      image: "public/debian12",
      rootPass: "an-example-root-password", // from the stack's secret config in a real program
      firewallId: appFirewall.id,
      interfaces: [{ purpose: "public" }, { purpose: "vpc", subnetId: web.id, ipv4: { vpc: address } }],
    }),
);
// DNS: each app instance answers at a name of its own, an A record at its public address.
const zone = new compute.Domain("zone", { domain: "app.example", type: "master", soaEmail: "hostmaster@app.example" });
apps.forEach(
  (app, n) =>
    new compute.DomainRecord(`app-${n + 1}`, {
      domainId: zone.id,
      type: "A",
      name: `app-${n + 1}`,
      target: app.ipv4.apply((addresses) => addresses[0]!),
      ttlSec: 300,
    }),
);
const db = new compute.MysqlDatabase("db", {
  label: "app-db",
  region: "us-iad",
  type: "g6-nanode-1",
  engineId: "mysql/8",
  sslConnection: true, // TLS only (the API records an absent value as false; changing it later replaces the database)
  allowList: [data.ipv4, ...appAddresses],
});

export const dbHost = db.hosts.apply((h) => h.primary);
export const dbPort = db.port;
export const dbPassword = db.rootPassword; // a secret
