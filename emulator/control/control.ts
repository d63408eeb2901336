/**
 * The control surface: everything tests and demos do to the emulator that is not the cloud's API
 * (reset, accounts and tokens, seeding instances, faults, the clock, the request log). The HTTP
 * control API under `/__emulator` and the in-process `control` object both call these methods,
 * and both validate input with the same schemas, so they behave identically.
 */
import type { z } from "zod";
import { ApiFailure, entry, notFound } from "../core/errors";
import type { ClockSnapshot } from "../core/clock";
import type { FaultRuleStatus } from "../core/faults";
import type { RequestLogEntry } from "../core/request-log";
import { describeRoutes, type RouteDescription, type RouteSpec } from "../core/routes";
import type { EmulatorRuntime } from "../core/runtime";
import { issuesToErrors } from "../../sdk/core/schema";
import { type AccountState, type EmulatorState, type UserRecord, createAccount, emptyGrants, randomToken } from "../core/state";
import type { StoredCompute } from "../services/computes/store";
import { seedCompute } from "../services/computes/seed";
import { deleteInterface, setMigrating } from "../services/computes/operations";
import type { StoredNodeBalancer } from "../services/nodebalancers/store";
import { seedNodeBalancer } from "../services/nodebalancers/seed";
import { SupportControl } from "../services/support/control";
import { DatabasesControl } from "../services/databases/control";
import { RateLimiter, type RateLimitRuleName, type RateLimitWindow } from "../core/rate-limit";
import {
  AccountCreateRequest,
  ClockRequest,
  ComputeMigrationRequest,
  ComputeSeedRequest,
  FaultRuleRequest,
  NodeBalancerSeedRequest,
  ResetRequest,
  TokenCreateRequest,
} from "./schemas";

export type ResetInput = z.input<typeof ResetRequest>;
export type AccountCreateInput = z.input<typeof AccountCreateRequest>;
export type TokenCreateInput = z.input<typeof TokenCreateRequest>;
export type ComputeSeedInput = z.input<typeof ComputeSeedRequest>;
export type ComputeMigrationInput = z.input<typeof ComputeMigrationRequest>;
export type NodeBalancerSeedInput = z.input<typeof NodeBalancerSeedRequest>;
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
  rateLimiter: RateLimiter | undefined;
  readonly routes: readonly RouteSpec[];
  /** Fresh state (the primary token stays valid), no faults, empty request log, no scheduled work. */
  reset(seed?: number): void;
}

function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) throw new ApiFailure(400, issuesToErrors(parsed.error));
  return parsed.data;
}

export class EmulatorControl {
  /** Seeded tickets, staff replies, the Managed service switch. */
  readonly support: SupportControl;
  /** The forced provisioning failure switch; simulated internal failures of a database. */
  readonly databases: DatabasesControl;

  constructor(private readonly emulator: ControlHost) {
    this.support = new SupportControl(emulator, (id) => this.account(id));
    this.databases = new DatabasesControl(emulator, (id) => this.account(id));
  }

  private account(id: string | undefined): AccountState {
    const account = this.emulator.state.accounts[id ?? this.emulator.state.primaryAccount];
    if (!account) throw new ApiFailure(400, [entry(`Unknown account ${id}`, "account")]);
    return account;
  }

  /** Forgets every object, account, token, fault and logged request; the start-up token stays valid. */
  reset(input: ResetInput = {}): void {
    const { seed } = parse(ResetRequest, input);
    this.emulator.reset(seed);
  }

  createAccount(input: AccountCreateInput = {}): CreatedAccount {
    const { id: requested, username = "emulator-user" } = parse(AccountCreateRequest, input);
    const state = this.emulator.state;
    if (requested !== undefined && state.accounts[requested]) throw new ApiFailure(400, [entry(`Account ${requested} already exists`, "id")]);
    let id = requested;
    while (id === undefined || state.accounts[id]) id = `acct-${this.emulator.nextId("account")}`;
    state.accounts[id] = createAccount(id, username);
    const token = randomToken();
    state.tokens[token] = { token, account: id, username, scopes: "*", label: "personal" };
    this.emulator.persist();
    return { account: id, token, username };
  }

  /**
   * Issues a token. Without `restricted`/`username` it belongs to the account's unrestricted user;
   * `restricted: true` creates (or, with `username`, updates) a restricted user with `grants`.
   */
  createToken(input: TokenCreateInput = {}): CreatedToken {
    const request = parse(TokenCreateRequest, input);
    const account = this.account(request.account);
    const user = this.userFor(account, request);
    const token = randomToken();
    const scopes = request.scopes ?? "*";
    this.emulator.state.tokens[token] = { token, account: account.id, username: user.username, scopes, label: request.label ?? "" };
    this.emulator.persist();
    return { token, account: account.id, username: user.username, scopes, restricted: user.restricted };
  }

