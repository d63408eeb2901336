/**
 * The scale benchmark's native floor (`bench/native-floor.ts`): its Go plugin builds from the
 * module cache and the build cache the engine build filled (pinned at the engine's versions; a few
 * seconds, nothing downloaded), and a
 * project that declares it runs 3 records through the real engine: Create numbers them and records
 * their inputs, preview and refresh see no change, destroy removes them. The same for the Node.js
 * floor (`bench/node-floor-plugin.ts`), the same no-op plugin on the provider plugin's transport.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { NATIVE_FLOOR_PLUGIN, NativeNoop, nativeFloorPlugin } from "../../bench/native-floor";
import { NODE_FLOOR_PLUGIN } from "../../bench/node-floor-plugin";
import { packageRoot } from "../../provider/launch/plugins";
import { createTestStack, type TestStack } from "../support/engine";

jest.setTimeout(180_000);

const RECORDS = 3;
const recordArgs = (i: number) => ({ type: "A", name: `host-${i}`, target: `192.0.2.${i + 1}`, ttlSec: 300 });

let testStack: TestStack | undefined;
// A cache folder of its own, so the plugin is built every time (the bench keeps its build in the project's cache).
const cache = mkdtempSync(path.join(tmpdir(), "native-floor-"));
afterAll(async () => {
  await testStack?.stack.destroy().catch(() => undefined);
  testStack?.cleanup();
  rmSync(cache, { recursive: true, force: true });
});

test("the native floor's plugin builds and serves up, preview, refresh and destroy of 3 records", async () => {
  const dir = await nativeFloorPlugin(cache);
  expect(existsSync(path.join(dir, `pulumi-resource-${NATIVE_FLOOR_PLUGIN}`))).toBe(true);
  // Declared by the project only, by path: nothing on PATH or beside pulumi.
  expect((process.env.PATH ?? "").split(path.delimiter)).not.toContain(dir);

  await livesThrough3Records(NATIVE_FLOOR_PLUGIN, dir);
});

test("the Node.js floor's plugin (its launcher in bench/node-floor/) serves up, preview, refresh and destroy of 3 records", async () => {
  await livesThrough3Records(NODE_FLOOR_PLUGIN, path.join(packageRoot(), "bench", "node-floor"));
});

/** 3 records of the no-op plugin `plugin` (declared from `dir`) through up, preview, refresh and destroy. */
async function livesThrough3Records(plugin: string, dir: string): Promise<void> {
  testStack = await createTestStack({
    name: plugin,
    apiUrl: "http://127.0.0.1:9", // the program declares no resource of this package
    token: "unused",
    plugins: [{ name: plugin, path: dir }],
    program: async () => {
      for (let i = 0; i < RECORDS; i++) new NativeNoop(`r${i}`, recordArgs(i), {}, plugin);
    },
  });
  const { stack } = testStack;

  const up = await stack.up();
  expect(up.summary.resourceChanges).toMatchObject({ create: RECORDS + 1 }); // and the stack
  const records = testStack.resources().filter((r) => r.type === `${plugin}:index:Record`);
  expect(records.map((r) => r.id).sort()).toEqual(["1", "2", "3"]);
  for (const record of records) {
    const i = Number(record.urn.split("::r")[1]);
    expect(record.inputs).toEqual(recordArgs(i));
    expect(record.outputs).toEqual(recordArgs(i));
  }

  const preview = await stack.preview();
  expect(preview.changeSummary).toEqual({ same: RECORDS + 1 });
  const refresh = await stack.refresh();
  expect(refresh.summary.resourceChanges).toEqual({ same: RECORDS + 1 });
  expect(
    testStack
      .resources()
      .filter((r) => r.type === `${plugin}:index:Record`)
      .map((r) => r.id)
      .sort(),
  ).toEqual(["1", "2", "3"]);

  const destroy = await stack.destroy();
  expect(destroy.summary.resourceChanges).toMatchObject({ delete: RECORDS + 1 });
  expect(testStack.resources()).toEqual([]);
  testStack.cleanup();
  testStack = undefined;
}
