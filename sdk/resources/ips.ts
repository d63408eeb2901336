/**
 * IP addresses, IPv6 pools and IPv6 ranges (spec "Networking: IP addresses, IPv6, VLANs",
 * api-facts P2-5): the records, the endpoint tables and the classes. The reason texts, request
 * schemas and rule functions are in `sdk/rules/ips.ts`, re-exported here. Response schemas are
 * tolerant: unknown keys pass, `vpc_nat_1_1` may be absent.
 */
import { z } from "zod";
import { filterable } from "../core/schema";
import { endpoints, readWrite, verbs } from "../core/endpoint";
import { resource } from "../core/resource";
import type { CallOptions } from "../core/http";
import type { ListOptions, Paginator } from "../core/pagination";
import { IpAllocateRequest, IpAssignRequest, IpListQuery, IpShareRequest, IpUpdateRequest, Ipv6RangeCreateRequest } from "../rules/ips";
export * from "../rules/ips";

// ---------------------------------------------------------------------------------------------
// Records

/** The VPC address a public IPv4 is mapped to 1:1. */
export const VpcNat11 = z.looseObject({
  vpc_id: z.number().int(),
  subnet_id: z.number().int(),
  address: z.string(),
});
export type VpcNat11 = z.infer<typeof VpcNat11>;

/**
 * An IP address. `vpc_nat_1_1` is `null` or the mapping on IPv4 list entries, and absent on IPv6
 * entries and in older single-address answers (api-facts P2-5).
 */
export const IpAddress = z.looseObject({
  address: z.string(),
  gateway: z.string().nullable(),
  subnet_mask: z.string(),
  prefix: z.number().int(),
  /** `ipv4`, `ipv6`, `ipv6/pool`, `ipv6/range`. */
  type: z.string(),
  public: z.boolean(),
  rdns: z.string().nullable(),
  compute_id: z.number().int().nullable(),
  region: z.string(),
  vpc_nat_1_1: VpcNat11.nullable().optional(),
});
export type IpAddress = z.infer<typeof IpAddress>;

/** An IPv6 range as listed: `range` is the address without its prefix length. */
export const Ipv6Range = z.looseObject({
  range: filterable(z.string()),
  prefix: filterable(z.number().int()),
  region: filterable(z.string()),
  route_target: filterable(z.string().nullable()),
});
export type Ipv6Range = z.infer<typeof Ipv6Range>;

/** An IPv6 pool of a region: a range's fields; the hand-written recordings omit `prefix`, which the API documents. */
export const Ipv6Pool = Ipv6Range.partial({ prefix: true });
export type Ipv6Pool = z.infer<typeof Ipv6Pool>;

/** One IPv6 range viewed: `is_bgp` is true when shared; `computes` lists the routed and sharing instances. */
export const Ipv6RangeView = z.looseObject({
  range: z.string(),
  prefix: z.number().int(),
  region: z.string(),
  is_bgp: z.boolean(),
  computes: z.array(z.number().int()),
});
export type Ipv6RangeView = z.infer<typeof Ipv6RangeView>;

/** What range create answers: only `{range: "<addr>/<len>", route_target}`. */
export const Ipv6RangeCreated = z.looseObject({
  range: z.string(),
  route_target: z.string(),
});
export type Ipv6RangeCreated = z.infer<typeof Ipv6RangeCreated>;

// ---------------------------------------------------------------------------------------------
// Endpoints

const [READ, WRITE] = readWrite("ips", "ips");
const WRITE_COMPUTES = verbs({ service: "ips", auth: "token", scopes: ["ips:read_write", "computes:read_write"] });
const ASSIGN = { ...WRITE_COMPUTES.action, body: IpAssignRequest } as const;
/** The body is the whole desired list, so sending it twice has the effect of sending it once: safe to retry. */
const SHARE = { ...WRITE_COMPUTES.action, body: IpShareRequest, idempotent: true } as const;

