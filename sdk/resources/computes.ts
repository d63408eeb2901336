/**
 * The compute endpoints' contract: response schemas (snake_case, `null`s kept), the endpoint
 * declarations of `/compute/instances*` and `/compute/types*`, and the instance's status waiter;
 * the reason texts and request schemas are in `sdk/rules/computes.ts`, re-exported here.
 *
 * The emulator validates with these schemas and serves these endpoints; the provider's `Instance`
 * derives its checks from them. The shapes are the real API's as its official
 * clients read and send them: linodego v1.69.1 (`instances.go`, `instance_configs.go`,
 * `instance_config_interfaces.go`, `instance_ips.go`, `types.go`) and `@linode/api-v4` /
 * `@linode/validation` (`linodes.schema`), with the spec's renaming (`/linode/instances` →
 * `/compute/instances`, `linode_id` → `compute_id`). Every fact is listed with its source in
 * `docs/api-facts-computes.md`.
 */
import { z } from "zod";
import { STAMPS, filterable } from "../core/schema";
import { VpcIp } from "./vpcs";
import { IpAddress } from "./ips";
import { endpoints, readWrite, verbs } from "../core/endpoint";
import { resource } from "../core/resource";
import { waitForRecord, type RecordWaitOptions } from "../core/waiters";
import { COMPUTE_STATUSES, ComputeAlerts, ComputeBackups, ConfigDevice, ConfigHelpers, type ComputeStatus } from "../rules/computes";
import {
  ComputeBootRequest,
  ComputeCreateRequest,
  ComputeRebuildRequest,
  ComputeResizeRequest,
  ComputeUpdateRequest,
  ConfigCreateRequest,
  ConfigInterfaceRequest,
  ConfigInterfaceUpdateRequest,
  ConfigUpdateRequest,
  InterfaceOrderRequest,
} from "../rules/computes";

export * from "../rules/computes";

const id = z.number().int();

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
  ...STAMPS,
  type: filterable(z.string().nullable()),
  ipv4: z.array(z.string()),
  ipv6: z.string().nullable(),
  image: filterable(z.string().nullable()),
  region: filterable(z.string()),
  specs: ComputeSpecs,
  alerts: ComputeAlerts,
  backups: ComputeBackups,
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
  devices: z.record(z.string(), ConfigDevice),
  helpers: ConfigHelpers,
  interfaces: z.array(ConfigInterface),
  memory_limit: id,
  kernel: filterable(z.string()),
  /** `initrd` in the API's description and `@linode/api-v4`; linodego reads (and sends) `init_rd`. */
  initrd: id.nullable(),
  root_device: z.string(),
  run_level: z.string(),
  virt_mode: z.string(),
  ...STAMPS,
});
export type Config = z.infer<typeof Config>;

/** One address of `GET …/ips`: the `IpAddress` record of `/networking/ips`, whose `vpc_nat_1_1` it does not look at. */
const InstanceIp = IpAddress.omit({ vpc_nat_1_1: true });

