/**
 * The compute endpoints' contract: wire schemas (snake_case, `null`s kept), the API's reason texts
 * and the endpoint declarations of `/compute/instances*` and `/compute/types*`.
 *
 * The emulator validates with these schemas and serves these endpoints; the provider's `Instance`
 * derives its checks from them. The shapes are the real API's as its official
 * clients read and send them: linodego v1.69.1 (`instances.go`, `instance_configs.go`,
 * `instance_config_interfaces.go`, `instance_ips.go`, `types.go`) and `@linode/api-v4` /
 * `@linode/validation` (`linodes.schema`), with the spec's renaming (`/linode/instances` →
 * `/compute/instances`, `linode_id` → `compute_id`). Every fact is listed with its source in
 * `docs/api-facts-computes.md`.
 */
import { setTimeout as delay } from "node:timers/promises";
import { z } from "zod";
import { Empty, Timestamp, filterable, requiredString } from "../core/schema";
import { endpoints } from "../core/endpoint";
import { resource } from "../core/resource";
import { waitFor } from "../core/waiters";
import { isNotFound } from "../core/errors";
import type { CallOptions, Sleep } from "../core/http";
import type { ErrorEntry } from "../core/schema";
import { interfaceListErrors } from "./rules/computes";

export { MAX_INTERFACES } from "./rules/computes";

/** Reason texts of the compute rules, shared with the tests (docs/api-facts-computes.md, "Reasons"). */
export const COMPUTE_REASONS = {
  labelLength: "Label must contain between 3 and 64 characters.",
  labelChars: "Label must begin and end with a letter or number, and may only contain letters, numbers, dashes, underscores and periods.",
  labelUnique: "Label must be unique among your Computes",
  regionRequired: "Region is required.",
  regionInvalid: "Region is not valid",
  regionNoComputes: "Computes are not available in this region",
  typeRequired: "Plan is required.",
  typeInvalid: "A valid plan type by that ID was not found",
  imageInvalid: "Image is not valid",
  rootPassRequired: "You must provide a root password when deploying from an image.",
  rootPassLength: "Password must be between 7 and 128 characters.",
  imageRequired: "An image is required.",
  busy: "Compute busy.",
  sameType: "Compute is already running this service plan.",
  firewallInvalid: "Invalid Firewall ID",
  configLabelLength: "Label must be between 1 and 48 characters.",
  configLabelRequired: "Label is required.",
  devicesRequired: "A list of devices is required.",
  purpose: "Purpose must be public, vlan, or vpc.",
  vlanLabelRequired: "VLAN label is required.",
  vlanLabelLength: "VLAN label must be between 1 and 64 characters.",
  subnetRequired: "Subnet is required.",
  subnetInvalid: "Subnet is not valid",
  subnetRegion: "Subnet must be in the same region as the Compute",
  subnetFull: "No addresses are available in this subnet",
  vpcAddressInvalid: "Must be a valid IPv4 address within the subnet, e.g. 10.0.0.2",
  vpcAddressTaken: "The address is already in use in this subnet",
  ipRangeInvalid: "Must be a valid IPv4 range within the subnet, e.g. 10.0.0.16/28",
  natInvalid: "nat_1_1 must be any or a public IPv4 address of this Compute",
  tooManyInterfaces: "A configuration profile may have at most 3 interfaces",
  onePublic: "Only one public interface is allowed per configuration profile",
  oneVpc: "Only one vpc interface is allowed per configuration profile",
  vlanPrimary: "VLAN interfaces can't be the primary interface",
  onlyForPurpose: (field: string, purpose: string) =>
    `${field} is not allowed for interfaces that do not have a purpose set to ${purpose}.`,
  interfaceDeleteActive: "Active interfaces cannot be deleted; shut the Compute down first",
  noConfig: "This Compute has no configuration profile to boot",
  noDisks: "This Compute has no disks",
} as const;

