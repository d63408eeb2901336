/**
 * The Pulumi CLI this process drives stacks with: where it is (the setup's build, else the one on
 * `PATH`) and the Automation API's handle on it. Used by the demo, the tests, the CLI's commands
 * and `emulatedStack`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { execFileSync } from "node:child_process";
import { PulumiCommand } from "@pulumi/pulumi/automation";

/** The directory holding `pulumi` (and `pulumi-resource-pulumi-nodejs` beside it). */
export function engineBin(): string {
  const fromSetup = process.env.PULUMI_COMPUTE_ENGINE_BIN;
  if (fromSetup && fs.existsSync(path.join(fromSetup, "pulumi"))) return fromSetup;
  try {
    return path.dirname(execFileSync("sh", ["-c", "command -v pulumi"], { encoding: "utf8" }).trim());
  } catch {
    throw new Error("the Pulumi CLI is not on PATH: run through `npm test` / `npm run demo`, which build it, or install it");
  }
}

const commands = new Map<string, Promise<PulumiCommand>>();

/** The Automation API's handle on that CLI: one per CLI for the life of the process (getting one runs `pulumi version`). */
export function pulumiCommand(): Promise<PulumiCommand> {
  const root = path.dirname(engineBin());
  let command = commands.get(root);
  if (!command) {
    command = PulumiCommand.get({ root });
    commands.set(root, command);
    command.catch(() => commands.delete(root));
  }
  return command;
}
