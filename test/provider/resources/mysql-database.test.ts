/**
 * The MysqlDatabase provider's methods (and so the database life both engines share,
 * `database-common.ts`) called directly against the emulator over HTTP, at a time scale where
 * provisioning takes well under a second: waiting with progress, the maintenance window applied
 * once active, secrets, canonical allow lists, in-place updates and resizes, replacements, drift,
 * a forced provisioning failure kept in state and then replaced, deletes that wait, degraded databases.
 */
import { DATABASE_REASONS } from "../../../sdk/resources/databases";
import { provider } from "../../../provider/registry";
import { ResourceInitError, diff } from "../../../provider/engine/engine";
import { resourceOptions } from "../../../provider/classes/resource";
import { UNKNOWN } from "../../../provider/engine/values";
import { mysqlDatabaseSpec } from "../../../provider/resources/mysql-database";
import { useProviderHarness } from "../harness";

jest.setTimeout(60_000);

// 15–30 minutes of provisioning in 0.3–0.6 s; an update's minute in 20 ms.
const harness = useProviderHarness({ timeScale: 3000 });
const mysql = provider("MysqlDatabase");
let logged: string[] = [];
let logSpy: jest.SpyInstance;
beforeEach(() => {
  logged = [];
  logSpy = jest.spyOn(console, "log").mockImplementation((...args: unknown[]) => void logged.push(args.join(" ")));
});
afterEach(() => logSpy.mockRestore());

const base = { label: "app-db", region: "us-iad", type: "g6-nanode-1", engineId: "mysql/8.0.30" };
/** What a finished create always records (`known` outputs): a state without them diffs as an update that settles it. */
const settled = { hosts: { primary: "lin-1-primary.servers.computedb.net", secondary: null }, rootUsername: "root", rootPassword: "pw" };
const window = { frequency: "weekly", duration: 1, hourOfDay: 3, dayOfWeek: 7 };
const requests = (method: string) =>
  harness.emulator.control
    .listRequests()
    .filter((r) => r.method === method)
    .map((r) => r.path);

describe("check", () => {
  const failures = async (inputs: Record<string, unknown>) => (await mysql.check!({}, inputs)).failures ?? [];

  test("refuses bad inputs at preview, naming the field, with the API's texts", async () => {
    expect(await failures({ ...base, label: "ab" })).toEqual([{ property: "label", reason: DATABASE_REASONS.labelLength }]);
    expect(await failures({ ...base, engineId: "postgresql/14.6" })).toEqual([
      { property: "engineId", reason: "engineId must be a mysql version, such as mysql/8.0.30" },
    ]);
    expect(await failures({ ...base, clusterSize: 2 })).toEqual([
      { property: "clusterSize", reason: DATABASE_REASONS.clusterSize.replace("cluster_size", "clusterSize") },
    ]);
    expect(await failures({ ...base, allowList: ["203.0.113.1", "nope"] })).toEqual([
      { property: "", reason: `allowList[1]: ${DATABASE_REASONS.allowListEntry}` },
    ]);
    expect(await failures({ ...base, updates: { duration: 9, hourOfDay: 1, dayOfWeek: 1 } })).toEqual([
      { property: "", reason: "updates.duration: duration must be an integer from 1 to 3 (hours)" },
    ]);
    expect(await failures({ ...base, updates: { frequency: "monthly", duration: 1, hourOfDay: 1, dayOfWeek: 1 } })).toEqual([
      { property: "", reason: "updates.weekOfMonth: weekOfMonth is required when frequency is monthly" },
    ]);
    expect(await failures({ ...base, replicationType: "asynch" })).toEqual([
      { property: "replicationType", reason: "replicationType must be none for a single node cluster" },
    ]);
    expect(await failures({ ...base, replicationCommitType: "local" })).toEqual([
      expect.objectContaining({ property: "replicationCommitType", reason: expect.stringContaining("not an input of MysqlDatabase") }),
    ]);
    expect(harness.emulator.control.listRequests()).toEqual([]);
  });

  test("lets preview's unknown values through", async () => {
    expect(await failures({ ...base, label: UNKNOWN, allowList: [UNKNOWN], updates: { ...window, hourOfDay: UNKNOWN } })).toEqual([]);
  });

  test("the root password and the CA certificate are secret outputs", () => {
    expect(resourceOptions(mysqlDatabaseSpec).additionalSecretOutputs).toEqual(["rootPassword", "caCert"]);
  });
});

