/**
 * `@linode/api-v4`'s functions, typed by the client's own declarations.
 *
 * Why this module: the package is ESM-first (`"type": "module"`) and ships one declaration tree,
 * `lib/index.d.ts`, whose relative imports have no file extensions (`export * from './account'`).
 * Under this repository's `moduleResolution: nodenext` a CommonJS test file resolves the package to
 * `lib/index.cjs`, which has no declarations, and the ESM declaration tree cannot resolve its own
 * extensionless imports, so every function comes out `any`. The leaf files that declare the
 * interfaces (`lib/<area>/types.d.ts`) import nothing or little and resolve, so they are imported by
 * path, and each function used is bound here to the signature its `lib/<area>/<area>.d.ts`
 * declares (copied verbatim, parameter names included). Runtime values come from the package itself.
 */
import type { Event } from "../../../node_modules/@linode/api-v4/lib/account/types.js";
import type {
  Database,
  DatabaseBackup,
  DatabaseCredentials,
  DatabaseEngine,
  DatabaseInstance,
  DatabaseType as DatabaseTypeOwnKeys,
  Engine,
  CreateDatabasePayload,
  UpdateDatabasePayload,
  SSLFields,
} from "../../../node_modules/@linode/api-v4/lib/databases/types.js";
import type {
  CloneDomainPayload,
  CreateDomainPayload,
  Domain,
  DomainRecord,
  ImportZonePayload,
  UpdateDomainPayload,
  ZoneFile,
} from "../../../node_modules/@linode/api-v4/lib/domains/types.js";
import type {
  CreateFirewallPayload,
  Firewall,
  FirewallDevice,
  FirewallDevicePayload,
  FirewallRules,
  UpdateFirewallPayload,
  UpdateFirewallRules,
} from "../../../node_modules/@linode/api-v4/lib/firewalls/types.js";
import type {
  CreateImagePayload,
  Image,
  ImageUploadPayload,
  UpdateImagePayload,
  UploadImageResponse,
} from "../../../node_modules/@linode/api-v4/lib/images/types.js";
import type {
  CreateIPv6RangePayload,
  IPAddress,
  IPAssignmentPayload,
  IPRange,
  IPRangeInformation,
  IPSharingPayload,
} from "../../../node_modules/@linode/api-v4/lib/networking/types.js";
import type { Region, RegionAvailability } from "../../../node_modules/@linode/api-v4/lib/regions/types.js";
import type { ReplyRequest, SupportReply, SupportTicket, TicketRequest } from "../../../node_modules/@linode/api-v4/lib/support/types.js";
import type {
  BaseType,
  Config,
  ConfigInterfaceOrderPayload,
  CreateLinodeRequest,
  Interface,
  InterfacePayload,
  Linode,
  LinodeConfigCreationData,
  LinodeIPsResponse,
  LinodeType,
  RebuildRequest,
  ResizeLinodePayload,
  UpdateConfigInterfacePayload,
} from "../../../node_modules/@linode/api-v4/lib/linodes/types.js";
import type { DeepPartial, Filter, Params, ResourcePage as Page } from "../../../node_modules/@linode/api-v4/lib/types.js";
import type {
  CreateSubnetPayload,
  CreateVPCPayload,
  ModifySubnetPayload,
  Subnet,
  UpdateVPCPayload,
  VPC,
  VPCIP,
} from "../../../node_modules/@linode/api-v4/lib/vpcs/types.js";

export type * from "../../../node_modules/@linode/api-v4/lib/account/types.js";
export type * from "../../../node_modules/@linode/api-v4/lib/databases/types.js";
export type * from "../../../node_modules/@linode/api-v4/lib/domains/types.js";
export type * from "../../../node_modules/@linode/api-v4/lib/firewalls/types.js";
export type * from "../../../node_modules/@linode/api-v4/lib/images/types.js";
export type * from "../../../node_modules/@linode/api-v4/lib/linodes/types.js";
export type * from "../../../node_modules/@linode/api-v4/lib/networking/types.js";
export type * from "../../../node_modules/@linode/api-v4/lib/regions/types.js";
export type * from "../../../node_modules/@linode/api-v4/lib/support/types.js";
export type * from "../../../node_modules/@linode/api-v4/lib/types.js";
export type * from "../../../node_modules/@linode/api-v4/lib/vpcs/types.js";

