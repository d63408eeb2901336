/**
 * Seeding an instance (control API `POST /__emulator/seed/computes`): its record, its VPC
 * interfaces placed on subnets of the same account and region (`../vpcs/subnet-addresses.ts`), its
 * addresses (`../ips/seed.ts`) and its disks — the ones the seed names, or one boot disk.
 */
import type { EmulatorRuntime } from "../../core/runtime";
import type { AccountState, EmulatorState } from "../../core/state";
import { ApiFailure, entry } from "../../core/errors";
import { ipv4RangeWithin, parseIpv4, parseIpv4Cidr } from "../../../sdk/core/net";
import { findRegion } from "../regions/catalog";
import { findSubnetOfAccount } from "../vpcs/store";
import { assignableRange, nextFreeAddress, usedAddresses } from "../vpcs/subnet-addresses";
import { seedAddresses } from "../ips/seed";
import type { InterfacePurpose, StoredCompute, StoredConfig, StoredDisk, StoredInterface } from "./store";

/** Seed input of one disk (validated by the control API's schema). */
export interface DiskSeed {
  id?: number;
  label?: string;
  size?: number;
  filesystem?: StoredDisk["filesystem"];
}

/** Seed input (validated by the control API's schema). */
export interface ComputeSeed {
  id?: number;
  label: string;
  region: string;
  ipv4?: string[];
  /** Start with a live migration in progress. */
  migrating?: boolean;
  /** Private IPv4 addresses (default none). */
  ipv4_private?: string[];
  /** SLAAC address (default: the address plan's; null: none). */
  ipv6?: string | null;
  /** May be allocated additional public IPv4 addresses (default false). */
  additional_ipv4?: boolean;
  /** Disks (default: one `Boot Disk` of 25088 MB, ext4). */
  disks?: DiskSeed[];
  configs: Array<{
    id?: number;
    label?: string;
    interfaces: Array<{
      id?: number;
      purpose: InterfacePurpose;
      subnet_id?: number;
      /** `nat_1_1: "any"` maps the instance's first public address, as the API's `any` does. */
      ipv4?: { vpc?: string; nat_1_1?: string | null };
      ip_ranges?: string[];
      active?: boolean;
      label?: string;
    }>;
  }>;
}

/** What an instance seeded without `disks` gets: one boot disk the size of the recorded capture. */
export const DEFAULT_DISK: Required<Omit<DiskSeed, "id">> = { label: "Boot Disk", size: 25088, filesystem: "ext4" };

function computeIdTaken(state: EmulatorState, id: number): boolean {
  return Object.values(state.accounts).some((a) => a.computes.some((c) => c.id === id));
}

function diskIdTaken(state: EmulatorState, id: number, also: readonly StoredDisk[]): boolean {
  if (also.some((d) => d.id === id)) return true;
  return Object.values(state.accounts).some((a) => a.computes.some((c) => (c.disks ?? []).some((d) => d.id === id)));
}

/** A deterministic public address per instance (documentation-free, but shaped like the recordings). */
function defaultPublicIpv4(id: number): string {
  return `172.232.${Math.floor(id / 256) % 256}.${id % 256}`;
}

/** The disks of a new seeded instance; a taken id is a 400 naming `disks[i].id`. */
export function seedDisks(runtime: EmulatorRuntime, seeds: readonly DiskSeed[] | undefined): StoredDisk[] {
  const disks: StoredDisk[] = [];
  const wanted: readonly DiskSeed[] = seeds ?? [DEFAULT_DISK];
  wanted.forEach((seed, i) => {
    if (seed.id !== undefined && diskIdTaken(runtime.state, seed.id, disks)) {
      throw new ApiFailure(400, [entry(`Disk ${seed.id} already exists`, `disks[${i}].id`)]);
    }
    let id = seed.id;
    while (id === undefined || (seed.id === undefined && diskIdTaken(runtime.state, id, disks))) id = runtime.nextId("disk");
    disks.push({
      id,
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
  if (seed.id !== undefined && computeIdTaken(runtime.state, seed.id)) {
    throw new ApiFailure(400, [entry(`Compute ${seed.id} already exists`, "id")]);
  }
  let id = seed.id;
  while (id === undefined || (seed.id === undefined && computeIdTaken(runtime.state, id))) id = runtime.nextId("compute");
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
  seedAddresses(runtime.state, compute, seed);
  compute.disks = seedDisks(runtime, seed.disks);
  // Interfaces are added one by one to a draft, so two interfaces of one seed never get the same address.
  const draft: AccountState = { ...account, computes: [...account.computes, compute] };
  seed.configs.forEach((configSeed, c) => {
    const config: StoredConfig = { id: configSeed.id ?? runtime.nextId("config"), label: configSeed.label ?? `config-${c}`, interfaces: [] };
    compute.configs.push(config);
    configSeed.interfaces.forEach((ifaceSeed, i) => {
      const field = `configs[${c}].interfaces[${i}]`;
      const iface: StoredInterface = {
        id: ifaceSeed.id ?? runtime.nextId("interface"),
        purpose: ifaceSeed.purpose,
        label: ifaceSeed.purpose === "vlan" ? ifaceSeed.label ?? `vlan-${id}` : null,
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
  account.computes.push(compute);
  return compute;
}

function placeVpcInterface(
  account: AccountState,
  compute: StoredCompute,
  iface: StoredInterface,
  seed: ComputeSeed["configs"][number]["interfaces"][number],
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
  iface.ipv4 = { vpc: address, nat_1_1: nat === "any" ? compute.ipv4[0] ?? null : nat ?? null };
  iface.ip_ranges = [...(seed.ip_ranges ?? [])];
}