/** The statuses of an instance (linodego `InstanceStatus`; the ones the emulator's machine walks). */
export const COMPUTE_STATUSES = [
  "provisioning",
  "booting",
  "running",
  "offline",
  "shutting_down",
  "rebooting",
  "resizing",
  "rebuilding",
  "deleting",
  "migrating",
  "cloning",
  "restoring",
  "stopped",
] as const;
/** One status of an instance. */
export type ComputeStatus = (typeof COMPUTE_STATUSES)[number];

const id = z.number().int();

/** An instance label: 3–64 characters, letters, digits, `-`, `_`, `.`; no doubled separators (linodes.schema). */
export const ComputeLabel = z
  .string()
  .min(3, COMPUTE_REASONS.labelLength)
  .max(64, COMPUTE_REASONS.labelLength)
  .regex(/^(?!.*(--|__|\.\.))[a-zA-Z0-9]([a-zA-Z0-9-_.]*[a-zA-Z0-9])?$/, COMPUTE_REASONS.labelChars);

/** `ipv4` of a VPC interface: its address in the subnet and an optional 1:1 NAT (`any` or an address). */
export const InterfaceIpv4 = z.strictObject({ vpc: z.string().nullish(), nat_1_1: z.string().nullish() });

/** One configuration profile interface as a request names it (create, config create/update, interface add). */
export const ConfigInterfaceRequest = z.strictObject({
  purpose: z.enum(["public", "vlan", "vpc"], { error: COMPUTE_REASONS.purpose }),
  label: z.string().nullish(),
  ipam_address: z.string().nullish(),
  primary: z.boolean().optional(),
  subnet_id: id.nullish(),
  /** Sent by `@linode/api-v4`'s forms beside `subnet_id`; the subnet decides the VPC. */
  vpc_id: id.nullish(),
  ipv4: InterfaceIpv4.nullish(),
  ip_ranges: z.array(z.string()).nullish(),
  /** IPv6 of VPC interfaces (`slaac`, `ranges`, `is_public`): accepted, not emulated (IPv6 VPCs are a beta). */
  ipv6: z.looseObject({}).nullish(),
});
export type ConfigInterfaceRequest = z.infer<typeof ConfigInterfaceRequest>;

/**
 * The rules of a profile's interfaces that need no state (at most three, one `public` and one `vpc`;
 * a `vlan` named and not primary; a `vpc` with its subnet), each `{field, reason}` under `field`
 * (`interfaces[1].subnet_id`). `existing`: the purposes of interfaces the profile keeps beside them.
 */
export function configInterfaceErrors(
  requests: readonly Partial<ConfigInterfaceRequest>[],
  field = "interfaces",
  existing: readonly unknown[] = [],
): ErrorEntry[] {
  return interfaceListErrors(COMPUTE_REASONS, requests, field, existing);
}

/** `PUT …/interfaces/{interfaceId}`: what an interface may change in place. */
export const ConfigInterfaceUpdateRequest = z.strictObject({
  primary: z.boolean().optional(),
  ipv4: InterfaceIpv4.nullish(),
  ip_ranges: z.array(z.string()).nullish(),
  ipv6: z.looseObject({}).nullish(),
});
export type ConfigInterfaceUpdateRequest = z.infer<typeof ConfigInterfaceUpdateRequest>;

