/**
 * What a provider method runs with: the API client built from the credentials, a deadline, and a
 * way to report progress. Credentials come from stack config (`compute:token`, `compute:apiUrl`)
 * handed to `configure`, falling back to `COMPUTE_TOKEN` / `COMPUTE_API_URL` read at call time.
 * They are never captured by the serialized provider and never written to state.
 */
import { ComputeClient } from "../../sdk/client";
import { Coalescer } from "../../sdk/core/coalesce";
import { PROCESS_LOG, type ContextPorts, type LogPort } from "./ports";
import type { ProgramLanguage } from "./alias-text";
import { paceText, retryText } from "./status";
import { REAL_TIME, type ProviderTime } from "./time";

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
export const CONFIG_PACING = "compute:pacing";
export const ENV_PACING = "COMPUTE_PACING";

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

/**
 * Whether the client paces itself from the rate-limit headers: stack config `compute:pacing`, then
 * `COMPUTE_PACING`; `off` turns it off, anything else (or nothing) leaves it on. Off is for an
 * emulator whose rate limits are off: it still sends the headers, counting windows it does not
 * enforce, and a paced client would wait for them.
 */
export function resolvePacing(config: ConfigSource, env: NodeJS.ProcessEnv = process.env): boolean {
  const value = nonEmpty(config(CONFIG_PACING)) ?? nonEmpty(env[ENV_PACING]);
  return value?.toLowerCase() !== "off";
}

/** Resolves credentials: stack config first, then the environment. */
export function resolveCredentials(config: ConfigSource, env: NodeJS.ProcessEnv = process.env): Credentials {
  const token = nonEmpty(config(CONFIG_TOKEN)) ?? nonEmpty(env[ENV_TOKEN]);
  if (!token) throw new MissingCredentialsError();
  const fromConfig = nonEmpty(config(CONFIG_API_URL));
  const apiUrl = fromConfig ?? nonEmpty(env[ENV_API_URL]) ?? DEFAULT_API_URL;
  checkApiUrl(apiUrl, fromConfig === undefined && env[ENV_API_URL] !== undefined ? "env" : "config");
  return { token, apiUrl };
}

/**
 * The API's base URL ends in its version (`/v4`, or `/v4beta`, which the API serves beside it). A
 * URL without it (an emulator's address copied without `/v4`) would answer every request 404,
 * read at preview as "no such object": refused here, before any request, with the URL to set.
 */
function checkApiUrl(apiUrl: string, source: "config" | "env"): void {
  let url: URL | undefined;
  try {
    url = new URL(apiUrl);
  } catch {
    url = undefined;
  }
  if (url !== undefined && (url.protocol === "http:" || url.protocol === "https:") && /\/v4(beta)?\/?$/.test(url.pathname)) return;
  const where = source === "config" ? CONFIG_API_URL : `the environment variable ${ENV_API_URL}`;
  const fixed = url === undefined ? `${DEFAULT_API_URL}` : `${apiUrl.replace(/\/+$/, "")}/v4`;
  const how = source === "config" ? `\`pulumi config set ${CONFIG_API_URL} ${fixed}\`` : `${ENV_API_URL}=${fixed}`;
  throw new InvalidApiUrlError(
    `${where} is ${apiUrl}, which is not the API's base URL: that ends in the API's version. ` +
      `Set it with ${how} (an emulator prints its own as \`API:\`)`,
  );
}

/** `compute:apiUrl` (or `COMPUTE_API_URL`) is not a URL of the API's version. */
export class InvalidApiUrlError extends Error {
  override name = "InvalidApiUrlError";
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/** Everything the provider process keeps per configuration: one client, its coalesced reads, small caches. */
interface Session {
  client: ComputeClient;
  reads: Coalescer;
  memo: Map<string, Promise<unknown>>;
}

/**
 * The sdk client options of the provider process: pacing (requests wait for rate-limit budget
 * instead of failing on 429s; see `resolvePacing`), and a 429's `Retry-After` waited for as long as
 * the API's longest window (2 minutes), so a refused request is retried, never failed.
 */
export const PROVIDER_CLIENT_OPTIONS = { retry: { maxRetries: PROVIDER_MAX_RETRIES, maxRetryAfterMs: 150_000 } } as const;

/**
 * One per provider process. Each configuration (API URL and token) gets one session — one client
 * with its keep-alive connection pool and its pacer, the coalesced reads, the caches — built on
 * first use and shared by every resource the process serves.
 */
export class ProviderContext {
  private readonly sessions = new Map<string, Session>();
  private readonly objects = new Map<string, unknown>();

