/**
 * Managed databases end to end through the real Pulumi engine against the emulator over HTTP, at
 * time scale 300 and with the provider's waits jumping its clock (provisioning takes the polls of
 * its 15–30 minutes and no real waiting), the stacks ephemeral (no checkpoint after every step):
 * - a MySQL and a PostgreSQL database: `up` waits until both are active with hosts → the state
 *   file holds the root passwords only as ciphertext → an allow-list change updates in place and a
 *   type change resizes in place → a region change previews a replacement → an allow list changed
 *   behind Pulumi's back is reported by `refresh` → `destroy`;
 * - a provisioning forced to end `failed`: `up` fails fast with a clear message and the database
 *   stays in state; the next `up` replaces it, and the emulator holds no stray database.
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { MysqlDatabase, PostgresqlDatabase, type MysqlDatabaseArgs, type PostgresqlDatabaseArgs } from "../../provider";
import { driftFromEvents } from "../../provider/stack/refresh-drift";
import { createTestStack, eventRecorder, stepsByName, type TestStack } from "../support/engine";

jest.setTimeout(300_000);

/** Pulumi's marker of a secret value in a state file. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

let emulator: RunningEmulator;
let client: ComputeClient;
const stacks: TestStack[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, timeScale: 300 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
});

afterAll(async () => {
  for (const s of stacks) {
    await s.stack.destroy().catch(() => undefined);
    s.cleanup();
  }
  await client?.close();
  await emulator?.close();
});

test("a MySQL and a PostgreSQL database go through their whole life", async () => {
  const mysqlArgs: MysqlDatabaseArgs = {
    label: "e2e-mysql",
    region: "us-iad",
    type: "g6-nanode-1",
    engineId: "mysql/8.0.30",
    allowList: ["203.0.113.1"],
    updates: { frequency: "weekly", duration: 1, hourOfDay: 3, dayOfWeek: 7 },
  };
  const pgArgs: PostgresqlDatabaseArgs = {
    label: "e2e-pg",
    region: "us-ord",
    type: "g6-nanode-1",
    engineId: "postgresql/14.6",
    clusterSize: 3,
    allowList: ["192.0.2.0/24"],
  };
  const testStack = await createTestStack({
    name: "databases",
    apiUrl: emulator.url,
    token: emulator.token,
    ephemeral: { checkpoints: false, clock: emulator.emulator.clock },
    program: async () => {
      const mysql = new MysqlDatabase("mysql", mysqlArgs);
      const pg = new PostgresqlDatabase("pg", pgArgs);
      return {
        mysqlId: mysql.id,
        mysqlStatus: mysql.status,
        // Typed `string`: the primary host is known once the create has finished (`engine/known.ts`).
        mysqlHost: mysql.hosts.apply((h): string => h.primary),
        mysqlPassword: mysql.rootPassword,
        pgId: pg.id,
        pgStatus: pg.status,
        pgHost: pg.hosts.apply((h) => h.primary),
      };
    },
  });
  stacks.push(testStack);

  // up waits until both are active, with hosts
  const up = await testStack.stack.up();
  expect(up.summary.result).toBe("succeeded");
  expect(up.summary.resourceChanges).toMatchObject({ create: 3 });
  expect(up.outputs.mysqlStatus!.value).toBe("active");
  expect(up.outputs.pgStatus!.value).toBe("active");
  expect(up.outputs.mysqlHost!.value).toEqual(expect.stringMatching(/^\S+-mysql-primary\.servers\./));
  expect(up.outputs.pgHost!.value).toMatch(/-pgsql-primary\.servers\./);
  expect(up.outputs.mysqlPassword!.secret).toBe(true);
  const mysqlId = Number(up.outputs.mysqlId!.value);
  const pgId = Number(up.outputs.pgId!.value);
  expect(await client.databases.mysql.get(mysqlId)).toMatchObject({
    status: "active",
    updates: { hour_of_day: 3, day_of_week: 7, duration: 1 },
  });

  // the state file holds the root passwords (and CA certificates) only as ciphertext
  const passwords = [
    (await client.databases.mysql.credentials(mysqlId)).password,
    (await client.databases.postgresql.credentials(pgId)).password,
  ];
  const stateText = testStack.stateText();
  for (const password of passwords) expect(stateText).not.toContain(password);
  expect(stateText).not.toContain((await client.databases.mysql.ssl(mysqlId)).ca_certificate!);
  for (const resource of testStack.resources().filter((r) => r.type.includes("Database"))) {
    for (const key of ["rootPassword", "caCert"]) {
      expect(resource.outputs![key]).toEqual({ [SECRET_SIG]: "1b47061264138c4ac30d75fd1eb44270", ciphertext: expect.any(String) });
    }
  }

  // no changes afterwards
  expect(Object.keys((await testStack.stack.preview()).changeSummary)).toEqual(["same"]);

  // an allow-list change updates in place; a type change resizes in place (waited for)
  mysqlArgs.allowList = ["203.0.113.1", "198.51.100.0/24"];
  pgArgs.type = "g6-standard-1";
  const changes = eventRecorder();
  const update = await testStack.stack.up({ onEvent: changes.onEvent });
  expect(update.summary.resourceChanges).toMatchObject({ update: 2, same: 1 });
  const steps = stepsByName(changes.events);
  expect([steps.get("mysql")!.op, steps.get("pg")!.op]).toEqual(["update", "update"]);
  expect((await client.databases.mysql.get(mysqlId)).allow_list).toEqual(["203.0.113.1", "198.51.100.0/24"]);
  expect(await client.databases.postgresql.get(pgId)).toMatchObject({ type: "g6-standard-1", status: "active" });
  expect(update.outputs.pgStatus!.value).toBe("active");

  // a region change is a replacement (previewed only)
  mysqlArgs.region = "us-ord";
  const replacement = await testStack.stack.preview();
  expect(replacement.changeSummary).toMatchObject({ replace: 1, same: 2 });
  mysqlArgs.region = "us-iad";

  // an allow list changed behind Pulumi's back is reported by refresh
  await client.databases.postgresql.update(pgId, { allow_list: ["0.0.0.0/0"] });
  const refreshEvents = eventRecorder();
  await testStack.stack.refresh({ onEvent: refreshEvents.onEvent });
  expect(driftFromEvents(refreshEvents.events)).toEqual([
    { resource: "pg", type: "PostgresqlDatabase", field: "allowList", state: ["192.0.2.0/24"], cloud: ["0.0.0.0/0"] },
  ]);

  // destroy
  const destroyed = await testStack.stack.destroy();
  expect(destroyed.summary.resourceChanges).toMatchObject({ delete: 3 });
  expect(await client.databases.instances.listAll()).toEqual([]);
});

test("a provisioning forced to end failed: up fails fast, the database stays in state, the next up replaces it", async () => {
  const testStack = await createTestStack({
    name: "database-failure",
    apiUrl: emulator.url,
    token: emulator.token,
    ephemeral: { checkpoints: false, clock: emulator.emulator.clock },
    program: async () => {
      const db = new MysqlDatabase("doomed", { label: "e2e-doomed", region: "us-iad", type: "g6-nanode-1", engineId: "mysql/8.0.30" });
      return { id: db.id, status: db.status };
    },
  });
  stacks.push(testStack);

  emulator.control.databases.failNextProvisioning();
  const failure = await testStack.stack.up().then(
    () => undefined,
    (error: Error) => error,
  );
  expect(failure).toBeInstanceOf(Error);
  const [failed] = await client.databases.instances.listAll();
  expect(failed).toMatchObject({ label: "e2e-doomed", status: "failed" });
  // Fast: it failed on the failed status it saw, not at the 45-minute create deadline (whose message says it timed out).
  expect(failure!.message).toContain(`MySQL database ${failed!.id} (e2e-doomed) is failed: the platform could not bring it up`);
  expect(failure!.message).not.toMatch(/deadline|timed out/i);

  // still in state, recorded as failed, never orphaned
  const recorded = testStack.resources().find((r) => r.type.endsWith(":MysqlDatabase"))!;
  expect(recorded.id).toBe(String(failed!.id));
  expect(recorded.outputs!.status).toBe("failed");

  // the next up replaces it (the old one first: the label is unique), leaving no stray database
  const recovery = await testStack.stack.up();
  expect(recovery.summary.result).toBe("succeeded");
  expect(recovery.summary.resourceChanges).toMatchObject({ replace: 1 });
  expect(recovery.outputs.status!.value).toBe("active");
  const remaining = await client.databases.instances.listAll();
  expect(remaining.map((d) => [d.id, d.status])).toEqual([[Number(recovery.outputs.id!.value), "active"]]);
  expect(remaining[0]!.id).not.toBe(failed!.id);

  await testStack.stack.destroy();
  expect(await client.databases.instances.listAll()).toEqual([]);
});
