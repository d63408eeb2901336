/**
 * Firewall rules shared by several stacks, end to end through the real Pulumi engine against the
 * emulator over HTTP: a network stack owns a firewall (no rule lists) and its two baseline rules as
 * FirewallRules; two app stacks each add a rule to it with FirewallRule, their `up`s at the same
 * time (two engines, two provider processes). The firewall ends with all four rules; every stack's
 * preview is clean; a rule edited by hand is reported by `pulumi-compute drift` on its own stack
 * only; destroying one app stack removes exactly its rule; a program that sets both a Firewall's
 * rule lists and a FirewallRule on it fails at preview, saying which to use.
 */
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { Firewall, FirewallRule } from "../../provider";
import { REPO_ROOT, createTestStack, type TestStack } from "../support/engine";
import { runProcess } from "../support/process";

jest.setTimeout(600_000);

let emulator: RunningEmulator;
let client: ComputeClient;
const stacks: TestStack[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
});

afterAll(async () => {
  for (const s of stacks.reverse()) {
    await s.stack.destroy().catch(() => undefined);
    s.cleanup();
  }
  await client?.close();
  await emulator?.close();
});

async function stackFor(name: string, program: () => Promise<Record<string, unknown> | void>): Promise<TestStack> {
  const s = await createTestStack({ name, apiUrl: emulator.url, token: emulator.token, program });
  stacks.push(s);
  return s;
}

const rule = (label: string, ports: string, ipv4: string) => ({
  direction: "inbound" as const,
  label,
  action: "ACCEPT" as const,
  protocol: "TCP" as const,
  ports,
  addresses: { ipv4: [ipv4] },
});

const labels = async (firewallId: number) => (await client.networking.firewalls.rules.get(firewallId)).inbound!.map((r) => r.label);

/** `pulumi-compute drift --json` on a stack's project folder, as a child process. */
async function drift(s: TestStack) {
  const cwd = s.stack.workspace.workDir;
  // The stack's own environment: its secrets' key service, its backend, no update check.
  const env = { ...process.env, ...s.env };
  const cli = path.join(REPO_ROOT, "dist/provider/cli/main.js");
  return runProcess(process.execPath, [cli, "drift", "--cwd", cwd, "--stack", "test", "--json"], { env, timeoutMs: 240_000 });
}

test("two app stacks add their rules to the network stack's firewall at the same time; drift and destroy touch only their own", async () => {
  const network = await stackFor("fwr-network", async () => {
    const fw = new Firewall("shared", { label: "e2e-shared", inboundPolicy: "DROP", outboundPolicy: "ACCEPT" });
    new FirewallRule("ssh", { firewallId: fw.id, ...rule("base-ssh", "22", "203.0.113.0/24") });
    new FirewallRule("web", { firewallId: fw.id, ...rule("base-web", "80", "0.0.0.0/0") });
    return { firewallId: fw.id };
  });
  const up = await network.stack.up();
  const firewallId = Number(up.outputs.firewallId!.value);
  expect((await labels(firewallId)).sort()).toEqual(["base-ssh", "base-web"]); // in the order their creates arrived

  const app = (n: number) =>
    stackFor(`fwr-app${n}`, async () => {
      new FirewallRule("https", { firewallId, ...rule(`app${n}-https`, String(8440 + n), `10.0.${n}.0/24`) });
    });
  const [app1, app2] = [await app(1), await app(2)];
  const ups = await Promise.all([app1.stack.up(), app2.stack.up()]);
  for (const result of ups) expect(result.summary.resourceChanges).toMatchObject({ create: 2 });
  expect((await labels(firewallId)).sort()).toEqual(["app1-https", "app2-https", "base-ssh", "base-web"]);

  // No stack sees another's rules as its own change.
  for (const s of [network, app1, app2]) {
    const preview = await s.stack.preview({ refresh: true });
    expect(preview.changeSummary).not.toHaveProperty("update");
    expect(preview.changeSummary).not.toHaveProperty("create");
    expect(preview.changeSummary).not.toHaveProperty("delete");
  }

  // app1's rule edited by hand: drift of app1's FirewallRule, on its field; the others see none.
  const current = await client.networking.firewalls.rules.get(firewallId);
  const edited = current.inbound!.map((r) => (r.label === "app1-https" ? { ...r, ports: "9443" } : r));
  await client.networking.firewalls.rules.update(firewallId, { inbound: edited as never, outbound: current.outbound as never });
  const found = await drift(app1);
  expect({ code: found.code, out: found.out.slice(-600) }).toMatchObject({ code: 2 });
  expect(JSON.parse(found.out).drift).toEqual([{ resource: "https", type: "FirewallRule", field: "ports", state: "8441", cloud: "9443" }]);
  const clean = await drift(app2);
  expect({ code: clean.code, out: clean.out.slice(-600) }).toMatchObject({ code: 0 });

  // Destroying app2 removes exactly its rule: the others stay as they are (app1's edit included).
  await app2.stack.destroy();
  const after = await client.networking.firewalls.rules.get(firewallId);
  expect(after.inbound!.map((r) => `${r.label}:${r.ports}`).sort()).toEqual(["app1-https:9443", "base-ssh:22", "base-web:80"]);
});

test("a program that sets a Firewall's rule lists and adds a FirewallRule to it fails before writing the rule, saying which to use", async () => {
  const s = await stackFor("fwr-both", async () => {
    const fw = new Firewall("owned", {
      label: "e2e-owned",
      inboundPolicy: "DROP",
      outboundPolicy: "ACCEPT",
      inbound: [{ label: "ssh", action: "ACCEPT", protocol: "TCP", ports: "22", addresses: { ipv4: ["0.0.0.0/0"] } }],
    });
    new FirewallRule("extra", { firewallId: fw.id, ...rule("extra-https", "443", "0.0.0.0/0") });
  });
  await s.stack.up().then(
    () => {
      throw new Error("the up should have failed");
    },
    (error: Error) => {
      expect(error.message).toMatch(/set by a Firewall resource of this program/);
      expect(error.message).toMatch(/remove inbound and outbound from the Firewall/);
    },
  );
  const [fw] = (await client.networking.firewalls.listAll()).filter((f) => f.label === "e2e-owned");
  expect(await labels(fw!.id)).toEqual(["ssh"]);
  // Once created, the conflict is known at preview.
  await expect(s.stack.preview()).rejects.toThrow(/set by a Firewall resource of this program/);
});
