/**
 * The README's program (`examples/new-project/index.ts`) as a function: an inline program runs it
 * on every engine run, and a unit test under mocks declares it where it needs it. Its declarations
 * are the template's, line for line (`test/docs/new-project.test.ts`).
 */
import * as compute from "../../provider";

export function readmeProgram() {
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
  return { vpc, data, db, outputs: { dbHost: db.hosts.apply((h) => h.primary), dbPort: db.port, dbPassword: db.rootPassword } };
}

/** The README's program as an inline program of the Automation API: its outputs are the stack's. */
export const readmeInlineProgram = async () => readmeProgram().outputs;
