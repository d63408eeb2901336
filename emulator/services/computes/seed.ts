/**
 * Seeding an instance (control API `POST /__emulator/seed/computes`): its record, its VPC
 * interfaces placed on subnets of the same account and region (`../vpcs/subnet-addresses.ts`), its
 * addresses (`../ips/seed.ts`) and its disks — the ones the seed names, or one boot disk. The seed's
 * shape is the schema below; the interface fields follow the API's configuration profile interface
 * (`purpose`, `subnet_id`, `ipv4.vpc`, `ipv4.nat_1_1`, `ip_ranges`, `active`, `label`).
 */
import { z } from "zod";
import type { EmulatorRuntime } from "../../core/runtime";
import type { AccountState } from "../../core/state";
import { ApiFailure, entry } from "../../core/errors";
import { seedId } from "../../core/service";
import { ipv4RangeWithin, parseIpv4, parseIpv4Cidr } from "../../../sdk/core/net";
import { findRegion } from "../regions/catalog";
import { findSubnetOfAccount } from "../vpcs/store";
import { assignableRange, nextFreeAddress, usedAddresses } from "../vpcs/subnet-addresses";
import { ADDRESS_SEED_FIELDS, seedAddresses } from "../ips/seed";
import {
  COMPUTES,
  COMPUTE_ID,
  CONFIG_ID,
  DISK_ID,
  INTERFACE_ID,
  type StoredCompute,
  type StoredConfig,
  type StoredDisk,
  type StoredInterface,
  everyCompute,
} from "./store";

const id = z.number().int().positive();

const InterfaceSeed = z.strictObject({
  id: id.optional(),
  purpose: z.enum(["vpc", "public", "vlan"]),
  subnet_id: id.optional(),
  /** `nat_1_1: "any"` maps the instance's first public address, as the API's `any` does. */
  ipv4: z.strictObject({ vpc: z.string().optional(), nat_1_1: z.string().nullable().optional() }).optional(),
  ip_ranges: z.array(z.string()).optional(),
  active: z.boolean().optional(),
  label: z.string().optional(),
});

const DiskSeed = z.strictObject({
  id: id.optional(),
  label: z.string().min(1).max(48).optional(),
  size: z.number().int().positive().optional(),
  filesystem: z.enum(["raw", "swap", "ext3", "ext4", "initrd"]).optional(),
});
export type DiskSeed = z.infer<typeof DiskSeed>;

/** `POST /__emulator/seed/computes`. */
export const ComputeSeedRequest = z.strictObject({
  account: z.string().min(1).optional(),
  id: id.optional(),
  label: z.string().min(1),
  region: z.string().min(1),
  ...ADDRESS_SEED_FIELDS,
  /** Start with a live migration in progress (firewall changes touching it are refused). */
  migrating: z.boolean().optional(),
  /** The instance's disks, which images capture (default: one `Boot Disk` of 25088 MB). */
  disks: z.array(DiskSeed).optional(),
  configs: z.array(z.strictObject({ id: id.optional(), label: z.string().optional(), interfaces: z.array(InterfaceSeed) })).default([]),
});
export type ComputeSeedInput = z.input<typeof ComputeSeedRequest>;
/** A validated seed, without the account it goes to. */
export type ComputeSeed = Omit<z.infer<typeof ComputeSeedRequest>, "account">;

/** What an instance seeded without `disks` gets: one boot disk the size of the recorded capture. */
export const DEFAULT_DISK: Required<Omit<DiskSeed, "id">> = { label: "Boot Disk", size: 25088, filesystem: "ext4" };

function diskIdTaken(runtime: EmulatorRuntime, id: number, also: readonly StoredDisk[]): boolean {
  if (also.some((d) => d.id === id)) return true;
  return everyCompute(runtime).some((c) => (c.disks ?? []).some((d) => d.id === id));
}

/**
 * A deterministic public address per instance, shaped like the recordings: one of the 254 host
 * addresses of a /24 in 172.232.0.0/16, never its network (.0) or broadcast (.255) address.
 */
export function defaultPublicIpv4(id: number): string {
  const n = id % (254 * 256);
  return `172.232.${Math.floor(n / 254)}.${(n % 254) + 1}`;
}

/** The disks of a new seeded instance; a taken id is a 400 naming `disks[i].id`. */
export function seedDisks(runtime: EmulatorRuntime, seeds: readonly DiskSeed[] | undefined): StoredDisk[] {
  const disks: StoredDisk[] = [];
  const wanted: readonly DiskSeed[] = seeds ?? [DEFAULT_DISK];
  wanted.forEach((seed, i) => {
    const taken = (id: number) => diskIdTaken(runtime, id, disks);
    disks.push({
      id: seedId(runtime, DISK_ID, seed.id, taken, (id) => new ApiFailure(400, [entry(`Disk ${id} already exists`, `disks[${i}].id`)])),
      label: seed.label ?? DEFAULT_DISK.label,
      size: seed.size ?? DEFAULT_DISK.size,
      filesystem: seed.filesystem ?? DEFAULT_DISK.filesystem,
      created: runtime.clock.timestamp(),
    });
  });
  return disks;
}

