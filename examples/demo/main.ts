/**
 * `npm run demo [-- [--cli] [--policy] [--skip-checkpoints] <example>]`: the main job. Starts the embedded emulator with seeded
 * compute instances, a nodebalancer and disks, then drives a stack through the real Pulumi engine:
 * through the Automation API with the program inline (the default), or with `--cli` through the
 * `pulumi` CLI in the folder of the example's own Pulumi.yaml, as a user's shell would.
 *
 * The quickstart (default): preview → up → outputs → changes made behind Pulumi's back → the
 * drift report → up restores → destroy. Any other example (`vpc`, `networking`, `dns`,
 * `databases`, `images`, `record-set`): preview → up → outputs → a preview showing no changes →
 * destroy; `yaml` (a Pulumi YAML program through the provider plugin, `--cli` only) has a change
 * behind Pulumi's back too.
 * Nothing is left running; the exit code is 0 only when every phase did what it should.
 * `--skip-checkpoints` runs the engine with `PULUMI_SKIP_CHECKPOINTS=true`: state is written once
 * at the end of each operation instead of after every step (faster for large stacks; an
 * interrupted run loses what it did — see docs/guides/record-sets-and-scale.md, "Scale").
 * `--policy` runs every preview and up with the compute-guardrails policy pack at its defaults
 * (`policy/compute-guardrails`; docs/guides/policy.md): a violation fails the demo.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { formatReport } from "../../provider/cli/drift";
import { EXAMPLES } from "../catalog";
import { demoEnvironmentConfig, seedDemoEnvironment } from "../../emulator/control/demo-environment";
import { createDriver, REPO_ROOT, STACK, type DriverKind } from "./drivers";
import { startKeyService, type KeyService } from "../../provider/testing/key-service";
import { GUARDRAILS } from "../../provider/launch/plugins";

/** Emulated time runs 300× faster: a database provisions in 3–6 s instead of 15–30 minutes. */
const TIME_SCALE = 300;
const tty = process.stdout.isTTY;
const bold = (s: string) => (tty ? `\x1b[1m${s}\x1b[0m` : s);
const dim = (s: string) => (tty ? `\x1b[2m${s}\x1b[0m` : s);

let phaseNumber = 0;
function phase(title: string): void {
  phaseNumber += 1;
  console.log(`\n${bold(`── ${phaseNumber}. ${title} `.padEnd(78, "─"))}`);
}

/** Engine output, indented under the phase heading. */
function engineOutput(text: string): void {
  for (const line of text.replace(/\n$/, "").split("\n")) console.log(dim("   │ ") + line);
}

const indent = (text: string) =>
  text
    .split("\n")
    .map((l) => `   ${l}`)
    .join("\n");

function table(rows: string[][]): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  rows.forEach((row, index) => {
    console.log("   " + row.map((cell, i) => cell.padEnd(widths[i]!)).join("   "));
    if (index === 0) console.log("   " + widths.map((w) => "─".repeat(w)).join("   "));
  });
}

function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

/** What the quickstart names its objects, with its default config. */
const QUICKSTART = { vpcLabel: "quickstart-net", domain: "quickstart.example", databaseLabel: "quickstart-db" };

/** Changes an example's stack is put through behind Pulumi's back, and how many resources they touch. */
interface DriftCase {
  /** The VPC whose label is changed (each case changes one, which `up` must restore). */
  vpcLabel: string;
  resources: number;
  /** The case's other changes, after the VPC's. */
  more?: (client: ComputeClient) => Promise<void>;
}

const DRIFT_CASES: Record<string, DriftCase> = {
  quickstart: {
    vpcLabel: QUICKSTART.vpcLabel,
    resources: 3,
    more: async (client) => {
      const [domain] = await client.domains.listAll({ filter: { domain: QUICKSTART.domain } });
      const www = (await client.domains.records.listAll(domain!.id)).find((r) => r.name === "www")!;
      await client.domains.records.update(domain!.id, www.id, { target: "198.51.100.99" });
      console.log(`   PUT /domains/${domain!.id}/records/${www.id}: www now points at 198.51.100.99`);

      const [database] = await client.databases.mysql.listAll({ filter: { label: QUICKSTART.databaseLabel } });
      await client.databases.mysql.update(database!.id, { allow_list: ["0.0.0.0/0"] });
      console.log(`   PUT /databases/mysql/instances/${database!.id}: allow_list opened to 0.0.0.0/0`);
    },
  },
  yaml: { vpcLabel: "yaml-net", resources: 1 },
};

/** Changes made through the API, as someone outside Pulumi would; resolves to the VPC's id. */
async function changeBehindPulumisBack(client: ComputeClient, drift: DriftCase): Promise<number> {
  const [vpc] = await client.vpcs.listAll({ filter: { label: drift.vpcLabel } });
  await client.vpcs.update(vpc!.id, { label: "edited-by-hand" });
  console.log(`   PUT /vpcs/${vpc!.id}: label "edited-by-hand"`);
  await drift.more?.(client);
  return vpc!.id;
}

/** Everything the stack made is gone from the emulator. */
async function leftovers(client: ComputeClient): Promise<string[]> {
  const counts: Array<[string, number]> = [
    ["VPCs", (await client.vpcs.listAll()).length],
    ["firewalls", (await client.networking.firewalls.listAll()).length],
    ["domains", (await client.domains.listAll()).length],
    ["databases", (await client.databases.instances.listAll()).length],
    ["private images", (await client.images.listAll()).filter((i) => !i.is_public).length],
    ["IPv6 ranges", (await client.networking.ipv6.ranges.listAll()).length],
  ];
  return counts.filter(([, n]) => n > 0).map(([what, n]) => `${n} ${what}`);
}

