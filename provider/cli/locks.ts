/**
 * Who holds a stack's lock in a diy backend, read without taking it. The engine does not say: a
 * refresh preview neither takes nor checks the lock (diy `Refresh` locks only when it writes), and
 * every command that does check it also writes a lock entry of its own, which could refuse a
 * runner starting at that moment. So `drift --all` reads the lock entries itself, where the engine
 * writes them: `.pulumi/locks/organization/<project>/<stack>/<id>.json`, each `{pid, username,
 * hostname, timestamp}` —
 *
 * - `file://<folder>`: files in that folder;
 * - `postgres://…`: rows of the backend's table (`?table=`, default `pulumi_state`), read with one
 *   SELECT.
 *
 * Other backends (`s3://`, …): `undefined`, unknown; the stack is checked as if free.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

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

/** The engine's words, so a busy stack reads the same whether the engine or this module found it. */
export function describeLocks(holders: LockHolder[]): string {
  return [
    `the stack is currently locked by ${holders.length} lock(s). Either wait for the other process(es) to end or delete the lock file with \`pulumi cancel\`.`,
    ...holders.map((h) => `  created by ${h.username ?? "?"}@${h.hostname ?? "?"} (pid ${h.pid ?? "?"}) at ${h.timestamp ?? "?"}`),
  ].join("\n");
}

const parse = (text: unknown): LockHolder => {
  try {
    return (typeof text === "string" ? JSON.parse(text) : text) as LockHolder;
  } catch {
    return {};
  }
};

/** The holders of `stack`'s lock in the backend at `url`; `undefined` for a backend this cannot read. */
export async function readLocks(url: string, stack: string): Promise<LockHolder[] | undefined> {
  if (url.startsWith("file://")) {
    const root = url
      .slice("file://".length)
      .split("?")[0]!
      .replace(/^~(?=\/|$)/, os.homedir());
    const dir = path.join(root, lockDir(stack));
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".json"))
      .map((f) => parse(fs.readFileSync(path.join(dir, f), "utf8")));
  }
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) return readPostgresLocks(url, stack);
  return undefined;
}

async function readPostgresLocks(url: string, stack: string): Promise<LockHolder[]> {
  const parsed = new URL(url);
  const table = parsed.searchParams.get("table") ?? "pulumi_state";
  // `table` is the engine's parameter, not a server setting; the rest are libpq's, as the engine reads them.
  parsed.searchParams.delete("table");
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- only drift --all on a postgres:// backend needs the client
  const postgres = require("postgres") as typeof import("postgres");
  const sql = postgres(parsed.toString(), { max: 1, onnotice: () => undefined, connect_timeout: 30 });
  try {
    const exists = await sql`SELECT to_regclass(${table}) AS t`;
    if (!exists[0]?.t) return [];
    const rows = await sql`SELECT data::text AS data FROM ${sql(table)} WHERE starts_with(key, ${lockDir(stack)}) ORDER BY key`;
    return rows.map((row) => parse(row.data));
  } finally {
    await sql.end({ timeout: 5 });
  }
}