/**
 * Creates a seeded instance. Each VPC interface must name a subnet of the same account in the
 * instance's region; its address is the one given (inside the subnet, free, not the gateway) or
 * the next free one. Throws 400 entries (control API) naming the offending seed field.
 */
export function seedCompute(runtime: EmulatorRuntime, account: AccountState, seed: ComputeSeed): StoredCompute {
  if (!findRegion(seed.region)) throw new ApiFailure(400, [entry(`Unknown region ${seed.region}`, "region")]);
  const taken = (id: number) => everyCompute(runtime).some((c) => c.id === id);
  const id = seedId(runtime, COMPUTE_ID, seed.id, taken, (id) => new ApiFailure(400, [entry(`Compute ${id} already exists`, "id")]));
  const compute: StoredCompute = {
    id,
    label: seed.label,
    region: seed.region,
    ipv4: seed.ipv4 ?? [defaultPublicIpv4(id)],
    configs: [],
    created: runtime.clock.timestamp(),
    // Only present when set, so records of instances that never migrate keep their shape.
    ...(seed.migrating ? { migrating: true } : {}),
  };
  seedAddresses(runtime, compute, seed);
  compute.disks = seedDisks(runtime, seed.disks);
  // Interfaces are added one by one to a draft, so two interfaces of one seed never get the same address.
  const draft: AccountState = { ...account, [COMPUTES.key]: [...COMPUTES.of(account), compute] };
  seed.configs.forEach((configSeed, c) => {
    const config: StoredConfig = {
      id: configSeed.id ?? runtime.nextId(CONFIG_ID),
      label: configSeed.label ?? `config-${c}`,
      interfaces: [],
    };
    compute.configs.push(config);
    configSeed.interfaces.forEach((ifaceSeed, i) => {
      const field = `configs[${c}].interfaces[${i}]`;
      const iface: StoredInterface = {
        id: ifaceSeed.id ?? runtime.nextId(INTERFACE_ID),
        purpose: ifaceSeed.purpose,
        label: ifaceSeed.purpose === "vlan" ? (ifaceSeed.label ?? `vlan-${id}`) : null,
        subnet_id: null,
        vpc_id: null,
        ipv4: null,
        ip_ranges: [],
        active: ifaceSeed.active ?? false,
      };
      if (ifaceSeed.purpose === "vpc") placeVpcInterface(draft, compute, iface, ifaceSeed, field);
      config.interfaces.push(iface);
    });
  });
  COMPUTES.of(account).push(compute);
  return compute;
}

function placeVpcInterface(
  account: AccountState,
  compute: StoredCompute,
  iface: StoredInterface,
  seed: z.infer<typeof InterfaceSeed>,
  field: string,
): void {
  if (seed.subnet_id === undefined) throw new ApiFailure(400, [entry("subnet_id is required for a vpc interface", `${field}.subnet_id`)]);
  const placed = findSubnetOfAccount(account, seed.subnet_id);
  if (!placed) throw new ApiFailure(400, [entry(`Subnet ${seed.subnet_id} not found`, `${field}.subnet_id`)]);
  if (placed.vpc.region !== compute.region) {
    throw new ApiFailure(400, [entry(`Subnet ${seed.subnet_id} is in ${placed.vpc.region}, not ${compute.region}`, `${field}.subnet_id`)]);
  }
  let address = seed.ipv4?.vpc;
  if (address === undefined) {
    address = nextFreeAddress(account, placed.subnet);
    if (!address) throw new ApiFailure(400, [entry(`Subnet ${seed.subnet_id} has no free address`, `${field}.subnet_id`)]);
  } else {
    const value = parseIpv4(address);
    const { first, last } = assignableRange(placed.subnet);
    if (value === undefined || value < first || value > last) {
      throw new ApiFailure(400, [entry(`${address} is not an assignable address of ${placed.subnet.ipv4}`, `${field}.ipv4.vpc`)]);
    }
    if (usedAddresses(account, placed.subnet.id).has(address)) {
      throw new ApiFailure(400, [entry(`${address} is already in use`, `${field}.ipv4.vpc`)]);
    }
  }
  const subnetRange = parseIpv4Cidr(placed.subnet.ipv4)!;
  (seed.ip_ranges ?? []).forEach((text, r) => {
    const range = parseIpv4Cidr(text);
    if (!range || !range.canonical || !ipv4RangeWithin(range, subnetRange)) {
      throw new ApiFailure(400, [entry(`${text} is not a range inside ${placed.subnet.ipv4}`, `${field}.ip_ranges[${r}]`)]);
    }
  });
  const nat = seed.ipv4?.nat_1_1;
  iface.subnet_id = placed.subnet.id;
  iface.vpc_id = placed.vpc.id;
  iface.ipv4 = { vpc: address, nat_1_1: nat === "any" ? (compute.ipv4[0] ?? null) : (nat ?? null) };
  iface.ip_ranges = [...(seed.ip_ranges ?? [])];
}