/** `POST /compute/instances` (legacy configuration profile interfaces). */
export const ComputeCreateRequest = z.strictObject({
  region: requiredString("region").min(1, COMPUTE_REASONS.regionRequired),
  type: requiredString("type").min(1, COMPUTE_REASONS.typeRequired),
  label: ComputeLabel.optional(),
  image: z.string().nullish(),
  root_pass: z.string().min(7, COMPUTE_REASONS.rootPassLength).max(128, COMPUTE_REASONS.rootPassLength).optional(),
  authorized_keys: z.array(z.string()).nullish(),
  authorized_users: z.array(z.string()).nullish(),
  booted: z.boolean().optional(),
  private_ip: z.boolean().optional(),
  backups_enabled: z.boolean().optional(),
  tags: z.array(z.string()).optional(),
  group: z.string().optional(),
  firewall_id: id.nullish(),
  interfaces: z.array(ConfigInterfaceRequest).optional(),
  interface_generation: z.enum(["legacy_config", "linode"]).optional(),
  swap_size: id.optional(),
  network_helper: z.boolean().optional(),
  stackscript_id: id.nullish(),
  stackscript_data: z.record(z.string(), z.string()).nullish(),
  backup_id: id.nullish(),
  metadata: z.looseObject({}).nullish(),
  disk_encryption: z.enum(["enabled", "disabled"]).optional(),
  placement_group: z.looseObject({}).nullish(),
  maintenance_policy: z.string().nullish(),
  ipv4: z.array(z.string()).optional(),
});
export type ComputeCreateRequest = z.infer<typeof ComputeCreateRequest>;

const Alerts = z.looseObject({
  cpu: id.optional(),
  io: id.optional(),
  network_in: id.optional(),
  network_out: id.optional(),
  transfer_quota: id.optional(),
});
const Backups = z.looseObject({
  available: z.boolean().optional(),
  enabled: z.boolean().optional(),
  last_successful: z.string().nullish(),
  schedule: z.looseObject({ day: z.string().nullish(), window: z.string().nullish() }).optional(),
});

/**
 * `PUT /compute/instances/{computeId}`. linodego's `GetUpdateOptions` sends back what it read
 * (`backups` with read-only `available`, `alerts`, `group`, `maintenance_policy`): the API accepts it.
 */
export const ComputeUpdateRequest = z.strictObject({
  label: ComputeLabel.optional(),
  tags: z.array(z.string()).nullish(),
  group: z.string().nullish(),
  watchdog_enabled: z.boolean().optional(),
  alerts: Alerts.nullish(),
  backups: Backups.nullish(),
  maintenance_policy: z.string().nullish(),
});
export type ComputeUpdateRequest = z.infer<typeof ComputeUpdateRequest>;

/** `POST …/boot` and `…/reboot`: the profile to boot (default: the instance's last booted, else its first). */
export const ComputeBootRequest = z.strictObject({ config_id: id.nullish() });
export type ComputeBootRequest = z.infer<typeof ComputeBootRequest>;

/** `POST …/resize`. */
export const ComputeResizeRequest = z.strictObject({
  type: requiredString("type").min(1, COMPUTE_REASONS.typeRequired),
  migration_type: z.enum(["warm", "cold"]).optional(),
  allow_auto_disk_resize: z.boolean().optional(),
});
export type ComputeResizeRequest = z.infer<typeof ComputeResizeRequest>;

/** `POST …/rebuild`. */
export const ComputeRebuildRequest = z.strictObject({
  image: requiredString("image").min(1, COMPUTE_REASONS.imageRequired),
  root_pass: z.string().min(7, COMPUTE_REASONS.rootPassLength).max(128, COMPUTE_REASONS.rootPassLength),
  authorized_keys: z.array(z.string()).nullish(),
  authorized_users: z.array(z.string()).nullish(),
  booted: z.boolean().optional(),
  stackscript_id: id.nullish(),
  stackscript_data: z.record(z.string(), z.string()).nullish(),
  metadata: z.looseObject({}).nullish(),
  type: z.string().optional(),
  disk_encryption: z.enum(["enabled", "disabled"]).optional(),
});
export type ComputeRebuildRequest = z.infer<typeof ComputeRebuildRequest>;

const Device = z.looseObject({ disk_id: id.nullish(), volume_id: id.nullish() }).nullable();
/** `devices`: `sda`…`sdh` (linodego knows more), each a disk or a volume or null. */
export const ConfigDevices = z.record(z.string().regex(/^sd[a-z]{1,2}$/), Device);
/** `helpers`: the boot helpers of a configuration profile (distro, network, modules…). */
export const ConfigHelpers = z.looseObject({
  updatedb_disabled: z.boolean().optional(),
  distro: z.boolean().optional(),
  modules_dep: z.boolean().optional(),
  network: z.boolean().optional(),
  devtmpfs_automount: z.boolean().optional(),
});

