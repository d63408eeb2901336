/**
 * `pulumi-compute drift` on a stack kept in a project directory: exit 0 when the cloud matches
 * state, exit 2 naming the field after a change behind Pulumi's back, exit 0 again after `up`.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { Vpc } from "../../provider";
import { pulumiCommand } from "../../provider/stack/pulumi-cli";
import { PASSPHRASE, REPO_ROOT } from "../support/engine";
import { runProcess } from "../support/process";
import { PLUGINS_DIR } from "../../provider/launch/plugins";

jest.setTimeout(240_000);

let emulator: RunningEmulator;
let client: ComputeClient;
let stack: Stack;
let base: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-drift-cli-"));
  const stateDir = path.join(base, "state");
  fs.mkdirSync(stateDir);
  fs.writeFileSync(
    path.join(base, "Pulumi.yaml"),
    `name: drift-cli\nruntime: nodejs\nmain: ${REPO_ROOT}\nbackend:\n  url: file://${stateDir}\n` +
      `plugins:\n  providers:\n    - name: pulumi-nodejs\n      path: ${PLUGINS_DIR}\n`,
  );
  env = {
    ...process.env,
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    COMPUTE_TOKEN: emulator.token,
    COMPUTE_API_URL: emulator.url,
  };
  stack = await LocalWorkspace.createOrSelectStack(
    {
      stackName: "test",
      projectName: "drift-cli",
      program: async () => {
        new Vpc("net", { label: "drift-net", region: "us-iad" });
      },
    },
    {
      workDir: base,
      pulumiCommand: await pulumiCommand(),
      envVars: { PULUMI_CONFIG_PASSPHRASE: PASSPHRASE, COMPUTE_TOKEN: emulator.token, COMPUTE_API_URL: emulator.url },
    },
  );
  await stack.up();
});

afterAll(async () => {
  await stack?.destroy().catch(() => undefined);
  fs.rmSync(base, { recursive: true, force: true });
  await client?.close();
  await emulator?.close();
});

/** The command, as a child process (see runProcess for why never synchronously). */
const run = (args: string[]) =>
  runProcess(process.execPath, [path.join(REPO_ROOT, "dist/provider/cli/main.js"), ...args], { env, timeoutMs: 120_000 });

const drift = (...args: string[]) => run(["drift", "--cwd", base, "--stack", "test", ...args]);

test("exit 0 without drift, 2 naming the field with drift, 0 after up", async () => {
  const clean = await drift("--json");
  expect(clean.code).toBe(0);
  expect(JSON.parse(clean.out)).toEqual({ stack: "test", resources: 1, drift: [] });

  const [vpc] = await client.vpcs.listAll();
  await client.vpcs.update(vpc!.id, { label: "changed-by-hand" });

  const json = await drift("--json");
  expect(json.code).toBe(2);
  expect(JSON.parse(json.out).drift).toEqual([
    { resource: "net", type: "Vpc", field: "label", state: "drift-net", cloud: "changed-by-hand" },
  ]);
  const table = await drift();
  expect(table.code).toBe(2);
  expect(table.out).toMatch(/Vpc net\s+label\s+"drift-net"\s+"changed-by-hand"/);
  expect((await client.vpcs.get(vpc!.id)).label).toBe("changed-by-hand"); // a preview changes nothing

  // The refresh preview wrote nothing: `up --refresh` sees the change and restores the label.
  const restore = await stack.up({ refresh: true });
  expect(restore.summary.resourceChanges).toMatchObject({ update: 1 });
  expect((await client.vpcs.get(vpc!.id)).label).toBe("drift-net");
  expect((await drift()).code).toBe(0);
});

test("exit 1 with a clear message when the directory holds no project", async () => {
  const result = await run(["drift", "--cwd", os.tmpdir()]);
  expect(result.code).toBe(1);
  expect(result.out).toContain("no Pulumi.yaml in");
});