/** `DatabaseType extends BaseType` (`../linodes/types`, an extensionless import the ESM tree loses): the keys restored. */
export type DatabaseType = DatabaseTypeOwnKeys & BaseType;

/** The client's declared answer of deletes and actions, `{}` (copied as declared). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
type Empty = {};

/** What the tests use of `lib/request.d.ts`, `lib/account/types.d.ts` and each area's functions. */
interface ApiV4 {
  // request.d.ts (baseRequest is the client's shared axios instance)
  baseRequest: import("axios").AxiosInstance;
  setToken: (token: string) => number;
  // account/types.d.ts, account/events.d.ts
  EventActionKeys: readonly string[];
  getEvents: (params?: Params, filter?: Filter) => Promise<Page<Event>>;
  getEvent: (eventId: number) => Promise<Event>;
  markEventSeen: (eventId: number) => Promise<Empty>;
  markEventRead: (eventId: number) => Promise<Empty>;
  // regions/regions.d.ts
  getRegions: (params?: Params) => Promise<Page<Region>>;
  getRegion: (regionId: string) => Promise<Region>;
  getRegionAvailabilities: (params?: Params, filter?: Filter) => Promise<Page<RegionAvailability>>;
  getRegionAvailability: (regionId: string) => Promise<RegionAvailability[]>;
  // vpcs/vpcs.d.ts
  getVPCs: (params?: Params, filter?: Filter) => Promise<Page<VPC>>;
  getVPC: (vpcID: number) => Promise<VPC>;
  createVPC: (data: CreateVPCPayload) => Promise<VPC>;
  updateVPC: (vpcID: number, data: UpdateVPCPayload) => Promise<VPC>;
  deleteVPC: (vpcID: number) => Promise<Empty>;
  getSubnets: (vpcID: number, params?: Params, filter?: Filter) => Promise<Page<Subnet>>;
  getSubnet: (vpcID: number, subnetID: number) => Promise<Subnet>;
  createSubnet: (vpcID: number, data: CreateSubnetPayload) => Promise<Subnet>;
  modifySubnet: (vpcID: number, subnetID: number, data: ModifySubnetPayload) => Promise<Subnet>;
  deleteSubnet: (vpcID: number, subnetID: number) => Promise<Empty>;
  getVPCsIPs: (params?: Params, filter?: Filter) => Promise<Page<VPCIP>>;
  getVPCIPs: (vpcID: number, params?: Params, filter?: Filter) => Promise<Page<VPCIP>>;
  // domains/domains.d.ts, domains/records.d.ts
  getDomains: (params?: Params, filter?: Filter) => Promise<Page<Domain>>;
  getDomain: (domainId: number) => Promise<Domain>;
  createDomain: (data: CreateDomainPayload) => Promise<Domain>;
  updateDomain: (domainId: number, data: UpdateDomainPayload) => Promise<Domain>;
  deleteDomain: (domainId: number) => Promise<Empty>;
  cloneDomain: (domainId: number, data: CloneDomainPayload) => Promise<Domain>;
  importZone: (data: ImportZonePayload) => Promise<Domain>;
  getDNSZoneFile: (domainId: number) => Promise<ZoneFile>;
  getDomainRecords: (domainId: number, params?: Params) => Promise<Page<DomainRecord>>;
  getDomainRecord: (domainId: number, recordId: number) => Promise<DomainRecord>;
  createDomainRecord: (domainId: number, data: Partial<DomainRecord>) => Promise<DomainRecord>;
  updateDomainRecord: (domainId: number, recordId: number, data: Partial<DomainRecord>) => Promise<DomainRecord>;
  deleteDomainRecord: (domainId: number, recordId: number) => Promise<Empty>;
  // firewalls/firewalls.d.ts
  getFirewalls: (params?: Params, filter?: Filter) => Promise<Page<Firewall>>;
  getFirewall: (firewallID: number) => Promise<Firewall>;
  createFirewall: (data: CreateFirewallPayload) => Promise<Firewall>;
  updateFirewall: (firewallID: number, data: UpdateFirewallPayload) => Promise<Firewall>;
  enableFirewall: (firewallID: number) => Promise<Firewall>;
  disableFirewall: (firewallID: number) => Promise<Firewall>;
  deleteFirewall: (firewallID: number) => Promise<Empty>;
  getFirewallRules: (firewallID: number, params?: Params, filter?: Filter) => Promise<Page<FirewallRules>>;
  updateFirewallRules: (firewallID: number, data: UpdateFirewallRules) => Promise<FirewallRules>;
  getFirewallDevices: (firewallID: number, params?: Params, filter?: Filter) => Promise<Page<FirewallDevice>>;
  getFirewallDevice: (firewallID: number, deviceID: number) => Promise<FirewallDevice>;
  addFirewallDevice: (firewallID: number, data: FirewallDevicePayload) => Promise<FirewallDevice>;
  deleteFirewallDevice: (firewallID: number, deviceID: number) => Promise<Empty>;
  // databases/databases.d.ts
  getDatabases: (params?: Params, filter?: Filter) => Promise<Page<DatabaseInstance>>;
  getDatabaseTypes: (params?: Params, filter?: Filter) => Promise<Page<DatabaseType>>;
  getDatabaseType: (typeSlug: string) => Promise<DatabaseType>;
  getDatabaseEngines: (params?: Params, filter?: Filter) => Promise<Page<DatabaseEngine>>;
  getDatabaseEngine: (engineSlug: string) => Promise<DatabaseEngine>;
  createDatabase: (engine: Engine | undefined, data: CreateDatabasePayload) => Promise<Database>;
  getEngineDatabases: (engine: Engine, params?: Params, filter?: Filter) => Promise<Page<Database>>;
  getEngineDatabase: (engine: Engine, databaseID: number) => Promise<Database>;
  updateDatabase: (engine: Engine, databaseID: number, data: UpdateDatabasePayload) => Promise<Database>;
  patchDatabase: (engine: Engine, databaseID: number) => Promise<void>;
  deleteDatabase: (engine: Engine, databaseID: number) => Promise<Empty>;
  getDatabaseBackups: (engine: Engine, databaseID: number, params?: Params, filter?: Filter) => Promise<Page<DatabaseBackup>>;
  getDatabaseBackup: (engine: Engine, databaseID: number, backupID: number) => Promise<DatabaseBackup>;
  getDatabaseCredentials: (engine: Engine, databaseID: number) => Promise<DatabaseCredentials>;
  resetDatabaseCredentials: (engine: Engine, databaseID: number) => Promise<Empty>;
  getSSLFields: (engine: Engine, databaseID: number) => Promise<SSLFields>;
  // images/images.d.ts
  getImage: (imageId: string) => Promise<Image>;
  getImages: (params?: Params, filters?: Filter) => Promise<Page<Image>>;
  createImage: (data: CreateImagePayload) => Promise<Image>;
  updateImage: (imageId: string, data: UpdateImagePayload) => Promise<Image>;
  deleteImage: (imageId: string) => Promise<Empty>;
  uploadImage: (data: ImageUploadPayload) => Promise<UploadImageResponse>;
  // networking/networking.d.ts, linodes/ips.d.ts (removeIPv6Range)
  getIPs: (params?: Params, filters?: Filter) => Promise<Page<IPAddress>>;
  getIP: (address: string) => Promise<IPAddress>;
  updateIP: (address: string, rdns?: null | string) => Promise<IPAddress>;
  allocateIp: (payload: any) => Promise<IPAddress>;
  assignAddresses: (payload: IPAssignmentPayload) => Promise<Empty>;
  shareAddresses: (payload: IPSharingPayload) => Promise<Empty>;
  getIPv6Pools: (params?: Params) => Promise<Page<IPRange>>;
  getIPv6Ranges: (params?: Params, filter?: Filter) => Promise<Page<IPRange>>;
  getIPv6RangeInfo: (range: string, params?: Params) => Promise<IPRangeInformation>;
  createIPv6Range: (payload: CreateIPv6RangePayload) => Promise<Empty>;
  removeIPv6Range: (payload: { range: string }) => Promise<Empty>;
  // linodes/linodes.d.ts, linodes/actions.d.ts, linodes/configs.d.ts, linodes/ips.d.ts, linodes/info.d.ts
  getLinode: (linodeId: number) => Promise<Linode>;
  getLinodes: (params?: Params, filter?: Filter) => Promise<Page<Linode>>;
  createLinode: (data: CreateLinodeRequest) => Promise<Linode>;
  updateLinode: (linodeId: number, values: DeepPartial<Linode>) => Promise<Linode>;
  deleteLinode: (linodeId: number) => Promise<Empty>;
  linodeBoot: (linodeId: number | string, config_id?: number) => Promise<Empty>;
  linodeReboot: (linodeId: number | string, config_id?: number) => Promise<Empty>;
  linodeShutdown: (linodeId: number | string) => Promise<Empty>;
  resizeLinode: (linodeId: number, data: ResizeLinodePayload) => Promise<Empty>;
  rebuildLinode: (linodeId: number, data: RebuildRequest) => Promise<Linode>;
  getLinodeConfigs: (linodeId: number, params?: Params, filters?: Filter) => Promise<Page<Config>>;
  getLinodeConfig: (linodeId: number, configId: number) => Promise<Config>;
  createLinodeConfig: (linodeId: number, data: LinodeConfigCreationData) => Promise<Config>;
  deleteLinodeConfig: (linodeId: number, configId: number) => Promise<Empty>;
  updateLinodeConfig: (linodeId: number, configId: number, data: Partial<LinodeConfigCreationData>) => Promise<Config>;
  getConfigInterfaces: (linodeId: number, configId: number) => Promise<Interface[]>;
  getConfigInterface: (linodeId: number, configId: number, interfaceId: number) => Promise<Interface>;
  appendConfigInterface: (linodeId: number, configId: number, data: InterfacePayload) => Promise<Interface>;
  updateConfigInterface: (
    linodeId: number,
    configId: number,
    interfaceId: number,
    data: UpdateConfigInterfacePayload,
  ) => Promise<Interface>;
  updateLinodeConfigOrder: (linodeId: number, configId: number, data: ConfigInterfaceOrderPayload) => Promise<Empty>;
  deleteLinodeConfigInterface: (linodeId: number, configId: number, interfaceId: number) => Promise<Empty>;
  getLinodeIPs: (id: number) => Promise<LinodeIPsResponse>;
  getLinodeTypes: (params?: Params) => Promise<Page<LinodeType>>;
  getType: (typeId: string) => Promise<LinodeType>;
  // support/support.d.ts
  getTickets: (params?: Params, filter?: Filter) => Promise<Page<SupportTicket>>;
  getTicket: (ticketID: number) => Promise<SupportTicket>;
  getTicketReplies: (ticketId: number, params?: Params, filter?: Filter) => Promise<Page<SupportReply>>;
  createSupportTicket: (data: TicketRequest) => Promise<SupportTicket>;
  closeSupportTicket: (ticketId: number) => Promise<Empty>;
  createReply: (data: ReplyRequest) => Promise<SupportReply>;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above: the package's CommonJS build, typed by ApiV4.
export const v4 = require("@linode/api-v4") as ApiV4;