const configFields = {
  comments: z.string().nullish(),
  helpers: ConfigHelpers.nullish(),
  memory_limit: id.nullish(),
  kernel: z.string().optional(),
  /** An initrd disk's id; `@linode/api-v4` declares it `null | number | string` (a numeric string names the disk). */
  initrd: z.union([id, z.string().regex(/^\d*$/)]).nullish(),
  /** linodego's spelling of `initrd` (its config update always sends `init_rd: null`). */
  init_rd: id.nullish(),
  root_device: z.string().nullish(),
  run_level: z.enum(["default", "single", "binbash"]).optional(),
  virt_mode: z.enum(["paravirt", "fullvirt"]).optional(),
};

/** `POST /compute/instances/{computeId}/configs`. */
export const ConfigCreateRequest = z.strictObject({
  label: requiredString("label").min(1, COMPUTE_REASONS.configLabelLength).max(48, COMPUTE_REASONS.configLabelLength),
  devices: ConfigDevices,
  interfaces: z.array(ConfigInterfaceRequest).nullish(),
  ...configFields,
});
export type ConfigCreateRequest = z.infer<typeof ConfigCreateRequest>;

/** `PUT …/configs/{configId}`: `interfaces` given replaces the list whole; `null` or absent keeps it. */
export const ConfigUpdateRequest = z.strictObject({
  label: z.string().min(1, COMPUTE_REASONS.configLabelLength).max(48, COMPUTE_REASONS.configLabelLength).optional(),
  devices: ConfigDevices.nullish(),
  interfaces: z.array(ConfigInterfaceRequest).nullish(),
  ...configFields,
});
export type ConfigUpdateRequest = z.infer<typeof ConfigUpdateRequest>;

/** `POST …/interfaces/order`. */
export const InterfaceOrderRequest = z.strictObject({ ids: z.array(id) });

/** The instance's specs, from its type. */
export const ComputeSpecs = z.looseObject({
  disk: id,
  memory: id,
  vcpus: id,
  transfer: id,
  gpus: id,
  accelerated_devices: id,
});

/** An instance as the API returns it; `filterable`: what `X-Filter` may name in a listing. */
export const Compute = z.looseObject({
  id: filterable(id),
  label: filterable(z.string()),
  group: filterable(z.string()),
  status: z.enum(COMPUTE_STATUSES),
  created: Timestamp,
  updated: Timestamp,
  type: filterable(z.string().nullable()),
  ipv4: z.array(z.string()),
  ipv6: z.string().nullable(),
  image: filterable(z.string().nullable()),
  region: filterable(z.string()),
  specs: ComputeSpecs,
  alerts: Alerts,
  backups: Backups,
  hypervisor: z.string(),
  watchdog_enabled: z.boolean(),
  tags: filterable(z.array(z.string())),
  host_uuid: z.string(),
  has_user_data: z.boolean(),
  placement_group: z.unknown().nullable(),
  disk_encryption: z.string(),
  lke_cluster_id: id.nullable(),
  capabilities: z.array(z.string()),
  interface_generation: z.string(),
  maintenance_policy: z.string(),
  site_type: z.string(),
  locks: z.array(z.string()),
});
export type Compute = z.infer<typeof Compute>;

/** A configuration profile interface as returned. */
export const ConfigInterface = z.looseObject({
  id,
  purpose: z.enum(["public", "vlan", "vpc"]),
  label: z.string().nullable(),
  ipam_address: z.string().nullable(),
  primary: z.boolean(),
  active: z.boolean(),
  vpc_id: id.nullable(),
  subnet_id: id.nullable(),
  ipv4: z.looseObject({ vpc: z.string().nullable().optional(), nat_1_1: z.string().nullable().optional() }).nullable(),
  ip_ranges: z.array(z.string()),
});
export type ConfigInterface = z.infer<typeof ConfigInterface>;