/** `GET /compute/instances/{computeId}/ips`. */
export const ComputeIps = z.looseObject({
  ipv4: z.looseObject({
    public: z.array(InstanceIp),
    private: z.array(InstanceIp),
    shared: z.array(InstanceIp),
    reserved: z.array(InstanceIp),
    /** The same records as `GET /vpcs/{vpcId}/ips`, for this instance. */
    vpc: z.array(VpcIp),
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
  /** What an instance of this type has: its `specs`. */
  ...ComputeSpecs.shape,
  network_out: id,
  price: Price,
  region_prices: z.array(z.unknown()),
  addons: z.looseObject({ backups: z.looseObject({ price: Price, region_prices: z.array(z.unknown()) }) }),
  successor: z.string().nullable(),
});
export type ComputeType = z.infer<typeof ComputeType>;

const [READ, WRITE] = readWrite("computes", "computes");
const CATALOGUE = verbs({ service: "computes", auth: "none", scopes: [] });

const one = "/compute/instances/{computeId}";
const configs = `${one}/configs`;
const config = `${configs}/{configId}`;
const ifaces = `${config}/interfaces`;
const iface = `${ifaces}/{interfaceId}`;

/** The compute endpoints: `client.computes.instances.*` (reads `computes:read_only`, writes `computes:read_write`) and `client.computes.types`. */
export const COMPUTE_ENDPOINTS = endpoints("computes", {
  /** `/compute/instances`: instances, their actions, addresses and configuration profiles. */
  instances: {
    list: { ...READ.list, path: "/compute/instances", summary: "Instances", response: Compute },
    create: { ...WRITE.post, path: "/compute/instances", summary: "Creates an instance", body: ComputeCreateRequest, response: Compute },
    get: { ...READ.get, path: one, summary: "One instance", response: Compute },
    update: { ...WRITE.put, path: one, summary: "Updates an instance", body: ComputeUpdateRequest, response: Compute },
    delete: { ...WRITE.delete, path: one, summary: "Deletes an instance" },
    boot: { ...WRITE.action, path: `${one}/boot`, summary: "Boots an instance", body: ComputeBootRequest },
    shutdown: { ...WRITE.action, path: `${one}/shutdown`, summary: "Shuts an instance down" },
    reboot: { ...WRITE.action, path: `${one}/reboot`, summary: "Reboots an instance", body: ComputeBootRequest },
    resize: { ...WRITE.action, path: `${one}/resize`, summary: "Resizes an instance to another type", body: ComputeResizeRequest },
    rebuild: {
      ...WRITE.post,
      path: `${one}/rebuild`,
      summary: "Rebuilds an instance from an image",
      body: ComputeRebuildRequest,
      response: Compute,
    },
    ips: { ...READ.get, path: `${one}/ips`, summary: "The instance's addresses", response: ComputeIps },
    /** `/compute/instances/{computeId}/configs`: configuration profiles (what a boot brings up). */
    configs: {
      list: { ...READ.list, path: configs, summary: "Configuration profiles", response: Config },
      create: { ...WRITE.post, path: configs, summary: "Creates a configuration profile", body: ConfigCreateRequest, response: Config },
      get: { ...READ.get, path: config, summary: "One configuration profile", response: Config },
      update: { ...WRITE.put, path: config, summary: "Updates a configuration profile", body: ConfigUpdateRequest, response: Config },
      delete: { ...WRITE.delete, path: config, summary: "Deletes a configuration profile" },
      /** `…/configs/{configId}/interfaces`: a profile's network interfaces (`public`, `vlan`, `vpc`). */
      interfaces: {
        list: { ...READ.get, path: ifaces, summary: "A profile's interfaces", response: z.array(ConfigInterface) },
        create: { ...WRITE.post, path: ifaces, summary: "Adds an interface", body: ConfigInterfaceRequest, response: ConfigInterface },
        order: { ...WRITE.action, path: `${ifaces}/order`, summary: "Reorders a profile's interfaces", body: InterfaceOrderRequest },
        get: { ...READ.get, path: iface, summary: "One interface", response: ConfigInterface },
        update: {
          ...WRITE.put,
          path: iface,
          summary: "Updates an interface",
          body: ConfigInterfaceUpdateRequest,
          response: ConfigInterface,
        },
        delete: { ...WRITE.delete, path: iface, summary: "Deletes an interface" },
      },
    },
  },
  /** `/compute/types`: the catalogue of plans (no token needed). */
  types: {
    list: { ...CATALOGUE.list, path: "/compute/types", summary: "Compute types", response: ComputeType },
    get: { ...CATALOGUE.get, path: "/compute/types/{typeId}", summary: "One compute type", response: ComputeType },
  },
});

// ---------------------------------------------------------------------------------------------
// Waiters

/** The statuses an instance rests in; every other one is on its way to one of these. */
export const COMPUTE_RESTING_STATUSES: readonly ComputeStatus[] = ["running", "offline", "stopped"];

/** Options of `waitForStatus`. */
export interface ComputeWaitOptions extends RecordWaitOptions<Compute> {
  /** Default 10 minutes. */
  timeoutMs?: number;
  /** Longest delay between polls; default 3 000 ms. */
  intervalMs?: number;
  /** First delay between polls (default: `intervalMs`); each next one is 1.5× longer, up to `intervalMs`. */
  firstIntervalMs?: number;
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
    const wait = {
      ...computeStatusWaiter(computeId, targets),
      intervalMs: 3_000,
      firstIntervalMs: options.firstIntervalMs,
      timeoutMs: 600_000,
    };
    return waitForRecord(
      (call) => this.get(computeId, call),
      { ...wait, what: `instance ${computeId} to become ${targets.join(" or ")}` },
      options,
    );
  }
}

/** `/compute`: instances (`computes.instances`, with `configs`, `configs.interfaces` and `ips`) and the plan catalogue (`computes.types`). */
export class Computes extends resource(COMPUTE_ENDPOINTS, { sub: { instances: Instances } }) {}