describe("diff", () => {
  const recorded = {
    ...base,
    ...settled,
    clusterSize: 1,
    encrypted: false,
    sslConnection: false,
    replicationType: "none",
    status: "active",
    allowList: ["203.0.113.1", "192.0.2.0/24"],
    updates: { frequency: "weekly", duration: 1, hourOfDay: 3, dayOfWeek: 7, weekOfMonth: null },
  };

  test("natural spellings are no change: a bare address is its /32, order does not matter, defaults fill the window", () => {
    expect(diff(mysqlDatabaseSpec, recorded, { ...base, allowList: ["192.0.2.0/24", "203.0.113.1/32"], updates: window })).toMatchObject({
      changes: false,
      replaces: [],
      deleteBeforeReplace: true,
    });
  });

  test("allow list, label, type and window change in place; region, engine and cluster size replace", () => {
    expect(diff(mysqlDatabaseSpec, recorded, { ...base, allowList: ["198.51.100.7"] })).toMatchObject({ changes: true, replaces: [] });
    expect(diff(mysqlDatabaseSpec, recorded, { ...recorded, type: "g6-standard-1" })).toMatchObject({ changes: true, replaces: [] });
    expect(diff(mysqlDatabaseSpec, recorded, { ...recorded, updates: { ...window, hourOfDay: 4 } })).toMatchObject({
      changes: true,
      replaces: [],
    });
    // The label is unique: an unchanged one collides, so the old database goes first.
    expect(diff(mysqlDatabaseSpec, recorded, { ...recorded, region: "us-ord" })).toMatchObject({
      changes: true,
      replaces: ["region"],
      deleteBeforeReplace: true,
    });
    expect(diff(mysqlDatabaseSpec, recorded, { ...recorded, engineId: "mysql/5.7.39", label: "new-db" })).toMatchObject({
      changes: true,
      replaces: ["engineId"],
      deleteBeforeReplace: false,
    });
    expect(diff(mysqlDatabaseSpec, recorded, { ...recorded, clusterSize: 3 }).replaces).toMatchObject(["clusterSize"]);
    expect(diff(mysqlDatabaseSpec, recorded, { ...recorded, sslConnection: true }).replaces).toMatchObject(["sslConnection"]);
  });

  test("a failed database is replaced even though no input changed", () => {
    expect(diff(mysqlDatabaseSpec, { ...recorded, status: "failed" }, recorded)).toMatchObject({
      changes: true,
      replaces: ["status"],
      deleteBeforeReplace: true,
    });
    expect(diff(mysqlDatabaseSpec, { ...recorded, status: "degraded" }, recorded).replaces).toMatchObject([]);
  });
});

