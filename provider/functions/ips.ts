/** Read-only address data: the account's IP addresses, IPv6 pools and IPv6 ranges, and one IPv6 range with its sharing. */
import { splitRange, type IpAddress, type Ipv6Pool, type Ipv6Range, type Ipv6RangeView } from "../../sdk/resources/ips";
import { canonicalIp, canonicalIpv6 } from "../../sdk/core/net";
import { apiId } from "../resources/common";
import { camelizeDeep } from "../engine/values";
import type { Camelized } from "../engine/values";
import { type FunctionOptions, outputForm, withClient } from "./client";
import { hasGiven, orMissing } from "./lookup";

/** An IP address of the account, with camelCase keys. */
export type IpResult = Camelized<IpAddress>;
/** An IPv6 pool of a region, with camelCase keys. */
export type Ipv6PoolResult = Camelized<Ipv6Pool>;
/** An IPv6 range of the account, with camelCase keys. */
export type Ipv6RangeResult = Camelized<Ipv6Range>;
/** One IPv6 range as `getIpv6Range` returns it: `isBgp` is true when it is shared, `computes` the instances it is routed to or shared with. */
export type Ipv6RangeViewResult = Camelized<Ipv6RangeView>;

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
  /** Only addresses of this region. */
  region?: string;
  /** Leave `rdns` of IPv6 addresses null (faster on large accounts). */
  skipIpv6Rdns?: boolean;
}

/**
 * The account's IP addresses (private addresses are not listed by the API).
 *
 * @example
 * ```ts
 * export const publicV4 = compute.getIpsOutput({ type: "ipv4", public: true }).apply((ips) => ips.map((ip) => ip.address));
 * ```
 */
export function getIps(args: GetIpsArgs = {}, options: FunctionOptions = {}): Promise<IpResult[]> {
  return withClient("getIps", options, async (client) => {
    const ips = await client.networking.ips.listAll(args.skipIpv6Rdns === undefined ? {} : { skipIpv6Rdns: args.skipIpv6Rdns });
    const computeId = args.computeId === undefined ? undefined : apiId(args.computeId);
    const address = args.address === undefined ? undefined : (canonicalIp(args.address) ?? args.address);
    return ips
      .filter((ip) => computeId === undefined || ip.compute_id === computeId)
      .filter((ip) => address === undefined || canonicalIp(ip.address) === address)
      .filter((ip) => hasGiven(ip, { type: args.type, public: args.public, region: args.region }))
      .map((ip) => camelizeDeep(ip) as IpResult);
  });
}

/**
 * The IPv6 pools, optionally of one region.
 *
 * @example
 * ```ts
 * export const pools = compute.getIpv6PoolsOutput({ region: "us-iad" });
 * ```
 */
export function getIpv6Pools(args: { region?: string } = {}, options: FunctionOptions = {}): Promise<Ipv6PoolResult[]> {
  return withClient("getIpv6Pools", options, async (client) =>
    (await client.networking.ipv6.pools.listAll())
      .filter((p) => hasGiven(p, { region: args.region }))
      .map((p) => camelizeDeep(p) as Ipv6PoolResult),
  );
}

/**
 * The account's IPv6 ranges, optionally of one region.
 *
 * @example
 * ```ts
 * export const ranges = compute.getIpv6RangesOutput({ region: "us-iad" }).apply((rs) => rs.map((r) => r.range));
 * ```
 */
export function getIpv6Ranges(args: { region?: string } = {}, options: FunctionOptions = {}): Promise<Ipv6RangeResult[]> {
  return withClient("getIpv6Ranges", options, async (client) =>
    (await client.networking.ipv6.ranges.listAll())
      .filter((r) => hasGiven(r, { region: args.region }))
      .map((r) => camelizeDeep(r) as Ipv6RangeResult),
  );
}

/**
 * One IPv6 range of the account, by its address, written with or without its prefix length
 * (`2001:db8:4:8000::` or `2001:db8:4:8000::/64`), with `isBgp` (shared) and the instances it is
 * routed to or shared with (`computes`).
 *
 * @example
 * ```ts
 * const web1 = compute.getIpsOutput({ address: "198.51.100.10" }).apply((ips) => ips[0]!.computeId!); // an instance of the account
 * const v6 = new compute.Ipv6Range("v6", { prefixLength: 64, computeId: web1 });
 * export const shared = compute.getIpv6RangeOutput({ range: v6.range }).apply((r) => r.isBgp);
 * ```
 */
export async function getIpv6Range(args: { range: string }, options: FunctionOptions = {}): Promise<Ipv6RangeViewResult> {
  const given = args.range.includes("/") ? splitRange(args.range) : { range: canonicalIpv6(args.range), prefix: undefined };
  if (!given?.range)
    throw new Error(`getIpv6Range: range ${JSON.stringify(args.range)} is not an IPv6 address, with or without a prefix length`);
  const address = given.range;
  return withClient("getIpv6Range", options, async (client) => {
    const missing = `getIpv6Range: no IPv6 range ${args.range} in this account`;
    const range = await orMissing(() => client.networking.ipv6.ranges.get(address), missing);
    if (given.prefix !== undefined && given.prefix !== range.prefix)
      throw new Error(`${missing} (the range at ${address} is /${range.prefix})`);
    return camelizeDeep(range) as Ipv6RangeViewResult;
  });
}

/** `getIps` taking Inputs and answering an Output. */
export const getIpsOutput = outputForm(getIps);
/** `getIpv6Pools` taking Inputs and answering an Output. */
export const getIpv6PoolsOutput = outputForm(getIpv6Pools);
/** `getIpv6Ranges` taking Inputs and answering an Output. */
export const getIpv6RangesOutput = outputForm(getIpv6Ranges);
/** `getIpv6Range` taking Inputs and answering an Output. */
export const getIpv6RangeOutput = outputForm(getIpv6Range);
