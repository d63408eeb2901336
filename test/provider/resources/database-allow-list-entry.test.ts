/**
 * The DatabaseAllowListEntry provider against the emulator over HTTP: an address added to a
 * database's allow list and removed again with every other address left exactly as read; an
 * address already there adopted, not doubled; the entries of one `up` in one write; two provider
 * processes writing one list at once never losing an address; a write someone else's stale write
 * erased made again; a database that is not active waited for, on the row; a write refused because
 * another writer's update got in first read and made again; an address removed by hand read as
 * gone. Check refuses a database whose resource in this program gives `allowList`; the database
 * resources leave an allow list they are not given alone.
 */
import { DATABASE_REASONS } from "../../../sdk/resources/databases";
import { checkAndDerive, diff, makeProvider } from "../../../provider/engine/engine";
import { ProviderContext } from "../../../provider/engine/context";
import { managedDrift } from "../../../provider/engine/managed-drift";
import { sharedWritesOf } from "../../../provider/engine/shared-writes";
import { UNKNOWN } from "../../../provider/engine/values";
import { databaseAllowListEntrySpec } from "../../../provider/resources/database-allow-list-entry";
import { mysqlDatabaseSpec } from "../../../provider/resources/mysql-database";
import { postgresqlDatabaseSpec } from "../../../provider/resources/postgresql-database";
import { provider } from "../../../provider/registry";
import { useProviderHarness } from "../harness";

jest.setTimeout(60_000);

const PROVIDER = { __provider: "exports.handler = …" };
const SCALE = 3000; // provisioning in 0.3–0.6 s, an update's minute in 20 ms
const harness = useProviderHarness({ timeScale: SCALE });

/** A provider process of its own: its context (lines it prints kept), its shared writes, its declarations. */
function process() {
  const lines: string[] = [];
  const ctx = new ProviderContext(
    (key) => harness.config[key],
    (line) => lines.push(line),
  );
  return {
    ctx,
    lines,
    entries: makeProvider(databaseAllowListEntrySpec, () => ctx),
    mysql: makeProvider(mysqlDatabaseSpec, () => ctx),
  };
}

const entryArgs = (databaseId: number | string, address: string, engine = "mysql") => ({
  ...PROVIDER,
  engine,
  databaseId: String(databaseId),
  address,
});

const dbBase = { label: "shared-db", region: "us-iad", type: "g6-nanode-1", engineId: "mysql/8.0.30" };

/** An active MySQL database made through the API with `foreign` addresses (another stack's, the console's). */
async function databaseWith(foreign: string[], label = "shared-db") {
  const db = await harness.client.databases.mysql.create({
    label,
    region: "us-iad",
    type: "g6-nanode-1",
    engine: "mysql/8.0.30",
    allow_list: foreign,
  });
  harness.emulator.control.databases.setStatus(db.id, { status: "active" });
  return db;
}