  /**
   * `print` takes the lines that have no resource row to go to (outside Pulumi's host): stdout by
   * default, which the engine shows as the stack's diagnostics; a command whose stdout carries its
   * report passes stderr. `time` is what waits and deadlines run on (`time.ts`): real time unless
   * a stand-in for the API with a clock of its own gives its own.
   */
  constructor(
    private readonly config: ConfigSource = () => undefined,
    private readonly print: (line: string) => void = (line) => console.log(line),
    readonly time: ProviderTime = REAL_TIME,
    /** What the serving layer hands in (`ports.ts`): the backend's stacks, who hears each call. */
    readonly ports: ContextPorts = {},
  ) {}

  /** The language of the program served (`ports.ts`): messages write their advice in it. */
  get language(): ProgramLanguage {
    return this.ports.language?.() ?? "nodejs";
  }

  /** The log port (`ports.ts`): the resource being served, and its row. */
  get log(): LogPort {
    return this.ports.log ?? PROCESS_LOG;
  }

  /** The session of the last call, by the raw values it was resolved from (`session`). */
  private last: { raw: string; session: Session } | undefined;

  private session(): Session {
    // A call asks for its session several times (its client, its coalesced reads, its memo), and
    // every call of a run has the same configuration: the raw values are read each time (the
    // environment at call time, as the module says), and resolved and checked again only when one
    // of them changed.
    const env = process.env;
    const raw = [this.config(CONFIG_TOKEN), this.config(CONFIG_API_URL), this.config(CONFIG_PACING)];
    const rawText = JSON.stringify([...raw, env[ENV_TOKEN], env[ENV_API_URL], env[ENV_PACING]]);
    if (this.last?.raw === rawText) return this.last.session;
    const credentials = resolveCredentials(this.config);
    const pacing = resolvePacing(this.config);
    const key = `${credentials.apiUrl}\n${credentials.token}\n${pacing}`;
    let session = this.sessions.get(key);
    if (!session) {
      const client = new ComputeClient({
        baseUrl: credentials.apiUrl,
        token: credentials.token,
        pacing,
        ...PROVIDER_CLIENT_OPTIONS,
        // A retry's delay passes on the same time as every other wait.
        sleep: this.time.sleep,
        // A slow step says why, on the row of the resource whose request it is.
        onRetry: (event) => this.status(retryText(event)),
        onPace: (event) => this.status(paceText(event)),
        onCall: this.ports.onCall?.(),
      });
      session = { client, reads: new Coalescer(), memo: new Map() };
      this.sessions.set(key, session);
    }
    this.last = { raw: rawText, session };
    return session;
  }

  /** The client for the current credentials. */
  client(): ComputeClient {
    return this.session().client;
  }

  /** Coalesced reads (`sdk/core/coalesce.ts`) for the current credentials. */
  reads(): Coalescer {
    return this.session().reads;
  }

  /**
   * A value kept for the life of the process (per configuration), loaded once — a domain's name,
   * say. A failed load is not kept.
   */
  memo<T>(key: string, load: () => Promise<T>): Promise<T> {
    const memo = this.session().memo;
    let value = memo.get(key) as Promise<T> | undefined;
    if (!value) {
      value = load();
      memo.set(key, value);
      value.catch(() => memo.delete(key));
    }
    return value;
  }

  /**
   * One object per key for the life of the process, made on first use: the serialized writes of
   * shared documents (`shared-writes.ts`), what the program declared (`declarations.ts`). Every
   * resource the process serves gets the same one; it needs no credentials (a check has none yet).
   */
  shared<T>(key: string, make: () => T): T {
    if (!this.objects.has(key)) this.objects.set(key, make());
    return this.objects.get(key) as T;
  }

  /** Sets a kept value (a fresher one just read), or forgets it (`undefined`). */
  remember(key: string, value: unknown): void {
    const memo = this.session().memo;
    if (value === undefined) memo.delete(key);
    else memo.set(key, Promise.resolve(value));
  }

  /**
   * A line for the person running `pulumi up` that is worth keeping (an adopted object, a write
   * repeated after someone else's): listed under the resource's Diagnostics. Sent to the engine
   * for the resource being served (the log port, `ports.ts`); without Pulumi's host, printed, and the
   * engine passes the dynamic provider's stdout through as the stack's diagnostics.
   */
  progress(message: string): void {
    if (!this.log.row(message, false)) this.print(message);
  }

  /**
   * What the resource is doing now (a wait, an upload, a retry): the status of its own row, not
   * kept once the step ends (`status.ts` words it). Without Pulumi's host, printed as `progress`
   * is, after the name of the object it is `about`, as there is no row to name it.
   */
  status(text: string, about?: string): void {
    if (!this.log.row(text, true)) this.print(about === undefined ? text : `${about}: ${text}`);
  }
}
