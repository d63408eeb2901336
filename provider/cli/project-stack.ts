/**
 * The stack a one-stack command (`drift`, `recover`) works on: the project in `--cwd`, and
 * `--stack` or the stack selected there, as `pulumi` itself picks it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { pulumiCommand } from "../stack/pulumi-cli";

export async function projectStack(cwd: string, stackName?: string): Promise<Stack> {
  const workDir = path.resolve(cwd);
  if (!fs.existsSync(path.join(workDir, "Pulumi.yaml"))) throw new Error(`no Pulumi.yaml in ${workDir}; pass --cwd <project directory>`);
  const workspace = await LocalWorkspace.create({ workDir, pulumiCommand: await pulumiCommand() });
  const name = stackName ?? (await workspace.stack())?.name;
  if (!name) throw new Error("no stack selected; pass --stack <name>");
  return Stack.select(name, workspace);
}
