/**
 * The client's declared answer types, one `Shape` each (see `shape.ts`). The key lists are kept
 * honest by the compiler against `@linode/api-v4`'s own interfaces.
 */
import type {
  Database,
  DatabaseBackup,
  DatabaseCredentials,
  DatabaseEngine,
  DatabaseInstance,
  DatabaseType,
  Domain,
  DomainRecord,
  Entity,
  Event,
  Firewall,
  FirewallDevice,
  FirewallDeviceEntity,
  FirewallRules,
  IPAddress,
  IPRange,
  IPRangeInformation,
  Config,
  Image,
  Interface,
  Linode,
  LinodeIPsResponse,
  LinodeType,
  Region,
  RegionAvailability,
  ResourcePage,
  SSLFields,
  Subnet,
  SupportReply,
  SupportTicket,
  UploadImageResponse,
  VPC,
  VPCIP,
  ZoneFile,
} from "./client";
import { is, later, opt, wider, type Shape } from "./shape";

// The reasons, once: a key the client requires that API 4.174's records lack (none of the
// recordings in test/fixtures has it; the emulator mirrors 4.174).
const PLACEMENT = "placement groups came after 4.174";
const VPC_IPV6 = "VPC IPv6 and NodeBalancers in VPCs came after 4.174 (emulator README: VPC `ipv6` is a later feature)";
const FW_RECORD = "4.174's firewall record has no devices and its `rules` keep four keys (emulator README, firewall rules row)";
const INTERFACES = "`interface_id` belongs to the later Linode Interfaces (no 4.174 recording has it)";
const DB_LATER = "not in 4.174's database record (emulator README: no `members`…; `engine_config` only once set)";
const IMAGE_LATER = "image replication (`regions`, `total_size`) and image tags came after 4.174";
const TICKET_LATER = "api-facts P2-6: Cloud Manager's types add it, OAS 4.174 has no such key";

export const PAGE: Shape<ResourcePage<unknown>> = {
  data: is("array"),
  page: is("number"),
  pages: is("number"),
  results: is("number"),
};

export const REGION: Shape<Region> = {
  capabilities: is("array"),
  country: is("string"),
  id: is("string"),
  label: is("string"),
  monitors: opt("object"),
  placement_group_limits: later(PLACEMENT, "object"),
  resolvers: is("object"),
  site_type: is("string"),
  status: is("string"),
};

export const REGION_AVAILABILITY: Shape<RegionAvailability> = {
  available: is("boolean"),
  plan: is("string"),
  region: is("string"),
};

export const VPC_SHAPE: Shape<VPC> = {
  created: is("string"),
  description: is("string"),
  id: is("number"),
  ipv6: opt("array"),
  label: is("string"),
  region: is("string"),
  subnets: is("array"),
  updated: is("string"),
};

export const SUBNET: Shape<Subnet> = {
  created: is("string"),
  id: is("number"),
  ipv4: opt("string"),
  ipv6: wider('every subnet recording of 4.174 (`fixtures/subnet.get.json`, `vpc.create.json`) carries `"ipv6": null`', "array", "null"),
  label: is("string"),
  linodes: is("array"),
  nodebalancers: later(VPC_IPV6, "array"),
  updated: is("string"),
};

export const VPC_IP: Shape<VPCIP> = {
  active: is("boolean"),
  address: is("string", "null"),
  address_range: is("string", "null"),
  config_id: is("number", "null"),
  gateway: is("string", "null"),
  interface_id: is("number"),
  ipv6_addresses: later(VPC_IPV6, "array"),
  ipv6_is_public: later(VPC_IPV6, "boolean", "null"),
  ipv6_range: later(VPC_IPV6, "string", "null"),
  linode_id: is("number", "null"),
  nat_1_1: wider("spec, VPC IP address record: `nat_1_1` (Nullable)", "string", "null"),
  nodebalancer_id: later(VPC_IPV6, "number", "null"),
  prefix: is("number", "null"),
  region: is("string"),
  subnet_id: is("number"),
  subnet_mask: is("string"),
  vpc_id: is("number"),
};

export const DOMAIN: Shape<Domain> = {
  axfr_ips: is("array"),
  description: is("string"),
  domain: is("string"),
  expire_sec: is("number"),
  group: is("string"),
  id: is("number"),
  master_ips: is("array"),
  refresh_sec: is("number"),
  retry_sec: is("number"),
  soa_email: is("string"),
  status: is("string"),
  tags: is("array"),
  ttl_sec: is("number"),
  type: is("string"),
  updated: is("string"),
};

export const RECORD: Shape<DomainRecord> = {
  created: is("string"),
  id: is("number"),
  name: is("string"),
  port: is("number"),
  priority: is("number"),
  protocol: is("string", "null"),
  service: is("string", "null"),
  tag: is("string", "null"),
  target: is("string"),
  ttl_sec: is("number"),
  type: is("string"),
  updated: is("string"),
  weight: is("number"),
};

