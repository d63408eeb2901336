/**
 * Instances, configuration profiles, interfaces and an instance's addresses on the wire (the
 * record linodego's `Instance`, `InstanceConfig`, `InstanceConfigInterface` and
 * `InstanceIPAddressResponse` read). Seeded instances lack the API-only fields; they render with the
 * API's defaults (running, `g6-standard-1`, no image, no tags).
 */
import type { AccountState, UserRecord } from "../../core/state";
import { formatIpv6, parseIpv6 } from "../../../sdk/core/net";
import { renderAddress } from "../ips/render";
import { accountAddresses } from "../ips/store";
import { vpcIpRecords } from "../vpcs/vpc-ips";
import { SEEDED_TYPE, findComputeType } from "./catalog";
import type { Compute, ComputeIps, Config, ConfigInterface } from "../../../sdk/resources/computes";
import { type StoredCompute, type StoredConfig, type StoredConfigSettings, type StoredInterface, statusOf } from "./store";

/** What a profile the API made without settings has (`@linode/api-v4`'s defaults of a new profile). */
export const DEFAULT_CONFIG_SETTINGS: StoredConfigSettings = {
  comments: "",
  devices: {},
  helpers: { updatedb_disabled: true, distro: true, modules_dep: true, network: true, devtmpfs_automount: true },
  memory_limit: 0,
  kernel: "public/latest-64bit",
  init_rd: null,
  root_device: "/dev/sda",
  run_level: "default",
  virt_mode: "paravirt",
};

export function renderCompute(compute: StoredCompute): Compute {
  const type = findComputeType(compute.type ?? SEEDED_TYPE)!;
  return {
    id: compute.id,
    label: compute.label,
    group: compute.group ?? "",
    status: statusOf(compute),
    created: compute.created,
    updated: compute.updated ?? compute.created,
    type: type.id,
    ipv4: [...compute.ipv4, ...(compute.ipv4_private ?? [])],
    ipv6: compute.ipv6 ? `${compute.ipv6}/128` : null,
    image: compute.image ?? null,
    region: compute.region,
    specs: { disk: type.disk, memory: type.memory, vcpus: type.vcpus, transfer: type.transfer, gpus: type.gpus, accelerated_devices: 0 },
    alerts: { cpu: 90 * type.vcpus, io: 10000, network_in: 10, network_out: 10, transfer_quota: 80 },
    backups: {
      available: false,
      enabled: compute.backups_enabled ?? false,
      last_successful: null,
      schedule: { day: null, window: null },
    },
    hypervisor: "kvm",
    watchdog_enabled: compute.watchdog_enabled ?? true,
    tags: [...(compute.tags ?? [])],
    host_uuid: `emu-host-${compute.region}`,
    has_user_data: false,
    placement_group: null,
    disk_encryption: "disabled",
    lke_cluster_id: null,
    capabilities: [],
    interface_generation: "legacy_config",
    maintenance_policy: "public/migrate",
    site_type: "core",
    locks: [],
  };
}

export function renderInterface(iface: StoredInterface): ConfigInterface {
  return {
    id: iface.id,
    purpose: iface.purpose,
    label: iface.label,
    ipam_address: iface.ipam_address ?? null,
    primary: iface.primary ?? false,
    active: iface.active,
    vpc_id: iface.vpc_id,
    subnet_id: iface.subnet_id,
    ipv4: iface.ipv4 ? { vpc: iface.ipv4.vpc, nat_1_1: iface.ipv4.nat_1_1 } : null,
    ip_ranges: [...iface.ip_ranges],
  };
}

export function renderConfig(compute: StoredCompute, config: StoredConfig): Config {
  const settings = config.settings ?? DEFAULT_CONFIG_SETTINGS;
  return {
    id: config.id,
    label: config.label,
    comments: settings.comments,
    devices: { ...settings.devices },
    helpers: { ...settings.helpers },
    interfaces: config.interfaces.map(renderInterface),
    memory_limit: settings.memory_limit,
    kernel: settings.kernel,
    initrd: settings.init_rd,
    root_device: settings.root_device,
    run_level: settings.run_level,
    virt_mode: settings.virt_mode,
    created: config.created ?? compute.created,
    updated: config.updated ?? config.created ?? compute.created,
  };
}

/** The link-local address beside the SLAAC one: `fe80::` and the SLAAC address's interface id. */
function linkLocal(account: AccountState, mine: ReturnType<typeof accountAddresses>): ComputeIps["ipv4"]["public"][number] | null {
  const slaac = mine.find((p) => p.kind === "slaac");
  if (!slaac) return null;
  const interfaceId = parseIpv6(slaac.address)! & ((1n << 64n) - 1n);
  const address = formatIpv6((0xfe80n << 112n) | interfaceId);
  return { ...renderAddress(account, slaac, { listing: false }), address, gateway: "fe80::1", rdns: null, region: slaac.compute.region };
}

/** `GET …/ips`: the instance's addresses by kind, and its VPC interfaces' records. */
export function renderComputeIps(account: AccountState, user: UserRecord, compute: StoredCompute): ComputeIps {
  const mine = accountAddresses(account).filter((p) => p.compute === compute);
  const one = (kind: "public" | "private" | "slaac") =>
    mine.filter((p) => p.kind === kind).map((p) => renderAddress(account, p, { listing: false }));
  const vpc = vpcIpRecords(account, user).filter((r) => r.compute_id === compute.id);
  return {
    ipv4: { public: one("public"), private: one("private"), shared: [], reserved: [], vpc },
    ipv6: { link_local: linkLocal(account, mine), slaac: one("slaac")[0] ?? null, global: [], vpc: [] },
  };
}
