/**
 * Compute instances as stored: made through the API (`POST /compute/instances`, `operations.ts`)
 * or seeded through the control API (`POST /__emulator/seed/computes`, `seed.ts`). Other services
 * depend on them — a subnet lists the instances whose configuration profile interfaces use it, VPC
 * IP records and VLANs are derived from those interfaces, addresses live on the instances,
 * firewalls are assigned to them, images capture their disks. Fields the API's record has beyond
 * what seeding always set are optional, so older state files load; `render.ts` fills them in.
 */
import type { EmulatorRuntime } from "../../core/runtime";
import type { ComputeStatus } from "../../../sdk/resources/computes";
import { type AccountState, type UserRecord, accountSlice, idCounter } from "../../core/state";
import { canSee } from "../../core/auth";

export type InterfacePurpose = "vpc" | "public" | "vlan";

export interface StoredInterface {
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
  /** The interface the instance's default route uses (absent: false). */
  primary?: boolean;
  /** VLAN interfaces: the address in the VLAN (absent: null). */
  ipam_address?: string | null;
}

/** What the API keeps of a profile beyond its interfaces (absent for seeded profiles: the API's defaults). */
export interface StoredConfigSettings {
  comments: string;
  devices: Record<string, { disk_id?: number | null; volume_id?: number | null } | null>;
  helpers: { updatedb_disabled: boolean; distro: boolean; modules_dep: boolean; network: boolean; devtmpfs_automount: boolean };
  memory_limit: number;
  kernel: string;
  init_rd: number | null;
  root_device: string;
  run_level: string;
  virt_mode: string;
}

export interface StoredConfig {
  id: number;
  label: string;
  interfaces: StoredInterface[];
  settings?: StoredConfigSettings;
  created?: string;
  updated?: string;
}

/** One step of an instance's status machine: become `to` at emulated `at` (ms); `gone` removes it. */
export interface ComputeStep {
  to: ComputeStatus | "gone";
  at: number;
}

/** A disk of a seeded instance (the API's disk endpoints are not emulated; images capture disks). */
export interface StoredDisk {
  id: number;
  label: string;
  /** MB; a captured image has the disk's size. */
  size: number;
  filesystem: "raw" | "swap" | "ext3" | "ext4" | "initrd";
  created: string;
}

export interface StoredCompute {
  id: number;
  label: string;
  region: string;
  /** Public IPv4 addresses of the instance. */
  ipv4: string[];
  configs: StoredConfig[];
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
  disks?: StoredDisk[];
  /** Seeded instances have none of the fields below: they render as a running `g6-standard-1` without an image. */
  status?: ComputeStatus;
  type?: string;
  image?: string | null;
  tags?: string[];
  group?: string;
  updated?: string;
  watchdog_enabled?: boolean;
  backups_enabled?: boolean;
  /** The profile booted last (boot and reboot without `config_id` use it, else the first). */
  booted_config_id?: number | null;
  /** Pending steps of the status machine, in order, and the event of the action they finish. */
  steps?: ComputeStep[];
  event_id?: number | null;
}

/** `accounts[id].computes`: the seeded instances. */
export const COMPUTES = accountSlice("computes", (): StoredCompute[] => []);
export const COMPUTE_ID = idCounter("compute", 52_000_000);
export const CONFIG_ID = idCounter("config", 59_000_000);
export const INTERFACE_ID = idCounter("interface", 830_000);
export const DISK_ID = idCounter("disk", 108_900_000);

/** The API path of an instance (event entities, firewall devices, ticket entities). */
export const computeUrl = (id: number) => `/v4/compute/instances/${id}`;

/** An interface together with where it sits, for subnet, VPC IP and VLAN views. */
export interface PlacedInterface {
  compute: StoredCompute;
  config: StoredConfig;
  iface: StoredInterface;
}

export function allInterfaces(account: AccountState): PlacedInterface[] {
  return COMPUTES.of(account).flatMap((compute) =>
    compute.configs.flatMap((config) => config.interfaces.map((iface) => ({ compute, config, iface }))),
  );
}

export function interfacesOnSubnet(account: AccountState, subnetId: number): PlacedInterface[] {
  return allInterfaces(account).filter((p) => p.iface.purpose === "vpc" && p.iface.subnet_id === subnetId);
}

/** Every instance of every account (ids and addresses are unique platform-wide). */
export function everyCompute(runtime: EmulatorRuntime): StoredCompute[] {
  return Object.values(runtime.state.accounts).flatMap((a) => COMPUTES.of(a));
}

export function findCompute(account: AccountState, id: number): StoredCompute | undefined {
  return COMPUTES.of(account).find((c) => c.id === id);
}

/** The status an instance has now (a seeded one runs). */
export const statusOf = (compute: StoredCompute): ComputeStatus => compute.status ?? "running";

export function findConfig(compute: StoredCompute, id: number): StoredConfig | undefined {
  return compute.configs.find((c) => c.id === id);
}

/** The instances a user may see: all of them, or for a restricted user those with a grant. */
export function visibleComputes(account: AccountState, user: UserRecord): StoredCompute[] {
  return COMPUTES.of(account).filter((c) => canSee(user, "compute", c.id));
}
