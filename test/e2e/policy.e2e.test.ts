/**
 * The compute-guardrails policy pack through the real engine (issue 41), as
 * `pulumi preview --policy-pack node_modules/pulumi-compute/policy/compute-guardrails` runs it (a
 * file the engine starts itself), on the project's toolchain.
 *
 * For each policy, a violating program and a compliant one, through the Automation API's
 * `policyPacks`:
 * - the violating preview fails, naming the policy, the resource and the field, and sends no write;
 * - the compliant preview passes;
 * - with the policy lowered to `advisory` (`--policy-pack-config`), the violation is a warning and
 *   `up` proceeds.
 * Then a value known only after another resource is made: preview says the policy runs at `up`,
 * and `up` refuses the resource before creating it (the request log shows no create). And from a
 * project folder with the `pulumi` CLI, with the one documented flag.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { EngineEvent, PreviewOptions, UpOptions } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator";
import * as compute from "../../provider";
import { REPO_ROOT, createTestStack, skipReads, type TestStack } from "../support/engine";
import { runProcess } from "../support/process";
import { expectExit, linkedProject, linkedProjectEnv } from "../support/user-shell";

jest.setTimeout(900_000);

const PACK = path.join(REPO_ROOT, "policy/compute-guardrails");

let emulator: RunningEmulator;
let base: string;
const stacks: TestStack[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, timeScale: 300 });
  base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-policy-"));
});

afterAll(async () => {
  for (const s of stacks) {
    await s.stack.destroy().catch(() => undefined);
    s.cleanup();
  }
  await emulator?.close();
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

const writes = () => emulator.control.listRequests().filter((r) => r.method !== "GET");

/** `--policy-pack-config` as a file. */
function configFile(config: Record<string, unknown>): string {
  const file = path.join(base, `config-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, JSON.stringify(config));
  return file;
}

interface PolicyRun {
  ok: boolean;
  /** The policy events: `level policy: message`. */
  said: string[];
  error?: string;
}

/** A preview or an up with the pack (and a config), its policy events, and whether it succeeded. */
async function withPack(
  operation: (options: PreviewOptions & UpOptions) => Promise<unknown>,
  config: Record<string, unknown> = {},
): Promise<PolicyRun> {
  const events: EngineEvent[] = [];
  const options = { policyPacks: [PACK], policyPackConfigs: [configFile(config)], onEvent: (e: EngineEvent) => events.push(e) };
  let error: string | undefined;
  try {
    await operation(options);
  } catch (e) {
    error = String(e);
  }
  // The engine's message of a violation is the policy's description, then on its own line what the
  // policy said; that of a policy that cannot run during preview is one line.
  const said = events.flatMap(({ policyEvent: p }) => {
    if (!p) return [];
    const lines = p.message.trim().split("\n");
    return [`${p.enforcementLevel} ${p.policyName}: ${(lines.length > 1 ? lines.slice(1) : lines).join("\n")}`];
  });
  return { ok: error === undefined, said, error };
}

async function stackFor(name: string, program: () => void, stackName = "dev"): Promise<TestStack> {
  const made = await createTestStack({
    name: `policy-${name}`,
    stackName,
    program: async () => program(),
    apiUrl: emulator.url,
    token: emulator.token,
    ephemeral: { checkpoints: false, clock: emulator.emulator.clock },
  });
  // What a run did is read from its events and its error (`withPack`), never from its outputs or summary.
  skipReads(made.stack, { outputs: true, summary: true });
  stacks.push(made);
  return made;
}

interface PolicyCase {
  policy: string;
  /** The stack's name (the availability policy looks at it). */
  stackName?: string;
  /** Settings of every run (a required tag). */
  settings?: Record<string, unknown>;
  /** The level at which its violation fails a preview, when the default is advisory. */
  failing?: string;
  violating: () => void;
  compliant: () => void;
  /** What the violation names: the resource and the field, in the program's words. */
  names: RegExp;
}

const mysql = (name: string, extra: Partial<compute.MysqlDatabaseArgs> = {}) =>
  new compute.MysqlDatabase(name, {
    label: `${name}-db`,
    region: "us-iad",
    type: "g6-nanode-1",
    engineId: "mysql/8",
    sslConnection: true,
    ...extra,
  });

const CASES: PolicyCase[] = [
  {
    policy: "firewall-exposure",
    violating: () => {
      new compute.Firewall("edge", {
        label: "policy-edge",
        inboundPolicy: "DROP",
        outboundPolicy: "ACCEPT",
        inbound: [
          {
            label: "ssh",
            action: "ACCEPT",
            protocol: "TCP",
            ports: "22",
            addresses: { ipv6: ["0000:0000:0000:0000:0000:0000:0000:0000/0"] },
          },
        ],
      });
      const side = new compute.Firewall("side", { label: "policy-side", inboundPolicy: "DROP", outboundPolicy: "ACCEPT" });
      new compute.FirewallRule("side-any", {
        firewallId: side.id,
        direction: "inbound",
        label: "any",
        action: "ACCEPT",
        protocol: "TCP",
        addresses: { ipv4: ["0.0.0.0/0"] },
      });
    },
    compliant: () => {
      new compute.Firewall("edge", {
        label: "policy-edge",
        inboundPolicy: "DROP",
        outboundPolicy: "ACCEPT",
        inbound: [{ label: "ssh", action: "ACCEPT", protocol: "TCP", ports: "22", addresses: { ipv4: ["203.0.113.0/24"] } }],
      });
    },
    names:
      /Firewall "edge": inbound\[0\] \("ssh"\) accepts TCP ports "22" from everyone: addresses\.ipv6\[0\] is "0000:0000:0000:0000:0000:0000:0000:0000\/0"/,
  },
  {
    policy: "database-exposure",
    violating: () => void mysql("open", { allowList: ["203.0.113.0/24", "::/0"] }),
    compliant: () => void mysql("open", { allowList: ["203.0.113.0/24"] }),
    names: /MysqlDatabase "open": allowList\[1\] is "::\/0", which admits everyone/,
  },
  {
    policy: "database-transport",
    violating: () => void mysql("plain", { sslConnection: undefined }),
    compliant: () => void mysql("plain"),
    names: /MysqlDatabase "plain": sslConnection is not set, and the API records that as false/,
  },
  {
    policy: "database-availability",
    stackName: "prod-eu",
    violating: () => void mysql("single"),
    compliant: () => void mysql("single", { type: "g6-dedicated-2", clusterSize: 3 }),
    names: /MysqlDatabase "single": clusterSize is not set \(the API makes 1 node\) in stack "prod-eu", which needs at least 3/,
  },
  {
    policy: "record-ttl",
    failing: "mandatory",
    violating: () => {
      const zone = new compute.Domain("zone", { domain: "ttl.example.com", type: "master", soaEmail: "admin@ttl.example.com" });
      new compute.DomainRecord("www", { domainId: zone.id, type: "A", name: "www", target: "203.0.113.10", ttlSec: 604800 });
    },
    compliant: () => {
      const zone = new compute.Domain("zone", { domain: "ttl.example.com", type: "master", soaEmail: "admin@ttl.example.com" });
      new compute.DomainRecord("www", { domainId: zone.id, type: "A", name: "www", target: "203.0.113.10", ttlSec: 3600 });
    },
    names: /DomainRecord "www": ttlSec is 604800, above the maximum of 86400 seconds/,
  },
  {
    policy: "required-tags",
    settings: { tags: ["team"] },
    violating: () =>
      void new compute.Domain("zone", { domain: "tags.example.com", type: "master", soaEmail: "a@tags.example.com", tags: ["web"] }),
    compliant: () =>
      void new compute.Domain("zone", {
        domain: "tags.example.com",
        type: "master",
        soaEmail: "a@tags.example.com",
        tags: ["web", "team"],
      }),
    names: /Domain "zone": tags \["web"\] lack "team", which the settings require/,
  },
];

test.each(CASES.map((c) => [c.policy, c] as const))(
  "%s: the violating preview fails naming it, the compliant one passes, and at advisory up proceeds",
  async (_name, c) => {
    const settings = (level?: string) => ({ [c.policy]: { ...c.settings, ...(level ? { enforcementLevel: level } : {}) } });
    const violating = await stackFor(`${c.policy}-bad`, c.violating, c.stackName);
    emulator.control.clearRequests();
    const failed = await withPack((o) => violating.stack.preview(o), settings(c.failing));
    expect(failed.ok).toBe(false);
    const level = c.failing ?? "mandatory";
    expect(failed.said).toContainEqual(expect.stringMatching(new RegExp(`^${level} ${c.policy}: ${c.names.source}`)));
    // Only this policy objects: the program is compliant with every other one.
    expect(failed.said.filter((s) => !s.includes(` ${c.policy}: `))).toEqual([]);
    expect(writes()).toEqual([]);

    const compliant = await stackFor(`${c.policy}-good`, c.compliant, c.stackName);
    const passed = await withPack((o) => compliant.stack.preview(o), settings());
    expect(passed).toEqual({ ok: true, said: [] });
    expect(writes()).toEqual([]);

    // Lowered to advisory: a warning, and up goes on.
    const advised = await withPack((o) => violating.stack.preview(o), settings("advisory"));
    expect(advised.ok).toBe(true);
    expect(advised.said).toContainEqual(expect.stringMatching(new RegExp(`^advisory ${c.policy}: ${c.names.source}`)));
    const up = await withPack((o) => violating.stack.up(o), settings("advisory"));
    expect({ ok: up.ok, error: up.error }).toEqual({ ok: true, error: undefined });
    expect(up.said).toContainEqual(expect.stringMatching(new RegExp(`^advisory ${c.policy}: `)));
    expect(writes().filter((w) => w.method === "POST").length).toBeGreaterThan(0);
    await violating.stack.destroy();
  },
);

test("a value known only after another resource is made: preview says the policy runs at up, and up refuses the resource before creating it", async () => {
  const s = await stackFor("later", () => {
    const vpc = new compute.Vpc("net", { label: "policy-later", region: "us-iad" });
    const subnet = new compute.VpcSubnet("data", { vpcId: vpc.id, label: "data", ipv4: "10.0.2.0/24" });
    // An allow list built from what the subnet's creation answers (its id is unknown at preview).
    mysql("late", { allowList: [subnet.ipv4, subnet.id.apply(() => "0.0.0.0/0")] });
  });
  emulator.control.clearRequests();
  const preview = await withPack((o) => s.stack.preview(o));
  expect(preview.ok).toBe(true);
  expect(preview.said).toContainEqual(
    expect.stringMatching(
      /^advisory database-exposure: can't run policy 'database-exposure' from policy pack 'compute-guardrails@v[\d.]+' during preview: MysqlDatabase "late": allowList\[1\] is known only once the resources it reads are made; the rest passes, and this is checked at `up`, before the resource is created or changed/,
    ),
  );
  expect(writes()).toEqual([]);

  const up = await withPack((o) => s.stack.up(o));
  expect(up.ok).toBe(false);
  expect(up.said).toContainEqual(
    'mandatory database-exposure: MysqlDatabase "late": allowList[1] is "0.0.0.0/0", which admits everyone. List the addresses and networks that connect.',
  );
  const created = writes()
    .filter((w) => w.method === "POST")
    .map((w) => w.path);
  expect(created).toContain("/v4/vpcs");
  expect(created.some((p) => p.startsWith("/v4/databases"))).toBe(false);
});

test("from a project folder with the pulumi CLI: the one documented flag, a team's own pack with validateResourceOfType(compute.Firewall, …), and --policy-pack-config", async () => {
  const project = path.join(base, "cli");
  const state = path.join(base, "cli-state");
  fs.mkdirSync(state);
  const program = `const compute = require("pulumi-compute");
new compute.Firewall("edge", { label: "cli-edge", inboundPolicy: "ACCEPT", outboundPolicy: "ACCEPT" });
`;
  linkedProject(project, { name: "policy-cli", backendUrl: `file://${state}`, program });
  const env = linkedProjectEnv(base);
  const pulumi = (args: string) => runProcess("bash", ["-c", `pulumi ${args}`], { cwd: project, env, timeoutMs: 300_000 });
  expectExit(await pulumi("stack init dev"), 0);
  expectExit(await pulumi(`config set compute:apiUrl ${emulator.url}`), 0);
  expectExit(await pulumi(`config set --secret compute:token ${emulator.token}`), 0);

  const flag = "--policy-pack node_modules/pulumi-compute/policy/compute-guardrails";
  const failed = await pulumi(`preview ${flag}`);
  expectExit(failed, "fails");
  expect(failed.out).toMatch(/\[mandatory\]\s+firewall-exposure\s+\(pulumi-nodejs:dynamic\/compute:Firewall: edge\)/);
  expect(failed.out).toContain(
    'Firewall "edge": inboundPolicy is "ACCEPT": traffic that no inbound rule matches is accepted from everyone',
  );
  expect(failed.out).not.toContain("dependencies are not installed");

  // A team's own pack: the package's policies, and one of its own written against these kinds
  // with @pulumi/policy's validateResourceOfType, started as a file as the package's pack is.
  const team = path.join(project, "team-pack");
  fs.mkdirSync(team);
  fs.writeFileSync(path.join(team, "package.json"), JSON.stringify({ name: "team-pack", version: "1.0.0" }));
  fs.writeFileSync(
    path.join(team, "index.js"),
    `const { PolicyPack, validateResourceOfType } = require("@pulumi/policy");
const compute = require("pulumi-compute");
const { COMPUTE_POLICIES } = require("pulumi-compute/policy");
new PolicyPack("team-guardrails", {
  policies: [
    ...COMPUTE_POLICIES,
    {
      name: "firewall-labels",
      description: "Firewall labels start with team-.",
      enforcementLevel: "mandatory",
      validateResource: validateResourceOfType(compute.Firewall, (firewall, args, report) => {
        if (!firewall.label.startsWith("team-")) report(\`Firewall "\${args.name}": label \${JSON.stringify(firewall.label)} does not start with team-\`);
      }),
    },
  ],
});
`,
  );
  fs.writeFileSync(path.join(team, "run"), '#!/bin/sh\ncd "$(dirname "$0")" && exec node index.js "$@"\n', { mode: 0o755 });
  const teamRun = await pulumi("preview --policy-pack team-pack/run");
  expectExit(teamRun, "fails");
  expect(teamRun.out).toMatch(/\[mandatory\]\s+firewall-labels\s+\(pulumi-nodejs:dynamic\/compute:Firewall: edge\)/);
  expect(teamRun.out).toContain('Firewall "edge": label "cli-edge" does not start with team-');
  expect(teamRun.out).toMatch(/\[mandatory\]\s+firewall-exposure/);

  const config = configFile({ "firewall-exposure": "advisory" });
  const advised = await pulumi(`up --yes ${flag} --policy-pack-config ${config}`);
  expectExit(advised, 0);
  expect(advised.out).toMatch(/\[advisory\]\s+firewall-exposure/);
  expectExit(await pulumi("destroy --yes"), 0);
});