/** A configuration profile as returned. */
export const Config = z.looseObject({
  id: filterable(id),
  label: filterable(z.string()),
  comments: z.string(),
  devices: z.record(z.string(), Device),
  helpers: ConfigHelpers,
  interfaces: z.array(ConfigInterface),
  memory_limit: id,
  kernel: filterable(z.string()),
  /** `initrd` in the API's description and `@linode/api-v4`; linodego reads (and sends) `init_rd`. */
  initrd: id.nullable(),
  root_device: z.string(),
  run_level: z.string(),
  virt_mode: z.string(),
  created: Timestamp,
  updated: Timestamp,
});
export type Config = z.infer<typeof Config>;

/** One address of `GET …/ips` (the `IpAddress` record of `/networking/ips`). */
const InstanceIp = z.looseObject({
  address: z.string(),
  gateway: z.string().nullable(),
  subnet_mask: z.string(),
  prefix: id,
  type: z.string(),
  public: z.boolean(),
  rdns: z.string().nullable(),
  compute_id: id.nullable(),
  region: z.string(),
});
const InstanceVpcIp = z.looseObject({
  address: z.string().nullable(),
  address_range: z.string().nullable(),
  vpc_id: id,
  subnet_id: id,
  config_id: id,
  interface_id: id,
  compute_id: id,
  active: z.boolean(),
  nat_1_1: z.string().nullable(),
  gateway: z.string().nullable(),
  prefix: id,
  subnet_mask: z.string(),
  region: z.string(),
});

/** `GET /compute/instances/{computeId}/ips`. */
export const ComputeIps = z.looseObject({
  ipv4: z.looseObject({
    public: z.array(InstanceIp),
    private: z.array(InstanceIp),
    shared: z.array(InstanceIp),
    reserved: z.array(InstanceIp),
    vpc: z.array(InstanceVpcIp),
  }),
  ipv6: z
    .looseObject({
      link_local: InstanceIp.nullable(),
      slaac: InstanceIp.nullable(),
      global: z.array(z.unknown()),
      vpc: z.array(z.unknown()),
    })
    .nullable(),
});
export type ComputeIps = z.infer<typeof ComputeIps>;

const Price = z.looseObject({ hourly: z.number(), monthly: z.number() });
/** A compute type of the catalogue (`GET /compute/types`). */
export const ComputeType = z.looseObject({
  id: filterable(z.string()),
  label: filterable(z.string()),
  class: filterable(z.string()),
  disk: id,
  memory: id,
  vcpus: id,
  gpus: id,
  accelerated_devices: id,
  network_out: id,
  transfer: id,
  price: Price,
  region_prices: z.array(z.unknown()),
  addons: z.looseObject({ backups: z.looseObject({ price: Price, region_prices: z.array(z.unknown()) }) }),
  successor: z.string().nullable(),
});
export type ComputeType = z.infer<typeof ComputeType>;

const READ = ["computes:read_only"] as const;
const WRITE = ["computes:read_write"] as const;
const base = { service: "computes", auth: "token" } as const;
const instance = "/compute/instances/{computeId}";
const config = `${instance}/configs/{configId}`;
const iface = `${config}/interfaces/{interfaceId}`;

