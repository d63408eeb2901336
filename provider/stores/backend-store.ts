/**
 * What a diy backend holds, read straight from its store without the engine, for `drift --all`
 * and `recover`:
 *
 * - **the stacks** (`.pulumi/stacks/<project>/<stack>.json`, named `organization/<project>/<stack>`). `pulumi stack ls --all` hangs
 *   on a `postgres://` backend in engine v3.259.0 (it never returns once the backend holds several
 *   projects, with one idle connection open), so the fleet reads the keys itself;
 * - **who holds a stack's lock** (`.pulumi/locks/<org>/<project>/<stack>/<id>.json`, each `{pid,
 *   username, hostname, timestamp}`), read without taking it. A refresh preview neither takes nor
 *   checks the lock (diy `Refresh` locks only when it writes), and every command that does check
 *   it also writes a lock entry of its own, which could refuse a runner starting at that moment.
 *
 * `file://<folder>`: files in that folder; `postgres://…`: rows of the backend's table (`?table=`,
 * default `pulumi_state`), one SELECT each. `recover` also removes a lock whose holder is gone,
 * as `pulumi cancel` would. Other backends (`s3://`, …): `undefined`, unknown; the
 * fleet then asks the engine for the stacks and checks every stack as if free.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import type { StateEntry } from "../engine/ports";

export type { StateEntry };

export interface LockHolder {
  username?: string;
  hostname?: string;
  pid?: number;
  timestamp?: string;
}

/** The lock entries' folder of a diy stack (`organization/app/prod`), relative to the backend's root. */
export function lockDir(stack: string): string {
  return `.pulumi/locks/${stack}/`;
}

/** The backend a project uses: `PULUMI_BACKEND_URL`, else `backend.url` of its Pulumi.yaml. */
export function backendUrlOf(projectDir: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.PULUMI_BACKEND_URL) return env.PULUMI_BACKEND_URL;
  const file = ["Pulumi.yaml", "Pulumi.yml"].map((f) => path.join(projectDir, f)).find((f) => fs.existsSync(f));
  if (!file) return undefined;
  return /^backend:\s*\n\s+url:\s*["']?([^"'\s]+)/m.exec(fs.readFileSync(file, "utf8"))?.[1];
}

/**
 * The backend the engine serving this process likely uses, as the CLI picks it: `PULUMI_BACKEND_URL`,
 * else the project's `backend.url` (the provider runs in the project's folder, or in its `main`),
 * else the login in `$PULUMI_HOME/credentials.json` (`current`). A caller checks that it holds the
 * stack it serves before trusting it: an Automation API program whose `main` is elsewhere and whose
 * backend is in its project settings only cannot be found this way.
 */