export const ZONE_FILE: Shape<ZoneFile> = { zone_file: is("array") };

export const FIREWALL: Shape<Firewall> = {
  created: is("string"),
  entities: later(FW_RECORD, "array"),
  id: is("number"),
  label: is("string"),
  rules: is("object"),
  status: is("string"),
  tags: is("array"),
  updated: is("string"),
};

/** The rules endpoint's answer (`GET`/`PUT .../rules`), which carries `version` and `fingerprint`. */
export const FIREWALL_RULES: Shape<FirewallRules> = {
  fingerprint: is("string"),
  inbound: opt("array", "null"),
  inbound_policy: is("string"),
  outbound: opt("array", "null"),
  outbound_policy: is("string"),
  version: is("number"),
};

/** The `rules` inside a firewall record: 4.174's four keys. */
export const FIREWALL_RECORD_RULES: Shape<FirewallRules> = {
  ...FIREWALL_RULES,
  fingerprint: later(FW_RECORD, "string"),
  version: later(FW_RECORD, "number"),
};

export const FIREWALL_DEVICE: Shape<FirewallDevice> = {
  created: is("string"),
  entity: is("object"),
  id: is("number"),
  updated: is("string"),
};

export const DEVICE_ENTITY: Shape<FirewallDeviceEntity> = {
  id: is("number"),
  label: is("string", "null"),
  parent_entity: later("device entities of interfaces (`parent_entity`) came with Linode Interfaces, after 4.174", "object", "null"),
  type: is("string"),
  url: is("string"),
};

export const DATABASE_TYPE: Shape<DatabaseType> = {
  class: is("string"),
  disk: is("number"),
  engines: is("object"),
  id: is("string"),
  label: is("string"),
  memory: is("number"),
  vcpus: is("number"),
};

export const DATABASE_ENGINE: Shape<DatabaseEngine> = {
  deprecated: opt("boolean"),
  engine: is("string"),
  id: is("string"),
  version: is("string"),
};

/** The keys every record has, in the all-engines list and per engine. */
const INSTANCE_KEYS: Shape<DatabaseInstance> = {
  allow_list: is("array"),
  cluster_size: is("number"),
  connection_strings: later(DB_LATER, "array"),
  created: is("string"),
  encrypted: is("boolean"),
  engine: is("string"),
  engine_config: later(DB_LATER, "object"),
  hosts: is("object", "null"),
  id: is("number"),
  instance_uri: opt("string"),
  label: is("string"),
  members: later(DB_LATER, "object"),
  oldest_restore_time: opt("string"),
  platform: opt("string"),
  readonly_count: opt("number"),
  region: is("string"),
  status: is("string"),
  type: is("string"),
  updated: is("string"),
  updates: is("object"),
  version: is("string"),
};

export const DATABASE_INSTANCE: Shape<DatabaseInstance> = INSTANCE_KEYS;

export const DATABASE: Shape<Database> = {
  ...INSTANCE_KEYS,
  port: is("number"),
  private_network: opt("object", "null"),
  replication_commit_type: opt("string"),
  replication_type: opt("string"),
  ssl_connection: is("boolean"),
  total_disk_size_gb: is("number"),
  used_disk_size_gb: is("number", "null"),
};

export const CREDENTIALS: Shape<DatabaseCredentials> = { password: is("string"), username: is("string") };
export const SSL: Shape<SSLFields> = { ca_certificate: is("string") };
export const BACKUP: Shape<DatabaseBackup> = {
  created: is("string"),
  id: is("number"),
  label: is("string"),
  type: is("string"),
};

export const IMAGE: Shape<Image> = {
  capabilities: is("array"),
  created: is("string"),
  created_by: is("string", "null"),
  deprecated: is("boolean"),
  description: is("string", "null"),
  eol: is("string", "null"),
  expiry: is("string", "null"),
  id: is("string"),
  image_sharing: opt("object"),
  is_public: is("boolean"),
  is_shared: opt("boolean"),
  label: is("string"),
  regions: later(IMAGE_LATER, "array"),
  size: is("number"),
  status: is("string"),
  tags: later(IMAGE_LATER, "array"),
  total_size: later(IMAGE_LATER, "number"),
  type: is("string"),
  updated: is("string"),
  vendor: is("string", "null"),
};

export const UPLOAD: Shape<UploadImageResponse> = { image: is("object"), upload_to: is("string") };

export const IP_ADDRESS: Shape<IPAddress> = {
  address: is("string"),
  gateway: is("string", "null"),
  interface_id: later(INTERFACES, "number", "null"),
  linode_id: is("number"),
  prefix: is("number"),
  public: is("boolean"),
  rdns: is("string", "null"),
  region: is("string"),
  subnet_mask: is("string"),
  type: is("string"),
  vpc_nat_1_1: opt("object", "null"),
};