describe("engine ids: the major alone (today's form) or a full version (the 4.174 catalog's)", () => {
  const failures = async (inputs: Record<string, unknown>) => (await mysql.check!({}, inputs)).failures ?? [];
  const pgFailures = async (inputs: Record<string, unknown>) => (await provider("PostgresqlDatabase").check!({}, inputs)).failures ?? [];

  test("check refuses an unknown major at preview, before any request", async () => {
    expect(await failures({ ...base, engineId: "mysql/9" })).toEqual([
      {
        property: "engineId",
        reason: "engineId must be a major version on offer (mysql/8); mysql 9 is not (getDatabaseEngines lists them)",
      },
    ]);
    // A major of the 4.174 catalog that today's API no longer offers is taken only with its full version.
    expect((await failures({ ...base, engineId: "mysql/5" }))[0]?.reason).toContain("mysql 5 is not");
    expect(await failures({ ...base, engineId: "mysql/9.1.0" })).toEqual([
      { property: "engineId", reason: "engineId must be a version of a major mysql has had (5, 8); there is no mysql 9" },
    ]);
    expect((await pgFailures({ ...base, engineId: "postgresql/18" }))[0]?.reason).toContain(
      "(postgresql/13, postgresql/14, postgresql/15, postgresql/16, postgresql/17)",
    );
    expect(harness.emulator.control.listRequests()).toEqual([]);
  });

  test("check takes what the API offers (a listed major, a full version it knows), and refuses what it would refuse, with reads only", async () => {
    for (const engineId of ["mysql/8", "mysql/8.0.30", "mysql/5.7.39"]) expect(await failures({ ...base, engineId })).toEqual([]);
    for (const engineId of ["postgresql/13", "postgresql/16", "postgresql/17", "postgresql/14.6", "postgresql/10.23"])
      expect(await pgFailures({ ...base, engineId })).toEqual([]);
    // Of a major on offer, but not a version the API provisions: the create would be refused.
    for (const engineId of ["mysql/8.0.99", "mysql/8.0"]) {
      expect(await failures({ ...base, engineId })).toEqual([
        {
          property: "engineId",
          reason: `engineId ${engineId} is not on offer (now: mysql/8); getDatabaseEngines lists the versions a new database can use`,
        },
      ]);
    }
    // An existing database keeps its engine: no check, no request.
    const mark = harness.emulator.control.listRequests().length;
    expect((await mysql.check!({ ...base, engineId: "mysql/8.0.99" }, { ...base, engineId: "mysql/8.0.99" })).failures ?? []).toEqual([]);
    expect(harness.emulator.control.listRequests().slice(mark)).toEqual([]);
    // Reads only: the listing once per process, each full version once, and the label's lookups of the inputs that pass.
    const requests = harness.emulator.control.listRequests().map((r) => `${r.method} ${r.path}`);
    const reads = [
      "GET /v4/databases/engines",
      "GET /v4/regions",
      "GET /v4/databases/mysql/instances",
      "GET /v4/databases/postgresql/instances",
    ];
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((r) => reads.some((read) => r.startsWith(read)))).toBe(true);
    expect(requests.filter((r) => /^GET \/v4\/databases\/engines(\?.*)?$/.test(r))).toHaveLength(1);
  });

  test("a database asked for as mysql/8 runs 8.x: no diff against its read-back version, a real engine change still replaces", () => {
    const recorded = { ...base, ...settled, engineId: "mysql/8", engine: "mysql", version: "8.0.30" };
    for (const engineId of ["mysql/8", "mysql/8.0", "mysql/8.0.30"])
      expect(diff(mysqlDatabaseSpec, recorded, { ...base, engineId })).toMatchObject({ changes: false });
    // Recorded in the full form, asked for by its major: the same database.
    expect(diff(mysqlDatabaseSpec, { ...recorded, engineId: "mysql/8.0.30" }, { ...base, engineId: "mysql/8" })).toMatchObject({
      changes: false,
    });
    // The engine changed behind Pulumi's back (a read records what the API reports): drift, and a replacement.
    const changed = { ...recorded, engineId: "mysql/5.7.39", version: "5.7.39" };
    expect(diff(mysqlDatabaseSpec, changed, { ...base, engineId: "mysql/8" })).toMatchObject({ changes: true, replaces: ["engineId"] });
    expect(diff(mysqlDatabaseSpec, recorded, { ...base, engineId: "mysql/8.0.35" })).toMatchObject({ replaces: ["engineId"] });
  });

  test("created as mysql/8: the newest 8.x, recorded with the program's spelling, read back without a diff", async () => {
    const created = await mysql.create({ ...base, engineId: "mysql/8" });
    expect(created.outs).toMatchObject({ engineId: "mysql/8", engine: "mysql", version: "8.0.35" });
    const read = await mysql.read!(created.id, created.outs);
    expect(read.props).toMatchObject({ engineId: "mysql/8", version: "8.0.35" });
    expect(diff(mysqlDatabaseSpec, read.props!, { ...base, engineId: "mysql/8" })).toMatchObject({ changes: false });
    expect(harness.emulator.control.listRequests().filter((r) => r.method === "POST" && r.path.endsWith("/instances"))).toHaveLength(1);
  });
});

