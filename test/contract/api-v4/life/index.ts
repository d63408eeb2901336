/**
 * The whole life, area by area. An area that fails is recorded and the next one still runs, so one
 * run reports every area's problems; the test then asserts that none failed.
 */
import type { LifeContext } from "./context";
import { addressesLife } from "./addresses";
import { computesLife } from "./computes";
import { databasesLife } from "./databases";
import { dnsLife } from "./dns";
import { imagesLife } from "./images";
import { firewallsLife, regionsLife, vpcsLife } from "./network";
import { eventsLife, supportLife } from "./support";

export const AREAS = {
  regions: regionsLife,
  vpcs: vpcsLife,
  firewalls: firewallsLife,
  addresses: addressesLife,
  dns: dnsLife,
  databases: databasesLife,
  images: imagesLife,
  computes: computesLife,
  support: supportLife,
} satisfies Record<string, (ctx: LifeContext) => Promise<void>>;

export interface LifeOutcome {
  /** `area: error` for each area that did not finish. */
  failures: string[];
  /** Event actions the client does not declare. */
  unknownActions: string[];
}

export async function runLife(ctx: LifeContext): Promise<LifeOutcome> {
  const failures: string[] = [];
  const attempt = async <T>(area: string, run: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await run();
    } catch (error) {
      failures.push(`${area}: ${describe(error)}`);
      return undefined;
    }
  };
  for (const [area, run] of Object.entries(AREAS)) await attempt(area, () => run(ctx));
  const events = await attempt("events", () => eventsLife(ctx));
  return { failures, unknownActions: events?.unknownActions ?? [] };
}

/** The client rejects with an axios error, or with `{field, reason}[]` when its own validation refuses. */
function describe(error: unknown): string {
  if (Array.isArray(error)) return `client validation: ${JSON.stringify(error)}`;
  const http = error as { response?: { status: number; data?: unknown }; config?: { method?: string; url?: string } };
  if (http.response)
    return `${http.config?.method?.toUpperCase()} ${http.config?.url} → ${http.response.status} ${JSON.stringify(http.response.data)}`;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
