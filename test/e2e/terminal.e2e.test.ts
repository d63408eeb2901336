/**
 * What a person sees in a terminal: `pulumi up` run by the `pulumi` CLI in a `tmux` window 120
 * columns wide, for a program with a MySQL database and an uploaded image, the pane read with
 * `capture-pane` while it runs and after it ends.
 *
 * - While the database waits, its own row shows what it waits for and the time so far; the
 *   stack's row does not.
 * - After the run, no progress line stands under Diagnostics: statuses are ephemeral.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { writeGzipImage } from "../../examples/support/gzip-image";
import { runProcess } from "../support/process";
import { expectExit, linkedProject, linkedProjectEnv } from "../support/user-shell";

jest.setTimeout(600_000);

const WIDTH = 120;
/** A socket of this test's own, so that no other tmux server is touched. */
const SOCKET = `pc-terminal-${process.pid}`;

let emulator: RunningEmulator;
let base: string;
let project: string;
let env: NodeJS.ProcessEnv;

const PROGRAM = `
const compute = require("pulumi-compute");
new compute.MysqlDatabase("my-db", { label: "term-db", region: "us-iad", type: "g6-nanode-1", engineId: "mysql/8" });
new compute.Image("disk", { label: "term-img", region: "us-iad", filePath: process.env.IMAGE_FILE });
`;

const tmux = (...args: string[]) => runProcess("tmux", ["-L", SOCKET, ...args], { env });

/** The pane as a person sees it, with what scrolled off the top. */
async function pane(): Promise<string> {
  const captured = await tmux("capture-pane", "-p", "-J", "-S", "-500", "-t", "up");
  expectExit(captured, 0);
  return captured.stdout;
}

/** The pane's line of the row named `name` (the Name column), if shown. */
const rowOf = (text: string, type: string, name: string): string | undefined =>
  text.split("\n").find((line) => line.includes(type) && new RegExp(`\\s${name}\\s`).test(line));

beforeAll(async () => {
  // A database provisions in 15–30 minutes of emulated time: 30 to 60 s here, long enough to watch.
  emulator = await startEmulator({ port: 0, timeScale: 30 });
  base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-terminal-"));
  project = path.join(base, "project");
  fs.mkdirSync(path.join(base, "state"));
  linkedProject(project, { name: "terminal", backendUrl: `file://${base}/state`, program: PROGRAM });
  const image = await writeGzipImage(path.join(base, "disk.img.gz"), { compressedBytes: 8 * 1024 * 1024, seed: 3 });
  env = linkedProjectEnv(base, {
    IMAGE_FILE: image.file,
    TERM: "xterm-256color",
  });
  delete env.CI; // a person's terminal, not a CI log
  const pulumi = (args: string[]) => runProcess("pulumi", args, { cwd: project, env, timeoutMs: 120_000 });
  expectExit(await pulumi(["stack", "init", "dev"]), 0);
  expectExit(await pulumi(["config", "set", "compute:apiUrl", emulator.url]), 0);
  expectExit(await pulumi(["config", "set", "--secret", "compute:token", emulator.token]), 0);
});

