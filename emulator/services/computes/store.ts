/**
 * Compute instances exist in the emulator only as seeded data (control API `POST
 * /__emulator/seed/computes`, `seed.ts`): the API's compute endpoints are not implemented, but other
 * services depend on them — a subnet lists the instances whose configuration profile interfaces
 * use it, VPC IP records and VLANs are derived from those interfaces, addresses live on the
 * instances, firewalls are assigned to them, images capture their disks.
 */
import type { EmulatorRuntime } from "../../core/runtime";
import { type AccountState, accountSlice, idCounter } from "../../core/state";

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
}

export interface StoredConfig {
  id: number;
  label: string;
  interfaces: StoredInterface[];
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
