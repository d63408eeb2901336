/**
 * `client.databases`: every method sends the right method and path (replaying the recordings),
 * bodies are validated before sending, and the status waiters replay recorded sequences with a
 * fake clock. The recorded database exchanges (the later platform's `*.current.json` included)
 * are replayed through the endpoint declarations in `test/sdk/fixtures.test.ts`.
 */
import { ClientValidationError, ConnectionError, WaitError } from "../../../sdk/core/errors";
import {
  DATABASE_REASONS,
  Database,
  DatabaseUpdateRequest,
  canonicalAllowListEntry,
  databaseStatusAllows,
  waitForDatabaseStatus,
} from "../../../sdk/resources/databases";
import { JSON_HEADERS, harness, loadFixture, netError, serveFixture } from "../helpers";

const sent = (h: ReturnType<typeof harness>) => h.calls().map((c) => `${c.method} ${c.path.split("?")[0]}`);

describe("request validation, before anything is sent", () => {
  test("a bad create body is refused with the API's field and reason", async () => {
    const h = harness();
    const error = (await h.client.databases.mysql
      .create({ label: "ab", region: "us-iad", type: "g6-nanode-1", engine: "postgresql/14.6", allow_list: ["nope"] })
      .catch((e: unknown) => e)) as ClientValidationError;
    expect(error).toBeInstanceOf(ClientValidationError);
    expect(error.errors).toEqual(
      expect.arrayContaining([
        { field: "label", reason: DATABASE_REASONS.labelLength },
        { field: "engine", reason: DATABASE_REASONS.engineWrongType("mysql") },
        { field: "allow_list[0]", reason: DATABASE_REASONS.allowListEntry },
      ]),
    );
    expect(h.calls()).toEqual([]);
  });

  test("a monthly window needs week_of_month; a weekly one must not have it", () => {
    const base = { duration: 1, hour_of_day: 2, day_of_week: 3 };
    expect(DatabaseUpdateRequest.safeParse({ updates: { ...base, frequency: "monthly" } }).error?.issues[0]).toMatchObject({
      path: ["updates", "week_of_month"],
      message: DATABASE_REASONS.weekOfMonthRequired,
    });
    expect(DatabaseUpdateRequest.safeParse({ updates: { ...base, week_of_month: 1 } }).error?.issues[0]?.message).toBe(
      DATABASE_REASONS.weekOfMonthWeekly,
    );
    expect(DatabaseUpdateRequest.safeParse({ updates: { ...base, frequency: "monthly", week_of_month: 4 } }).success).toBe(true);
  });

  test("allow-list entries compare canonically: a bare address is its one-address range", () => {
    expect(canonicalAllowListEntry("203.0.113.1")).toBe("203.0.113.1/32");
    expect(canonicalAllowListEntry("203.0.113.1/32")).toBe("203.0.113.1/32");
    expect(canonicalAllowListEntry("192.0.1.0/24")).toBe("192.0.1.0/24");
    expect(canonicalAllowListEntry("2001:DB8:0:0::1")).toBe("2001:db8::1/128");
    expect(canonicalAllowListEntry("not an address")).toBe("not an address");
  });

  test("the status table as data", () => {
    expect(databaseStatusAllows("delete", "degraded")).toBe(true);
    expect(databaseStatusAllows("delete", "provisioning")).toBe(false);
    expect(databaseStatusAllows("backups", "restoring")).toBe(true);
    expect(databaseStatusAllows("backups", "provisioning")).toBe(false);
    expect(DATABASE_REASONS.status("restore", "provisioning")).toBe(
      "Cannot restore a backup of a database that is provisioning; it must be active, degraded or failed",
    );
  });
});

