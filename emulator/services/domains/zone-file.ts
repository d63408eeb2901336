/**
 * The rendered zone: what `GET /domains/{id}/zone-file` returns, "the lines of the last rendered
 * zone". The platform renders a zone a while after it changes (a freshly created domain answers
 * `zone_file: []`, `fixtures/domain.zone_file.json`), so rendering is a pending transition stored
 * on the domain (`pending_render: {at}`) and applied by the clock — by its task, and lazily by
 * every domain route, so a state file written with a render pending still renders after a
 * restart. Several changes within the delay are rendered together, as they were at the due time.
 *
 * The text is RFC 1035 master-file syntax, one resource record per line with fully qualified
 * owners: the SOA from the domain's fields (0 means the default, api-facts P2-9), the platform's
 * NS records, then every record. A `disabled` domain is not rendered (its zone file stays what it
 * last was), and neither is a `slave`, whose records come from its masters, not from the API.
 */
import { DOMAIN_SECONDS_DEFAULTS } from "../../../sdk/resources/domains";
import type { EmulatorRuntime } from "../../core/runtime";
import type { AccountState } from "../../core/state";
import { formatTimestamp } from "../../core/clock";
import { DOMAINS, type StoredDomain, type StoredRecord } from "./store";

/** Emulated time between a change and the render that includes it. */
export const ZONE_RENDER_DELAY_MS = 60_000;

/** The platform's nameservers: the SOA's primary and the apex NS records of every zone. */
export const PLATFORM_NAMESERVERS = [
  "ns1.compute.com",
  "ns2.compute.com",
  "ns3.compute.com",
  "ns4.compute.com",
  "ns5.compute.com",
] as const;

/** `admin@example.com` → `admin.example.com.` (dots in the local part escaped, RFC 1035 §8). */
export function soaMailbox(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 0) return `${email}.`;
  return `${email.slice(0, at).replace(/\./g, "\\.")}.${email.slice(at + 1)}.`;
}

/** A TXT record's text as RFC 1035 character-strings: quoted, escaped, in pieces of at most 255 characters. */
export function txtRdata(text: string): string {
  const pieces: string[] = [];
  for (let i = 0; i < text.length || pieces.length === 0; i += 255) pieces.push(text.slice(i, i + 255));
  return pieces.map((p) => `"${p.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(" ");
}

function rdata(record: StoredRecord): string {
  switch (record.type) {
    case "A":
    case "AAAA":
      return record.target;
    case "MX":
      return `${record.priority} ${record.target}.`;
    case "SRV":
      return `${record.priority} ${record.weight} ${record.port} ${record.target}.`;
    case "TXT":
      return txtRdata(record.target);
    case "CAA":
      return `0 ${record.tag} "${record.target.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
    default: // NS, CNAME, PTR: a host name
      return `${record.target}.`;
  }
}

/** The zone's lines for `serial`. */
export function renderZoneLines(domain: StoredDomain, serial: number): string[] {
  const origin = `${domain.domain}.`;
  const seconds = (key: keyof typeof DOMAIN_SECONDS_DEFAULTS) => domain[key] || DOMAIN_SECONDS_DEFAULTS[key];
  const ttl = seconds("ttl_sec");
  const soa = [
    `${PLATFORM_NAMESERVERS[0]}.`,
    soaMailbox(domain.soa_email),
    serial,
    seconds("refresh_sec"),
    seconds("retry_sec"),
    seconds("expire_sec"),
    ttl,
  ].join(" ");
  const lines = [`; ${domain.domain} [${domain.id}]`, `$ORIGIN ${origin}`, `$TTL ${ttl}`, `${origin} ${ttl} IN SOA ${soa}`];
  for (const ns of PLATFORM_NAMESERVERS) lines.push(`${origin} ${ttl} IN NS ${ns}.`);
  for (const record of domain.records) {
    const owner = record.name === "" ? origin : `${record.name}.${origin}`;
    lines.push(`${owner} ${record.ttl_sec || ttl} IN ${record.type} ${rdata(record)}`);
  }
  return lines;
}

/** `YYYYMMDDnn`: the date of the render, and a counter that keeps serials increasing. */
function nextSerial(previous: number, atMs: number): number {
  const day = Number(formatTimestamp(atMs).slice(0, 10).replace(/-/g, "")) * 100;
  return Math.max(day, previous + 1);
}

/** Applies a render that has come due (at its due time). Returns whether it did. */
export function settleRender(domain: StoredDomain, nowMs: number): boolean {
  const pending = domain.pending_render;
  if (!pending || pending.at > nowMs) return false;
  domain.pending_render = null;
  if (domain.status === "disabled" || domain.type === "slave") return true;
  domain.zone_serial = nextSerial(domain.zone_serial, pending.at);
  domain.zone_file = renderZoneLines(domain, domain.zone_serial);
  return true;
}

/**
 * Schedules the render that will include the change just made. A render already pending takes it
 * along (it renders the state of its due time), so a burst of changes renders once.
 */
export function scheduleRender(runtime: EmulatorRuntime, account: AccountState, domain: StoredDomain): void {
  settleRender(domain, runtime.clock.nowMs());
  if (domain.pending_render) return;
  const at = runtime.clock.nowMs() + ZONE_RENDER_DELAY_MS;
  domain.pending_render = { at };
  const id = domain.id;
  runtime.clock.at(at, () => {
    const current = DOMAINS.of(account).find((d) => d.id === id);
    if (current) settleRender(current, runtime.clock.nowMs());
  });
}
