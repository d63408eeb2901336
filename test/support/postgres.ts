/**
 * A private PostgreSQL server for tests and benchmarks, as the emulator is a private API: `initdb`
 * in a temporary folder, `postgres` on a free loopback port (trust authentication, reachable from
 * this machine only), stopped and removed by `stop()`. It runs the server binaries of Debian's
 * `postgresql` package (`/usr/lib/postgresql/<version>/bin`), which `scripts/run.sh` installs
 * where it can; when they are missing, `startPostgres` fails naming the package. Never a mock: the
 * Pulumi engine's `postgres://` backend talks to this server.
 *
 * `initdb` refuses to run as root, and tests often do: as root, the server runs as the `postgres`
 * user the package creates (`runuser -u postgres --`), in a folder that user owns.
 */
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { runProcess } from "./process";

/** Where Debian's `postgresql-<version>` packages put the server binaries. */
export const DEBIAN_POSTGRES_ROOT = "/usr/lib/postgresql";

export const POSTGRES_MISSING =
  "PostgreSQL's server binaries (initdb, pg_ctl, postgres) were not found under " +
  `${DEBIAN_POSTGRES_ROOT}/<version>/bin: install Debian's postgresql package ` +
  "(`apt-get update && apt-get install -y postgresql`, which `npm test` does when it runs as root)";

export interface RunningPostgres {
  /** The server's `postgres://` URL (user `postgres`, database `postgres`, no TLS on loopback). */
  url: string;
  port: number;
  /** The newest `bin` folder found, holding `psql` too. */
  bin: string;
  /** Runs one SQL statement through `psql`; returns its unaligned, tuples-only output. */
  sql(statement: string): Promise<string>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/** The newest installed version's `bin` folder, or undefined when none holds the server. */
export function findPostgresBin(root = DEBIAN_POSTGRES_ROOT): string | undefined {
  if (!fs.existsSync(root)) return undefined;
  const versions = fs
    .readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  const bin = versions
    .map((v) => path.join(root, v, "bin"))
    .find((dir) => ["initdb", "pg_ctl", "postgres"].every((tool) => fs.existsSync(path.join(dir, tool))));
  return bin;
}

/** A port free on loopback now (the server binds it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const isRoot = () => process.getuid?.() === 0;

/** `runuser`, from PATH or the sbin folders util-linux installs it in (a root shell's PATH may lack them). */
const runuser = (): string =>
  [...(process.env.PATH ?? "").split(":"), "/usr/sbin", "/sbin"]
    .map((dir) => path.join(dir, "runuser"))
    .find((file) => fs.existsSync(file)) ?? "runuser";

export async function startPostgres(): Promise<RunningPostgres> {
  const bin = findPostgresBin();
  if (!bin) throw new Error(POSTGRES_MISSING);
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-postgres-"));
  const data = path.join(base, "data");
  // As root: the `postgres` user owns the folder and runs every server tool.
  const asServerUser = (tool: string, args: string[]) =>
    isRoot() ? ([runuser(), ["-u", "postgres", "--", path.join(bin, tool), ...args]] as const) : ([path.join(bin, tool), args] as const);
  const run = async (tool: string, args: string[]) => {
    const [command, argv] = asServerUser(tool, args);
    const result = await runProcess(command, [...argv], { timeoutMs: 120_000 });
    if (result.code !== 0) throw new Error(`${tool} ${args.join(" ")} failed (exit ${result.code}):\n${result.out}`);
    return result.stdout;
  };
  if (isRoot()) {
    const owner = await runProcess("chown", ["postgres:postgres", base]);
    if (owner.code !== 0) throw new Error(`chown postgres ${base} failed: ${owner.out} (is the postgresql package installed?)`);
  }
  let started = false;
  const stop = async () => {
    if (started) await run("pg_ctl", ["stop", "-D", data, "-m", "immediate", "-w"]).catch(() => undefined);
    started = false;
    fs.rmSync(base, { recursive: true, force: true });
  };
  try {
    // --no-sync and fsync=off: a test server whose data is thrown away need not survive a power cut.
    await run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C"]);
    const port = await freePort();
    const options = `-p ${port} -k ${base} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    await run("pg_ctl", ["start", "-D", data, "-w", "-t", "60", "-l", path.join(base, "server.log"), "-o", options]);
    started = true;
    const url = `postgres://postgres@127.0.0.1:${port}/postgres?sslmode=disable`;
    const sql = async (statement: string) => {
      const result = await runProcess(path.join(bin, "psql"), [
        "-X",
        "-q",
        "-A",
        "-t",
        "-v",
        "ON_ERROR_STOP=1",
        "-d",
        url,
        "-c",
        statement,
      ]);
      if (result.code !== 0) throw new Error(`psql failed (exit ${result.code}): ${result.out}`);
      return result.stdout.trim();
    };
    return { url, port, bin, sql, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
