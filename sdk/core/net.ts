/**
 * IPv4 address and range arithmetic used by request validation (sdk), the emulator's rules and
 * the provider's normalization. Pure functions on 32-bit integers; no dependencies.
 */

/** Parses dotted-quad IPv4 without leading zeroes (`010.0.0.1` is refused, as the API does). */
export function parseIpv4(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    value = value * 256 + n;
  }
  return value;
}

/** Unsigned 32-bit integer → dotted quad. */
export function formatIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join(".");
}

/** An IPv4 network: its first address as an integer and its prefix length. */
export interface Ipv4Range {
  /** First address of the range, as an unsigned 32-bit integer. */
  network: number;
  prefix: number;
  /** True when the text had no host bits set (`10.0.0.0/24`, not `10.0.0.1/24`). */
  canonical: boolean;
}

/** Parses `a.b.c.d/len`. A bare address is not a range here: callers decide what it means. */
export function parseIpv4Cidr(text: string): Ipv4Range | undefined {
  const match = /^([0-9.]+)\/(0|[1-9][0-9]?)$/.exec(text);
  if (!match) return undefined;
  const address = parseIpv4(match[1]!);
  const prefix = Number(match[2]);
  if (address === undefined || prefix > 32) return undefined;
  const size = 2 ** (32 - prefix);
  const network = address - (address % size);
  return { network, prefix, canonical: network === address };
}

/** Range → `a.b.c.d/len`. */
export function formatIpv4Cidr(range: Pick<Ipv4Range, "network" | "prefix">): string {
  return `${formatIpv4(range.network)}/${range.prefix}`;
}

/** Last address of a range. */
export function ipv4RangeEnd(range: Pick<Ipv4Range, "network" | "prefix">): number {
  return range.network + 2 ** (32 - range.prefix) - 1;
}

/** True when the two ranges share at least one address. */
export function ipv4RangesOverlap(a: Pick<Ipv4Range, "network" | "prefix">, b: Pick<Ipv4Range, "network" | "prefix">): boolean {
  return a.network <= ipv4RangeEnd(b) && b.network <= ipv4RangeEnd(a);
}

/** True when `inner` lies entirely inside `outer`. */
export function ipv4RangeWithin(inner: Pick<Ipv4Range, "network" | "prefix">, outer: Pick<Ipv4Range, "network" | "prefix">): boolean {
  return inner.network >= outer.network && ipv4RangeEnd(inner) <= ipv4RangeEnd(outer);
}

const cidr = (text: string) => parseIpv4Cidr(text)!;

/** RFC 1918 private address space. */
export const RFC1918_RANGES: readonly Ipv4Range[] = [cidr("10.0.0.0/8"), cidr("172.16.0.0/12"), cidr("192.168.0.0/16")];

/** The range used by classic private IPs; VPC subnets must not overlap it (api-facts P2-1). */
export const CLASSIC_PRIVATE_RANGE: Ipv4Range = cidr("192.168.128.0/17");

/** Netmask of a prefix length, dotted-quad (`25` → `255.255.255.128`). */
export function ipv4Netmask(prefix: number): string {
  return formatIpv4(2 ** 32 - 2 ** (32 - prefix));
}

// ---------------------------------------------------------------------------------------------
// IPv6 (128-bit values as bigint). Used by the IP address, IPv6 range and firewall schemas, the
// emulator's address plan, and the provider's canonical comparison of addresses.

const IPV6_BITS = 128n;
const IPV6_MAX = (1n << IPV6_BITS) - 1n;

/**
 * Parses an IPv6 address in any RFC 4291 text form (`::` compression, upper or lower case, an
 * embedded dotted-quad tail such as `::ffff:192.0.2.1`). No zone id (RFC 4007), no prefix length.
 */
