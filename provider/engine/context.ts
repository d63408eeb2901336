/**
 * What a provider method runs with: the API client built from the credentials, a deadline, and a
 * way to report progress. Credentials come from stack config (`compute:token`, `compute:apiUrl`)
 * handed to `configure`, falling back to `COMPUTE_TOKEN` / `COMPUTE_API_URL` read at call time.
 * They are never captured by the serialized provider and never written to state.
 */
import { ComputeClient } from "../../sdk/client";
import type { RetryEvent } from "../../sdk/core/http";

/**
 * Retries of one request in the provider. Every operation runs under its deadline (the sdk's
 * backoff sleeps end when it passes), so the provider can afford more patience than the sdk's
 * default of 5: ten retries with full jitter capped at 8 s ride out a fault rate far beyond what
 * a healthy API shows, and the deadline, not the count, is what normally ends a long outage.
 */
export const PROVIDER_MAX_RETRIES = 10;

export const DEFAULT_API_URL = "https://api.compute.com/v4";
export const CONFIG_TOKEN = "compute:token";
export const CONFIG_API_URL = "compute:apiUrl";
export const ENV_TOKEN = "COMPUTE_TOKEN";
export const ENV_API_URL = "COMPUTE_API_URL";

/** Reads one configuration value; `configure` supplies stack config, else nothing. */
export type ConfigSource = (key: string) => string | undefined;

export class MissingCredentialsError extends Error {
  override name = "MissingCredentialsError";
  constructor() {
    super(
      `no API token: set the stack config ${CONFIG_TOKEN} (pulumi config set --secret ${CONFIG_TOKEN} <token>) ` +
        `or the environment variable ${ENV_TOKEN}`,
    );
  }
}

export interface Credentials {
  token: string;
  apiUrl: string;
}

/** Resolves credentials: stack config first, then the environment. */
export function resolveCredentials(config: ConfigSource, env: NodeJS.ProcessEnv = process.env): Credentials {
  const token = nonEmpty(config(CONFIG_TOKEN)) ?? nonEmpty(env[ENV_TOKEN]);
  if (!token) throw new MissingCredentialsError();
  const apiUrl = nonEmpty(config(CONFIG_API_URL)) ?? nonEmpty(env[ENV_API_URL]) ?? DEFAULT_API_URL;
  return { token, apiUrl };
}

/** One line per retry, so a slow `up` says why: `retrying GET /vpcs/12 in 180 ms (attempt 2): server error (5xx)`. */
export function retryLine(event: RetryEvent): string {
  return `retrying ${event.method} ${event.path} in ${event.delayMs} ms (attempt ${event.attempt + 1}): ${event.reason}`;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/**
 * One per provider process. The client (and its keep-alive connection pool) is built on first
 * use and reused by every resource the process serves.
 */
export class ProviderContext {
  private cached: { key: string; client: ComputeClient } | undefined;

  constructor(private readonly config: ConfigSource = () => undefined) {}

  /** The client for the current credentials. */
  client(): ComputeClient {
    const credentials = resolveCredentials(this.config);
    const key = `${credentials.apiUrl}\n${credentials.token}`;
    if (this.cached?.key !== key) {
      void this.cached?.client.close();
      this.cached = {
        key,
        client: new ComputeClient({
          baseUrl: credentials.apiUrl,
          token: credentials.token,
          retry: { maxRetries: PROVIDER_MAX_RETRIES },
          onRetry: (event) => this.progress(retryLine(event)),
        }),
      };
    }
    return this.cached.client;
  }

  /**
   * Progress for the person running `pulumi up`. The engine passes the dynamic provider's stdout
   * through as info diagnostics (Pulumi ≥ 3.146), so a plain line is enough.
   */
  progress(message: string): void {
    console.log(message);
  }
}
