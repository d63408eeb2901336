/**
 * The emulator's address plan: where seeded and allocated addresses come from, and the values the
 * platform derives for them (gateways, prefixes, default reverse DNS). Everything IPv6 lives in the
 * documentation prefix 2001:db8::/32, one /48 per region of the catalog:
 *
 *   2001:db8:R::/48          region R (1-based position in the region catalog)
 *   2001:db8:R:N::/64        SLAAC segment; the interface id is EUI-64-like (f03c:91ff:fe..) from the instance id
 *   2001:db8:R:8000::/49     where IPv6 ranges (/56, /64) are carved from, lowest free block first
 *   2001:db8:R:ffff::/124    the region's IPv6 pool
 *
 * Public IPv4 addresses are /24s with the gateway at .1; allocated ones come from 172.233.0.0/16.
 * Private IPv4 addresses come from 192.168.128.0/17 (prefix 17, no gateway), as on the platform.
 */
import type { Ipv6Pool } from "../../../sdk/resources/ips";
import { formatIpv4, formatIpv6, ipv4Netmask, ipv6RangesOverlap, parseIpv4, parseIpv4Cidr, parseIpv6 } from "../../../sdk/core/net";
import { REGION_CATALOG } from "../regions/catalog";

export const PUBLIC_IPV4_PREFIX = 24;
export const PRIVATE_IPV4_PREFIX = 17;
export const SLAAC_PREFIX = 64;
export const SLAAC_GATEWAY = "fe80::1";
export const POOL_PREFIX = 124;
/** Platform zone of default reverse DNS names (`a-b-c-d.ip.computeusercontent.com`, api-facts P2-5). */
export const DEFAULT_RDNS_ZONE = "ip.computeusercontent.com";

const PRIVATE_BLOCK = parseIpv4Cidr("192.168.128.0/17")!;
const ALLOCATION_BLOCK = parseIpv4Cidr("172.233.0.0/16")!;
const DOCUMENTATION_PREFIX = 0x20010db8n << 96n;
const RANGE_BASE = 0x8000n << 64n;
const RANGE_AREA_BITS = 79n; // 2001:db8:R:8000::/49 spans 2^79 addresses

/** The region's /48, or undefined for a region the catalog does not know. */
function regionBlock(region: string): bigint | undefined {
  const index = REGION_CATALOG.findIndex((r) => r.id === region);
  return index < 0 ? undefined : DOCUMENTATION_PREFIX | (BigInt(index + 1) << 80n);
}

/** The SLAAC address the platform would give an instance: stable, unique per instance id. */
export function defaultSlaac(region: string, computeId: number): string | null {
  const block = regionBlock(region);
  if (block === undefined) return null;
  const segment = BigInt(Math.floor(computeId / 2 ** 24)) << 64n;
  const interfaceId = 0xf03c91fffe000000n + BigInt(computeId % 2 ** 24);
  return formatIpv6(block | segment | interfaceId);
}

/** The region's IPv6 pool (api-facts P2-5; shape and /124 size as the API documents it). */
export function regionPool(region: string): Ipv6Pool | undefined {
  const block = regionBlock(region);
  if (block === undefined) return undefined;
  const network = block | (0xffffn << 64n);
  return {
    range: formatIpv6(network),
    prefix: POOL_PREFIX,
    region,
    route_target: formatIpv6(network + (1n << BigInt(128 - POOL_PREFIX)) - 1n),
  };
}

/** Every region's pool, in catalog order. */
export function allPools(): Ipv6Pool[] {
  return REGION_CATALOG.map((r) => regionPool(r.id)!);
}

/**
 * The lowest free block of `prefix` bits in the region's range area, given the blocks already
 * taken (by any account: addresses are global). Undefined when the area is full.
 */
export function allocateRangeBlock(
  region: string,
  prefix: number,
  taken: ReadonlyArray<{ network: bigint; prefix: number }>,
): bigint | undefined {
  const block = regionBlock(region);
  if (block === undefined) return undefined;
  const step = 1n << BigInt(128 - prefix);
  const limit = 1n << RANGE_AREA_BITS;
  for (let offset = 0n; offset < limit; offset += step) {
    const network = block | RANGE_BASE | offset;
    if (!taken.some((t) => ipv6RangesOverlap(t, { network, prefix }))) return network;
  }
  return undefined;
}

/** The /24 gateway of a public IPv4 address (`203.0.113.7` → `203.0.113.1`). */
export function publicGateway(address: string): string {
  const value = parseIpv4(address)!;
  return formatIpv4(value - (value % 256) + 1);
}

export const publicNetmask = () => ipv4Netmask(PUBLIC_IPV4_PREFIX);
export const privateNetmask = () => ipv4Netmask(PRIVATE_IPV4_PREFIX);

/** True for an address of the private block (192.168.128.0/17). */
export function isPrivateIpv4(address: string): boolean {
  const value = parseIpv4(address);
  return value !== undefined && value >= PRIVATE_BLOCK.network && value < PRIVATE_BLOCK.network + 2 ** (32 - PRIVATE_BLOCK.prefix);
}

/** Host addresses of a block: not the network, not .1 (gateways), not the broadcast. */
function* hosts(block: { network: number; prefix: number }): Generator<string> {
  const end = block.network + 2 ** (32 - block.prefix) - 1;
  for (let n = block.network + 2; n < end; n++) {
    const last = n % 256;
    if (last === 0 || last === 1 || last === 255) continue;
    yield formatIpv4(n);
  }
}

/** The next public IPv4 address no instance holds. */
export function nextPublicIpv4(taken: ReadonlySet<string>): string | undefined {
  for (const address of hosts(ALLOCATION_BLOCK)) if (!taken.has(address)) return address;
  return undefined;
}

/** The next private IPv4 address no instance of the region holds. */
export function nextPrivateIpv4(taken: ReadonlySet<string>): string | undefined {
  for (const address of hosts(PRIVATE_BLOCK)) if (!taken.has(address)) return address;
  return undefined;
}

/** The platform's reverse DNS of a public IPv4 address (`194-195-113-99.ip.computeusercontent.com`). */
export function defaultRdns(address: string): string {
  return `${address.replace(/\./g, "-")}.${DEFAULT_RDNS_ZONE}`;
}

/** True when the text is an IPv6 address (no prefix length). */
export const isIpv6 = (text: string) => parseIpv6(text) !== undefined;
