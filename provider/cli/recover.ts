/**
 * `pulumi-compute recover`: the command over `recover` (`provider/stack/recovery.ts`) for a project
 * directory and stack. Exit 0 when the stack was recovered or had nothing to recover, 1 on an
 * error, a refusal, or a declined plan.
 */
import { recover } from "../stack/recovery";
import { EXIT } from "./exit";
import { projectStack } from "./project-stack";

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
    const stack = await projectStack(options.cwd, options.stack);
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