const allowList = async (id: number) => (await harness.client.databases.mysql.get(id)).allow_list;
const requests = () =>
  harness.emulator.control.listRequests().map((r) => `${r.method} ${r.path.replace(/\?.*$/, "").replace(/\/\d+/g, "/{id}")}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `found` holds, polling every 5 ms. */
async function until(found: () => boolean | Promise<boolean>, what: string, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!(await found())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

const activeAgain = (id: number) =>
  until(async () => (await harness.client.databases.mysql.get(id)).status === "active", `database ${id} active`);

describe("check", () => {
  const failuresOf = async (inputs: Record<string, unknown>, ctx = process().ctx) =>
    (await checkAndDerive(databaseAllowListEntrySpec, {}, inputs, () => ctx)).failures ?? [];

  test("accepts an address or a range, IPv4 or IPv6, and returns it unchanged", async () => {
    const db = await databaseWith([]);
    for (const address of ["203.0.113.7", "192.0.2.0/24", "2001:DB8::1", "2001:db8::/64"]) {
      const inputs = entryArgs(db.id, address);
      expect(await checkAndDerive(databaseAllowListEntrySpec, {}, inputs, () => process().ctx)).toEqual({ inputs });
    }
  });

  test("refuses what the API refuses, with its texts, and names missing inputs", async () => {
    expect(await failuresOf(entryArgs(7, "203.0.113.300"))).toEqual([{ property: "address", reason: DATABASE_REASONS.allowListEntry }]);
    expect(await failuresOf(entryArgs(7, "192.0.2.0/33"))).toEqual([{ property: "address", reason: DATABASE_REASONS.allowListEntry }]);
    expect(await failuresOf({ ...PROVIDER, engine: "mariadb" })).toEqual(
      expect.arrayContaining([
        { property: "engine", reason: "engine must be mysql or postgresql" },
        { property: "databaseId", reason: "databaseId is required" },
        { property: "address", reason: "address is required" },
      ]),
    );
    expect(harness.emulator.control.listRequests()).toEqual([]);
  });

  test("refuses a database whose MysqlDatabase in this program sets allowList, saying which to use", async () => {
    const db = await databaseWith(["192.0.2.0/24"]);
    const { ctx, mysql } = process();
    // The database resource's diff (at preview) says that it owns the list.
    const recorded = { ...dbBase, allowList: ["192.0.2.0/24"] };
    await mysql.diff!(String(db.id), recorded, { ...PROVIDER, ...recorded });
    const failures = await failuresOf(entryArgs(db.id, "203.0.113.7"), ctx);
    expect(failures).toHaveLength(1);
    expect(failures[0]!.property).toBe("databaseId");
    expect(failures[0]!.reason).toMatch(
      /MySQL database \d+ has its allow list set by a MysqlDatabase resource of this program \(its allowList\).*add "203\.0\.113\.7" to that MysqlDatabase's allowList and remove this DatabaseAllowListEntry.*remove allowList from the MysqlDatabase/,
    );
    // A MysqlDatabase without allowList leaves the list to DatabaseAllowListEntry resources.
    const other = process();
    await other.mysql.diff!(String(db.id), recorded, { ...PROVIDER, ...dbBase });
    expect(await failuresOf(entryArgs(db.id, "203.0.113.7"), other.ctx)).toEqual([]);
    expect(requests().filter((r) => !r.startsWith("GET"))).toEqual(["POST /v4/databases/mysql/instances"]);
  });

  test("refuses a database that is not there, naming the engine as a likely cause", async () => {
    const db = await databaseWith([]);
    const failures = await failuresOf(entryArgs(db.id, "203.0.113.7", "postgresql"));
    expect(failures).toEqual([
      {
        property: "databaseId",
        reason: `there is no PostgreSQL database ${db.id}: check databaseId, and engine ("mysql" if it is a MySQL database)`,
      },
    ]);
  });

  test("lets preview's unknown database id through", async () => {
    expect(await failuresOf({ ...entryArgs(7, "203.0.113.7"), databaseId: UNKNOWN })).toEqual([]);
  });
});

describe("against the emulator", () => {
  test("create adds the address, read finds it, delete removes exactly it; every other address stays as read", async () => {
    const db = await databaseWith(["192.0.2.0/24", "2001:db8::/64"]);
    const { entries } = process();
    const made = await entries.create!(entryArgs(db.id, "203.0.113.7"));
    expect(made).toMatchObject({
      id: `mysql:${db.id}:203.0.113.7/32`,
      outs: { engine: "mysql", databaseId: db.id, address: "203.0.113.7" },
    });
    expect(await allowList(db.id)).toEqual(["192.0.2.0/24", "2001:db8::/64", "203.0.113.7"]);
    expect((await entries.read!(made.id, made.outs)).props).toMatchObject({ address: "203.0.113.7", databaseId: db.id });
    // The database is active again once the create is done: its own update applied.
    expect((await harness.client.databases.mysql.get(db.id)).status).toBe("active");
    await entries.delete!(made.id, made.outs);
    expect(await allowList(db.id)).toEqual(["192.0.2.0/24", "2001:db8::/64"]);
    expect((await entries.read!(made.id, made.outs)).props).toBeUndefined();
  });

  test("an address already in the list (in any spelling) is adopted: no write, nothing twice", async () => {
    const db = await databaseWith(["203.0.113.7/32", "192.0.2.0/24"]);
    const start = requests().length;
    const made = await process().entries.create!(entryArgs(db.id, "203.0.113.7"));
    expect(made.outs).toMatchObject({ address: "203.0.113.7" }); // the program's spelling
    expect(
      requests()
        .slice(start)
        .filter((r) => r.startsWith("PUT")),
    ).toEqual([]);
    expect(await allowList(db.id)).toEqual(["203.0.113.7/32", "192.0.2.0/24"]);
  });

  test("the entries of one up share their reads and one write; none is lost", async () => {
    const db = await databaseWith(["192.0.2.0/24"]);
    const start = requests().length;
    const entries = provider("DatabaseAllowListEntry"); // the registry's process, as the engine runs it
    const made = await Promise.all(Array.from({ length: 8 }, (_, i) => entries.create!(entryArgs(db.id, `198.51.100.${i + 1}`))));
    const sent = requests().slice(start);
    expect(sent.filter((r) => r.startsWith("PUT"))).toEqual(["PUT /v4/databases/mysql/instances/{id}"]);
    expect(await allowList(db.id)).toEqual(["192.0.2.0/24", ...made.map((_, i) => `198.51.100.${i + 1}`)]);
  });

  test("an address removed by hand: read reports the entry gone, and the next create adds it again", async () => {
    const db = await databaseWith(["192.0.2.0/24"]);
    const { entries } = process();
    const made = await entries.create!(entryArgs(db.id, "203.0.113.7"));
    await harness.client.databases.mysql.update(db.id, { allow_list: ["192.0.2.0/24"] });
    expect((await entries.read!(made.id, made.outs)).props).toBeUndefined();
    await activeAgain(db.id);
    await entries.create!(entryArgs(db.id, "203.0.113.7"));
    expect(await allowList(db.id)).toEqual(["192.0.2.0/24", "203.0.113.7"]);
    // A database that is gone takes its entries with it: gone too, and a delete has nothing to do.
    await harness.client.databases.mysql.delete(db.id);
    expect((await entries.read!(made.id, made.outs)).props).toBeUndefined();
    await entries.delete!(made.id, made.outs);
  });

  test("a database that is not active is waited for, said on the row, then written", async () => {
    const db = await databaseWith(["192.0.2.0/24"]);
    const { entries, lines } = process();
    // Time stands still: an update of the database by someone else stays `updating` until it runs again.
    harness.emulator.control.setClock({ scale: 0 });
    let created;
    try {
      await harness.client.databases.mysql.update(db.id, { label: "renamed-db" });
      created = entries.create!(entryArgs(db.id, "203.0.113.7"));
      await until(() => lines.some((l) => l.includes("waiting for active")), "the wait's status line");
      expect(requests().filter((r) => r.startsWith("PUT"))).toHaveLength(1); // only the other update
    } finally {
      harness.emulator.control.setClock({ scale: SCALE });
    }
    await created;
    expect(await allowList(db.id)).toEqual(["192.0.2.0/24", "203.0.113.7"]);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^MySQL database ${db.id} \\(renamed-db\\): waiting for active, \\S+ so far: updating$`)),
        expect.stringMatching(new RegExp(`^MySQL database ${db.id} \\(renamed-db\\): active after \\S+; done waiting$`)),
      ]),
    );
  });

  test("a write someone else's stale write erased is written again", async () => {
    const db = await databaseWith(["192.0.2.0/24"]);
    const { ctx, entries, lines } = process();
    // A long wait before the confirming read leaves room for the other writer.
    const writes = sharedWritesOf(ctx, { gatherMs: 5, minWaitMs: 1000, maxWaitMs: 1000, maxWrites: 4, random: Math.random });
    const stale = await allowList(db.id); // the other writer's read, from before ours
    const created = entries.create!(entryArgs(db.id, "203.0.113.7"));
    await until(() => harness.emulator.control.listRequests().some((r) => r.method === "PUT" && r.status === 200), "our write");
    await activeAgain(db.id);
    await harness.client.databases.mysql.update(db.id, { allow_list: [...stale, "198.51.100.9"] });
    await created;
    expect(await allowList(db.id)).toEqual(["192.0.2.0/24", "198.51.100.9", "203.0.113.7"]);
    expect(writes.stats).toMatchObject({ writes: 2, rewrites: 1, busy: 0 });
    expect(lines.join("\n")).toContain(
      `MySQL database ${db.id} allow list: address "203.0.113.7" no longer there after a write by someone else; writing it again`,
    );
  });

  test("a write refused because another writer's update got in first is read and made again", async () => {
    const db = await databaseWith(["192.0.2.0/24"]);
    const { ctx, entries, lines } = process();
    const writes = sharedWritesOf(ctx);
    // Our PUT lands late; the other writer's read and PUT go in meanwhile, and the clock stands
    // still until ours is refused (the database `updating`).
    harness.emulator.control.addFault({
      pathPattern: "/v4/databases/mysql/instances/*",
      method: "PUT",
      kind: "latency",
      latencyMs: 1000,
      count: 1,
    });
    const created = entries.create!(entryArgs(db.id, "203.0.113.7"));
    await until(() => harness.emulator.control.listRequests().some((r) => r.method === "PUT"), "our write to arrive");
    harness.emulator.control.setClock({ scale: 0 });
    try {
      await harness.client.databases.mysql.update(db.id, { allow_list: [...(await allowList(db.id)), "198.51.100.9"] });
      await until(() => writes.stats.busy === 1, "the refusal");
    } finally {
      harness.emulator.control.setClock({ scale: SCALE });
    }
    await created;
    expect(await allowList(db.id)).toEqual(["192.0.2.0/24", "198.51.100.9", "203.0.113.7"]);
    expect(writes.stats).toMatchObject({ busy: 1, rewrites: 0 });
    expect(lines.join("\n")).toContain(
      `MySQL database ${db.id} allow list: refused while another write was being applied; waiting to write again`,
    );
  });

  test("two provider processes writing one allow list at once, with slow writes, never lose a foreign address or each other's", async () => {
    // Writes land late, so a write is often built on a read from before the other's, or refused while it is applied.
    harness.emulator.control.addFault({
      pathPattern: "/v4/databases/mysql/instances/*",
      method: "PUT",
      kind: "latency",
      latencyMs: 120,
      rate: 0.5,
    });
    for (let round = 0; round < 3; round++) {
      const db = await databaseWith(["192.0.2.0/24"], `shared-db-${round}`);
      const a = process();
      const b = process();
      await Promise.all([
        ...[1, 2].map((i) => a.entries.create!(entryArgs(db.id, `198.51.100.${i}`))),
        ...[1, 2].map((i) => b.entries.create!(entryArgs(db.id, `203.0.113.${i}`))),
      ]);
      const list = await allowList(db.id);
      expect(list[0]).toBe("192.0.2.0/24");
      expect([...list].sort()).toEqual(["192.0.2.0/24", "198.51.100.1", "198.51.100.2", "203.0.113.1", "203.0.113.2"]);
    }
  }, 120_000);
});

