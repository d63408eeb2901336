/**
 * `npm run demo [-- <example>]`: the main job. Starts the embedded emulator with seeded compute
 * instances, a nodebalancer and disks, then drives a stack through the real Pulumi engine.
 *
 * The quickstart (default): preview → up → outputs → changes made behind Pulumi's back → the
 * drift report → up restores → destroy. Any other example (`vpc`, `networking`, `dns`,
 * `databases`, `images`): preview → up → outputs → a preview showing no changes → destroy.
 * Nothing is left running; the exit code is 0 only when every phase did what it should.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, type EngineEvent, type Stack } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { driftFromEvents, pulumiCommand } from "../../provider/automation";
import { formatReport } from "../../provider/cli/drift";
import { EXAMPLES } from "../catalog";
import { seedEnvironment } from "../support/environment";

const REPO_ROOT = path.resolve(__dirname, "../../..");
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

const indent = (text: string) => text.split("\n").map((l) => `   ${l}`).join("\n");

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

/** Changes made through the API, as someone outside Pulumi would. */
async function changeBehindPulumisBack(client: ComputeClient, outputs: Record<string, { value: unknown }>): Promise<void> {
  const vpcId = Number(outputs.vpcId!.value);
  await client.vpcs.update(vpcId, { label: "edited-by-hand" });
  console.log(`   PUT /vpcs/${vpcId}: label "edited-by-hand"`);

  const [domain] = await client.domains.listAll({ filter: { domain: String(outputs.domain!.value) } });
  const www = (await client.domains.records.listAll(domain!.id)).find((r) => r.name === "www")!;
  await client.domains.records.update(domain!.id, www.id, { target: "198.51.100.99" });
  console.log(`   PUT /domains/${domain!.id}/records/${www.id}: www now points at 198.51.100.99`);

  const [database] = await client.databases.mysql.listAll({ filter: { label: "quickstart-db" } });
  await client.databases.mysql.update(database!.id, { allow_list: ["0.0.0.0/0"] });
  console.log(`   PUT /databases/mysql/instances/${database!.id}: allow_list opened to 0.0.0.0/0`);
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

async function run(exampleName: string): Promise<void> {
  const example = EXAMPLES[exampleName];
  if (!example) throw new Error(`no example "${exampleName}"; choose one of: ${Object.keys(EXAMPLES).join(", ")}`);
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-compute-demo-"));
  let emulator: RunningEmulator | undefined;
  let client: ComputeClient | undefined;
  try {
    phase(`Start the embedded emulator (example: ${exampleName} — ${example.what})`);
    emulator = await startEmulator({ port: 0, timeScale: TIME_SCALE });
    const seeded = seedEnvironment(emulator);
    client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
    console.log(`   API ${emulator.url}  (control API ${emulator.controlUrl}; time runs ${TIME_SCALE}× faster)`);
    console.log(`   seeded: compute instances ${seeded.computeIds.join(", ")}, nodebalancer ${seeded.nodebalancerId}, disk ${seeded.diskId}`);

    const stateDir = path.join(base, "state");
    fs.mkdirSync(stateDir);
    const project = exampleName === "quickstart" ? "compute-quickstart" : `compute-example-${exampleName}`;
    const stack: Stack = await LocalWorkspace.createOrSelectStack(
      { stackName: "demo", projectName: project, program: example.program },
      {
        workDir: base,
        pulumiCommand: await pulumiCommand(),
        envVars: { PULUMI_CONFIG_PASSPHRASE: "demo-passphrase", PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true" },
        projectSettings: { name: project, runtime: "nodejs", main: REPO_ROOT, backend: { url: `file://${stateDir}` } },
      },
    );
    await stack.setAllConfig({
      "compute:token": { value: emulator.token, secret: true },
      "compute:apiUrl": { value: emulator.url },
      "compute-quickstart:nodebalancerId": { value: String(seeded.nodebalancerId) },
      "compute-examples:diskId": { value: String(seeded.diskId) },
    });
    console.log(`   stack "demo" of project ${project}, file:// backend in ${stateDir}`);

    phase("Preview");
    const preview = await stack.preview({ onOutput: engineOutput });
    console.log(`   planned: ${JSON.stringify(preview.changeSummary)}`);

    phase("Up");
    const up = await stack.up({ onOutput: engineOutput });
    console.log(`   result: ${up.summary.result} ${JSON.stringify(up.summary.resourceChanges)}`);

    phase("Stack outputs");
    table([["output", "value"], ...Object.entries(up.outputs).map(([k, v]) => [k, v.secret ? "[secret]" : JSON.stringify(v.value)])]);

    // The state file on disk (exportStack would decrypt the secrets it holds).
    const stateFile = path.join(stateDir, ".pulumi", "stacks", project, "demo.json");
    expect(!fs.readFileSync(stateFile, "utf8").includes(emulator.token), "the API token appears in the state file");
    console.log(`   the state file holds the token and the root password only as ciphertext`);

    if (exampleName === "quickstart") {
      phase("Change things behind Pulumi's back");
      await changeBehindPulumisBack(client, up.outputs);

      phase("Drift report (refresh)");
      const events: EngineEvent[] = [];
      await stack.refresh({ onEvent: (e) => events.push(e) });
      const drift = driftFromEvents(events);
      const resources = events.filter((e) => e.resourcePreEvent && !e.resourcePreEvent.metadata.type.startsWith("pulumi:")).length;
      console.log(indent(formatReport({ stack: "demo", resources, drift }, true)));
      expect(new Set(drift.map((d) => d.resource)).size === 3, "the refresh should find the three changes");

      phase("Up restores the program's values");
      const restore = await stack.up({ onOutput: engineOutput });
      console.log(`   result: ${restore.summary.result} ${JSON.stringify(restore.summary.resourceChanges)}`);
      const vpc = await client.vpcs.get(Number(up.outputs.vpcId!.value));
      expect(vpc.label === "quickstart-net", "the VPC label was not restored");
      console.log(`   the VPC is "${vpc.label}" again, the record and the allow list are back`);
    }

    phase("Preview after up: no changes");
    const again = await stack.preview();
    const changes = Object.entries(again.changeSummary).filter(([op]) => op !== "same");
    console.log(`   ${JSON.stringify(again.changeSummary)}`);
    expect(changes.length === 0, `a preview right after up planned ${JSON.stringify(Object.fromEntries(changes))}`);

    phase("Destroy");
    const destroyed = await stack.destroy({ onOutput: engineOutput });
    const left = await leftovers(client);
    console.log(`   result: ${destroyed.summary.result}; left in the emulator: ${left.length ? left.join(", ") : "nothing"}`);
    expect(left.length === 0, `destroy left ${left.join(", ")}`);
    console.log(`\n${bold(`Demo finished: every phase of "${exampleName}" succeeded.`)}`);
  } finally {
    await client?.close();
    await emulator?.close();
    fs.rmSync(base, { recursive: true, force: true });
  }
}

run(process.argv[2] ?? "quickstart").catch((error: unknown) => {
  console.error(`\ndemo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
