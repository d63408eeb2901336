/**
 * `pulumi-compute scopes`: the least-privilege OAuth scopes a stack needs (`provider/stack/least-scopes.ts`),
 * from a preview of it (no writes): what `up` and `destroy` need, and what `preview`, `refresh`
 * and `drift` need.
 */
import { stackScopes, type StackScopes } from "../stack/least-scopes";
import { CONFIG_TOKEN } from "../engine/context";
import { EXIT } from "./exit";
import { projectStack } from "./project-stack";

export interface ScopesOptions {
  /** The project directory (holding Pulumi.yaml); default the working directory. */
  cwd: string;
  /** The stack; default the project's selected stack. */
  stack?: string;
  json: boolean;
}

/** The report as a person reads it: each set as the comma-separated list a token form takes. */
export function formatScopes(report: StackScopes): string {
  const list = (scopes: string[]) => (scopes.length === 0 ? "(none: every endpoint it uses is open to any token)" : scopes.join(","));
  return [
    `Stack ${report.stack} (${report.kinds.length === 0 ? "no resources" : report.kinds.join(", ")}) needs these OAuth scopes:`,
    "",
    "  pulumi up, pulumi destroy:",
    `    ${list(report.up)}`,
    "  pulumi preview, pulumi refresh, pulumi-compute drift:",
    `    ${list(report.preview)}`,
    "",
    `Make a personal access token with exactly those scopes, and give it to the stack: pulumi config set --secret ${CONFIG_TOKEN} <token>`,
  ].join("\n");
}

export async function runScopes(options: ScopesOptions): Promise<number> {
  try {
    const report = await stackScopes(await projectStack(options.cwd, options.stack));
    console.log(options.json ? JSON.stringify(report, null, 2) : formatScopes(report));
    return EXIT.clean;
  } catch (error) {
    console.error(`pulumi-compute scopes: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.error;
  }
}
