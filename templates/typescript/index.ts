import * as compute from "pulumi-compute";

const vpc = new compute.Vpc("app", { label: "app-net", region: "us-iad" });
const data = new compute.VpcSubnet("data", { vpcId: vpc.id, label: "data", ipv4: "10.0.2.0/24" });
const db = new compute.MysqlDatabase("db", {
  label: "app-db",
  region: "us-iad",
  type: "g6-nanode-1",
  engineId: "mysql/8",
  sslConnection: true, // TLS only (the API records an absent value as false; changing it later replaces the database)
  allowList: [data.ipv4],
});

export const dbHost = db.hosts.apply((h) => h.primary);
export const dbPort = db.port;
export const dbPassword = db.rootPassword; // a secret
