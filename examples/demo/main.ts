/**
 * `npm run demo`: the main job. Starts the embedded emulator, then drives the quickstart stack
 * through the real Pulumi engine — preview, up, outputs, a change made behind Pulumi's back, the
 * drift report, up to restore, destroy — and leaves nothing running.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, type EngineEvent, type Stack } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { driftFromEvents, pulumiCommand } from "../../provider/automation";
import { quickstart } from "../quickstart/program";

const REPO_ROOT = path.resolve(__dirname, "../../..");
const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
const dim = (s: string) => (process.stdout.isTTY ? `\x1b[2m${s}\x1b[0m` : s);

let phaseNumber = 0;
function phase(title: string): void {
  phaseNumber += 1;
  console.log(`\n${bold(`── ${phaseNumber}. ${title} `.padEnd(78, "─"))}`);
}

/** Engine output, indented under the phase heading. */
function engineOutput(text: string): void {
  for (const line of text.replace(/\n$/, "").split("\n")) console.log(dim("   │ ") + line);
}

function table(rows: string[][]): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  rows.forEach((row, index) => {
    console.log("   " + row.map((cell, i) => cell.padEnd(widths[i]!)).join("   "));
    if (index === 0) console.log("   " + widths.map((w) => "─".repeat(w)).join("   "));
  });
}

async function main(): Promise<void> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-compute-demo-"));
  let emulator: RunningEmulator | undefined;
  let stack: Stack | undefined;
  let client: ComputeClient | undefined;
  try {
    phase("Start the embedded emulator");
    emulator = await startEmulator({ port: 0 });
    client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
    console.log(`   API ${emulator.url}  (control API ${emulator.controlUrl})`);

    const stateDir = path.join(base, "state");
    fs.mkdirSync(stateDir);
    stack = await LocalWorkspace.createOrSelectStack(
      { stackName: "demo", projectName: "compute-quickstart", program: quickstart },
      {
        workDir: base,
        pulumiCommand: await pulumiCommand(),
        envVars: {
          PULUMI_CONFIG_PASSPHRASE: "demo-passphrase",
          PULUMI_SKIP_UPDATE_CHECK: "true",
          PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
        },
        projectSettings: { name: "compute-quickstart", runtime: "nodejs", main: REPO_ROOT, backend: { url: `file://${stateDir}` } },
      },
    );
    await stack.setConfig("compute:token", { value: emulator.token, secret: true });
    await stack.setConfig("compute:apiUrl", { value: emulator.url });
    console.log(`   stack "demo" with a file:// backend in ${stateDir}`);

    phase("Preview");
    const preview = await stack.preview({ onOutput: engineOutput });
    console.log(`   planned: ${JSON.stringify(preview.changeSummary)}`);

    phase("Up");
    const up = await stack.up({ onOutput: engineOutput });
    console.log(`   result: ${up.summary.result} ${JSON.stringify(up.summary.resourceChanges)}`);

    phase("Stack outputs");
    table([["output", "value"], ...Object.entries(up.outputs).map(([k, v]) => [k, v.secret ? "[secret]" : JSON.stringify(v.value)])]);

    phase("Change the VPC behind Pulumi's back");
    const vpcId = Number(up.outputs.vpcId!.value);
    const edited = await client.vpcs.update(vpcId, { label: "edited-by-hand", description: "changed outside Pulumi" });
    console.log(`   PUT /vpcs/${vpcId} → label "${edited.label}", description "${edited.description}"`);

    phase("Drift report (refresh)");
    const events: EngineEvent[] = [];
    await stack.refresh({ onEvent: (e) => events.push(e) });
    const drift = driftFromEvents(events);
    if (drift.length === 0) throw new Error("the refresh found no drift, but the VPC was changed");
    table([["resource", "field", "value in state", "value in the cloud"], ...drift.map((d) => [`${d.type} ${d.resource}`, d.field, JSON.stringify(d.state), JSON.stringify(d.cloud)])]);

    phase("Up restores the program's values");
    const restore = await stack.up({ onOutput: engineOutput });
    const restored = await client.vpcs.get(vpcId);
    console.log(`   result: ${restore.summary.result}; the VPC's label is "${restored.label}" again`);

    phase("Destroy");
    const destroyed = await stack.destroy({ onOutput: engineOutput });
    const left = await client.vpcs.listAll();
    console.log(`   result: ${destroyed.summary.result}; VPCs left in the emulator: ${left.length}`);
    if (left.length !== 0) throw new Error("destroy left VPCs behind");
    console.log(`\n${bold("Demo finished: every phase succeeded.")}`);
  } finally {
    await client?.close();
    await emulator?.close();
    fs.rmSync(base, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`\ndemo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