export function parseIpv6(text: string): bigint | undefined {
  if (!/^[0-9A-Fa-f:.]+$/.test(text) || text.length > 45) return undefined;
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const groupsOf = (part: string): number[] | undefined => {
    if (part === "") return [];
    const pieces = part.split(":");
    const groups: number[] = [];
    for (const [i, piece] of pieces.entries()) {
      if (piece.includes(".")) {
        // A dotted quad may only end the address, and stands for two groups.
        if (i !== pieces.length - 1) return undefined;
        const v4 = parseIpv4(piece);
        if (v4 === undefined) return undefined;
        groups.push(Math.floor(v4 / 65536), v4 % 65536);
      } else {
        if (!/^[0-9A-Fa-f]{1,4}$/.test(piece)) return undefined;
        groups.push(parseInt(piece, 16));
      }
    }
    return groups;
  };
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (!head || !tail) return undefined;
  // A dotted quad is only allowed at the very end.
  if (halves.length === 2 && halves[0]!.includes(".")) return undefined;
  let groups: number[];
  if (halves.length === 2) {
    const missing = 8 - head.length - tail.length;
    if (missing < 1) return undefined;
    groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
  } else {
    groups = head;
  }
  if (groups.length !== 8) return undefined;
  return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

/** RFC 5952 canonical text: lower case, no leading zeroes, the longest run of two or more zero groups as `::` (the first on a tie). */
export function formatIpv6(value: bigint): string {
  const groups: number[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(Number((value >> shift) & 0xffffn));
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j += 1;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}

/** The canonical spelling of an IPv6 address, or undefined when the text is not one. */
export function canonicalIpv6(text: string): string | undefined {
  const value = parseIpv6(text);
  return value === undefined ? undefined : formatIpv6(value);
}

/** The canonical spelling of an IPv4 or IPv6 address (IPv4 is already canonical when it parses). */
export function canonicalIp(text: string): string | undefined {
  if (parseIpv4(text) !== undefined) return text;
  return canonicalIpv6(text);
}

/** An IPv6 network: its first address as a bigint and its prefix length. */
export interface Ipv6Network {
  /** First address of the range. */
  network: bigint;
  prefix: number;
  /** True when the text had no host bits set. */
  canonical: boolean;
}

/** Parses `addr/len` (len 0..128). A bare address is not a range here: callers decide what it means. */
export function parseIpv6Cidr(text: string): Ipv6Network | undefined {
  const match = /^([^/]+)\/(0|[1-9][0-9]{0,2})$/.exec(text);
  if (!match) return undefined;
  const address = parseIpv6(match[1]!);
  const prefix = Number(match[2]);
  if (address === undefined || prefix > 128) return undefined;
  const hostBits = BigInt(128 - prefix);
  const network = (address >> hostBits) << hostBits;
  return { network, prefix, canonical: network === address };
}

/** Range → canonical `addr/len`. */
export function formatIpv6Cidr(range: Pick<Ipv6Network, "network" | "prefix">): string {
  return `${formatIpv6(range.network)}/${range.prefix}`;
}

/** Last address of an IPv6 range. */
export function ipv6RangeEnd(range: Pick<Ipv6Network, "network" | "prefix">): bigint {
  return range.network + (1n << BigInt(128 - range.prefix)) - 1n;
}

/** True when the two IPv6 ranges share at least one address. */
export function ipv6RangesOverlap(a: Pick<Ipv6Network, "network" | "prefix">, b: Pick<Ipv6Network, "network" | "prefix">): boolean {
  return a.network <= ipv6RangeEnd(b) && b.network <= ipv6RangeEnd(a);
}

/** Netmask of an IPv6 prefix length, canonical text (`64` → `ffff:ffff:ffff:ffff::`). */
export function ipv6Netmask(prefix: number): string {
  return formatIpv6(IPV6_MAX ^ ((1n << BigInt(128 - prefix)) - 1n));
}

/** An address or a network of either family, its addresses as one range of integers. */
export interface IpNetwork {
  family: 4 | 6;
  /** First address of the range. */
  network: bigint;
  prefix: number;
}

/**
 * Parses an IPv4 or IPv6 network (`addr/len`) or address (a one-address network), in any spelling
 * the parsers above accept (IPv6 compressed or not, any case, host bits set: `1.2.3.4/0` is every
 * IPv4 address); undefined when the text is neither.
 */
export function parseIpNetwork(text: string): IpNetwork | undefined {
  const [address = "", prefixText, ...rest] = text.trim().split("/");
  if (rest.length > 0 || (prefixText !== undefined && !/^(0|[1-9][0-9]{0,2})$/.test(prefixText))) return undefined;
  const v4 = parseIpv4(address);
  const value = v4 !== undefined ? BigInt(v4) : parseIpv6(address);
  if (value === undefined) return undefined;
  const family = v4 !== undefined ? 4 : 6;
  const bits = family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return undefined;
  const hostBits = BigInt(bits - prefix);
  return { family, network: (value >> hostBits) << hostBits, prefix };
}

/** True when every address of `inner` is in `outer` (networks of one family). */
export function ipNetworkWithin(inner: IpNetwork, outer: IpNetwork): boolean {
  if (inner.family !== outer.family || inner.prefix < outer.prefix) return false;
  const hostBits = BigInt((outer.family === 4 ? 32 : 128) - outer.prefix);
  return inner.network >> hostBits === outer.network >> hostBits;
}