/** The `/networking/ips` and `/networking/ipv6` endpoints (spec "Networking: IP addresses, IPv6, VLANs"). */
export const IP_ENDPOINTS = endpoints("networking.ips", {
  list: {
    ...READ.list,
    path: "/networking/ips",
    summary: "IP addresses of the account, private ones excluded",
    query: IpListQuery,
    response: IpAddress,
  },
  allocate: {
    ...WRITE_COMPUTES.post,
    path: "/networking/ips",
    summary: "Allocate an IPv4 address to an instance enabled for additional addresses",
    body: IpAllocateRequest,
    response: IpAddress,
  },
  assign: { ...ASSIGN, path: "/networking/ips/assign", summary: "Assign addresses and IPv6 ranges to instances" },
  assignViaIpv4: {
    ...ASSIGN,
    name: "networking.ips.assign#ipv4",
    path: "/networking/ipv4/assign",
    summary: "Assign addresses and IPv6 ranges to instances (ipv4 path)",
  },
  share: { ...SHARE, path: "/networking/ips/share", summary: "Set the addresses an instance shares for failover" },
  shareViaIpv4: {
    ...SHARE,
    name: "networking.ips.share#ipv4",
    path: "/networking/ipv4/share",
    summary: "Set the addresses an instance shares for failover (ipv4 path)",
  },
  get: { ...READ.get, path: "/networking/ips/{address}", summary: "One IP address", response: IpAddress },
  update: {
    ...WRITE.put,
    path: "/networking/ips/{address}",
    summary: "Set an address's reverse DNS (null restores the default); forward DNS must exist",
    body: IpUpdateRequest,
    response: IpAddress,
  },
});

/** The `/networking/ipv6` endpoints. The spec lists `ips:read` for one range, a slip for `ips:read_only`. */
export const IPV6_ENDPOINTS = endpoints("networking.ipv6", {
  /** `/networking/ipv6/pools`. */
  pools: {
    list: { ...READ.list, path: "/networking/ipv6/pools", summary: "IPv6 pools", response: Ipv6Pool },
  },
  /** `/networking/ipv6/ranges`. A range is named in paths by its address without the prefix length. */
  ranges: {
    list: { ...READ.list, path: "/networking/ipv6/ranges", summary: "IPv6 ranges of the account", response: Ipv6Range },
    create: {
      ...WRITE_COMPUTES.post,
      path: "/networking/ipv6/ranges",
      summary: "Create an IPv6 range routed to an instance (compute_id) or a SLAAC address (route_target)",
      body: Ipv6RangeCreateRequest,
      response: Ipv6RangeCreated,
    },
    get: { ...READ.get, path: "/networking/ipv6/ranges/{range}", summary: "One IPv6 range", response: Ipv6RangeView },
    delete: { ...WRITE.delete, path: "/networking/ipv6/ranges/{range}", summary: "Delete an IPv6 range that is not shared" },
  },
});

// ---------------------------------------------------------------------------------------------
// Resource classes

/** Options of `Ips.list`. */
export interface IpListOptions extends ListOptions {
  /** When true the API leaves `rdns` of IPv6 addresses null (faster on large accounts). */
  skipIpv6Rdns?: boolean;
}

/** Which of the two equivalent paths an assign or share goes to. */
export interface IpActionOptions extends CallOptions {
  /** `ips` (default): `/networking/ips/…`; `ipv4`: `/networking/ipv4/…`. */
  via?: "ips" | "ipv4";
}

/** `/networking/ips`: the account's addresses, allocation, assignment, sharing and reverse DNS. */
export class Ips extends resource(IP_ENDPOINTS, { own: ["list", "listAll", "assign", "share"] }) {
  /** Iterates the account's addresses (private ones are not listed). `skip_ipv6_rdns` goes in the query. */
  list(options: IpListOptions = {}): Paginator<IpAddress> {
    const { skipIpv6Rdns, ...rest } = options;
    const query = skipIpv6Rdns === undefined ? undefined : { skip_ipv6_rdns: skipIpv6Rdns };
    return this.http.paginate(this.endpoints.list, {}, { ...rest, query });
  }

  /** Every address, collected. */
  listAll(options: IpListOptions = {}): Promise<IpAddress[]> {
    return this.list(options).all();
  }

  /** `POST /networking/ips/assign` (or `/networking/ipv4/assign`): moves addresses and IPv6 ranges between instances. */
  async assign(body: IpAssignRequest, options: IpActionOptions = {}): Promise<void> {
    await this.http.call(options.via === "ipv4" ? this.endpoints.assignViaIpv4 : this.endpoints.assign, {}, body, options);
  }

  /** `POST /networking/ips/share` (or `/networking/ipv4/share`): sets the addresses an instance shares; safe to repeat. */
  async share(body: IpShareRequest, options: IpActionOptions = {}): Promise<void> {
    await this.http.call(options.via === "ipv4" ? this.endpoints.shareViaIpv4 : this.endpoints.share, {}, body, options);
  }
}

/** `/networking/ipv6`: pools and ranges. A range is named in paths by its address without the prefix length. */
export class Ipv6 extends resource(IPV6_ENDPOINTS) {}
