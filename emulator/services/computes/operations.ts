/**
 * What the compute endpoints (and the control API's seeding) do to instances, with their events
 * (`compute_*`, the API's `linode_*` renamed as the spec renames the rest). Long actions are written
 * as pending steps (`compute.steps`) that `machine.ts` applies on the clock; the action's event is
 * `started` until the last step, then `finished`. Facts: docs/api-facts-computes.md.
 */
import type { Actor } from "../../core/runtime";
import type { AccountState } from "../../core/state";
import { closeEvents, eventEntity, recordEvent } from "../events/operations";
import { FIREWALLS } from "../firewalls/store";
import { addDevice } from "../firewalls/operations";
import { nextPrivateIpv4, nextPublicIpv4 } from "../ips/address-plan";
import { seedAddresses } from "../ips/seed";
import { DEFAULT_SWAP_MB, STEP_MS, findComputeType } from "./catalog";
import type {
  ComputeCreateRequest,
  ComputeRebuildRequest,
  ComputeUpdateRequest,
  ConfigCreateRequest,
  ConfigInterfaceRequest,
  ConfigInterfaceUpdateRequest,
  ConfigUpdateRequest,
} from "../../../sdk/resources/computes";
import { buildInterfaces } from "./interfaces";
import { DEFAULT_CONFIG_SETTINGS } from "./render";
import { defaultPublicIpv4 } from "./seed";
import {
  COMPUTES,
  COMPUTE_ID,
  CONFIG_ID,
  DISK_ID,
  type ComputeStep,
  type StoredCompute,
  type StoredConfig,
  type StoredConfigSettings,
  type StoredDisk,
  type StoredInterface,
  computeUrl,
  everyCompute,
  findCompute,
} from "./store";

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

const computeEntity = (compute: StoredCompute) => eventEntity("compute", compute.id, compute.label, computeUrl(compute.id));

function touch(actor: Actor, compute: StoredCompute): void {
  compute.updated = actor.runtime.clock.timestamp();
}

/** Records a notification event about the instance (`compute_update`, `compute_config_*`). */
function notify(actor: Actor, compute: StoredCompute, action: string): void {
  recordEvent(actor, { action, entity: computeEntity(compute) });
}

/**
 * Starts a long action: the status it shows now, the steps that follow (durations in emulated ms
 * from now, in order), and its `started` event, finished by the machine after the last step.
 */
export function startJob(
  actor: Actor,
  compute: StoredCompute,
  action: string,
  now: ComputeStep["to"],
  steps: Array<[ComputeStep["to"], number]>,
): void {
  if (compute.event_id != null) closeEvents(actor.account, [compute.event_id], "finished", actor.runtime.clock.nowMs());
  if (now !== "gone") compute.status = now;
  let at = actor.runtime.clock.nowMs();
  compute.steps = steps.map(([to, ms]) => ({ to, at: (at += ms) }));
  compute.event_id = recordEvent(actor, { action, entity: computeEntity(compute), status: "started" }).id;
  touch(actor, compute);
}

/** The disks an image deploys: a root disk of the type's size less the swap, and the swap disk. */
function deployDisks(actor: Actor, compute: StoredCompute, image: string, typeId: string, swap: number): StoredDisk[] {
  const type = findComputeType(typeId)!;
  const created = actor.runtime.clock.timestamp();
  const distro = image.split("/").pop() ?? image;
  return [
    { id: actor.runtime.nextId(DISK_ID), label: `${distro} Disk`, size: type.disk - swap, filesystem: "ext4", created },
    { id: actor.runtime.nextId(DISK_ID), label: `${swap} MB Swap Image`, size: swap, filesystem: "swap", created },
  ];
}

function newConfig(actor: Actor, label: string, settings: StoredConfigSettings, interfaces: StoredInterface[]): StoredConfig {
  const now = actor.runtime.clock.timestamp();
  return { id: actor.runtime.nextId(CONFIG_ID), label, interfaces, settings, created: now, updated: now };
}

