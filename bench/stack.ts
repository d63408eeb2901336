/**
 * A stack for a benchmark, through the real engine (Automation API, `file://` backend), in a
 * temporary folder of its own, its provider resolving `pulumi-compute` to this repository and its
 * credentials those of the in-process emulator. Pacing is off: the emulator counts the documented
 * rate-limit windows without enforcing them, and the benchmarks compare the engine's costs, not
 * the API's budget.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, type PulumiFn, type Stack } from "@pulumi/pulumi/automation";
import type { RunningEmulator } from "../emulator";
import { pulumiCommand } from "../provider/stack/pulumi-cli";
import { withComputePlugins } from "../provider/launch/plugins";

export const REPO_ROOT = path.resolve(__dirname, "../..");

export async function benchStack(name: string, program: PulumiFn, emulator: RunningEmulator, base: string): Promise<Stack> {
  const dir = path.join(base, name);
  fs.mkdirSync(path.join(dir, "state"), { recursive: true });
  const project = `bench-${name}`;
  return LocalWorkspace.createOrSelectStack(
    { stackName: "bench", projectName: project, program },
    {
      workDir: dir,
      pulumiCommand: await pulumiCommand(),
      envVars: {
        PULUMI_CONFIG_PASSPHRASE: "bench",
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
        PULUMI_HOME: process.env.PULUMI_HOME ?? path.join(base, "home"),
        COMPUTE_TOKEN: emulator.token,
        COMPUTE_API_URL: emulator.url,
        COMPUTE_PACING: "off",
      },
      projectSettings: withComputePlugins({
        name: project,
        runtime: "nodejs",
        main: REPO_ROOT,
        backend: { url: `file://${path.join(dir, "state")}` },
      }),
    },
  );
}