/** The compute endpoints: `client.computes.instances.*` (reads `computes:read_only`, writes `computes:read_write`) and `client.computes.types`. */
export const COMPUTE_ENDPOINTS = endpoints("computes", {
  /** `/compute/instances`: instances, their actions, addresses and configuration profiles. */
  instances: {
    list: { ...base, scopes: READ, method: "GET", path: "/compute/instances", summary: "Instances", response: Compute, paginated: true },
    create: {
      ...base,
      scopes: WRITE,
      method: "POST",
      path: "/compute/instances",
      summary: "Creates an instance",
      body: ComputeCreateRequest,
      response: Compute,
    },
    get: { ...base, scopes: READ, method: "GET", path: instance, summary: "One instance", response: Compute },
    update: {
      ...base,
      scopes: WRITE,
      method: "PUT",
      path: instance,
      summary: "Updates an instance",
      body: ComputeUpdateRequest,
      response: Compute,
    },
    delete: { ...base, scopes: WRITE, method: "DELETE", path: instance, summary: "Deletes an instance", response: Empty },
    boot: {
      ...base,
      scopes: WRITE,
      method: "POST",
      path: `${instance}/boot`,
      summary: "Boots an instance",
      body: ComputeBootRequest,
      response: Empty,
    },
    shutdown: { ...base, scopes: WRITE, method: "POST", path: `${instance}/shutdown`, summary: "Shuts an instance down", response: Empty },
    reboot: {
      ...base,
      scopes: WRITE,
      method: "POST",
      path: `${instance}/reboot`,
      summary: "Reboots an instance",
      body: ComputeBootRequest,
      response: Empty,
    },
    resize: {
      ...base,
      scopes: WRITE,
      method: "POST",
      path: `${instance}/resize`,
      summary: "Resizes an instance to another type",
      body: ComputeResizeRequest,
      response: Empty,
    },
    rebuild: {
      ...base,
      scopes: WRITE,
      method: "POST",
      path: `${instance}/rebuild`,
      summary: "Rebuilds an instance from an image",
      body: ComputeRebuildRequest,
      response: Compute,
    },
    ips: { ...base, scopes: READ, method: "GET", path: `${instance}/ips`, summary: "The instance's addresses", response: ComputeIps },
    /** `/compute/instances/{computeId}/configs`: configuration profiles (what a boot brings up). */
    configs: {
      list: {
        ...base,
        scopes: READ,
        method: "GET",
        path: `${instance}/configs`,
        summary: "Configuration profiles",
        response: Config,
        paginated: true,
      },
      create: {
        ...base,
        scopes: WRITE,
        method: "POST",
        path: `${instance}/configs`,
        summary: "Creates a configuration profile",
        body: ConfigCreateRequest,
        response: Config,
      },
      get: { ...base, scopes: READ, method: "GET", path: config, summary: "One configuration profile", response: Config },
      update: {
        ...base,
        scopes: WRITE,
        method: "PUT",
        path: config,
        summary: "Updates a configuration profile",
        body: ConfigUpdateRequest,
        response: Config,
      },
      delete: { ...base, scopes: WRITE, method: "DELETE", path: config, summary: "Deletes a configuration profile", response: Empty },
      /** `…/configs/{configId}/interfaces`: a profile's network interfaces (`public`, `vlan`, `vpc`). */
      interfaces: {
        list: {
          ...base,
          scopes: READ,
          method: "GET",
          path: `${config}/interfaces`,
          summary: "A profile's interfaces",
          response: z.array(ConfigInterface),
        },
        create: {
          ...base,
          scopes: WRITE,
          method: "POST",
          path: `${config}/interfaces`,
          summary: "Adds an interface",
          body: ConfigInterfaceRequest,
          response: ConfigInterface,
        },
        order: {
          ...base,
          scopes: WRITE,
          method: "POST",
          path: `${config}/interfaces/order`,
          summary: "Reorders a profile's interfaces",
          body: InterfaceOrderRequest,
          response: Empty,
        },
        get: { ...base, scopes: READ, method: "GET", path: iface, summary: "One interface", response: ConfigInterface },
        update: {
          ...base,
          scopes: WRITE,
          method: "PUT",
          path: iface,
          summary: "Updates an interface",
          body: ConfigInterfaceUpdateRequest,
          response: ConfigInterface,
        },
        delete: { ...base, scopes: WRITE, method: "DELETE", path: iface, summary: "Deletes an interface", response: Empty },
      },
    },
  },
  /** `/compute/types`: the catalogue of plans (no token needed). */
  types: {
    list: {
      service: "computes",
      auth: "none",
      scopes: [],
      method: "GET",
      path: "/compute/types",
      summary: "Compute types",
      response: ComputeType,
      paginated: true,
    },
    get: {
      service: "computes",
      auth: "none",
      scopes: [],
      method: "GET",
      path: "/compute/types/{typeId}",
      summary: "One compute type",
      response: ComputeType,
    },
  },
});

