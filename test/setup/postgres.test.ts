/**
 * The PostgreSQL the team tests start (test/support/postgres.ts): a real server from Debian's
 * package on a free loopback port, usable through `psql`, gone after `stop()`. Fails, naming the
 * package, when its binaries are missing (the setup installs them where it can).
 */
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { findPostgresBin, startPostgres, POSTGRES_MISSING } from "../support/postgres";

jest.setTimeout(180_000);

test("the server binaries are installed (scripts/run.sh installs Debian's postgresql package)", () => {
  expect(findPostgresBin() ?? POSTGRES_MISSING).toMatch(/^\/usr\/lib\/postgresql\/\d+\/bin$/);
});

test("a missing installation is reported with the package to install", () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), "pc-no-postgres-"));
  try {
    expect(findPostgresBin(empty)).toBeUndefined();
    expect(POSTGRES_MISSING).toContain("apt-get install -y postgresql");
  } finally {
    fs.rmSync(empty, { recursive: true, force: true });
  }
});

test("starts a private server on loopback, answers SQL, and is gone after stop", async () => {
  const server = await startPostgres();
  let stopped = false;
  try {
    expect(server.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres\?sslmode=disable$/);
    expect(await server.sql("CREATE TABLE t (k text primary key); INSERT INTO t VALUES ('a'), ('b'); SELECT count(*) FROM t")).toBe("2");
    await server.stop();
    stopped = true;
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect(server.port, "127.0.0.1");
      socket.on("connect", () => (socket.destroy(), resolve(false)));
      socket.on("error", () => resolve(true));
    });
    expect(refused).toBe(true);
  } finally {
    if (!stopped) await server.stop();
  }
});
