/**
 * Compute instances exist in the emulator only as seeded data (control API `POST
 * /__emulator/seed/computes`): the API's compute endpoints are not implemented yet, but VPC
 * rules depend on them — a subnet lists the instances whose configuration profile interfaces
 * use it, refuses deletion while one does, and VPC IP records are derived from those interfaces.
 */
import type { EmulatorRuntime } from "../../core/runtime";
import type { AccountState, EmulatorState } from "../../core/state";
import { ApiFailure, entry } from "../../core/errors";
import { formatIpv4, ipv4RangeEnd, ipv4RangeWithin, parseIpv4, parseIpv4Cidr } from "../../../sdk/core/net";
import { findRegion } from "../regions/models";
import type { SubnetRecord, VpcRecord } from "../vpcs/models";
import { seedAddresses } from "../ips/seed";
import { type DiskRecord, type DiskSeed, seedDisks } from "../images/disks";

export type InterfacePurpose = "vpc" | "public" | "vlan";

export interface InterfaceRecord {
  id: number;
  purpose: InterfacePurpose;
  /** VLAN label; null for other purposes. */
  label: string | null;
  subnet_id: number | null;
  vpc_id: number | null;
  /** VPC interfaces only: the interface's address in the subnet and its optional 1:1 NAT. */
  ipv4: { vpc: string; nat_1_1: string | null } | null;
  /** Extra ranges routed to a VPC interface (CIDR strings inside the subnet). */
  ip_ranges: string[];
  active: boolean;
}

export interface ConfigRecord {
  id: number;
  label: string;
  interfaces: InterfaceRecord[];
}

export interface ComputeRecord {
  id: number;
  label: string;
  region: string;
  /** Public IPv4 addresses of the instance. */
  ipv4: string[];
  configs: ConfigRecord[];
  created: string;
  /**
   * A live migration is in progress (set through the control API). Firewall changes that touch
   * the instance are refused meanwhile. Optional so older state files load (absent = false).
   */
  migrating?: boolean;
  /** Private IPv4 addresses (192.168.128.0/17, at most one). Optional fields below: older state files load. */
  ipv4_private?: string[];
  /** The IPv6 SLAAC address (canonical text); null when the instance has none. */
  ipv6?: string | null;
  /** Enabled for additional public IPv4 addresses (on the platform, after a support request). */
  additional_ipv4?: boolean;
  /** Addresses this instance is configured to share for failover (IP share): IPv4 and IPv6 range addresses. */
  shared_ips?: string[];
  /** The instance's disks (images capture them). Optional so older state files load (absent = none). */
  disks?: DiskRecord[];
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

/** A VPC interface together with where it sits, for subnet and VPC IP views. */
export interface PlacedInterface {
  compute: ComputeRecord;
  config: ConfigRecord;
  iface: InterfaceRecord;
}

export function allInterfaces(account: AccountState): PlacedInterface[] {
  return account.computes.flatMap((compute) =>
    compute.configs.flatMap((config) => config.interfaces.map((iface) => ({ compute, config, iface }))),
  );
}

export function interfacesOnSubnet(account: AccountState, subnetId: number): PlacedInterface[] {
  return allInterfaces(account).filter((p) => p.iface.purpose === "vpc" && p.iface.subnet_id === subnetId);
}

/** The subnet's gateway: its first host address (`192.168.0.1` in `192.168.0.0/25`). */
export function subnetGateway(subnet: Pick<SubnetRecord, "ipv4">): string {
  return formatIpv4(parseIpv4Cidr(subnet.ipv4)!.network + 1);
}

/** Addresses an interface may take: after the gateway, before the broadcast address. */
function assignableRange(subnet: SubnetRecord): { first: number; last: number } {
  const range = parseIpv4Cidr(subnet.ipv4)!;
  return { first: range.network + 2, last: ipv4RangeEnd(range) - 1 };
}

function usedAddresses(account: AccountState, subnetId: number): Set<string> {
  return new Set(interfacesOnSubnet(account, subnetId).map((p) => p.iface.ipv4?.vpc).filter((a): a is string => !!a));
}

/** The next free address of a subnet, lowest first; undefined when the subnet is full. */
export function nextFreeAddress(account: AccountState, subnet: SubnetRecord): string | undefined {
  const used = usedAddresses(account, subnet.id);
  const { first, last } = assignableRange(subnet);
  for (let n = first; n <= last; n++) {
    const address = formatIpv4(n);
    if (!used.has(address)) return address;
  }
  return undefined;
}

function findSubnet(account: AccountState, subnetId: number): { vpc: VpcRecord; subnet: SubnetRecord } | undefined {
  for (const vpc of account.vpcs) {
    const subnet = vpc.subnets.find((s) => s.id === subnetId);
    if (subnet) return { vpc, subnet };
  }
  return undefined;
}

function computeIdTaken(state: EmulatorState, id: number): boolean {
  return Object.values(state.accounts).some((a) => a.computes.some((c) => c.id === id));
}

/** A deterministic public address per instance (documentation-free, but shaped like the recordings). */
function defaultPublicIpv4(id: number): string {
  return `172.232.${Math.floor(id / 256) % 256}.${id % 256}`;
}

/**
 * Creates a seeded instance. Each VPC interface must name a subnet of the same account in the
 * instance's region; its address is the one given (inside the subnet, free, not the gateway) or
 * the next free one. Throws 400 entries (control API) naming the offending seed field.
 */
export function seedCompute(runtime: EmulatorRuntime, account: AccountState, seed: ComputeSeed): ComputeRecord {
  if (!findRegion(seed.region)) throw new ApiFailure(400, [entry(`Unknown region ${seed.region}`, "region")]);
  if (seed.id !== undefined && computeIdTaken(runtime.state, seed.id)) {
    throw new ApiFailure(400, [entry(`Compute ${seed.id} already exists`, "id")]);
  }
  let id = seed.id;
  while (id === undefined || (seed.id === undefined && computeIdTaken(runtime.state, id))) id = runtime.nextId("compute");
  const compute: ComputeRecord = {
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
    const config: ConfigRecord = { id: configSeed.id ?? runtime.nextId("config"), label: configSeed.label ?? `config-${c}`, interfaces: [] };
    compute.configs.push(config);
    configSeed.interfaces.forEach((ifaceSeed, i) => {
      const field = `configs[${c}].interfaces[${i}]`;
      const iface: InterfaceRecord = {
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
  compute: ComputeRecord,
  iface: InterfaceRecord,
  seed: ComputeSeed["configs"][number]["interfaces"][number],
  field: string,
): void {
  if (seed.subnet_id === undefined) throw new ApiFailure(400, [entry("subnet_id is required for a vpc interface", `${field}.subnet_id`)]);
  const placed = findSubnet(account, seed.subnet_id);
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

export function findCompute(account: AccountState, id: number): ComputeRecord | undefined {
  return account.computes.find((c) => c.id === id);
}

/** Removes one interface (frees its subnet address). False when any of the three ids is unknown. */
export function deleteInterface(account: AccountState, computeId: number, configId: number, interfaceId: number): boolean {
  const config = findCompute(account, computeId)?.configs.find((c) => c.id === configId);
  if (!config) return false;
  const before = config.interfaces.length;
  config.interfaces = config.interfaces.filter((i) => i.id !== interfaceId);
  return config.interfaces.length < before;
}

/** Starts or ends a live migration of a seeded instance. False when the instance is unknown. */
export function setMigrating(account: AccountState, computeId: number, migrating: boolean): boolean {
  const compute = findCompute(account, computeId);
  if (!compute) return false;
  compute.migrating = migrating;
  return true;
}
