/**
 * The forward-DNS check behind reverse DNS (spec: "forward DNS must already exist"): the name
 * must resolve to the address through an A (IPv4) or AAAA (IPv6) record in one of the account's
 * domains. The DNS service stores zones as `account.domains`; this module reads that structural
 * shape only (zone name, records of `{type, name relative to the zone ("" = apex), target}`), so
 * it does not depend on the DNS service's code.
 */
import type { AccountState } from "../../core/state";
import { canonicalIpv6, parseIpv4 } from "../../../sdk/core/net";
import { canonicalRdns } from "../../../sdk/resources/ips";

/** The part of a stored record this check reads. */
export interface ForwardRecord {
  type: string;
  /** Relative to the zone; `""` for the apex. A name ending in `.` is taken as absolute. */
  name: string;
  target: string;
}

/** The part of a stored domain this check reads. */
export interface ForwardZone {
  domain: string;
  records: ForwardRecord[];
}

/** The account's zones, or none when the DNS service keeps nothing (yet). */
export function accountZones(account: AccountState): readonly ForwardZone[] {
  return (account as unknown as { domains?: ForwardZone[] }).domains ?? [];
}

/** The fully qualified name of a record, lower case, without the final dot. */
export function recordFqdn(zone: string, name: string): string {
  if (name.endsWith(".")) return canonicalRdns(name);
  const origin = canonicalRdns(zone);
  return name === "" || name === "@" ? origin : `${canonicalRdns(name)}.${origin}`;
}

/** True when a record points the name at the address (AAAA targets compared canonically). */
function pointsAt(record: ForwardRecord, address: string): boolean {
  const type = record.type.toUpperCase();
  if (parseIpv4(address) !== undefined) return type === "A" && record.target.trim() === address;
  const wanted = canonicalIpv6(address);
  return type === "AAAA" && wanted !== undefined && canonicalIpv6(record.target.trim()) === wanted;
}

/** Whether an A/AAAA record of the account resolves `name` (any case, optional final dot) to `address`. */
export function forwardRecordExists(account: AccountState, name: string, address: string): boolean {
  const fqdn = canonicalRdns(name);
  return accountZones(account).some((zone) =>
    zone.records.some((record) => recordFqdn(zone.domain, record.name) === fqdn && pointsAt(record, address)),
  );
}
