/**
 * The forward-DNS check behind reverse DNS (spec: "forward DNS must already exist"): the name
 * must resolve to the address through an A (IPv4) or AAAA (IPv6) record in one of the account's
 * domains (`DOMAINS`, the domains service's slice: zone names, records with `type`, `name` relative
 * to the zone (`""` = apex) and `target`). A record counts once it has been there for the
 * account's forward-DNS delay (`FORWARD_DNS_DELAY`, 0 by default), as a new record takes a while to
 * resolve on the real platform.
 */
import type { AccountState } from "../../core/state";
import { canonicalIpv6, parseIpv4 } from "../../../sdk/core/net";
import { canonicalRdns } from "../../../sdk/resources/ips";
import { DOMAINS, type StoredRecord } from "../domains/store";
import { FORWARD_DNS_DELAY } from "./store";

/** The fully qualified name of a record, lower case, without the final dot. */
export function recordFqdn(zone: string, name: string): string {
  if (name.endsWith(".")) return canonicalRdns(name);
  const origin = canonicalRdns(zone);
  return name === "" || name === "@" ? origin : `${canonicalRdns(name)}.${origin}`;
}

/** True when a record points the name at the address (AAAA targets compared canonically). */
function pointsAt(record: StoredRecord, address: string): boolean {
  const type = record.type.toUpperCase();
  if (parseIpv4(address) !== undefined) return type === "A" && record.target.trim() === address;
  const wanted = canonicalIpv6(address);
  return type === "AAAA" && wanted !== undefined && canonicalIpv6(record.target.trim()) === wanted;
}

/**
 * Whether an A/AAAA record of the account resolves `name` (any case, optional final dot) to
 * `address` at `nowMs` (emulated): written at least the account's forward-DNS delay ago.
 */
export function forwardRecordExists(account: AccountState, name: string, address: string, nowMs: number): boolean {
  const fqdn = canonicalRdns(name);
  const visibleBefore = nowMs - FORWARD_DNS_DELAY.of(account);
  return DOMAINS.of(account).some((zone) =>
    zone.records.some(
      (record) => recordFqdn(zone.domain, record.name) === fqdn && pointsAt(record, address) && Date.parse(record.updated) <= visibleBefore,
    ),
  );
}