export const IP_RANGE: Shape<IPRange> = {
  prefix: is("number"),
  range: is("string"),
  region: is("string"),
  route_target: is("string", "null"),
};

export const IP_RANGE_INFO: Shape<IPRangeInformation> = {
  is_bgp: is("boolean"),
  linodes: is("array"),
  prefix: is("number"),
  range: is("string"),
  region: is("string"),
};

export const TICKET: Shape<SupportTicket> = {
  attachments: is("array"),
  closable: is("boolean"),
  closed: is("string", "null"),
  description: is("string"),
  entity: is("object", "null"),
  gravatar_id: is("string"),
  id: is("number"),
  opened: is("string"),
  opened_by: is("string"),
  severity: later(TICKET_LATER, "number", "null"),
  status: is("string"),
  summary: is("string"),
  updated: is("string"),
  updated_by: is("string", "null"),
};

export const REPLY: Shape<SupportReply> = {
  created: is("string"),
  created_by: is("string"),
  description: is("string"),
  friendly_name: later(TICKET_LATER, "string"),
  from_linode: is("boolean"),
  gravatar_id: is("string"),
  id: is("number"),
};

export const ENTITY: Shape<Entity> = {
  id: wider("api-facts P6-1: an event entity's id may be a string, such as an image's `private/<n>`", "number", "string"),
  label: is("string", "null"),
  type: is("string"),
  url: is("string"),
};

export const EVENT: Shape<Event> = {
  action: is("string"),
  complete_time: opt("string", "null"),
  created: is("string"),
  description: opt("string", "null"),
  duration: is("number", "null"),
  entity: is("object", "null"),
  id: is("number"),
  maintenance_policy_set: opt("string", "null"),
  message: is("string", "null"),
  not_before: opt("string", "null"),
  percent_complete: is("number", "null"),
  rate: is("string", "null"),
  read: is("boolean"),
  secondary_entity: is("object", "null"),
  seen: is("boolean"),
  source: opt("string", "null"),
  start_time: opt("string", "null"),
  status: is("string"),
  time_remaining: is("string", "null"),
  username: is("string", "null"),
};

export const LINODE: Shape<Linode> = {
  alerts: is("object"),
  backups: is("object"),
  capabilities: is("array"),
  created: is("string"),
  disk_encryption: opt("string"),
  group: is("string"),
  has_user_data: is("boolean"),
  hypervisor: is("string"),
  id: is("number"),
  image: is("string", "null"),
  interface_generation: opt("string"),
  ipv4: is("array"),
  ipv6: is("string", "null"),
  label: is("string"),
  lke_cluster_id: is("number", "null"),
  locks: is("array"),
  maintenance_policy: is("string", "null"),
  placement_group: is("object", "null"),
  region: is("string"),
  site_type: is("string"),
  specs: is("object"),
  status: is("string"),
  tags: is("array"),
  type: is("string", "null"),
  updated: is("string"),
  watchdog_enabled: is("boolean"),
};

export const LINODE_TYPE: Shape<LinodeType> = {
  accelerated_devices: is("number"),
  addons: is("object"),
  class: is("string"),
  disk: is("number"),
  gpus: is("number"),
  id: is("string"),
  label: is("string"),
  memory: is("number"),
  network_out: is("number"),
  price: is("object"),
  region_prices: is("array"),
  successor: is("string", "null"),
  transfer: is("number"),
  vcpus: is("number"),
};

export const CONFIG: Shape<Config> = {
  comments: is("string"),
  created: is("string"),
  devices: is("object"),
  helpers: is("object"),
  id: is("number"),
  initrd: wider("OAS: `initrd` is the id of an initrd disk (integer), or null; the client declares a string", "number", "null"),
  interfaces: is("array", "null"),
  kernel: is("string"),
  label: is("string"),
  memory_limit: is("number"),
  root_device: is("string"),
  run_level: is("string"),
  updated: is("string"),
  virt_mode: is("string"),
};

export const INTERFACE: Shape<Interface> = {
  active: is("boolean"),
  id: is("number"),
  ip_ranges: opt("array"),
  ipam_address: is("string", "null"),
  ipv4: wider("OAS, configuration profile interface: `ipv4` is null on interfaces that are not of the vpc purpose", "object", "null"),
  ipv6: opt("object"),
  label: is("string", "null"),
  primary: opt("boolean"),
  purpose: is("string"),
  subnet_id: opt("number", "null"),
  vpc_id: opt("number", "null"),
};

export const LINODE_IPS: Shape<LinodeIPsResponse> = {
  ipv4: is("object"),
  ipv6: opt("object"),
};
