/** Read-only address data: the account's IP addresses, IPv6 pools and IPv6 ranges. */
import type { IpAddress, Ipv6Pool, Ipv6Range } from "../../sdk/resources/ips";
import { canonicalIp } from "../../sdk/core/net";
import { apiId } from "../resources/common";
import { camelizeDeep } from "../engine/values";
import type { Camelized } from "../engine/values";
import { type FunctionOptions, withClient } from "./client";

/** An IP address of the account, with camelCase keys. */
export type IpResult = Camelized<IpAddress>;
/** An IPv6 pool of a region, with camelCase keys. */
export type Ipv6PoolResult = Camelized<Ipv6Pool>;
/** An IPv6 range of the account, with camelCase keys. */
export type Ipv6RangeResult = Camelized<Ipv6Range>;

/** Arguments of `getIps`; every one narrows the result. */
export interface GetIpsArgs {
  /** Only the addresses of this instance. */
  computeId?: string | number;
  /** Only this address (any spelling of an IPv6 one). */
  address?: string;
  /** `ipv4` or `ipv6` (the SLAAC address). */
  type?: string;
  /** Only public (true) or only non-public (false) addresses. */
  public?: boolean;
  region?: string;
  /** Leave `rdns` of IPv6 addresses null (faster on large accounts). */
  skipIpv6Rdns?: boolean;
}

/** The account's IP addresses (private addresses are not listed by the API). */
export function getIps(args: GetIpsArgs = {}, options: FunctionOptions = {}): Promise<IpResult[]> {
  return withClient("getIps", options, async (client) => {
    const ips = await client.networking.ips.listAll(args.skipIpv6Rdns === undefined ? {} : { skipIpv6Rdns: args.skipIpv6Rdns });
    const computeId = args.computeId === undefined ? undefined : apiId(args.computeId);
    const address = args.address === undefined ? undefined : (canonicalIp(args.address) ?? args.address);
    return ips
      .filter((ip) => computeId === undefined || ip.compute_id === computeId)
      .filter((ip) => address === undefined || canonicalIp(ip.address) === address)
      .filter((ip) => args.type === undefined || ip.type === args.type)
      .filter((ip) => args.public === undefined || ip.public === args.public)
      .filter((ip) => args.region === undefined || ip.region === args.region)
      .map((ip) => camelizeDeep(ip) as IpResult);
  });
}

/** The IPv6 pools, optionally of one region. */
export function getIpv6Pools(args: { region?: string } = {}, options: FunctionOptions = {}): Promise<Ipv6PoolResult[]> {
  return withClient("getIpv6Pools", options, async (client) =>
    (await client.networking.ipv6.pools.listAll())
      .filter((p) => args.region === undefined || p.region === args.region)
      .map((p) => camelizeDeep(p) as Ipv6PoolResult),
  );
}

/** The account's IPv6 ranges, optionally of one region. */
export function getIpv6Ranges(args: { region?: string } = {}, options: FunctionOptions = {}): Promise<Ipv6RangeResult[]> {
  return withClient("getIpv6Ranges", options, async (client) =>
    (await client.networking.ipv6.ranges.listAll())
      .filter((r) => args.region === undefined || r.region === args.region)
      .map((r) => camelizeDeep(r) as Ipv6RangeResult),
  );
}