export function currentBackendUrl(projectDir: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.PULUMI_BACKEND_URL) return env.PULUMI_BACKEND_URL;
  // The project's folder, or one above it when the program's `main` is a subfolder.
  for (let dir = path.resolve(projectDir); ; dir = path.dirname(dir)) {
    if (["Pulumi.yaml", "Pulumi.yml"].some((f) => fs.existsSync(path.join(dir, f)))) {
      const own = backendUrlOf(dir, env);
      if (own) return own;
      break;
    }
    if (path.dirname(dir) === dir) break;
  }
  try {
    const home = env.PULUMI_HOME || path.join(os.homedir(), ".pulumi");
    const current = (JSON.parse(fs.readFileSync(path.join(home, "credentials.json"), "utf8")) as { current?: unknown }).current;
    return typeof current === "string" && current !== "" ? current : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The resources of `stack` (`organization/<project>/<stack>`) as its latest checkpoint records
 * them; `undefined` for a backend this cannot read, `[]` for a stack that has none. A file
 * backend's checkpoint may be gzipped (`PULUMI_DIY_BACKEND_GZIP`).
 */
export async function readStackResources(url: string, stack: string): Promise<StateEntry[] | undefined> {
  const key = `.pulumi/stacks/${stack.replace(/^organization\//, "")}.json`;
  const resources = (text: string): StateEntry[] => {
    const file = JSON.parse(text) as { checkpoint?: { latest?: { resources?: StateEntry[] } } };
    return (file.checkpoint?.latest?.resources ?? []).map(({ urn, type, id, parent }) => ({ urn, type, id, parent }));
  };
  if (url.startsWith("file://")) {
    const file = path.join(fileRoot(url), key);
    if (fs.existsSync(file)) return resources(fs.readFileSync(file, "utf8"));
    if (fs.existsSync(`${file}.gz`)) return resources(zlib.gunzipSync(fs.readFileSync(`${file}.gz`)).toString("utf8"));
    return [];
  }
  if (isPostgres(url)) {
    const rows = await withPostgres(url, async (sql, table, prefix) => {
      const found = await sql`SELECT data::text AS data FROM ${sql(table)} WHERE key = ${prefix + key}`;
      return found.map((row) => row.data as string);
    });
    if (rows.length === 0) return [];
    const blob = (JSON.parse(rows[0]!) as { data?: unknown }).data;
    return resources(typeof blob === "string" ? Buffer.from(blob, "base64").toString("utf8") : rows[0]!);
  }
  return undefined;
}

/** The engine's words, so a busy stack reads the same whether the engine or this module found it. */
export function describeLocks(holders: LockHolder[]): string {
  return [
    `the stack is currently locked by ${holders.length} lock(s). Either wait for the other process(es) to end or delete the lock file with \`pulumi cancel\`.`,
    ...holders.map((h) => `  created by ${h.username ?? "?"}@${h.hostname ?? "?"} (pid ${h.pid ?? "?"}) at ${h.timestamp ?? "?"}`),
  ].join("\n");
}

/**
 * A lock entry: JSON in a file; in the postgres table, the engine's blob wrapper `{"data": "<the
 * file's bytes, base64>"}` (`pkg/backend/diy/postgres/bucket.go`, `blobData`).
 */
const parse = (text: unknown): LockHolder => {
  try {
    const value: unknown = typeof text === "string" ? JSON.parse(text) : text;
    const blob = (value as { data?: unknown } | null)?.data;
    return (typeof blob === "string" ? JSON.parse(Buffer.from(blob, "base64").toString("utf8")) : value) as LockHolder;
  } catch {
    return {};
  }
};

/** One entry of a stack's lock: where it is (a file's path, or a row's key), and who holds it. */
export interface LockEntry {
  key: string;
  holder: LockHolder;
  /** Why the entry could not be read, when it could not (its holder is then unknown). */
  unreadable?: string;
}

/** The holders of `stack`'s lock in the backend at `url`; `undefined` for a backend this cannot read. */
export async function readLocks(url: string, stack: string): Promise<LockHolder[] | undefined> {
  return (await readLockEntries(url, [stack]))?.map((entry) => entry.holder);
}

/**
 * The lock entries of `stacks` (lock folders: `organization/<project>/<stack>`, or a legacy
 * `<stack>`) in the backend at `url`; `undefined` for a backend this cannot read.
 */
export async function readLockEntries(url: string, stacks: string[]): Promise<LockEntry[] | undefined> {
  if (url.startsWith("file://")) {
    return stacks.flatMap((stack) => {
      const dir = path.join(fileRoot(url), lockDir(stack));
      if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) return [];
      return fs
        .readdirSync(dir)
        .filter((f) => f.endsWith(".json"))
        .map((f) => entry(path.join(dir, f), () => fs.readFileSync(path.join(dir, f), "utf8")));
    });
  }
  if (isPostgres(url)) {
    return withPostgres(url, async (sql, table, prefix) => {
      const found: LockEntry[] = [];
      for (const stack of stacks) {
        const rows =
          await sql`SELECT key, data::text AS data FROM ${sql(table)} WHERE starts_with(key, ${prefix + lockDir(stack)}) ORDER BY key`;
        found.push(...rows.map((row) => entry(row.key as string, () => row.data as string)));
      }
      return found;
    });
  }
  return undefined;
}

