/**
 * The emulator's whole mutable world, as plain JSON-serializable data so it can be persisted
 * and dumped. Resources live per account (accounts never see each other's objects); ids come
 * from per-type counters shared by all accounts, as the real platform's ids are global.
 *
 * Adding a service: give its records a type in the service's `models.ts`, add a field to
 * `AccountState` and a default in `createAccount` / `normalizeAccount`, and a counter below.
 */
import { randomBytes } from "node:crypto";
import type { StoredVpc } from "../services/vpcs/store";
import type { StoredCompute } from "../services/computes/store";
import type { StoredNodeBalancer } from "../services/nodebalancers/store";
import type { StoredEvent } from "../services/events/store";
import type { StoredDatabase } from "../services/databases/store";
import type { StoredDomain } from "../services/domains/store";
import type { StoredFirewall } from "../services/firewalls/store";
import type { StoredTicket } from "../services/support/store";
import type { StoredIpv6Range } from "../services/ips/store";
import type { StoredImage } from "../services/images/store";

export type GrantPermission = "read_only" | "read_write";

/** Grants of a restricted user (spec "Authentication"): global flags and per-object grants. */
export interface Grants {
  /** `add_databases` is optional so older state files load (absent = not granted). */
  global: { add_vpc: boolean; add_databases?: boolean };
  vpc: Array<{ id: number; permissions: GrantPermission }>;
  /** Per-database grants; optional so older state files load (absent = none). */
  database?: Array<{ id: number; permissions: GrantPermission }>;
  /** Per-firewall grants; optional so older state files load (absent = none). */
  firewall?: Array<{ id: number; permissions: GrantPermission }>;
  /** Grants on compute instances and nodebalancers (assigning a firewall needs read_write on them). */
  compute?: Array<{ id: number; permissions: GrantPermission }>;
  nodebalancer?: Array<{ id: number; permissions: GrantPermission }>;
}

export interface UserRecord {
  username: string;
  restricted: boolean;
  /** Ignored for unrestricted users, who may do everything. */
  grants: Grants;
}

export interface TokenRecord {
  token: string;
  account: string;
  username: string;
  /** `"*"` = every scope (an unrestricted personal token); otherwise OAuth-style `area:level` scopes. */
  scopes: "*" | string[];
  label: string;
}

export interface AccountState {
  id: string;
  users: Record<string, UserRecord>;
  vpcs: StoredVpc[];
  computes: StoredCompute[];
  nodebalancers: StoredNodeBalancer[];
  events: StoredEvent[];
  /** Managed databases of both engines (`services/databases/models.ts`). */
  databases: StoredDatabase[];
  /** Control switch: how many of the next database provisionings end `failed`. */
  databaseProvisioningFailures: number;
  /** DNS zones with their records (`services/domains/models.ts`); names are unique platform-wide. */
  domains: StoredDomain[];
  firewalls: StoredFirewall[];
  tickets: StoredTicket[];
  /** IPv6 ranges routed to the account's instances. */
  ipv6Ranges: StoredIpv6Range[];
  /** Custom reverse DNS names by address; an address without one answers the platform default. */
  ipRdns: Record<string, string>;
  /** A Managed service is enabled (needed for `managed_issue` tickets). */
  managed: boolean;
  /** Private images, captured or uploaded (`services/images/models.ts`); public ones are a fixed catalog. */
  images: StoredImage[];
}

/** First id handed out per object type; realistic magnitudes, like the recordings. */
export const ID_STARTS = {
  account: 2,
  user: 2,
  vpc: 10000,
  subnet: 11000,
  event: 600000000,
  compute: 52000000,
  config: 59000000,
  interface: 830000,
  nodebalancer: 300000,
  database: 28000,
  database_backup: 805000,
  domain: 1900000,
  domain_record: 22200000,
  firewall: 228000,
  firewall_device: 485000,
  ticket: 14000000,
  reply: 28000000,
  image: 23852000,
  disk: 108900000,
} as const;
export type IdKind = keyof typeof ID_STARTS;

export interface EmulatorState {
  version: 1;
  /** The account the start-up token belongs to. */
  primaryAccount: string;
  /** The unrestricted personal token of the primary account (kept so a restart can reuse it). */
  primaryToken: string;
  counters: Record<IdKind, number>;
  accounts: Record<string, AccountState>;
  tokens: Record<string, TokenRecord>;
  /** Emulated time when last saved, epoch ms; a restart never moves the clock back past it. */
  savedAtMs?: number;
}

export const PRIMARY_ACCOUNT = "primary";
export const PRIMARY_USERNAME = "emulator-user";

export function randomToken(): string {
  return randomBytes(32).toString("hex");
}

export function emptyGrants(): Grants {
  return { global: { add_vpc: false }, vpc: [] };
}

export function createAccount(id: string, username: string): AccountState {
  return {
    id,
    users: { [username]: { username, restricted: false, grants: emptyGrants() } },
    vpcs: [],
    computes: [],
    nodebalancers: [],
    events: [],
    databases: [],
    databaseProvisioningFailures: 0,
    domains: [],
    firewalls: [],
    tickets: [],
    ipv6Ranges: [],
    ipRdns: {},
    managed: false,
    images: [],
  };
}

export function createState(primaryToken: string): EmulatorState {
  const state: EmulatorState = {
    version: 1,
    primaryAccount: PRIMARY_ACCOUNT,
    primaryToken,
    counters: { ...ID_STARTS },
    accounts: { [PRIMARY_ACCOUNT]: createAccount(PRIMARY_ACCOUNT, PRIMARY_USERNAME) },
    tokens: {},
  };
  state.tokens[primaryToken] = { token: primaryToken, account: PRIMARY_ACCOUNT, username: PRIMARY_USERNAME, scopes: "*", label: "primary" };
  return state;
}

/** Hands out the next id of a kind. */
export function nextId(state: EmulatorState, kind: IdKind): number {
  const id = state.counters[kind];
  state.counters[kind] = id + 1;
  return id;
}

/**
 * Fills fields a state file written by an older emulator may lack, so adding a service never
 * breaks loading an existing state file.
 */
export function normalizeState(raw: EmulatorState): EmulatorState {
  const state: EmulatorState = { ...raw, counters: { ...ID_STARTS, ...raw.counters }, tokens: raw.tokens ?? {}, accounts: {} };
  for (const [id, account] of Object.entries(raw.accounts ?? {})) {
    state.accounts[id] = { ...createAccount(id, PRIMARY_USERNAME), ...account, users: account.users ?? {} };
  }
  return state;
}