describe("methods and paths", () => {
  test("engines, the all-engines list, and the engine id's encoded slash", async () => {
    const h = harness();
    serveFixture(h, "database_engine.list.json");
    serveFixture(h, "database_engine.get.json");
    serveFixture(h, "database_instance.list.json");
    expect((await h.client.databases.engines.listAll()).map((e) => e.id)).toContain("postgresql/14.6");
    expect(await h.client.databases.engines.get("mysql/5.7.39")).toEqual({ id: "mysql/5.7.39", engine: "mysql", version: "5.7.39" });
    expect((await h.client.databases.instances.listAll()).map((d) => d.instance_uri)).toEqual([
      "/v4/databases/mysql/instances/23355",
      "/v4/databases/postgresql/instances/28215",
    ]);
    expect(sent(h)).toEqual(["GET /v4/databases/engines", "GET /v4/databases/engines/mysql%2F5.7.39", "GET /v4/databases/instances"]);
  });

  test.each(["mysql", "postgresql"] as const)("%s: create / list / get / update / delete", async (engine) => {
    const h = harness();
    const id = engine === "mysql" ? 28254 : 28228;
    const created = serveFixture(h, `database_${engine}.create.json`);
    serveFixture(h, `database_${engine}.list.json`);
    serveFixture(h, `database_${engine}.get.json`);
    const updated = serveFixture(h, `database_${engine}.update.json`);
    serveFixture(h, `database_${engine}.delete.json`);
    const api = h.client.databases[engine];
    expect(await api.create(created.request as never)).toMatchObject({ id, status: "provisioning", hosts: { primary: null } });
    expect((await api.listAll()).length).toBeGreaterThan(0);
    expect(await api.get(id)).toMatchObject({ status: "active" });
    expect(await api.update(id, updated.request as never)).toMatchObject({
      status: "updating",
      updates: { frequency: "monthly", week_of_month: 3 },
    });
    await expect(api.delete(id)).resolves.toBeUndefined();
    const one = `/v4/databases/${engine}/instances/${id}`;
    expect(sent(h)).toEqual([
      `POST /v4/databases/${engine}/instances`,
      `GET /v4/databases/${engine}/instances`,
      `GET ${one}`,
      `PUT ${one}`,
      `DELETE ${one}`,
    ]);
    expect(JSON.parse(h.calls()[0]!.body as string)).toEqual(created.request);
  });

  test.each(["mysql", "postgresql"] as const)("%s: credentials, reset, ssl, patch and backups", async (engine) => {
    const h = harness();
    const id = engine === "mysql" ? 28254 : 28228;
    const backupId = engine === "mysql" ? 807908 : 805540;
    for (const name of ["credentials", "credentials_reset", "ssl", "patch", "backup_create", "backup.list", "backup.get"])
      serveFixture(h, `database_${engine}.${name}.json`);
    const one = `/v4/databases/${engine}/instances/${id}`;
    h.pool.intercept({ path: `${one}/backups/${backupId}/restore`, method: "POST" }).reply(200, {}, JSON_HEADERS);
    h.pool.intercept({ path: `${one}/backups/${backupId}`, method: "DELETE" }).reply(200, {}, JSON_HEADERS);
    const api = h.client.databases.of(engine);
    expect(await api.credentials(id)).toEqual({ username: "example-user", password: "REDACTED_PASSWORD" });
    await api.resetCredentials(id);
    expect(await api.ssl(id)).toEqual({ ca_certificate: null });
    await api.patch(id);
    await api.backups.create(id, { label: `${engine}backup`, target: "primary" });
    expect((await api.backups.listAll(id)).map((b) => b.id)).toEqual([backupId]);
    expect(await api.backups.get(id, backupId)).toMatchObject({ type: "snapshot" });
    await api.backups.restore(id, backupId);
    await api.backups.delete(id, backupId);
    expect(sent(h)).toEqual([
      `GET ${one}/credentials`,
      `POST ${one}/credentials/reset`,
      `GET ${one}/ssl`,
      `POST ${one}/patch`,
      `POST ${one}/backups`,
      `GET ${one}/backups`,
      `GET ${one}/backups/${backupId}`,
      `POST ${one}/backups/${backupId}/restore`,
      `DELETE ${one}/backups/${backupId}`,
    ]);
  });

  test("create is never retried after an ambiguous failure", async () => {
    const h = harness();
    h.pool.intercept({ path: "/v4/databases/mysql/instances", method: "POST" }).replyWithError(netError("ECONNRESET"));
    await expect(
      h.client.databases.mysql.create({ label: "once", region: "us-iad", type: "g6-nanode-1", engine: "mysql/8.0.30" }),
    ).rejects.toBeInstanceOf(ConnectionError);
    expect(h.calls()).toHaveLength(1);
    expect(h.retries).toEqual([]);
  });
});