/**
 * Removes lock entries `readLockEntries` found, as `pulumi cancel` does: the files (and the
 * attributes the diy blob store keeps beside each), or the rows.
 */
export async function removeLockEntries(url: string, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  if (url.startsWith("file://")) {
    for (const key of keys) for (const file of [key, `${key}.attrs`]) fs.rmSync(file, { force: true });
  } else if (isPostgres(url)) {
    await withPostgres(url, async (sql, table) => {
      await sql`DELETE FROM ${sql(table)} WHERE key IN ${sql(keys)}`;
      return [];
    });
  } else {
    throw new Error(`cannot remove a lock from the backend ${url.split("?")[0]}: run \`pulumi cancel\``);
  }
}

function entry(key: string, read: () => string): LockEntry {
  let text: string;
  try {
    text = read();
  } catch (error) {
    return { key, holder: {}, unreadable: (error as Error).message };
  }
  const holder = parse(text);
  return Object.keys(holder).length > 0 ? { key, holder } : { key, holder, unreadable: "not a lock entry the engine writes" };
}

/** The stacks of the backend at `url` (`organization/app/prod`), sorted; `undefined` for a backend this cannot read. */
export async function readStacks(url: string): Promise<string[] | undefined> {
  // Project-scoped stacks are stored as `.pulumi/stacks/<project>/<stack>.json` and named
  // `organization/<project>/<stack>`; legacy stacks without a project are left out.
  const fromKeys = (keys: string[]) =>
    keys
      .map((k) => /(?:^|\/)\.pulumi\/stacks\/([^/]+)\/([^/]+)\.json$/.exec(k.replace(/\\/g, "/")))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => `organization/${m[1]}/${m[2]}`)
      .sort();
  if (url.startsWith("file://")) {
    const root = fileRoot(url);
    const dir = path.join(root, ".pulumi/stacks");
    if (!fs.existsSync(dir)) return [];
    const files = fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).map((f) => `.pulumi/stacks/${f}`);
    return fromKeys(files);
  }
  if (isPostgres(url)) {
    return withPostgres(url, async (sql, table, prefix) => {
      const rows = await sql`SELECT key FROM ${sql(table)} WHERE starts_with(key, ${`${prefix}.pulumi/stacks/`}) AND key LIKE '%.json'`;
      return fromKeys(rows.map((r) => r.key as string));
    });
  }
  return undefined;
}

const isPostgres = (url: string) => url.startsWith("postgres://") || url.startsWith("postgresql://");
const fileRoot = (url: string) =>
  url
    .slice("file://".length)
    .split("?")[0]!
    .replace(/^~(?=\/|$)/, os.homedir());

type Sql = ReturnType<typeof import("postgres")>;

/** One connection to the backend's database: `fn`'s rows from its state table, none before the table exists. */
async function withPostgres<T>(url: string, fn: (sql: Sql, table: string, prefix: string) => Promise<T[]>): Promise<T[]> {
  const parsed = new URL(url);
  const table = parsed.searchParams.get("table") ?? "pulumi_state";
  // The engine keys every entry by the URL's path (the database's name) first: `postgres/.pulumi/…`.
  const prefix = parsed.pathname.replace(/^\/+/, "").replace(/\/*$/, "/").replace(/^\/$/, "");
  // `table` is the engine's parameter, not a server setting; the rest are libpq's, as the engine reads them.
  parsed.searchParams.delete("table");
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- only drift --all on a postgres:// backend needs the client
  const postgres = require("postgres") as typeof import("postgres");
  const sql = postgres(parsed.toString(), { max: 1, onnotice: () => undefined, connect_timeout: 30 });
  try {
    const exists = await sql`SELECT to_regclass(${table}) AS t`;
    if (!exists[0]?.t) return [];
    return await fn(sql, table, prefix);
  } finally {
    await sql.end({ timeout: 5 });
  }
}