/** Creates an instance (rules checked by the caller): addresses, disks and a profile when an image is deployed. */
export function createCompute(actor: Actor, input: ComputeCreateRequest): StoredCompute {
  const { runtime, account } = actor;
  const now = runtime.clock.timestamp();
  const id = runtime.nextId(COMPUTE_ID);
  const others = everyCompute(runtime);
  const publicTaken = new Set(others.flatMap((c) => c.ipv4));
  const first = defaultPublicIpv4(id);
  const address = publicTaken.has(first) ? nextPublicIpv4(publicTaken)! : first;
  const privateTaken = new Set(others.filter((c) => c.region === input.region).flatMap((c) => c.ipv4_private ?? []));
  const compute: StoredCompute = {
    id,
    label: input.label ?? `compute${id}`,
    region: input.region,
    ipv4: [address],
    configs: [],
    created: now,
    updated: now,
    status: "provisioning",
    type: input.type,
    image: input.image ?? null,
    tags: [...new Set(input.tags ?? [])].sort(),
    group: input.group ?? "",
    watchdog_enabled: true,
    backups_enabled: input.backups_enabled ?? false,
    booted_config_id: null,
    disks: [],
  };
  seedAddresses(runtime, compute, { ipv4: [address], ipv4_private: input.private_ip ? [nextPrivateIpv4(privateTaken)!] : [] });
  const interfaces = buildInterfaces(runtime, account, compute, input.interfaces ?? [], "interfaces");
  if (input.image) {
    compute.disks = deployDisks(actor, compute, input.image, input.type, input.swap_size ?? DEFAULT_SWAP_MB);
    const devices = { sda: { disk_id: compute.disks[0]!.id, volume_id: null }, sdb: { disk_id: compute.disks[1]!.id, volume_id: null } };
    const label = `My ${input.image.split("/").pop()} Disk Profile`;
    compute.configs.push(newConfig(actor, label, { ...DEFAULT_CONFIG_SETTINGS, devices }, interfaces));
  } else if (interfaces.length > 0) {
    compute.configs.push(newConfig(actor, "My Config", { ...DEFAULT_CONFIG_SETTINGS }, interfaces));
  }
  COMPUTES.of(account).push(compute);
  if (input.firewall_id != null) {
    const firewall = FIREWALLS.of(account).find((f) => f.id === input.firewall_id)!;
    addDevice(actor, firewall, { type: "compute", id });
  }
  const booted = input.booted ?? true;
  startJob(actor, compute, "compute_create", "provisioning", thenUp(STEP_MS.provisioning, Boolean(input.image) && booted));
  if (input.image && booted) compute.booted_config_id = compute.configs[0]?.id ?? null;
  return compute;
}

export function updateCompute(actor: Actor, compute: StoredCompute, input: ComputeUpdateRequest): StoredCompute {
  if (input.label !== undefined) compute.label = input.label;
  if (input.tags != null) compute.tags = [...new Set(input.tags)].sort();
  if (input.group != null) compute.group = input.group;
  if (input.watchdog_enabled !== undefined) compute.watchdog_enabled = input.watchdog_enabled;
  if (input.backups?.enabled !== undefined) compute.backups_enabled = input.backups.enabled;
  touch(actor, compute);
  notify(actor, compute, "compute_update");
  return compute;
}

/** Deleting: the instance shows `deleting`, then is gone (its interfaces and firewall devices with it). */
export function deleteCompute(actor: Actor, compute: StoredCompute): void {
  startJob(actor, compute, "compute_delete", "deleting", [["gone", STEP_MS.deleting]]);
}

/** What removing an instance takes with it: its firewall devices (interfaces go with its profiles). */
export function removeCompute(account: AccountState, compute: StoredCompute): void {
  COMPUTES.of(account).splice(COMPUTES.of(account).indexOf(compute), 1);
  for (const firewall of FIREWALLS.of(account)) {
    firewall.devices = firewall.devices.filter((d) => !(d.entity_type === "compute" && d.entity_id === compute.id));
  }
}

/** The profile a boot uses: the one named, else the last booted, else the first. */
export function bootConfig(compute: StoredCompute, configId: number | null | undefined): StoredConfig | undefined {
  if (configId != null) return compute.configs.find((c) => c.id === configId);
  return compute.configs.find((c) => c.id === compute.booted_config_id) ?? compute.configs[0];
}

export function bootCompute(actor: Actor, compute: StoredCompute, config: StoredConfig): void {
  compute.booted_config_id = config.id;
  startJob(actor, compute, "compute_boot", "booting", [["running", STEP_MS.booting]]);
}

export function shutdownCompute(actor: Actor, compute: StoredCompute): void {
  startJob(actor, compute, "compute_shutdown", "shutting_down", [["offline", STEP_MS.shutting_down]]);
}

export function rebootCompute(actor: Actor, compute: StoredCompute, config: StoredConfig): void {
  compute.booted_config_id = config.id;
  startJob(actor, compute, "compute_reboot", "rebooting", [["running", STEP_MS.rebooting]]);
}

/** What follows a long step of `busyMs`: booting and running when the instance comes back up, else offline. */
function thenUp(busyMs: number, up: boolean): Array<[ComputeStep["to"], number]> {
  return up
    ? [
        ["booting", busyMs],
        ["running", STEP_MS.booting],
      ]
    : [["offline", busyMs]];
}

/** Resizing: the instance is shut down, resized, and booted again if it was running. */
export function resizeCompute(actor: Actor, compute: StoredCompute, type: string): void {
  const wasRunning = compute.status === "running";
  compute.type = type;
  startJob(actor, compute, "compute_resize", "resizing", thenUp(STEP_MS.resizing, wasRunning));
}

