/**
 * The contract between the core and a service: each service folder has a `module.ts` whose
 * `ServiceModule` says everything the emulator needs to run it — its API routes, its per-account
 * state and id counters, its grants, its clock work, its routes outside `/v4`, and its control
 * operations. `services/index.ts` lists the modules; the composition root (`emulator.ts`) and the
 * control (`control/`) only iterate over that list, so the core imports no service.
 */
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import { issuesToErrors, type ErrorEntry } from "../../sdk/core/schema";
import type { DueSource } from "./clock";
import { ApiFailure, entry } from "./errors";
import type { RouteSpec } from "./routes";
import type { EmulatorRuntime } from "./runtime";
import { ACCOUNT_ID, type AccountSlice, type AccountState, type IdCounter, type StateLayout, USER_ID } from "./state";

/** Grants restricted users can hold on the service's objects (spec "Authentication"). */
export interface ServiceGrants {
  /** Per-object grant kinds: `vpc` is `grants.vpc: [{id, permissions}]` on a user. */
  readonly objects?: readonly string[];
  /** Global grants: `add_vpc` is `grants.global.add_vpc`. */
  readonly global?: readonly string[];
}

/** What a service's control operations get: the runtime and the accounts by id. */
export interface ControlContext {
  readonly runtime: EmulatorRuntime;
  /** The account with this id (default: the primary account); 400 `Unknown account <id>` otherwise. */
  account(id: string | undefined): AccountState;
}

/** A request to the control API, as a control route sees it. */
export interface ControlRequest {
  /** The JSON body, unchecked: every control operation validates its own input. */
  body<T>(): T;
  /** An integer path parameter (404 for anything else). */
  id(name: string): number;
  /** A path parameter as sent. */
  param(name: string): string;
}

/** A route under `/__emulator` (loopback callers only, no token). */
export interface ControlRoute {
  method: "GET" | "POST" | "DELETE";
  /** Below the control prefix, fastify style: `/seed/computes/:computeId/migration`. */
  path: string;
  handler(request: ControlRequest): unknown;
}

/**
 * A service's control operations: `api` builds the in-process operations, merged into
 * `EmulatorControl` under their own names (`control.seedCompute`, `control.databases` …); `routes`
 * serves the same operations under `/__emulator`.
 */
export interface ServiceControl<Api extends object> {
  api(context: ControlContext): Api;
  routes(api: Api): readonly ControlRoute[];
}

export interface ServiceModule<Api extends object = object> {
  /** The service's folder under `emulator/services/` (and its sdk file, `sdk/resources/<name>.ts`, when it has one). */
  readonly name: string;
  /** The API endpoints it serves under `/v4`. */
  readonly routes?: readonly RouteSpec[];
  /** Its parts of every account (`accounts[id].<key>` in the state). */
  readonly slices?: readonly AccountSlice<unknown>[];
  /** Its id counters, with their first ids (`counters.<kind>` in the state). */
  readonly counters?: readonly IdCounter[];
  readonly grants?: ServiceGrants;
  /** Work the clock applies: pending transitions kept as data on the service's records. */
  readonly clock?: (runtime: EmulatorRuntime) => DueSource;
  /** Routes it serves outside `/v4`, with their own parsers (the image upload URL). */
  readonly register?: (app: FastifyInstance, runtime: EmulatorRuntime) => void;
  readonly control?: ServiceControl<Api>;
}

/** Declares a module, keeping its literal types (so control operations and grant names stay typed). */
export function defineService<const M extends ServiceModule>(module: M): M {
  return module;
}

/** Declares a service's control operations (their types flow from `api` to `routes`). */
export function serviceControl<Api extends object>(control: ServiceControl<Api>): ServiceControl<Api> {
  return control;
}

/** The control operations of one module, or nothing. */
type ControlApiOf<M> = M extends { readonly control?: ServiceControl<infer Api> }
  ? unknown extends Api
    ? Record<never, never>
    : Api
  : Record<never, never>;

/** All modules' control operations together: what `EmulatorControl` adds to its own. */
export type ControlApis<Modules extends readonly unknown[]> = Modules extends readonly [infer First, ...infer Rest]
  ? ControlApiOf<First> & ControlApis<Rest>
  : Record<never, never>;

type GrantsOf<M, Part extends keyof ServiceGrants> = M extends {
  readonly grants: { readonly [P in Part]: readonly (infer Name extends string)[] };
}
  ? Name
  : never;

/** The per-object grant kinds the modules declare, as a union of names. */
export type ObjectGrantKinds<Modules extends readonly unknown[]> = GrantsOf<Modules[number], "objects">;
/** The global grants the modules declare, as a union of names. */
export type GlobalGrantNames<Modules extends readonly unknown[]> = GrantsOf<Modules[number], "global">;

/** The state every module declares, with the core's own counters first. */
export function stateLayout(modules: readonly ServiceModule[]): StateLayout {
  return {
    slices: modules.flatMap((m) => m.slices ?? []),
    counters: [ACCOUNT_ID, USER_ID, ...modules.flatMap((m) => m.counters ?? [])],
  };
}

/** All grant names the modules declare, in module order. */
export function grantNames(modules: readonly ServiceModule[]): { objects: string[]; global: string[] } {
  return {
    objects: modules.flatMap((m) => m.grants?.objects ?? []),
    global: modules.flatMap((m) => m.grants?.global ?? []),
  };
}

/** Validates a control operation's input; failures are the same 400 entries as the API's. */
export function parseInput<T extends z.ZodType>(
  schema: T,
  input: unknown,
  toEntries: (error: z.ZodError) => ErrorEntry[] = issuesToErrors,
): z.infer<T> {
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) throw new ApiFailure(400, toEntries(parsed.error));
  return parsed.data;
}

/** zod's own texts with dotted paths (what the support control has always answered). */
export const zodIssueEntries = (error: z.ZodError): ErrorEntry[] => error.issues.map((i) => entry(i.message, i.path.join(".")));

/**
 * The id of a seeded object: the one the seed asks for (refused with `taken`'s failure when an
 * object has it), else the counter's next id no object has.
 */
export function seedId(
  runtime: EmulatorRuntime,
  counter: IdCounter,
  requested: number | undefined,
  taken: (id: number) => boolean,
  refusal: (id: number) => ApiFailure,
): number {
  if (requested !== undefined) {
    if (taken(requested)) throw refusal(requested);
    return requested;
  }
  let id = runtime.nextId(counter);
  while (taken(id)) id = runtime.nextId(counter);
  return id;
}

/**
 * A control operation that seeds one object: validates the seed, creates the object in the seed's
 * `account` (default: the primary account), saves the state and answers a copy of the object.
 */
export function seeder<Schema extends z.ZodType<{ account?: string | undefined }>, T>(
  context: ControlContext,
  schema: Schema,
  create: (runtime: EmulatorRuntime, account: AccountState, seed: Omit<z.infer<Schema>, "account">) => T,
): (input: z.input<Schema>) => T {
  return (input) => {
    const { account, ...seed } = parseInput(schema, input);
    const created = create(context.runtime, context.account(account), seed);
    context.runtime.persist();
    return structuredClone(created);
  };
}