  private userFor(account: AccountState, request: z.infer<typeof TokenCreateRequest>): UserRecord {
    const unrestricted = Object.values(account.users).find((u) => !u.restricted);
    if (request.username === undefined && !request.restricted) {
      if (request.grants) throw new ApiFailure(400, [entry("grants apply to restricted users only", "grants")]);
      if (unrestricted) return unrestricted;
    }
    const username = request.username ?? `restricted-${this.emulator.nextId("user")}`;
    const existing = account.users[username];
    const user: UserRecord = existing ?? { username, restricted: request.restricted ?? false, grants: emptyGrants() };
    if (request.restricted !== undefined) user.restricted = request.restricted;
    if (request.grants) {
      user.grants = {
        global: { add_vpc: request.grants.global?.add_vpc ?? false, add_databases: request.grants.global?.add_databases ?? false },
        vpc: (request.grants.vpc ?? []).map((g) => ({ id: g.id, permissions: g.permissions })),
        database: (request.grants.database ?? []).map((g) => ({ id: g.id, permissions: g.permissions })),
        firewall: (request.grants.firewall ?? []).map((g) => ({ id: g.id, permissions: g.permissions })),
        compute: (request.grants.compute ?? []).map((g) => ({ id: g.id, permissions: g.permissions })),
        nodebalancer: (request.grants.nodebalancer ?? []).map((g) => ({ id: g.id, permissions: g.permissions })),
      };
    }
    account.users[username] = user;
    return user;
  }

  /** Turns rate limiting on or off, optionally with other limits (`{enabled, limits: {ticketOpen: {limit, windowMs}}}`). */
  setRateLimits(input: { enabled: boolean; limits?: Partial<Record<RateLimitRuleName, RateLimitWindow>> }): { enabled: boolean; limits: Record<RateLimitRuleName, RateLimitWindow> | null } {
    if (typeof input?.enabled !== "boolean") throw new ApiFailure(400, [entry("enabled must be true or false", "enabled")]);
    if (!input.enabled) this.emulator.rateLimiter = undefined;
    else if (!this.emulator.rateLimiter) this.emulator.rateLimiter = new RateLimiter(this.emulator.clock, input.limits ?? {});
    else this.emulator.rateLimiter.configure(input.limits ?? {});
    return this.getRateLimits();
  }

  getRateLimits(): { enabled: boolean; limits: Record<RateLimitRuleName, RateLimitWindow> | null } {
    const limiter = this.emulator.rateLimiter;
    return { enabled: limiter !== undefined, limits: limiter?.current() ?? null };
  }

  seedCompute(input: ComputeSeedInput): StoredCompute {
    const { account, ...seed } = parse(ComputeSeedRequest, input);
    const compute = seedCompute(this.emulator, this.account(account), seed);
    this.emulator.persist();
    return structuredClone(compute);
  }

  seedNodeBalancer(input: NodeBalancerSeedInput): StoredNodeBalancer {
    const { account, ...seed } = parse(NodeBalancerSeedRequest, input);
    const record = seedNodeBalancer(this.emulator, this.account(account), seed);
    this.emulator.persist();
    return structuredClone(record);
  }

  /** Starts or ends a live migration of a seeded instance (whichever account owns it). */
  setComputeMigration(computeId: number, input: ComputeMigrationInput): void {
    const { migrating } = parse(ComputeMigrationRequest, input);
    const changed = Object.values(this.emulator.state.accounts).some((a) => setMigrating(a, computeId, migrating));
    if (!changed) throw notFound();
    this.emulator.persist();
  }

  /** Removes an interface of a seeded instance (whichever account owns it), freeing its subnet address. */
  deleteInterface(computeId: number, configId: number, interfaceId: number): void {
    const removed = Object.values(this.emulator.state.accounts).some((a) => deleteInterface(a, computeId, configId, interfaceId));
    if (!removed) throw notFound();
    this.emulator.persist();
  }

  addFault(input: FaultRuleInput): FaultRuleStatus {
    const rule = parse(FaultRuleRequest, input);
    try {
      return this.emulator.faults.add(rule);
    } catch (error) {
      throw new ApiFailure(400, [entry(`Invalid pathPattern: ${(error as Error).message}`, "pathPattern")]);
    }
  }

  listFaults(): FaultRuleStatus[] {
    return this.emulator.faults.list();
  }

  removeFault(id: string): void {
    if (!this.emulator.faults.remove(id)) throw notFound();
  }

  clearFaults(): void {
    this.emulator.faults.clear();
  }

  getClock(): ClockSnapshot {
    return this.emulator.clock.snapshot();
  }

  /** Sets the time scale and/or moves emulated time forward (running what fell due). */
  setClock(input: ClockInput): ClockSnapshot {
    const { scale, advanceMs } = parse(ClockRequest, input);
    if (scale !== undefined) this.emulator.clock.setScale(scale);
    if (advanceMs !== undefined) this.emulator.clock.advance(advanceMs);
    this.emulator.persist();
    return this.emulator.clock.snapshot();
  }

  listRequests(): RequestLogEntry[] {
    return this.emulator.requestLog.list();
  }

  clearRequests(): void {
    this.emulator.requestLog.clear();
  }

  /** A deep copy of the whole state (debugging aid; tokens included, it is a local emulator). */
  dumpState(): EmulatorState {
    return structuredClone(this.emulator.state);
  }

  routes(): RouteDescription[] {
    return describeRoutes(this.emulator.routes);
  }
}
