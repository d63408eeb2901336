/**
 * Reading the stacks and a stack's lock entries where the engine writes them, without the engine: a
 * `file://` folder, and a `postgres://` backend on a real server (test/support/postgres.ts).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  backendUrlOf,
  describeLocks,
  readLockEntries,
  readLocks,
  readStacks,
  removeLockEntries,
} from "../../../provider/stores/backend-store";
import { startPostgres, type RunningPostgres } from "../../support/postgres";

jest.setTimeout(180_000);

const holder = { pid: 4242, username: "ci", hostname: "runner-2", timestamp: "2026-11-25T23:00:00Z" };

test("file:// backends: the files under .pulumi/locks/<stack>/", async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "pc-locks-"));
  try {
    expect(await readLocks(`file://${root}`, "organization/app/prod")).toEqual([]);
    expect(await readStacks(`file://${root}`)).toEqual([]);
    fs.mkdirSync(path.join(root, ".pulumi/stacks/app"), { recursive: true });
    fs.mkdirSync(path.join(root, ".pulumi/stacks/network"), { recursive: true });
    for (const f of ["app/prod.json", "app/prod.json.bak", "app/staging.json", "network/prod.json"])
      fs.writeFileSync(path.join(root, ".pulumi/stacks", f), "{}");
    expect(await readStacks(`file://${root}`)).toEqual(["organization/app/prod", "organization/app/staging", "organization/network/prod"]);
    const dir = path.join(root, ".pulumi/locks/organization/app/prod");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "0d6c.json"), JSON.stringify(holder));
    expect(await readLocks(`file://${root}`, "organization/app/prod")).toEqual([holder]);
    expect(await readLocks(`file://${root}`, "organization/app/staging")).toEqual([]);
    // recover removes a dead holder's file, and the attributes the blob store keeps beside it.
    fs.writeFileSync(path.join(dir, "0d6c.json.attrs"), "{}");
    await removeLockEntries(`file://${root}`, [path.join(dir, "0d6c.json")]);
    expect(fs.readdirSync(dir)).toEqual([]);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("backends it cannot read say nothing rather than guess", async () => {
  expect(await readLocks("s3://bucket/state", "organization/app/prod")).toBeUndefined();
  expect(await readStacks("s3://bucket/state")).toBeUndefined();
});

test("the engine's words for a busy stack", () => {
  expect(describeLocks([holder])).toBe(
    "the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.\n" +
      "  created by ci@runner-2 (pid 4242) at 2026-11-25T23:00:00Z",
  );
});

test("the backend URL: PULUMI_BACKEND_URL, else Pulumi.yaml's backend.url", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pc-locks-project-"));
  try {
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: app\nruntime: nodejs\nbackend:\n  url: postgres://u@db:5432/state\n");
    expect(backendUrlOf(dir, {})).toBe("postgres://u@db:5432/state");
    expect(backendUrlOf(dir, { PULUMI_BACKEND_URL: "file:///x" })).toBe("file:///x");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** A row's `data` as the engine's postgres bucket writes it (`pkg/backend/diy/postgres`, `blobData`). */
const blob = (value: unknown) => JSON.stringify({ data: Buffer.from(JSON.stringify(value)).toString("base64") });

describe("postgres:// backends", () => {
  let server: RunningPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server?.stop());

  test("no table yet (no stack ever written): no stack, no lock", async () => {
    expect(await readLocks(server.url, "organization/app/prod")).toEqual([]);
    expect(await readStacks(server.url)).toEqual([]);
  });

  test("the rows under the stack's lock folder, in the table the URL names", async () => {
    await server.sql("CREATE TABLE team_state (key TEXT PRIMARY KEY, data JSON NOT NULL)");
    await server.sql(
      `INSERT INTO team_state (key, data) VALUES ('postgres/.pulumi/locks/organization/app/prod/1.json', '${blob(holder)}'), ` +
        `('postgres/.pulumi/locks/organization/app/prod/2.json', '${blob({ ...holder, pid: 7 })}'), ('postgres/.pulumi/locks/organization/app/prod-2/1.json', '{}'), ('postgres/.pulumi/stacks/app/prod.json', '{}'), ('postgres/.pulumi/stacks/app/prod.json.bak', '{}')`,
    );
    // As the engine writes every entry: the file's bytes, base64, in a JSON object's `data`.
    expect(await readLocks(`${server.url}&table=team_state`, "organization/app/prod")).toEqual([holder, { ...holder, pid: 7 }]);
    expect(await readLocks(`${server.url}&table=team_state`, "organization/app/staging")).toEqual([]);
    expect(await readStacks(`${server.url}&table=team_state`)).toEqual(["organization/app/prod"]);
  });

  test("recover removes the entries of a holder that is gone, as `pulumi cancel` does, and nothing else", async () => {
    const url = `${server.url}&table=team_state`;
    const entries = (await readLockEntries(url, ["organization/app/prod"]))!;
    expect(entries.map((e) => e.key)).toEqual([
      "postgres/.pulumi/locks/organization/app/prod/1.json",
      "postgres/.pulumi/locks/organization/app/prod/2.json",
    ]);
    await removeLockEntries(url, [entries[0]!.key]);
    expect(await readLocks(url, "organization/app/prod")).toEqual([{ ...holder, pid: 7 }]);
    expect((await server.sql("SELECT count(*) FROM team_state")).trim()).toBe("4");
  });
});