async function run(exampleName: string, kind: DriverKind, policy: boolean): Promise<void> {
  const example = EXAMPLES[exampleName];
  if (!example) throw new Error(`no example "${exampleName}"; choose one of: ${Object.keys(EXAMPLES).join(", ")}`);
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-compute-demo-"));
  let emulator: RunningEmulator | undefined;
  let client: ComputeClient | undefined;
  let keys: KeyService | undefined;
  try {
    phase(`Start the embedded emulator (example: ${exampleName} — ${example.what})`);
    emulator = await startEmulator({ port: 0, timeScale: TIME_SCALE });
    const seeded = seedDemoEnvironment(emulator.control);
    client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
    console.log(`   API ${emulator.url}  (control API ${emulator.controlUrl}; time runs ${TIME_SCALE}× faster)`);
    console.log(
      `   seeded: compute instances ${seeded.computeIds.join(", ")}, nodebalancer ${seeded.nodebalancerId}, disk ${seeded.diskId}`,
    );

    keys = await startKeyService();
    const stack = await createDriver(kind, {
      example,
      keys,
      project: example.project,
      base,
      onOutput: engineOutput,
      policyPack: policy ? GUARDRAILS : undefined,
      config: {
        "compute:token": { value: emulator.token, secret: true },
        "compute:apiUrl": { value: emulator.url },
        ...Object.fromEntries(Object.entries(demoEnvironmentConfig(seeded)).map(([key, value]) => [key, { value }])),
      },
    });
    console.log(`   stack "${STACK}" through ${stack.description}`);
    if (policy)
      console.log(
        `   every preview and up runs the compute-guardrails policy pack at its defaults (${path.relative(REPO_ROOT, GUARDRAILS)})`,
      );

    phase("Preview");
    console.log(`   planned: ${await stack.preview()}`);

    phase("Up");
    console.log(`   result: ${await stack.up()}`);

    phase("Stack outputs");
    table([["output", "value"], ...(await stack.outputs())]);

    // The state file on disk (exportStack would decrypt the secrets it holds).
    expect(!fs.readFileSync(stack.statePath, "utf8").includes(emulator.token), "the API token appears in the state file");
    console.log(`   the state file holds the token and the root password only as ciphertext`);

    const driftCase = DRIFT_CASES[exampleName];
    if (driftCase) {
      phase("Change things behind Pulumi's back");
      const vpcId = await changeBehindPulumisBack(client, driftCase);

      phase("Drift report (refresh)");
      const { resources, drift } = await stack.refresh();
      console.log(indent(formatReport({ stack: STACK, resources, drift }, true)));
      const found = new Set(drift.map((d) => d.resource)).size;
      expect(found === driftCase.resources, `the refresh should find changes in ${driftCase.resources} resources, found ${found}`);

      phase("Up restores the program's values");
      console.log(`   result: ${await stack.up()}`);
      const vpc = await client.vpcs.get(vpcId);
      expect(vpc.label === driftCase.vpcLabel, "the VPC label was not restored");
      console.log(`   the VPC is "${vpc.label}" again${driftCase.more ? ", the record and the allow list are back" : ""}`);
    }

    phase("Preview after up: no changes");
    const changes = await stack.plannedChanges();
    console.log(`   ${Object.keys(changes).length ? JSON.stringify(changes) : "no changes"}`);
    expect(Object.keys(changes).length === 0, `a preview right after up planned ${JSON.stringify(changes)}`);

    phase("Destroy");
    const destroyed = await stack.destroy();
    const left = await leftovers(client);
    console.log(`   result: ${destroyed}; left in the emulator: ${left.length ? left.join(", ") : "nothing"}`);
    expect(left.length === 0, `destroy left ${left.join(", ")}`);
    console.log(`\n${bold(`Demo finished: every phase of "${exampleName}" succeeded.`)}`);
  } finally {
    await client?.close();
    await keys?.close();
    await emulator?.close();
    fs.rmSync(base, { recursive: true, force: true });
  }
}

function parseCommandLine(argv: string[]): { example: string; kind: DriverKind; policy: boolean } {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { cli: { type: "boolean" }, policy: { type: "boolean" }, "skip-checkpoints": { type: "boolean" } },
  });
  if (positionals.length > 1) {
    throw new Error(
      `one example at a time; usage: npm run demo -- [--cli] [--policy] [--skip-checkpoints] [${Object.keys(EXAMPLES).join("|")}]`,
    );
  }
  // The engine (CLI and Automation API alike) reads it from the environment it inherits.
  if (values["skip-checkpoints"]) process.env.PULUMI_SKIP_CHECKPOINTS = "true";
  const example = positionals[0] ?? "quickstart";
  if (!values.cli && EXAMPLES[example] && !EXAMPLES[example].program) {
    throw new Error(`the ${example} example is a Pulumi YAML program, which only the pulumi CLI runs: npm run demo -- --cli ${example}`);
  }
  return { example, kind: values.cli ? "cli" : "automation", policy: values.policy === true };
}

Promise.resolve()
  .then(() => parseCommandLine(process.argv.slice(2)))
  .then(({ example, kind, policy }) => run(example, kind, policy))
  .catch((error: unknown) => {
    console.error(`\ndemo failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
