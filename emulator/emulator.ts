/**
 * The composition root: one `Emulator` owns all of its state (nothing global), its clock, fault
 * rules and request log, and builds the fastify app that serves the API under `/v4` and the
 * control API under `/__emulator`. What it serves, stores and runs on the clock comes from the
 * service modules (`services/index.ts`).
 */
import Fastify, { type FastifyError, type FastifyInstance } from "fastify";
import multipart from "@fastify/multipart";
import { Clock } from "./core/clock";
import { ApiFailure, REASONS, entry, errorBody } from "./core/errors";
import { FaultInjector } from "./core/faults";
import { DEFAULT_REQUEST_LOG_SIZE, RequestLog } from "./core/request-log";
import { RateLimiter, type RateLimitRuleName, type RateLimitWindow } from "./core/rate-limit";
import { loadState, saveState } from "./core/persistence";
import { exactJsonContentType } from "./core/content-type";
import { grantedScopesHeader, knownToken } from "./core/auth";
import { type EmulatorState, type IdCounter, createState, nextId, randomToken } from "./core/state";
import { type RouteSpec, handleUnknownPath, isApiPath, onApiBase, registerApiRoutes } from "./core/routes";
import { API_ROUTES, SERVICES, STATE_LAYOUT } from "./services";
import { SPEC_ENDPOINTS } from "./core/spec-endpoints";
import { notImplementedRoutes } from "./core/not-implemented";
import { STRICT_ENV } from "./core/unknown-fields";
import { type ControlHost, EmulatorControl } from "./control/control";
import { registerControlRoutes } from "./control/routes";

export interface EmulatorOptions {
  /** Interface to listen on (default `127.0.0.1`). */
  host?: string;
  /** Port (default 0: a free random port). */
  port?: number;
  /** The primary account's unrestricted personal token (default: reused from the state file, else 64 random hex chars). */
  token?: string;
  /** Emulated time runs this many times faster than real time (default 1). */
  timeScale?: number;
  /** Load state from this file at start and save it after every mutation. */
  stateFile?: string;
  /** fastify's request logging (default false). */
  logger?: boolean;
  /** Seed of the fault PRNG (default 1), so rate-limited faults are reproducible. */
  seed?: number;
  /** Enforce the API's rate limits (api-facts P8-1): `true` for the documented ones, or some overridden. Default off. */
  rateLimits?: boolean | Partial<Record<RateLimitRuleName, RateLimitWindow>>;
  /**
   * TCP port on which `POST /domains/import` reaches `remote_nameserver` for the zone transfer
   * (default 53, the DNS port). Tests point it at an authoritative server on a random loopback port.
   */
  zoneTransferPort?: number;
  /**
   * How many of the most recent API requests the request log keeps (default 10,000; 0 keeps none).
   * A long-running emulator keeps no more; a test that needs a longer history enlarges it or clears the log.
   */
  requestLogSize?: number;
  /**
   * Refuse body fields an endpoint does not know (400 `Unknown field: x`) instead of ignoring them
   * as the API does (default false; `core/unknown-fields.ts`). This project's tests run strict, so
   * a misspelt field in the sdk or the provider is caught; `COMPUTE_EMULATOR_STRICT=1` sets it
   * where the option is not given.
   */
  strict?: boolean;
}

/** API revision the emulator mirrors (spec "Versioning"); sent as `X-Spec-Version`. */
export const SPEC_VERSION = "4.174.0";
export const DEFAULT_SEED = 1;

export class Emulator implements ControlHost {
  state: EmulatorState;
  readonly clock: Clock;
  readonly faults: FaultInjector;
  readonly requestLog: RequestLog;
  /** Counts every request (the `X-RateLimit-*` headers); refuses with 429 only when rate limits are enforced. */
  readonly rateLimiter: RateLimiter;
  /** The services' routes, then a 501 answer for every spec endpoint none of them implements. */
  readonly routes: readonly RouteSpec[] = [...API_ROUTES, ...notImplementedRoutes(SPEC_ENDPOINTS, API_ROUTES)];
  readonly control: EmulatorControl;
  /** Whether unknown body fields are refused (`strict`), else ignored as the API does; decided once, at start. */
  readonly strict: boolean;
  private readonly stateFile: string | undefined;
  private readonly seed: number;
  private readonly closer = new AbortController();

  constructor(private readonly options: EmulatorOptions = {}) {
    this.stateFile = options.stateFile;
    this.seed = options.seed ?? DEFAULT_SEED;
    this.strict = options.strict ?? process.env[STRICT_ENV] === "1";
    this.requestLog = new RequestLog(options.requestLogSize ?? DEFAULT_REQUEST_LOG_SIZE);
    // Scheduled transitions change state, so a pass that ran any is persisted like a request.
    this.clock = new Clock({ scale: options.timeScale ?? 1, afterRun: () => this.persist() });
    // Pending transitions kept on records (status machines as data) run on the same clock.
    for (const service of SERVICES) if (service.clock) this.clock.addSource(service.clock(this));
    this.faults = new FaultInjector(this.seed);
    const overrides = typeof options.rateLimits === "object" ? options.rateLimits : {};
    this.rateLimiter = new RateLimiter(this.clock, overrides, Boolean(options.rateLimits));
    const loaded = this.stateFile ? loadState(this.stateFile, STATE_LAYOUT) : undefined;
    this.state = loaded ?? createState(STATE_LAYOUT, options.token ?? randomToken());
    // A restart must not send emulated time backwards past what the saved objects already saw.
    if (loaded?.savedAtMs !== undefined) this.clock.ensureAtLeast(loaded.savedAtMs);
    if (options.token !== undefined && options.token !== this.state.primaryToken) this.adoptPrimaryToken(options.token);
    this.control = new EmulatorControl(this);
    this.persist();
  }

