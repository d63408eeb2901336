/**
 * The control surface: everything tests and demos do to the emulator that is not the cloud's API
 * (reset, accounts and tokens, faults, the clock, the request log) and, from the services' modules,
 * their own operations (seeding instances and nodebalancers, forced database failures, the
 * provider's side of support). The HTTP control API under `/__emulator` and the in-process
 * `control` object both call these methods, and both validate input with the same schemas, so
 * they behave identically.
 */
import type { z } from "zod";
import { ApiFailure, entry, notFound } from "../core/errors";
import type { ClockSnapshot } from "../core/clock";
import type { FaultRuleStatus } from "../core/faults";
import type { RequestLogEntry } from "../core/request-log";
import { type ProcessMemory, processMemory } from "../core/process-memory";
import { describeRoutes, type RouteDescription, type RouteSpec } from "../core/routes";
import type { EmulatorRuntime } from "../core/runtime";
import { type ControlContext, type ControlRoute, grantNames, parseInput } from "../core/service";
import {
  ACCOUNT_ID,
  type AccountState,
  type EmulatorState,
  type Grants,
  USER_ID,
  type UserRecord,
  createAccount,
  emptyGrants,
  randomToken,
} from "../core/state";
import { DEFAULT_RATE_LIMITS, type RateLimitRuleName, type RateLimitWindow } from "../core/rate-limit";
import { SERVICES, STATE_LAYOUT, type ServiceControlApis } from "../services";
import { AccountCreateRequest, ClockRequest, FaultRuleRequest, ResetRequest, type TokenCreateInput, tokenCreateRequest } from "./schemas";

export type { TokenCreateInput } from "./schemas";
export type { ComputeMigrationInput } from "../services/computes/control";
export type { ComputeSeedInput } from "../services/computes/seed";
export type { NodeBalancerSeedInput } from "../services/nodebalancers/seed";
export type ResetInput = z.input<typeof ResetRequest>;
export type AccountCreateInput = z.input<typeof AccountCreateRequest>;
export type FaultRuleInput = z.input<typeof FaultRuleRequest>;
export type ClockInput = z.input<typeof ClockRequest>;

export interface CreatedAccount {
  account: string;
  /** The account's unrestricted personal token (all scopes). */
  token: string;
  username: string;
}

export interface CreatedToken {
  token: string;
  account: string;
  username: string;
  scopes: "*" | string[];
  restricted: boolean;
}

/**
 * What the control needs of the emulator: its runtime, the route table, and the two things only the
 * control does — switching rate limiting and resetting everything. `Emulator` is one; the control
 * never depends on the composition root itself.
 */
export interface ControlHost extends EmulatorRuntime {
  readonly routes: readonly RouteSpec[];
  /** Fresh state (the primary token stays valid), no faults, empty request log, no scheduled work. */
  reset(seed?: number): void;
}

const GRANTS = grantNames(SERVICES);
const TokenCreateRequest = tokenCreateRequest(GRANTS);

/** The services' operations (`seedCompute`, `databases`, `support` …) are members too, typed from their modules. */
// The members are assigned from the service modules in the constructor; this merge gives them their types.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface EmulatorControl extends ServiceControlApis {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface above
export class EmulatorControl {
  /** The services' routes under `/__emulator` (`/seed/computes`, `/databases/…`, …), served beside the core's. */
  readonly serviceRoutes: readonly ControlRoute[];

  constructor(private readonly host: ControlHost) {
    const context: ControlContext = { runtime: host, account: (id) => this.account(id) };
    const routes: ControlRoute[] = [];
    for (const service of SERVICES) {
      if (!service.control) continue;
      const api = service.control.api(context);
      for (const name of Object.keys(api)) {
        if (name in this) throw new Error(`control operation ${name} of the ${service.name} service is already taken`);
      }
      Object.assign(this, api);
      routes.push(...service.control.routes(api));
    }
    this.serviceRoutes = routes;
  }

  private account(id: string | undefined): AccountState {
    const account = this.host.state.accounts[id ?? this.host.state.primaryAccount];
    if (!account) throw new ApiFailure(400, [entry(`Unknown account ${id}`, "account")]);
    return account;
  }

  /** Forgets every object, account, token, fault and logged request; the start-up token stays valid. */
  reset(input: ResetInput = {}): void {
    const { seed } = parseInput(ResetRequest, input);
    this.host.reset(seed);
  }

  createAccount(input: AccountCreateInput = {}): CreatedAccount {
    const { id: requested, username = "emulator-user" } = parseInput(AccountCreateRequest, input);
    const state = this.host.state;
    if (requested !== undefined && state.accounts[requested]) {
      throw new ApiFailure(400, [entry(`Account ${requested} already exists`, "id")]);
    }
    let id = requested;
    while (id === undefined || state.accounts[id]) id = `acct-${this.host.nextId(ACCOUNT_ID)}`;
    state.accounts[id] = createAccount(STATE_LAYOUT, id, username);
    const token = randomToken();
    state.tokens[token] = { token, account: id, username, scopes: "*", label: "personal" };
    this.host.persist();
    return { account: id, token, username };
  }

