/**
 * `pulumi-compute recover`: the command over `recover` (`provider/recover.ts`) for a project
 * directory and stack. Exit 0 when the stack was recovered or had nothing to recover, 1 on an
 * error, a refusal, or a declined plan.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { pulumiCommand } from "../automation";
import { recover } from "../recover";
import { EXIT } from "./exit";

/** The command's options (`--cwd`, `--stack`, `--yes`, `--json`). */
export interface RecoverCommandOptions {
  cwd: string;
  stack?: string;
  yes: boolean;
  json: boolean;
}

/** Runs the command; the exit code (0 recovered or nothing to do, 1 error, refusal or declined). */
export async function runRecover(options: RecoverCommandOptions, out: (text: string) => void = console.log): Promise<number> {
  try {
    const workDir = path.resolve(options.cwd);
    if (!fs.existsSync(path.join(workDir, "Pulumi.yaml"))) throw new Error(`no Pulumi.yaml in ${workDir}; pass --cwd <project directory>`);
    const workspace = await LocalWorkspace.create({ workDir, pulumiCommand: await pulumiCommand() });
    const name = options.stack ?? (await workspace.stack())?.name;
    if (!name) throw new Error("no stack selected; pass --stack <name>");
    const stack = await Stack.select(name, workspace);
    const report = await recover(stack, { yes: options.yes, out: options.json ? undefined : out });
    if (options.json) out(JSON.stringify(report, null, 2));
    const refused = report.locks.some((l) => l.action === "refused") || report.resources.some((l) => l.action === "refused");
    const declined = !report.applied && (report.resources.length > 0 || report.locks.length > 0);
    return refused || declined ? EXIT.error : EXIT.clean;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    out(options.json ? JSON.stringify({ error: message }) : `pulumi-compute recover: ${message}`);
    return EXIT.error;
  }
}
