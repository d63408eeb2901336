/**
 * The compute requests' contract: the API's reason texts, the request schemas of
 * `/compute/instances*` and the rules of a profile's interfaces that need no state, shared by the
 * emulator (which adds the subnet's and the addresses' checks) and the provider's preview
 * (`Instance`'s `wireRules`). Re-exported by `computes.ts`; facts in docs/api-facts-computes.md.
 */
import { z } from "zod";
import { requiredString, type ErrorEntry } from "../core/schema";

/** At most three interfaces per profile (`eth0`–`eth2`). */
export const MAX_INTERFACES = 3;

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
  return interfaceListErrors(requests, field, existing);
}

/** `PUT …/interfaces/{interfaceId}`: what an interface may change in place. */
export const ConfigInterfaceUpdateRequest = ConfigInterfaceRequest.pick({ primary: true, ipv4: true, ip_ranges: true, ipv6: true });
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

/** `alerts`: an instance's alert thresholds. */
export const ComputeAlerts = z.looseObject({
  cpu: id.optional(),
  io: id.optional(),
  network_in: id.optional(),
  network_out: id.optional(),
  transfer_quota: id.optional(),
});
/** `backups`: an instance's backup service. */
export const ComputeBackups = z.looseObject({
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
  alerts: ComputeAlerts.nullish(),
  backups: ComputeBackups.nullish(),
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

/** One device of a profile: a disk or a volume, or null. */
export const ConfigDevice = z.looseObject({ disk_id: id.nullish(), volume_id: id.nullish() }).nullable();
/** `devices`: `sda`…`sdh` (linodego knows more), each a disk or a volume or null. */
export const ConfigDevices = z.record(z.string().regex(/^sd[a-z]{1,2}$/), ConfigDevice);
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

/** One interface as these rules read it (the request's wire form). */
interface InterfaceShape {
  purpose?: unknown;
  primary?: unknown;
  label?: unknown;
  subnet_id?: unknown;
  ipam_address?: unknown;
  ipv4?: { vpc?: unknown; nat_1_1?: unknown } | null;
  ip_ranges?: unknown;
}

/** Whether a request names a value (an empty string, list or `null` names none). */
const names = (value: unknown): boolean =>
  value !== undefined && value !== null && value !== "" && !(Array.isArray(value) && value.length === 0);

/**
 * A profile's interfaces as a whole (`field`: `interfaces`; `existing`: the purposes of the
 * interfaces the profile keeps beside them): at most three, one `public` and one `vpc` at most;
 * each `vlan` named and never primary, each `vpc` with its subnet.
 */
function interfaceListErrors(requests: readonly InterfaceShape[], field: string, existing: readonly unknown[] = []): ErrorEntry[] {
  const errors: ErrorEntry[] = [];
  const all = [...existing, ...requests.map((r) => r.purpose)];
  if (all.length > MAX_INTERFACES) errors.push({ field, reason: COMPUTE_REASONS.tooManyInterfaces });
  if (all.filter((p) => p === "public").length > 1) errors.push({ field, reason: COMPUTE_REASONS.onePublic });
  if (all.filter((p) => p === "vpc").length > 1) errors.push({ field, reason: COMPUTE_REASONS.oneVpc });
  requests.forEach((request, i) => {
    const at = `${field}[${i}]`;
    if (request.purpose === "vlan") {
      if (request.primary === true) errors.push({ field: `${at}.primary`, reason: COMPUTE_REASONS.vlanPrimary });
      if (request.label === undefined || request.label === null || request.label === "") {
        errors.push({ field: `${at}.label`, reason: COMPUTE_REASONS.vlanLabelRequired });
      }
    }
    // Fields of one purpose on an interface of another.
    const notFor = (name: string, purpose: string) =>
      errors.push({ field: `${at}.${name}`, reason: COMPUTE_REASONS.onlyForPurpose(name, purpose) });
    if (request.purpose !== "vlan") {
      if (names(request.label)) notFor("label", "vlan");
      if (names(request.ipam_address)) notFor("ipam_address", "vlan");
    }
    if (request.purpose !== "vpc") {
      if (names(request.subnet_id)) notFor("subnet_id", "vpc");
      if (names(request.ipv4?.vpc)) notFor("ipv4.vpc", "vpc");
      if (names(request.ipv4?.nat_1_1)) notFor("ipv4.nat_1_1", "vpc");
      if (names(request.ip_ranges)) notFor("ip_ranges", "vpc");
    }
    if (request.purpose === "vpc" && (request.subnet_id === undefined || request.subnet_id === null)) {
      errors.push({ field: `${at}.subnet_id`, reason: COMPUTE_REASONS.subnetRequired });
    }
  });
  return errors;
}
