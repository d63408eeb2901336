/**
 * Request bodies of the control API. These shapes belong to the emulator alone (they are not
 * API shapes, so they have no sdk schema); the interface-seeding shapes follow the API's
 * configuration profile interface fields (`purpose`, `subnet_id`, `ipv4.vpc`, `ipv4.nat_1_1`,
 * `ip_ranges`, `active`, `label`).
 */
import { z } from "zod";
import { FAULT_KINDS } from "../core/faults";

const id = z.number().int().positive();

export const ResetRequest = z.strictObject({ seed: z.number().int().optional() });

export const AccountCreateRequest = z.strictObject({
  id: z.string().min(1).regex(/^[A-Za-z0-9_-]+$/, "account id may hold only letters, digits, _ and -").optional(),
  username: z.string().min(1).optional(),
});

export const GrantsInput = z.strictObject({
  global: z.strictObject({ add_vpc: z.boolean().optional() }).optional(),
  vpc: z.array(z.strictObject({ id, permissions: z.enum(["read_only", "read_write"]) })).optional(),
});

export const TokenCreateRequest = z.strictObject({
  /** Account id (default: the primary account). */
  account: z.string().min(1).optional(),
  /** `"*"` (default) or OAuth-style scopes such as `vpc:read_only`. */
  scopes: z.union([z.literal("*"), z.array(z.string().regex(/^[a-z_]+:(read_only|read_write|read|\*)$/, "scope must look like area:read_only"))]).optional(),
  /** A new restricted user (true) or the account's unrestricted user (false, default)… */
  restricted: z.boolean().optional(),
  /** …whose grants these are (restricted users only). */
  grants: GrantsInput.optional(),
  /** Reuse (or name) a user; with `restricted`/`grants` it updates that user. */
  username: z.string().min(1).optional(),
  label: z.string().optional(),
});

const InterfaceSeed = z.strictObject({
  id: id.optional(),
  purpose: z.enum(["vpc", "public", "vlan"]),
  subnet_id: id.optional(),
  ipv4: z.strictObject({ vpc: z.string().optional(), nat_1_1: z.string().nullable().optional() }).optional(),
  ip_ranges: z.array(z.string()).optional(),
  active: z.boolean().optional(),
  label: z.string().optional(),
});

export const ComputeSeedRequest = z.strictObject({
  account: z.string().min(1).optional(),
  id: id.optional(),
  label: z.string().min(1),
  region: z.string().min(1),
  ipv4: z.array(z.string()).optional(),
  configs: z.array(z.strictObject({ id: id.optional(), label: z.string().optional(), interfaces: z.array(InterfaceSeed) })).default([]),
});

export const NodeBalancerSeedRequest = z.strictObject({
  account: z.string().min(1).optional(),
  id: id.optional(),
  label: z.string().min(1),
  region: z.string().min(1),
});

export const FaultRuleRequest = z.strictObject({
  id: z.string().min(1).optional(),
  pathPattern: z.string().min(1),
  method: z.string().min(1).optional(),
  kind: z.enum(FAULT_KINDS),
  rate: z.number().min(0).max(1).optional(),
  count: z.number().int().min(0).optional(),
  latencyMs: z.number().int().min(0).optional(),
  retryAfterSeconds: z.number().int().min(0).optional(),
});

export const ClockRequest = z.strictObject({
  scale: z.number().min(0).optional(),
  advanceMs: z.number().min(0).optional(),
});