  /** Aborted by `dispose`, or when the app starts closing (before it waits for open requests). */
  get closing(): AbortSignal {
    return this.closer.signal;
  }

  /** The primary account's unrestricted token. */
  get token(): string {
    return this.state.primaryToken;
  }

  private adoptPrimaryToken(token: string): void {
    const previous = this.state.tokens[this.state.primaryToken];
    this.state.tokens[token] = {
      token,
      account: this.state.primaryAccount,
      username: previous?.username ?? Object.keys(this.state.accounts[this.state.primaryAccount]!.users)[0]!,
      scopes: "*",
      label: "primary",
    };
    this.state.primaryToken = token;
  }

  /** Where zone transfers go (`zoneTransferPort`); `undefined` means the DNS port. */
  get zoneTransferPort(): number | undefined {
    return this.options.zoneTransferPort;
  }

  nextId(counter: IdCounter): number {
    return nextId(this.state, counter);
  }

  persist(): void {
    if (!this.stateFile) return;
    this.state.savedAtMs = this.clock.nowMs();
    saveState(this.stateFile, this.state);
  }

  /** Fresh state (the primary token stays valid), no faults, empty request log, no scheduled work. */
  reset(seed?: number): void {
    this.state = createState(STATE_LAYOUT, this.state.primaryToken);
    this.faults.clear();
    this.rateLimiter.reset();
    this.faults.reseed(seed ?? this.seed);
    this.requestLog.clear();
    this.clock.clearTasks();
    this.persist();
  }

  dispose(): void {
    this.closer.abort();
    this.clock.dispose();
  }

  buildApp(): FastifyInstance {
    const app = Fastify({
      logger: this.options.logger ?? false,
      routerOptions: { ignoreTrailingSlash: true },
      // `/v4beta/…` is served as `/v4/…` (`onApiBase`).
      rewriteUrl: (request) => onApiBase(request.url ?? "/"),
    });
    this.installBodyParser(app);
    // multipart/form-data (ticket attachments) gets its own, streaming parser.
    app.register(multipart);
    this.installHooks(app);
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof ApiFailure) {
        reply.headers(error.headers);
        return reply.code(error.status).send(errorBody(error.entries));
      }
      const status = typeof error.statusCode === "number" ? error.statusCode : 500;
      if (status >= 400 && status < 500) return reply.code(status).send(errorBody([entry(error.message)]));
      request.log.error(error);
      return reply.code(500).send(errorBody([entry(REASONS.internalError)]));
    });
    app.setNotFoundHandler((request, reply) => handleUnknownPath(this, request, reply));
    registerApiRoutes(app, this.routes, this);
    registerControlRoutes(app, this.control);
    for (const service of SERVICES) service.register?.(app, this);
    // Before the server waits for open requests: one held by a latency fault would hold close for as long.
    app.addHook("preClose", async () => this.closer.abort());
    app.addHook("onClose", async () => this.dispose());
    return app;
  }

  /**
   * Bodies are read as JSON whatever the Content-Type says (clients are not always careful about
   * it); an empty body is no body; anything unparsable is the API's 400.
   */
  private installBodyParser(app: FastifyInstance): void {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("*", { parseAs: "string" }, (_request, text, done) => {
      const body = String(text);
      if (body.trim() === "") return done(null, undefined);
      try {
        done(null, JSON.parse(body));
      } catch {
        done(new ApiFailure(400, REASONS.malformedJson), undefined);
      }
    });
  }

  private installHooks(app: FastifyInstance): void {
    app.addHook("onRequest", async (request, reply) => {
      this.clock.runDue(); // scheduled transitions are checked lazily, before anything reads state
      if (!isApiPath(request.url)) return;
      this.requestLog.start(request.raw, request.method, request.url, this.clock.now().toISOString());
      reply.header("X-Spec-Version", SPEC_VERSION);
      reply.header("Vary", "Authorization, X-Filter");
      // The presented token's scopes go on every answer to it, refusals and unknown paths included
      // (recorded on 200, 400 and 404 alike); an unknown or absent token gets none.
      const token = knownToken(this.state, request.headers.authorization);
      if (token) reply.header("X-OAuth-Scopes", grantedScopesHeader(token));
    });
    app.addHook("onSend", async (request, reply, payload) => {
      exactJsonContentType(reply);
      const logged = this.requestLog.entryOf(request.raw);
      if (logged) logged.status = reply.statusCode;
      return payload;
    });
  }
}