// ---------------------------------------------------------------------------------------------
// Waiters

/** The statuses an instance rests in; every other one is on its way to one of these. */
export const COMPUTE_RESTING_STATUSES: readonly ComputeStatus[] = ["running", "offline", "stopped"];

/** Options of `waitForStatus`. */
export interface ComputeWaitOptions extends CallOptions {
  /** Default 10 minutes. */
  timeoutMs?: number;
  /** Longest delay between polls; default 3 000 ms. */
  intervalMs?: number;
  /** First delay between polls (default: `intervalMs`); each next one is 1.5× longer, up to `intervalMs`. */
  firstIntervalMs?: number;
  /** Every polled state (`undefined` once the instance is gone) and the time elapsed. */
  progress?: (compute: Compute | undefined, elapsedMs: number) => void;
  sleep?: Sleep;
  now?: () => number;
}

/**
 * The predicates of "wait until the instance reads one of `until`": done there; failed when it is
 * gone, or when it comes to rest (running, offline) elsewhere — a boot that fell back to offline,
 * a shutdown that came back up — since nothing moves it further without another request.
 */
export function computeStatusWaiter(
  computeId: number,
  until: readonly ComputeStatus[],
): { done: (c: Compute | undefined) => boolean; failed: (c: Compute | undefined) => string | undefined } {
  let moved = false;
  return {
    done: (c) => c !== undefined && until.includes(c.status),
    failed: (c) => {
      if (c === undefined) return `instance ${computeId} no longer exists`;
      if (!COMPUTE_RESTING_STATUSES.includes(c.status)) moved = true;
      else if (moved && !until.includes(c.status)) return `instance ${computeId} (${c.label}) came to rest ${c.status}`;
      return undefined;
    },
  };
}

/** `/compute/instances`, with a status waiter. Create is a POST without an idempotency key: never retried after an ambiguous failure. */
export class Instances extends resource(COMPUTE_ENDPOINTS.instances) {
  /**
   * Polls the instance until its status is one of `until` (default `running`) and resolves that
   * record; fails fast with `WaitError` when it is deleted or comes to rest in another status.
   */
  waitForStatus(
    computeId: number,
    until: ComputeStatus | readonly ComputeStatus[] = "running",
    options: ComputeWaitOptions = {},
  ): Promise<Compute> {
    const targets = typeof until === "string" ? [until] : until;
    const maxInterval = options.intervalMs ?? 3_000;
    const baseSleep = options.sleep ?? ((ms: number, signal?: AbortSignal) => delay(ms, undefined, { signal }));
    let next = Math.min(options.firstIntervalMs ?? maxInterval, maxInterval);
    const sleep: Sleep = (ms, signal) => {
      const pause = Math.min(ms, next);
      next = Math.min(maxInterval, Math.round(next * 1.5));
      return baseSleep(pause, signal);
    };
    return waitFor<Compute | undefined>({
      poll: (signal) =>
        this.get(computeId, { signal }).catch((error: unknown) => {
          if (isNotFound(error)) return undefined;
          throw error;
        }),
      ...computeStatusWaiter(computeId, targets),
      progress: options.progress,
      intervalMs: maxInterval,
      timeoutMs: options.timeoutMs ?? 600_000,
      what: `instance ${computeId} to become ${targets.join(" or ")}`,
      sleep,
      now: options.now,
      signal: options.signal,
    }) as Promise<Compute>;
  }
}

/** `/compute`: instances (`computes.instances`, with `configs`, `configs.interfaces` and `ips`) and the plan catalogue (`computes.types`). */
export class Computes extends resource(COMPUTE_ENDPOINTS, { sub: { instances: Instances } }) {}