afterAll(async () => {
  await tmux("kill-server").catch(() => undefined);
  await emulator?.close();
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

test("pulumi up in a 120-column terminal: the database's wait on its own row, and no progress under Diagnostics", async () => {
  const script = path.join(base, "up.sh");
  fs.writeFileSync(script, `cd ${JSON.stringify(project)}\npulumi up --yes --skip-preview\necho "EXIT=$?"\nsleep 600\n`);
  expectExit(await tmux("new-session", "-d", "-s", "up", "-x", String(WIDTH), "-y", "50", `bash ${script}`), 0);

  // While it runs: the database's row says what it waits for and for how long; the stack's row does not.
  let first: { db: string; stack: string } | undefined;
  let waiting: { db: string; stack: string } | undefined;
  let text = "";
  for (let i = 0; i < 240 && !/EXIT=\d+/.test(text); i++) {
    text = await pane();
    const db = rowOf(text, "MysqlDatabase", "my-db");
    const stack = rowOf(text, "pulumi:pulumi:Stack", "terminal-dev");
    if (db && stack && /waiting for active, \d+[ms]\S* so far/.test(db)) {
      waiting = { db, stack };
      first ??= waiting;
      expect(stack).not.toMatch(/waiting|MySQL|provisioning/);
    }
    if (!waiting) await delay(500);
    else if (!/EXIT=/.test(text)) await delay(2_000);
  }
  expect(text).toMatch(/EXIT=0/);
  expect(waiting).toBeDefined();
  console.log(`the database row while it waited:\n${waiting!.db}\nthe stack row:\n${waiting!.stack}`);
  expect(waiting!.db).toMatch(/creating \(\d+s\)/);
  // The elapsed time is the wait's own, and it moves (the status is refreshed at least every 30 s).
  const soFar = (row: string) =>
    Number(
      /waiting for active, (?:(\d+)m)?(\d+)s so far/
        .exec(row)!
        .slice(1)
        .reduce((s, n) => s * 60 + Number(n ?? 0), 0),
    );
  expect(soFar(waiting!.db)).toBeGreaterThan(soFar(first!.db));
  expect(waiting!.db.length).toBeLessThanOrEqual(WIDTH);
  expect(waiting!.stack).not.toMatch(/waiting|MySQL|provisioning/);

  // After the run: the summary, and nothing of the progress, under Diagnostics or anywhere.
  const after = text.slice(text.lastIndexOf("Updating (dev)"));
  expect(after).toMatch(/\+ 3 created/); // the stack, the database, the image
  expect(after).not.toMatch(/so far|done waiting|uploaded \d|upload complete|provisioning/);
  const diagnostics = after.includes("Diagnostics:") ? after.slice(after.indexOf("Diagnostics:"), after.indexOf("Resources:")) : "";
  expect(diagnostics).not.toMatch(/MysqlDatabase|Image|waiting|image \d/);
});

test("a project without the plugin declaration: the preview's one warning, in a terminal, shows the entry to add", async () => {
  const plain = path.join(base, "plain");
  // Its own labels: the first project's database still holds "term-db", and a taken label is refused at preview.
  linkedProject(plain, { name: "plain", backendUrl: `file://${base}/state`, program: PROGRAM.replace(/term-/g, "plain-") });
  const yaml = fs.readFileSync(path.join(plain, "Pulumi.yaml"), "utf8");
  fs.writeFileSync(path.join(plain, "Pulumi.yaml"), yaml.slice(0, yaml.indexOf("plugins:")));
  const pulumi = (args: string[]) => runProcess("pulumi", args, { cwd: plain, env, timeoutMs: 120_000 });
  expectExit(await pulumi(["stack", "init", "dev"]), 0);
  expectExit(await pulumi(["config", "set", "compute:apiUrl", emulator.url]), 0);
  expectExit(await pulumi(["config", "set", "--secret", "compute:token", emulator.token]), 0);

  const script = path.join(base, "preview.sh");
  fs.writeFileSync(script, `cd ${JSON.stringify(plain)}\npulumi preview\necho "EXIT=$?"\nsleep 600\n`);
  expectExit(await tmux("new-session", "-d", "-s", "preview", "-x", String(WIDTH), "-y", "50", `bash ${script}`), 0);
  let text = "";
  for (let i = 0; i < 240 && !/EXIT=\d+/.test(text); i++) {
    await delay(500);
    const captured = await tmux("capture-pane", "-p", "-J", "-S", "-500", "-t", "preview");
    text = captured.stdout;
  }
  expect(text).toMatch(/EXIT=0/);
  const diagnostics = text.slice(text.indexOf("Diagnostics:"), text.indexOf("Resources:"));
  console.log(`the preview's diagnostics in a ${WIDTH}-column terminal:\n${diagnostics}`);
  expect(diagnostics.match(/warning: pulumi-compute: preview support is off/g)).toHaveLength(1);
  // The entry to add, as lines a person can copy.
  expect(diagnostics).toMatch(/\n\s+plugins:\n\s+providers:\n\s+- name: pulumi-nodejs\n\s+path: node_modules\/pulumi-compute\/plugins\n/);
  // Lines a 120-column terminal shows whole (capture-pane -J joins what it wrapped).
  const ours = diagnostics.slice(diagnostics.indexOf("warning: pulumi-compute:")).split("\n");
  expect(ours.filter((line) => line.length > WIDTH)).toEqual([]);
});