describe("life cycle against the emulator", () => {
  test("create waits for active with progress, applies the maintenance window, and records secrets and hosts", async () => {
    const created = await mysql.create({ ...base, allowList: ["203.0.113.1", "192.0.2.0/24"], updates: window });
    const db = await harness.client.databases.mysql.get(Number(created.id));
    const credentials = await harness.client.databases.mysql.credentials(db.id);
    const ssl = await harness.client.databases.mysql.ssl(db.id);
    expect(created.outs).toMatchObject({
      ...base,
      status: "active",
      hosts: { primary: db.hosts.primary, secondary: db.hosts.secondary },
      port: 3306,
      version: "8.0.30",
      engine: "mysql",
      clusterSize: 1,
      encrypted: false,
      sslConnection: false,
      replicationType: "none",
      allowList: ["203.0.113.1", "192.0.2.0/24"],
      updates: { frequency: "weekly", duration: 1, hourOfDay: 3, dayOfWeek: 7, weekOfMonth: null },
      rootUsername: "linroot",
      rootPassword: credentials.password,
      caCert: ssl.ca_certificate,
    });
    expect(db.hosts.primary).toEqual(expect.any(String));
    // One create, then the window once active (the API refuses updates before).
    expect(requests("POST")).toEqual(["/v4/databases/mysql/instances"]);
    expect(requests("PUT")).toEqual([`/v4/databases/mysql/instances/${db.id}`]);
    expect(
      logged.some(
        (line) =>
          line.startsWith(`MySQL database ${db.id} (app-db): waiting for active, `) &&
          line.includes(": provisioning (usually 15–30 min at real speed)"),
      ),
    ).toBe(true);
    expect(logged).toContain(`MySQL database ${db.id} (app-db): applying the maintenance window`);
  });

  test("an allow list and a type change update in place; the resize is waited for", async () => {
    const created = await mysql.create({ ...base, allowList: ["203.0.113.1"] });
    const news = { ...base, type: "g6-standard-1", allowList: ["203.0.113.1", "198.51.100.0/24"] };
    const updated = await mysql.update!(created.id, created.outs, news);
    expect(updated.outs).toMatchObject({
      status: "active",
      type: "g6-standard-1",
      allowList: ["203.0.113.1", "198.51.100.0/24"],
      rootPassword: created.outs.rootPassword,
    });
    const db = await harness.client.databases.mysql.get(Number(created.id));
    expect(db).toMatchObject({ status: "active", type: "g6-standard-1", allow_list: ["203.0.113.1", "198.51.100.0/24"] });
    expect(logged).toContain(`MySQL database ${created.id}: resizing from g6-nanode-1 to g6-standard-1`);
    const events = await harness.client.account.events.listAll({ filter: { "entity.id": db.id } });
    expect(events.map((e) => `${e.action}:${e.status}`).sort()).toEqual([
      "database_create:finished",
      "database_resize:finished",
      "database_update:finished",
    ]);
  });

  test("read reports an allow list changed behind Pulumi's back, and keeps the program's spelling otherwise", async () => {
    const created = await mysql.create({ ...base, allowList: ["203.0.113.1"] });
    expect((await mysql.read!(created.id, created.outs)).props!.allowList).toEqual(["203.0.113.1"]);
    // Time stands still while the update is read, so the database is still `updating` however slow the machine.
    harness.emulator.control.setClock({ scale: 0 });
    let read;
    try {
      await harness.client.databases.mysql.update(Number(created.id), { allow_list: ["0.0.0.0/0"] });
      read = await mysql.read!(created.id, created.outs);
    } finally {
      harness.emulator.control.setClock({ scale: 3000 });
    }
    expect(read.props).toMatchObject({ allowList: ["0.0.0.0/0"], status: "updating", rootPassword: created.outs.rootPassword });
    expect(diff(mysqlDatabaseSpec, read.props!, { ...base, allowList: ["203.0.113.1"] })).toMatchObject({ changes: true, replaces: [] });
  });

  test("a provisioning that ends failed: a clear error, the database kept in state, then replaced and nothing left over", async () => {
    harness.emulator.control.databases.failNextProvisioning();
    const error = (await mysql.create({ ...base }).catch((e: unknown) => e)) as ResourceInitError;
    expect(error).toBeInstanceOf(ResourceInitError);
    const [db] = await harness.client.databases.mysql.listAll();
    expect(error.id).toBe(String(db!.id));
    expect(error.message).toContain(`MySQL database ${db!.id} (app-db) is failed: the platform could not bring it up`);
    expect(error.message).toContain("the next `pulumi up` replaces it");
    expect(error.properties).toMatchObject({ status: "failed", label: "app-db", engineId: "mysql/8.0.30" });
    // The next `up`: the recorded database is failed, so it is replaced, the old one deleted first.
    expect(diff(mysqlDatabaseSpec, error.properties, base)).toMatchObject({
      changes: true,
      replaces: ["status"],
      deleteBeforeReplace: true,
    });
    await mysql.delete!(error.id, error.properties);
    const replacement = await mysql.create({ ...base });
    expect(replacement.outs.status).toBe("active");
    expect((await harness.client.databases.instances.listAll()).map((d) => d.id)).toEqual([Number(replacement.id)]);
  });

  test("delete waits until the status allows it", async () => {
    const created = await mysql.create({ ...base });
    // Time stands still until the delete has seen the backup running, however slow the machine; then it runs again.
    harness.emulator.control.setClock({ scale: 0 });
    let deleting: Promise<void>;
    try {
      await harness.client.databases.mysql.backups.create(Number(created.id), { label: "snap" });
      expect((await harness.client.databases.mysql.get(Number(created.id))).status).toBe("backing_up");
      deleting = mysql.delete!(created.id, created.outs);
      while (!logged.some((line) => line.includes("waiting for a status that allows a delete, ") && line.endsWith(": backing_up"))) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      harness.emulator.control.setClock({ scale: 3000 });
    }
    await deleting;
    expect(await harness.client.databases.instances.listAll()).toEqual([]);
    expect(logged.some((line) => line.includes("waiting for a status that allows a delete, ") && line.endsWith(": backing_up"))).toBe(true);
  });

  test("a degraded database is reported clearly and the update fails without touching it", async () => {
    const created = await mysql.create({ ...base });
    harness.emulator.control.databases.setStatus(Number(created.id), { status: "degraded" });
    await expect(mysql.update!(created.id, created.outs, { ...base, label: "renamed" })).rejects.toThrow(
      `MySQL database ${created.id} (app-db) is degraded: a node of the cluster is unhealthy. It stays recorded in the stack`,
    );
    expect(requests("PUT")).toEqual([]);
    // A degraded database can still be deleted.
    await mysql.delete!(created.id, created.outs);
    expect(await harness.client.databases.instances.listAll()).toEqual([]);
  });

  test("a create that outlives its deadline names the timeout to raise, and the database stays recorded", async () => {
    harness.emulator.control.setClock({ scale: 0 }); // time stands still: provisioning never ends
    try {
      const error = (await mysql.create({ ...base, timeouts: { create: "2s" } }).catch((e: unknown) => e)) as ResourceInitError;
      expect(error).toBeInstanceOf(ResourceInitError);
      expect(error.message).toContain("MySQL database create did not finish within 2s (raise timeouts.create to wait longer)");
      expect(error.properties).toMatchObject({ status: "provisioning", timeouts: { create: "2s" } });
      expect(error.id).toBe(String((await harness.client.databases.mysql.listAll())[0]!.id));
    } finally {
      harness.emulator.control.setClock({ scale: 3000 });
    }
  });
});
