/**
 * Domains (DNS zones) and their records as stored. Request shapes and field rules come from the sdk
 * (`sdk/resources/domains.ts`), which also says how the API spells what it stores (relative names,
 * targets without a trailing period, rounded TTLs): `recordFields` applies it. The rules that need
 * state live in `rules.ts`, the wire rendering in `render.ts`, the rendered zone in `zone-file.ts`,
 * the mutations with their events in `operations.ts`.
 *
 * State contract (read by other services, e.g. reverse DNS): `DOMAINS` is a list of `StoredDomain`,
 * each with `domain` (the zone name, lower case) and `records`, each record with `type`, `name`
 * (relative to the zone, `""` for the apex) and `target` (no trailing period).
 */
import type { DomainRecord, DomainType, RecordFields, RecordUpdateRequest } from "../../../sdk/resources/domains";
import {
  roundRecordTtl,
  relativeRecordName,
  srvBaseName,
  srvLabel,
  srvRecordName,
  storedRecordTarget,
} from "../../../sdk/resources/domains";
import { type AccountState, type EmulatorState, type StoredShape, accountSlice, idCounter } from "../../core/state";

/**
 * A record as stored: the sdk's `DomainRecord`, in the API's spelling (`recordFields`): `name`
 * relative to the zone, lower case, `""` for the apex, SRV names with the generated
 * `_service._protocol`; `target` without a trailing period, host names lower case and fully
 * qualified. `created` and `updated` are stamped on create (only the 2018 recordings lack them).
 */
export type StoredRecord = StoredShape<typeof DomainRecord, never, { created: string; updated: string }>;

export interface StoredDomain {
  id: number;
  /** The zone name, lower case, no trailing period. Unique on the whole platform. */
  domain: string;
  type: DomainType;
  status: "active" | "disabled";
  soa_email: string;
  master_ips: string[];
  axfr_ips: string[];
  description: string;
  group: string;
  tags: string[];
  refresh_sec: number;
  retry_sec: number;
  expire_sec: number;
  ttl_sec: number;
  created: string;
  updated: string;
  records: StoredRecord[];
  /** The zone as last rendered: what `GET /domains/{id}/zone-file` answers (`[]` before the first render). */
  zone_file: string[];
  /** SOA serial of the last render (`YYYYMMDDnn`); 0 before the first. */
  zone_serial: number;
  /** A render due on the clock (epoch ms of emulated time); kept in state so a restart still renders. */
  pending_render: { at: number } | null;
}

/** `accounts[id].domains`, each with its records; names are unique platform-wide. */
export const DOMAINS = accountSlice("domains", (): StoredDomain[] => []);
export const DOMAIN_ID = idCounter("domain", 1_900_000);
export const DOMAIN_RECORD_ID = idCounter("domain_record", 22_200_000);

/**
 * A record write as the API receives it: the sdk's `RecordFields` (what the record rules read), with
 * the type as the request schemas give it (absent on an update) and the TTL.
 */
export type RecordWrite = Omit<RecordFields, "type"> & Pick<RecordUpdateRequest, "type" | "ttl_sec">;

export const domainUrl = (id: number) => `/v4/domains/${id}`;

export function findDomain(account: AccountState, id: number): StoredDomain | undefined {
  return DOMAINS.of(account).find((d) => d.id === id);
}

export function findRecord(domain: StoredDomain, id: number): StoredRecord | undefined {
  return domain.records.find((r) => r.id === id);
}

/** Every domain of every account: names are unique across the whole platform. */
export function platformDomains(state: EmulatorState): StoredDomain[] {
  return Object.values(state.accounts).flatMap((a) => DOMAINS.of(a));
}

export function domainNameTaken(state: EmulatorState, name: string, except?: StoredDomain): boolean {
  const wanted = name.toLowerCase();
  return platformDomains(state).some((d) => d !== except && d.domain === wanted);
}

/**
 * The record as the API stores it from a (validated) input, merged over `previous` on update:
 * the name relative to the zone (SRV names generated from service and protocol), the target in
 * the API's spelling, the TTL rounded, and fields that do not apply to the type at the values the
 * API reports for them (0 and null).
 */
export function recordFields(zone: string, input: RecordWrite, previous?: StoredRecord): Omit<StoredRecord, "id" | "created" | "updated"> {
  const type = (previous?.type ?? input.type)!;
  const srv = type === "SRV";
  const service = srv ? srvLabel((input.service ?? previous?.service)!) : null;
  const protocol = srv ? srvLabel((input.protocol ?? previous?.protocol)!) : null;
  let name: string;
  if (input.name !== undefined && input.name !== null) name = relativeRecordName(input.name, zone) ?? input.name.toLowerCase();
  else name = previous?.name ?? "";
  if (srv) {
    // Given names may already carry the generated prefix (a record read back and written again).
    const base = previous?.service ? srvBaseName(name, previous.service, previous.protocol ?? "") : name;
    name = srvRecordName(service!, protocol!, srvBaseName(base, service!, protocol!));
  }
  const number = (value: number | null | undefined, old: number | undefined) => value ?? old ?? 0;
  return {
    type,
    name,
    target: input.target !== undefined && input.target !== null ? storedRecordTarget(type, input.target, zone) : previous!.target,
    priority: type === "MX" || srv ? number(input.priority, previous?.priority) : 0,
    weight: srv ? number(input.weight, previous?.weight) : 0,
    port: srv ? number(input.port, previous?.port) : 0,
    service,
    protocol,
    ttl_sec: input.ttl_sec !== undefined ? roundRecordTtl(input.ttl_sec) : (previous?.ttl_sec ?? 0),
    tag: type === "CAA" ? (input.tag ?? previous?.tag ?? null) : null,
  };
}
