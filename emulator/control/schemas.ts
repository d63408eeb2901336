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
  global: z.strictObject({ add_vpc: z.boolean().optional(), add_databases: z.boolean().optional() }).optional(),
  vpc: z.array(z.strictObject({ id, permissions: z.enum(["read_only", "read_write"]) })).optional(),
  database: z.array(z.strictObject({ id, permissions: z.enum(["read_only", "read_write"]) })).optional(),
  firewall: z.array(z.strictObject({ id, permissions: z.enum(["read_only", "read_write"]) })).optional(),
  compute: z.array(z.strictObject({ id, permissions: z.enum(["read_only", "read_write"]) })).optional(),
  nodebalancer: z.array(z.strictObject({ id, permissions: z.enum(["read_only", "read_write"]) })).optional(),
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
  /** Private IPv4 addresses in 192.168.128.0/17 (at most one; default none). */
  ipv4_private: z.array(z.string()).optional(),
  /** The IPv6 SLAAC address (default: derived from the region and id; null: none). */
  ipv6: z.string().nullable().optional(),
  /** Enabled for additional public IPv4 addresses (default false). */
  additional_ipv4: z.boolean().optional(),
  /** Start with a live migration in progress (firewall changes touching it are refused). */
  migrating: z.boolean().optional(),
  /** The instance's disks, which images capture (default: one `Boot Disk` of 25088 MB). */
  disks: z
    .array(
      z.strictObject({
        id: id.optional(),
        label: z.string().min(1).max(48).optional(),
        size: z.number().int().positive().optional(),
        filesystem: z.enum(["raw", "swap", "ext3", "ext4", "initrd"]).optional(),
      }),
    )
    .optional(),
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

/** `POST /seed/computes/{id}/migration`: starts (`true`) or ends (`false`) a live migration. */
export const ComputeMigrationRequest = z.strictObject({ migrating: z.boolean({ error: "migrating must be true or false" }) });