describe("status waiters on recorded sequences", () => {
  const record = (name: string) => Database.parse(loadFixture(name).response);

  /** Polls `states` in order (the last repeats) on a fake clock advanced by `sleep`. */
  function replay(states: Database[]) {
    let clock = 0;
    let polls = 0;
    const slept: number[] = [];
    return {
      poll: async () => states[Math.min(polls++, states.length - 1)]!,
      sleep: async (ms: number) => {
        slept.push(ms);
        clock += ms;
      },
      now: () => clock,
      slept,
      polls: () => polls,
    };
  }

  test("provisioning → active (recorded), polling faster first and backing off, with progress", async () => {
    const provisioning = record("database_mysql.create.json");
    const r = replay([provisioning, provisioning, provisioning, provisioning, provisioning, record("database_mysql.get.json")]);
    const seen: Array<[string, number]> = [];
    const db = await waitForDatabaseStatus(r.poll, {
      ...r,
      timeoutMs: 3_600_000,
      intervalMs: 4_000,
      progress: (d, ms) => seen.push([d.status, ms]),
    });
    expect(db).toMatchObject({ status: "active", hosts: { primary: expect.any(String) } });
    expect(r.slept).toEqual([1000, 1500, 2250, 3375, 4000]);
    expect(seen.map(([status]) => status)).toEqual([
      "provisioning",
      "provisioning",
      "provisioning",
      "provisioning",
      "provisioning",
      "active",
    ]);
  });

  test("fails fast on failed, naming the database", async () => {
    const failed = { ...record("database_mysql.create.json"), status: "failed" };
    const r = replay([record("database_mysql.create.json"), failed]);
    const error = (await waitForDatabaseStatus(r.poll, { ...r, timeoutMs: 3_600_000, what: "database 28254 to become active" }).catch(
      (e: unknown) => e,
    )) as WaitError;
    expect(error).toBeInstanceOf(WaitError);
    expect(error.kind).toBe("failed");
    expect(error.message).toBe("gave up waiting for database 28254 to become active: database 28254 (go-mysql-test-def) is failed");
    expect(r.polls()).toBe(2);
  });

  test("degraded fails fast too, unless it is one of the awaited statuses (delete waits for any deletable one)", async () => {
    const degraded = { ...record("database_mysql.get.json"), status: "degraded" };
    await expect(waitForDatabaseStatus(replay([degraded]).poll, { timeoutMs: 1000 })).rejects.toMatchObject({ kind: "failed" });
    const during = record("database_mysql.get.during_backup.json");
    const r = replay([during, degraded]);
    await expect(
      waitForDatabaseStatus(r.poll, { ...r, timeoutMs: 60_000, until: ["active", "failed", "degraded"] }),
    ).resolves.toMatchObject({ status: "degraded" });
  });

  test("an update sequence (updating → active) through the client's own waiter", async () => {
    const h = harness();
    for (const name of ["database_mysql.update.json", "database_mysql.get.during_patch.json", "database_mysql.get.after_update.json"]) {
      const f = loadFixture(name);
      h.pool.intercept({ path: "/v4/databases/mysql/instances/28254", method: "GET" }).reply(200, f.response as object, JSON_HEADERS);
    }
    const slept: number[] = [];
    const db = await h.client.databases.mysql.waitForStatus(28254, { timeoutMs: 60_000, sleep: async (ms) => void slept.push(ms) });
    expect(db.status).toBe("active");
    expect(slept).toEqual([1000, 1500]);
  });

  test("times out with the last record", async () => {
    const r = replay([record("database_mysql.create.json")]);
    const error = (await waitForDatabaseStatus(r.poll, { ...r, timeoutMs: 10_000, intervalMs: 5_000 }).catch(
      (e: unknown) => e,
    )) as WaitError;
    expect(error.kind).toBe("timeout");
    expect((error.last as Database).status).toBe("provisioning");
  });
});
