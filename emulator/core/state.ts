/**
 * The emulator's whole mutable world, as plain JSON-serializable data so it can be persisted and
 * dumped. Resources live per account (accounts never see each other's objects); ids come from
 * per-type counters shared by all accounts, as the real platform's ids are global.
 *
 * The core knows accounts, users and tokens only. Each service registers the rest in its module
 * (`ServiceModule`, `core/service.ts`): its slices of an account (`accountSlice`: the key it is
 * persisted under, its initial value, how an older file's value loads) and its id counters
 * (`idCounter`: a kind and a realistic first id). The persisted layout stays flat —
 * `accounts[id].vpcs`, `counters.vpc` — so state files written by any earlier emulator load.
 */
import { randomBytes } from "node:crypto";
import type { z } from "zod";

export type GrantPermission = "read_only" | "read_write";

/** A restricted user's grant on one object. */
export interface ObjectGrant {
  id: number;
  permissions: GrantPermission;
}

/**
 * Grants of a restricted user (spec "Authentication"): global flags by name (`add_vpc`, …) and
 * per-object grants by kind (`vpc: [{id, permissions}]`, …). Names and kinds are the services'
 * (`ServiceModule.grants`); an absent flag is not granted, an absent kind grants nothing. Read them
 * through `core/auth.ts`.
 */
export interface Grants {
  global: Partial<Record<string, boolean>>;
  [kind: string]: ObjectGrant[] | Partial<Record<string, boolean>> | undefined;
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

/**
 * One account: its users, and each service's slices under their keys (`vpcs`, `events`, …). A
 * slice is read and written through its `AccountSlice`, which knows its type.
 */
export interface AccountState {
  id: string;
  users: Record<string, UserRecord>;
  [slice: string]: unknown;
}

/** A service's part of every account, persisted as `accounts[id][key]`. */
export interface AccountSlice<T> {
  readonly key: string;
  /** The value of a new account. */
  initial(): T;
  /** The value a state file holds for this key (`undefined` when the file predates the slice), as today's shape. */
  load(stored: unknown): T;
  /** The account's value. */
  of(account: AccountState): T;
  set(account: AccountState, value: T): void;
}

/**
 * Declares a slice. Without `load`, a file that predates the slice gets the initial value and any
 * stored value is taken as it is.
 */
export function accountSlice<T>(key: string, initial: () => T, load?: (stored: T | undefined) => T): AccountSlice<T> {
  return {
    key,
    initial,
    load: (stored) => (load ? load(stored as T | undefined) : stored === undefined ? initial() : (stored as T)),
    of: (account) => account[key] as T,
    set: (account, value) => {
      account[key] = value;
    },
  };
}

/**
 * A record as a service stores it, from the sdk's response schema `S` (the contract the emulator
 * answers): the fields the schema declares (without the unknown keys a response schema tolerates),
 * less those the service renders from other state (`Rendered`: a subnet's `computes`), with those
 * it keeps in its own form (`Own`: nested records as stored, a timestamp the emulator always sets).
 */
export type StoredShape<S extends z.ZodObject, Rendered extends string = never, Own extends object = object> = Omit<
  z.output<z.ZodObject<S["shape"]>>,
  Rendered | keyof Own
> &
  Own;

/** Removes one stored object from a list slice of the account (a deleted VPC, domain, image …). */
export function removeStored<T>(slice: AccountSlice<T[]>, account: AccountState, item: T): void {
  slice.set(
    account,
    slice.of(account).filter((stored) => stored !== item),
  );
}

/** An id sequence: `kind` names it in `counters`, `start` is its first id (a realistic magnitude, like the recordings). */
export interface IdCounter {
  readonly kind: string;
  readonly start: number;
}

export function idCounter(kind: string, start: number): IdCounter {
  return { kind, start };
}

/** The core's own counters: accounts and restricted users created through the control API. */
export const ACCOUNT_ID = idCounter("account", 2);
export const USER_ID = idCounter("user", 2);

/** Every slice and counter the registered services declare (`stateLayout` in `core/service.ts`). */
export interface StateLayout {
  readonly slices: readonly AccountSlice<unknown>[];
  readonly counters: readonly IdCounter[];
}

export interface EmulatorState {
  version: 1;
  /** The account the start-up token belongs to. */
  primaryAccount: string;
  /** The unrestricted personal token of the primary account (kept so a restart can reuse it). */
  primaryToken: string;
  /** Next id per counter kind. */
  counters: Record<string, number>;
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
  return { global: {} };
}

function counterStarts(layout: StateLayout): Record<string, number> {
  return Object.fromEntries(layout.counters.map((c) => [c.kind, c.start]));
}

export function createAccount(layout: StateLayout, id: string, username: string): AccountState {
  const account: AccountState = { id, users: { [username]: { username, restricted: false, grants: emptyGrants() } } };
  for (const slice of layout.slices) account[slice.key] = slice.initial();
  return account;
}

export function createState(layout: StateLayout, primaryToken: string): EmulatorState {
  const state: EmulatorState = {
    version: 1,
    primaryAccount: PRIMARY_ACCOUNT,
    primaryToken,
    counters: counterStarts(layout),
    accounts: { [PRIMARY_ACCOUNT]: createAccount(layout, PRIMARY_ACCOUNT, PRIMARY_USERNAME) },
    tokens: {},
  };
  state.tokens[primaryToken] = { token: primaryToken, account: PRIMARY_ACCOUNT, username: PRIMARY_USERNAME, scopes: "*", label: "primary" };
  return state;
}

/** Hands out the next id of a counter; a counter no service module declares is a programming error. */
export function nextId(state: EmulatorState, counter: IdCounter): number {
  const id = state.counters[counter.kind];
  if (id === undefined) throw new Error(`id counter "${counter.kind}" is not registered: declare it in its service module's counters`);
  state.counters[counter.kind] = id + 1;
  return id;
}

/**
 * Brings a state file written by any earlier emulator to today's shape: counters and slices it
 * lacks start fresh, each slice loads its stored value (`AccountSlice.load`), keys no service
 * declares are kept as they are.
 */
export function normalizeState(layout: StateLayout, raw: EmulatorState): EmulatorState {
  const state: EmulatorState = { ...raw, counters: { ...counterStarts(layout), ...raw.counters }, tokens: raw.tokens ?? {}, accounts: {} };
  for (const [id, stored] of Object.entries(raw.accounts ?? {})) {
    const account: AccountState = { ...stored, id: stored.id ?? id, users: stored.users ?? {} };
    for (const slice of layout.slices) account[slice.key] = slice.load(stored[slice.key]);
    state.accounts[id] = account;
  }
  return state;
}