describe("the database resources leave an allow list they are not given alone", () => {
  // What a finished create always records (`known` outputs), so only the allow list can differ.
  const settled = {
    hosts: { primary: "lin-1-primary.servers.computedb.net", secondary: null },
    rootUsername: "linroot",
    rootPassword: "pw",
  };
  const recorded = { ...dbBase, ...settled, clusterSize: 1, encrypted: false, status: "active", allowList: ["192.0.2.0/24"] };

  test("no diff and no drift when the list changed behind their back", () => {
    const changed = { ...recorded, allowList: ["192.0.2.0/24", "203.0.113.7"] };
    for (const spec of [mysqlDatabaseSpec, postgresqlDatabaseSpec]) {
      expect(diff(spec, changed, dbBase)).toMatchObject({ changes: false });
      expect(managedDrift(spec, recorded, changed, dbBase)).toEqual([]);
      // Given, the list is the program's: a change is a diff and drift.
      expect(diff(spec, changed, { ...dbBase, allowList: ["192.0.2.0/24"] })).toMatchObject({ changes: true, diffs: ["allowList"] });
      expect(managedDrift(spec, recorded, changed, { ...dbBase, allowList: ["192.0.2.0/24"] })).toMatchObject([{ field: "allowList" }]);
    }
  });

  test("an update of another field never sends the list; the entries added meanwhile stay", async () => {
    const { entries, mysql } = process();
    const created = await mysql.create({ ...PROVIDER, ...dbBase });
    const id = Number(created.id);
    expect(created.outs.allowList).toEqual([]);
    await entries.create!(entryArgs(id, "203.0.113.7"));
    const read = await mysql.read!(created.id, created.outs);
    expect(read.props).toMatchObject({ allowList: ["203.0.113.7"] });
    expect(diff(mysqlDatabaseSpec, read.props!, dbBase)).toMatchObject({ changes: false });
    const start = harness.emulator.control.listRequests().length;
    await mysql.update!(created.id, read.props!, { ...PROVIDER, ...dbBase, label: "renamed-db" });
    expect(await allowList(id)).toEqual(["203.0.113.7"]);
    expect(
      harness.emulator.control
        .listRequests()
        .slice(start)
        .filter((r) => r.method === "PUT"),
    ).toHaveLength(1);
  });
});
