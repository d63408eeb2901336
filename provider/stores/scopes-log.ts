/**
 * The record of the endpoints a preview calls, for the least-privilege scopes of a stack
 * (`scopes.ts`): when the preview's environment names a file in `SCOPES_LOG_ENV`, every client of
 * this package (the program's data functions, the provider process) appends the name of each
 * endpoint it calls to it. Otherwise nothing is recorded.
 */
import * as fs from "node:fs";
import type { AnyEndpoint } from "../../sdk/core/endpoint";

/** Set in a preview's environment to a file; this package's clients append the endpoint names they call to it. */
export const SCOPES_LOG_ENV = "PULUMI_COMPUTE_SCOPES_LOG";

/** An `onCall` for a client: appends the endpoint's name to the scopes log, when the environment names one. */
export function scopesLogger(env: NodeJS.ProcessEnv = process.env): ((endpoint: AnyEndpoint) => void) | undefined {
  const file = env[SCOPES_LOG_ENV];
  if (!file) return undefined;
  return (endpoint) => fs.appendFileSync(file, `${endpoint.name}\n`);
}