  /**
   * Issues a token. Without `restricted`/`username` it belongs to the account's unrestricted user;
   * `restricted: true` creates (or, with `username`, updates) a restricted user with `grants`.
   */
  createToken(input: TokenCreateInput = {}): CreatedToken {
    const request = parseInput(TokenCreateRequest, input);
    const account = this.account(request.account);
    const user = this.userFor(account, request);
    const token = randomToken();
    const scopes = request.scopes ?? "*";
    this.host.state.tokens[token] = { token, account: account.id, username: user.username, scopes, label: request.label ?? "" };
    this.host.persist();
    return { token, account: account.id, username: user.username, scopes, restricted: user.restricted };
  }

  private userFor(account: AccountState, request: z.infer<typeof TokenCreateRequest>): UserRecord {
    const unrestricted = Object.values(account.users).find((u) => !u.restricted);
    if (request.username === undefined && !request.restricted) {
      if (request.grants) throw new ApiFailure(400, [entry("grants apply to restricted users only", "grants")]);
      if (unrestricted) return unrestricted;
    }
    const username = request.username ?? `restricted-${this.host.nextId(USER_ID)}`;
    const existing = account.users[username];
    const user: UserRecord = existing ?? { username, restricted: request.restricted ?? false, grants: emptyGrants() };
    if (request.restricted !== undefined) user.restricted = request.restricted;
    if (request.grants) {
      // The schema admits the declared names only, with their value shapes: the grants read as `Grants`.
      const given = request.grants as Partial<Grants>;
      user.grants = { global: Object.fromEntries(GRANTS.global.map((name) => [name, given.global?.[name] ?? false])) };
      for (const kind of GRANTS.objects) {
        const list = given[kind];
        user.grants[kind] = (Array.isArray(list) ? list : []).map((g) => ({ id: g.id, permissions: g.permissions }));
      }
    }
    account.users[username] = user;
    return user;
  }

  /** Turns rate limiting on or off, optionally with other limits (`{enabled, limits: {ticketOpen: {limit, windowMs}}}`). */
  setRateLimits(input: { enabled: boolean; limits?: Partial<Record<RateLimitRuleName, RateLimitWindow>> }): {
    enabled: boolean;
    limits: Record<RateLimitRuleName, RateLimitWindow> | null;
  } {
    if (typeof input?.enabled !== "boolean") throw new ApiFailure(400, [entry("enabled must be true or false", "enabled")]);
    // Requests are counted (for the headers) whether or not limits are enforced. Switching on
    // starts from the documented limits, as does switching off; only a change while on keeps the
    // limits set before.
    const limiter = this.host.rateLimiter;
    const keep = limiter.enforcing && input.enabled;
    limiter.enforcing = input.enabled;
    limiter.configure({ ...(keep ? {} : DEFAULT_RATE_LIMITS), ...(input.enabled ? (input.limits ?? {}) : {}) });
    return this.getRateLimits();
  }

  getRateLimits(): { enabled: boolean; limits: Record<RateLimitRuleName, RateLimitWindow> | null } {
    const limiter = this.host.rateLimiter;
    return { enabled: limiter.enforcing, limits: limiter.enforcing ? limiter.current() : null };
  }

  addFault(input: FaultRuleInput): FaultRuleStatus {
    const rule = parseInput(FaultRuleRequest, input);
    try {
      return this.host.faults.add(rule);
    } catch (error) {
      throw new ApiFailure(400, [entry(`Invalid pathPattern: ${(error as Error).message}`, "pathPattern")]);
    }
  }

  listFaults(): FaultRuleStatus[] {
    return this.host.faults.list();
  }

  removeFault(id: string): void {
    if (!this.host.faults.remove(id)) throw notFound();
  }

  clearFaults(): void {
    this.host.faults.clear();
  }

  getClock(): ClockSnapshot {
    return this.host.clock.snapshot();
  }

  /** Sets the time scale and/or moves emulated time forward (running what fell due). */
  setClock(input: ClockInput): ClockSnapshot {
    const { scale, advanceMs } = parseInput(ClockRequest, input);
    if (scale !== undefined) this.host.clock.setScale(scale);
    if (advanceMs !== undefined) this.host.clock.advance(advanceMs);
    this.host.persist();
    return this.host.clock.snapshot();
  }

  listRequests(): RequestLogEntry[] {
    return this.host.requestLog.list();
  }

  clearRequests(): void {
    this.host.requestLog.clear();
  }

  /** The emulator process's memory, in bytes (a long-running server's memory is watched with it). */
  memory(): ProcessMemory {
    return processMemory();
  }

  /** A deep copy of the whole state (debugging aid; tokens included, it is a local emulator). */
  dumpState(): EmulatorState {
    return structuredClone(this.host.state);
  }

  routes(): RouteDescription[] {
    return describeRoutes(this.host.routes);
  }
}
