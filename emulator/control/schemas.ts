/**
 * Request bodies of the core control API. These shapes belong to the emulator alone (they are not
 * API shapes, so they have no sdk schema). The services' own control bodies (seeds, forced
 * failures …) live with their control operations (`services/<name>/control.ts`, `seed.ts`).
 */
import { z } from "zod";
import { FAULT_KINDS } from "../core/faults";
import type { GrantPermission } from "../core/state";
import type { GlobalGrantName, ObjectGrantKind } from "../services";

const id = z.number().int().positive();

export const ResetRequest = z.strictObject({ seed: z.number().int().optional() });

export const AccountCreateRequest = z.strictObject({
  id: z
    .string()
    .min(1)
    .regex(/^[A-Za-z0-9_-]+$/, "account id may hold only letters, digits, _ and -")
    .optional(),
  username: z.string().min(1).optional(),
});

const ObjectGrantsInput = z.array(z.strictObject({ id, permissions: z.enum(["read_only", "read_write"]) }));

/** The grants a token request may give, named by the services (`ServiceModule.grants`). */
export interface GrantNames {
  readonly objects: readonly string[];
  readonly global: readonly string[];
}

/** `grants`: `{global?: {<global grant>?: boolean}, <object kind>?: [{id, permissions}]}`; any other key is refused. */
export function grantsInput(names: GrantNames) {
  const global = z.strictObject(Object.fromEntries(names.global.map((name) => [name, z.boolean().optional()])));
  const objects = Object.fromEntries(names.objects.map((kind) => [kind, ObjectGrantsInput.optional()]));
  return z.strictObject({ global: global.optional(), ...objects });
}

const Scope = z.string().regex(/^[a-z_]+:(read_only|read_write|read|\*)$/, "scope must look like area:read_only");

/** `POST /tokens`, with the grants the services declare. */
export function tokenCreateRequest(names: GrantNames) {
  return z.strictObject({
    /** Account id (default: the primary account). */
    account: z.string().min(1).optional(),
    /** `"*"` (default) or OAuth-style scopes such as `vpc:read_only`. */
    scopes: z.union([z.literal("*"), z.array(Scope)]).optional(),
    /** A new restricted user (true) or the account's unrestricted user (false, default)… */
    restricted: z.boolean().optional(),
    /** …whose grants these are (restricted users only). */
    grants: grantsInput(names).optional(),
    /** Reuse (or name) a user; with `restricted`/`grants` it updates that user. */
    username: z.string().min(1).optional(),
    label: z.string().optional(),
  });
}

/** The grants of a token request, typed by the services' grant names. */
export type GrantsInput = { global?: { [G in GlobalGrantName]?: boolean } } & {
  [K in ObjectGrantKind]?: Array<{ id: number; permissions: GrantPermission }>;
};
export type TokenCreateInput = Omit<z.input<ReturnType<typeof tokenCreateRequest>>, "grants"> & { grants?: GrantsInput };

export const FaultRuleRequest = z.strictObject({
  id: z.string().min(1).optional(),
  pathPattern: z.string().min(1),
  method: z.string().min(1).optional(),
  kind: z.enum(FAULT_KINDS),
  rate: z.number().min(0).max(1).optional(),
  count: z.number().int().min(0).optional(),
  skip: z.number().int().min(0).optional(),
  latencyMs: z.number().int().min(0).optional(),
  retryAfterSeconds: z.number().int().min(0).optional(),
});

export const ClockRequest = z.strictObject({
  scale: z.number().min(0).optional(),
  advanceMs: z.number().min(0).optional(),
});
