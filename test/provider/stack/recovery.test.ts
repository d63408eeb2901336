/**
 * `recover`'s parts without the engine: the diy lock's judgement, the plan of pending operations
 * with the real VPC lookup against the emulator (reads only, one per pending create), and the
 * refresh it runs. The whole command through the real CLI after a killed `pulumi up` is
 * `test/e2e/recover.e2e.test.ts`.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { ComputeClient } from "../../../sdk/client";
import { ProviderContext } from "../../../provider/engine/context";
import { readLockEntries } from "../../../provider/stores/backend-store";
import { formatLine, judgeLock, planPending, settleCreates, type PendingOperation } from "../../../provider/stack/recovery";

let emulator: RunningEmulator;
let client: ComputeClient;
let dir: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pc-recover-"));
});

afterAll(async () => {
  await client.close();
  await emulator.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const VPC = "pulumi-nodejs:dynamic/compute:Vpc";
const urn = (name: string, type = VPC) => `urn:pulumi:dev::proj::${type}::${name}`;
const creating = (name: string, inputs: Record<string, unknown>, type = VPC): PendingOperation => ({
  type: "creating",
  resource: { urn: urn(name, type), type, inputs: { ...inputs, __provider: "exports.handler=…" } },
});

describe("the lock a killed run leaves", () => {
  const write = (content: object) => {
    const lockDir = path.join(dir, ".pulumi/locks/organization/proj/dev");
    fs.mkdirSync(lockDir, { recursive: true });
    const file = path.join(lockDir, "b8a3.json");
    fs.writeFileSync(file, JSON.stringify(content));
    return file;
  };
  const entryOf = async (file: string) => (await readLockEntries(`file://${dir}`, ["organization/proj/dev"]))!.find((e) => e.key === file)!;

  test("is found where the diy backend keeps it (a file:// backend here; postgres:// rows in stores/backend-store.test.ts)", async () => {
    const file = write({ pid: 1, hostname: "h", username: "u", timestamp: "2026-01-01T00:00:00Z" });
    expect(await readLockEntries(`file://${dir}`, ["organization/proj/dev", "dev"])).toEqual([
      { key: file, holder: { pid: 1, hostname: "h", username: "u", timestamp: "2026-01-01T00:00:00Z" } },
    ]);
    expect(await readLockEntries(`file://${dir}`, ["organization/proj/prod", "prod"])).toEqual([]);
  });

  test("held by a process gone from this host: removed; still running or on another host: refused, naming the holder", async () => {
    const file = write({ pid: 4242, hostname: os.hostname(), username: "ci", timestamp: "2026-01-01T00:00:00Z" });
    const holder = `ci@${os.hostname()} (pid 4242) since 2026-01-01T00:00:00Z`;
    const entry = await entryOf(file);
    expect(judgeLock(entry, os.hostname(), () => false)).toEqual({ key: file, holder, action: "removed", reason: "process 4242 is gone" });
    expect(judgeLock(entry, os.hostname(), () => true)).toEqual({
      key: file,
      holder,
      action: "refused",
      reason: "process 4242 is still running; wait for it to end",
    });
    expect(judgeLock(entry, "elsewhere", () => false)).toMatchObject({
      action: "refused",
      reason: expect.stringContaining("another host"),
    });
    // This test's own process is alive.
    write({ pid: process.pid, hostname: os.hostname() });
    expect(judgeLock(await entryOf(file))).toMatchObject({ action: "refused" });
    // An entry that cannot be read is never removed.
    fs.writeFileSync(file, "{not json");
    expect(judgeLock(await entryOf(file), os.hostname(), () => false)).toMatchObject({ holder: "unknown", action: "refused" });
  });
});

test("the plan: each pending create by its natural key (reads only), updates and deletes left to the refresh", async () => {
  const landed = await client.vpcs.create({ label: "landed", region: "us-iad" });
  const managed = await client.vpcs.create({ label: "managed", region: "us-iad" });
  const ctx = new ProviderContext((key) => ({ "compute:token": emulator.token, "compute:apiUrl": emulator.url })[key]);
  emulator.control.clearRequests();
  const pending: PendingOperation[] = [
    creating("a", { label: "landed", region: "us-iad" }),
    creating("b", { label: "never-sent", region: "us-iad" }),
    creating("c", { label: "managed", region: "us-iad" }),
    creating("d", { name: "x" }, "aws:s3/bucket:Bucket"),
    { type: "updating", resource: { urn: urn("e"), type: VPC, id: String(managed.id) } },
  ];
  const lines = await planPending(pending, [{ type: VPC, id: String(managed.id) }], async () => ctx);
  await ctx.client().close();
  expect(lines.map(({ resource, action, id }) => ({ resource, action, id }))).toEqual([
    { resource: "a", action: "adopted", id: String(landed.id) },
    { resource: "b", action: "cleared", id: undefined },
    { resource: "c", action: "cleared", id: undefined },
    { resource: "d", action: "kept", id: undefined },
    { resource: "e", action: "settled", id: undefined },
  ]);
  expect(lines.map(formatLine)).toEqual([
    `Vpc a: adopted id ${landed.id} (VPC with label "landed")`,
    'Vpc b: cleared (no VPC with label "never-sent" exists: the create never landed)',
    `Vpc c: cleared (no VPC with label "managed" exists but the one found (id ${managed.id}) is managed by another resource of the stack: the create never landed)`,
    "aws:s3/bucket:Bucket d: not a pulumi-compute resource: left pending for `pulumi refresh`",
    "Vpc e: interrupted while updating; the refresh reads it and records what the API holds",
  ]);
  const requests = emulator.control.listRequests();
  expect(requests.map((r) => r.method)).toEqual(["GET", "GET", "GET"]);

  // Into state: the adopted one as a resource with its id, the cleared ones gone, the rest still pending.
  const provider = { type: "pulumi:providers:pulumi-nodejs", id: "p" };
  const settled = settleCreates({ resources: [provider], pending_operations: pending, manifest: {} }, lines);
  expect(settled).toEqual({
    manifest: {},
    resources: [provider, { ...pending[0]!.resource, id: String(landed.id), outputs: pending[0]!.resource.inputs }],
    pending_operations: [pending[3], pending[4]],
  });
});

// Found by the fuzzer's `kill` step: an `up` killed while a replacement's create was in flight.
// The state still holds the old object under the same URN; `recover` adopted the new one beside it
// and `pulumi stack import` refused the state ("duplicate resource … (not marked for deletion)").
test("an adopted replacement takes the place of the resource it replaces: after it, marked for deletion, or instead of it once deleted", () => {
  const provider = { type: "pulumi:providers:pulumi-nodejs", id: "p" };
  const old = { urn: urn("net"), type: VPC, id: "10", inputs: { label: "net", region: "us-iad" } };
  const child = { urn: urn("sub", "pulumi-nodejs:dynamic/compute:VpcSubnet"), type: "x", id: "20", dependencies: [urn("net")] };
  const pending = [creating("net", { label: "net", region: "us-ord" }), creating("other", { label: "other", region: "us-iad" })];
  const lines = [
    { resource: "net", urn: urn("net"), type: VPC, operation: "creating", action: "adopted" as const, id: "11", reason: "" },
    { resource: "other", urn: urn("other"), type: VPC, operation: "creating", action: "adopted" as const, id: "12", reason: "" },
  ];
  const settled = settleCreates({ resources: [provider, old, child], pending_operations: pending }, lines);
  expect(settled.resources).toEqual([
    provider,
    { ...old, delete: true },
    { ...pending[0]!.resource, id: "11", outputs: pending[0]!.resource.inputs },
    child,
    { ...pending[1]!.resource, id: "12", outputs: pending[1]!.resource.inputs },
  ]);
  expect(settled.pending_operations).toEqual([]);
  // A delete-before-replace had deleted the old object (the engine keeps it `pendingReplacement`): the replacement takes its place.
  const deleted = { ...old, pendingReplacement: true };
  expect(settleCreates({ resources: [provider, deleted, child], pending_operations: [pending[0]!] }, [lines[0]!]).resources).toEqual([
    provider,
    { ...pending[0]!.resource, id: "11", outputs: pending[0]!.resource.inputs },
    child,
  ]);
});
