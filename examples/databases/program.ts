/** A PostgreSQL database on the newest engine version, with a maintenance window. */
import * as compute from "../../provider";

export async function databasesExample(): Promise<Record<string, unknown>> {
  const { latest } = await compute.getDatabaseEngines({ engine: "postgresql" });
  const engine = latest.postgresql;
  if (!engine) throw new Error("no PostgreSQL engine is offered");
  const database = new compute.PostgresqlDatabase("pg", {
    label: "example-pg",
    region: "us-ord",
    type: "g6-standard-1",
    engineId: engine.id,
    sslConnection: true, // TLS only, as the compute-guardrails policy pack requires
    allowList: ["203.0.113.0/24"],
    updates: { frequency: "monthly", duration: 2, hourOfDay: 4, dayOfWeek: 6, weekOfMonth: 2 },
  });
  return {
    engine: engine.id,
    host: database.hosts.apply((h) => h.primary),
    port: database.port,
    rootPassword: database.rootPassword,
  };
}