/** Rebuilding: disks and profiles are replaced by the image's (interfaces of the first profile kept), then booted unless `booted: false`. */
export function rebuildCompute(actor: Actor, compute: StoredCompute, input: ComputeRebuildRequest): StoredCompute {
  if (input.type) compute.type = input.type;
  const interfaces = compute.configs[0]?.interfaces ?? [];
  compute.image = input.image;
  compute.disks = deployDisks(actor, compute, input.image, compute.type!, DEFAULT_SWAP_MB);
  const devices = { sda: { disk_id: compute.disks[0]!.id, volume_id: null }, sdb: { disk_id: compute.disks[1]!.id, volume_id: null } };
  compute.configs = [
    newConfig(actor, `My ${input.image.split("/").pop()} Disk Profile`, { ...DEFAULT_CONFIG_SETTINGS, devices }, interfaces),
  ];
  const booted = input.booted ?? true;
  compute.booted_config_id = booted ? compute.configs[0]!.id : null;
  startJob(actor, compute, "compute_rebuild", "rebuilding", thenUp(STEP_MS.rebuilding, booted));
  return compute;
}

/** The initrd a request names (`initrd`, or linodego's `init_rd`): a disk id, `null` for none, `undefined` if not named. */
function initrdOf(input: Partial<ConfigCreateRequest>): number | null | undefined {
  const value = input.initrd !== undefined ? input.initrd : input.init_rd;
  if (value === undefined) return undefined;
  if (value === null || value === "") return null;
  return Number(value);
}

function settingsFrom(base: StoredConfigSettings, input: Partial<ConfigCreateRequest>): StoredConfigSettings {
  const initrd = initrdOf(input);
  return {
    comments: input.comments ?? base.comments,
    devices: input.devices ? { ...input.devices } : base.devices,
    helpers: input.helpers ? { ...base.helpers, ...input.helpers } : base.helpers,
    memory_limit: input.memory_limit ?? base.memory_limit,
    kernel: input.kernel ?? base.kernel,
    init_rd: initrd === undefined ? base.init_rd : initrd,
    root_device: input.root_device ?? base.root_device,
    run_level: input.run_level ?? base.run_level,
    virt_mode: input.virt_mode ?? base.virt_mode,
  };
}

export function createConfig(actor: Actor, compute: StoredCompute, input: ConfigCreateRequest): StoredConfig {
  const interfaces = buildInterfaces(actor.runtime, actor.account, compute, input.interfaces ?? [], "interfaces");
  const config = newConfig(actor, input.label, settingsFrom(DEFAULT_CONFIG_SETTINGS, input), interfaces);
  compute.configs.push(config);
  notify(actor, compute, "compute_config_create");
  return config;
}

/** Updates a profile; `interfaces` replaces the list (they become active at the next boot of this profile). */
export function updateConfig(actor: Actor, compute: StoredCompute, config: StoredConfig, input: ConfigUpdateRequest): StoredConfig {
  if (input.interfaces != null) {
    const built = buildInterfaces(actor.runtime, actor.account, compute, input.interfaces, "interfaces", config.interfaces);
    config.interfaces = built;
  }
  if (input.label !== undefined) config.label = input.label;
  config.settings = settingsFrom(config.settings ?? DEFAULT_CONFIG_SETTINGS, { ...input, devices: input.devices ?? undefined });
  config.updated = actor.runtime.clock.timestamp();
  notify(actor, compute, "compute_config_update");
  return config;
}

export function deleteConfig(actor: Actor, compute: StoredCompute, config: StoredConfig): void {
  compute.configs = compute.configs.filter((c) => c !== config);
  if (compute.booted_config_id === config.id) compute.booted_config_id = null;
  notify(actor, compute, "compute_config_delete");
}

export function addInterface(actor: Actor, compute: StoredCompute, config: StoredConfig, input: ConfigInterfaceRequest): StoredInterface {
  const [iface] = buildInterfaces(actor.runtime, actor.account, compute, [input], "interfaces", [], config.interfaces);
  // Interfaces added to the running profile need a reboot to come up.
  iface!.active = false;
  config.interfaces.push(iface!);
  config.updated = actor.runtime.clock.timestamp();
  return iface!;
}

export function updateInterface(
  actor: Actor,
  compute: StoredCompute,
  config: StoredConfig,
  iface: StoredInterface,
  input: ConfigInterfaceUpdateRequest,
): StoredInterface {
  if (input.primary !== undefined) iface.primary = input.primary;
  if (iface.purpose === "vpc" && (input.ipv4 != null || input.ip_ranges != null)) {
    const [rebuilt] = buildInterfaces(
      actor.runtime,
      actor.account,
      compute,
      [{ purpose: "vpc", subnet_id: iface.subnet_id, ipv4: input.ipv4 ?? iface.ipv4, ip_ranges: input.ip_ranges ?? iface.ip_ranges }],
      "interfaces",
      [iface],
      config.interfaces.filter((i) => i !== iface),
    );
    iface.ipv4 = rebuilt!.ipv4;
    iface.ip_ranges = rebuilt!.ip_ranges;
  }
  config.updated = actor.runtime.clock.timestamp();
  return iface;
}

export function removeInterface(actor: Actor, config: StoredConfig, iface: StoredInterface): void {
  config.interfaces = config.interfaces.filter((i) => i !== iface);
  config.updated = actor.runtime.clock.timestamp();
}

export function orderInterfaces(config: StoredConfig, ids: readonly number[]): void {
  config.interfaces = ids.map((id) => config.interfaces.find((i) => i.id === id)!);
}
