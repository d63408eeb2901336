/**
 * The least-privilege OAuth scopes of a stack: what a token must hold for `up` and `destroy`, and
 * what suffices for `preview`, `refresh` and `drift`.
 *
 * Two sources, both named by the sdk's endpoint table (which records every endpoint's scopes):
 * - each resource kind declares the endpoints of its life (`ResourceSpec.endpoints`): reads, and
 *   the writes `up` and `destroy` send besides;
 * - the program's own calls (data functions such as `getIps`) run in the program, where nothing
 *   declares them, so a preview run for this purpose records the endpoints they call: every
 *   client of this package appends the names it calls to a file (`stores/scopes-log.ts`; the provider
 *   process records its reads the same way).
 *
 * The preview sends no write: it is what `pulumi preview` sends.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { EngineEvent, Stack } from "@pulumi/pulumi/automation";
import { leastScopes } from "../engine/oauth-scopes";
import { specForType, specOf } from "../serve/spec-lookup";
import { SCOPES_LOG_ENV } from "../stores/scopes-log";

/** The scopes a stack needs, split by what runs with them. */
export interface StackScopes {
  stack: string;
  /** For `pulumi up` and `pulumi destroy`. */
  up: string[];
  /** For `pulumi preview`, `pulumi refresh` and `pulumi-compute drift`. */
  preview: string[];
  /** The resource kinds of the program and its state. */
  kinds: string[];
  /** Endpoints the preview called: the program's data functions, and the provider's reads. */
  previewCalls: string[];
}

/** The scopes of resource kinds and of endpoints a preview called: for `up`/`destroy` and for `preview`/`refresh`/`drift`. */
export function scopesOf(kinds: Iterable<string>, previewCalls: Iterable<string> = []): { up: string[]; preview: string[] } {
  const reads = new Set(previewCalls);
  const writes = new Set<string>();
  for (const kind of kinds) {
    const { endpoints } = specOf(kind);
    for (const name of endpoints.read) reads.add(name);
    for (const name of endpoints.write) writes.add(name);
  }
  return { up: leastScopes([...reads, ...writes]), preview: leastScopes(reads) };
}

/**
 * The scopes `stack` needs, from a preview (no writes): the resource kinds it plans for (in the
 * program or in state), and the endpoints its program called. For the Automation API and
 * `pulumi-compute scopes`.
 */
export { endpointNamed, leastScopes } from "../engine/oauth-scopes";

export async function stackScopes(stack: Stack): Promise<StackScopes> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-compute-scopes-"));
  const log = path.join(dir, "calls");
  fs.writeFileSync(log, "");
  const kinds = new Set<string>();
  // The CLI's processes get it from the workspace; an inline program runs in this process.
  const env = stack.workspace.envVars;
  const before = { workspace: env[SCOPES_LOG_ENV], process: process.env[SCOPES_LOG_ENV] };
  env[SCOPES_LOG_ENV] = log;
  process.env[SCOPES_LOG_ENV] = log;
  try {
    await stack.preview({
      onEvent: (event: EngineEvent) => {
        const type = event.resourcePreEvent?.metadata.type;
        const kind = type === undefined ? undefined : specForType(type)?.name;
        if (kind) kinds.add(kind);
      },
    });
    const previewCalls = [...new Set(fs.readFileSync(log, "utf8").split("\n").filter(Boolean))].sort();
    return { stack: stack.name, ...scopesOf(kinds, previewCalls), kinds: [...kinds].sort(), previewCalls };
  } finally {
    restore(env, before.workspace);
    restore(process.env, before.process);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function restore(env: Record<string, string | undefined>, value: string | undefined): void {
  if (value === undefined) delete env[SCOPES_LOG_ENV];
  else env[SCOPES_LOG_ENV] = value;
}
