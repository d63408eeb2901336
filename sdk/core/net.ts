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
