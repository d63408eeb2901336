/**
 * Domains (DNS zones) and their records: stored records, their wire rendering (key order as in
 * `fixtures/domain.get.json`, `domain_record.get.json`) and the mutations with their events
 * (`dns_zone_*`, `dns_record_*`, api-facts P6-2). Request shapes and field rules come from the sdk
 * (`sdk/resources/domains.ts`), which also says how the API spells what it stores (relative
 * names, targets without a trailing period, rounded TTLs); the rules that need state live in
 * `rules.ts`, the rendered zone in `zone-file.ts`.
 *
 * State contract (read by other services, e.g. reverse DNS): `account.domains` is a list of
 * `StoredDomain`, each with `domain` (the zone name, lower case) and `records`, each record with
 * `type`, `name` (relative to the zone, `""` for the apex) and `target` (no trailing period).
 */
import type { Domain, DomainRecord, DomainType, RecordType } from "../../../sdk/resources/domains";
import {
  roundRecordTtl,
  roundUpDomainSeconds,
  relativeRecordName,
  srvBaseName,
  srvLabel,
  srvRecordName,
  storedRecordTarget,
} from "../../../sdk/resources/domains";
import type { EmulatorRuntime } from "../../core/runtime";
import type { AccountState, EmulatorState, UserRecord } from "../../core/state";
import { eventEntity, recordEvent } from "../events/models";
import { scheduleRender } from "./zone-file";

export interface StoredRecord {
  id: number;
  type: RecordType;
  /** Relative to the zone, lower case; `""` is the apex. SRV names include the generated `_service._protocol`. */
  name: string;
  /** Without a trailing period; host names lower case and fully qualified. */
  target: string;
  priority: number;
  weight: number;
  port: number;
  service: string | null;
  protocol: string | null;
  ttl_sec: number;
  tag: string | null;
  created: string;
  updated: string;
}

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

/** Writable domain fields as the request schemas give them. */
export interface DomainInput {
  domain?: string | undefined;
  type?: DomainType | undefined;
  status?: "active" | "disabled" | undefined;
  soa_email?: string | undefined;
  master_ips?: string[] | null | undefined;
  axfr_ips?: string[] | null | undefined;
  description?: string | undefined;
  group?: string | undefined;
  tags?: string[] | null | undefined;
  refresh_sec?: number | undefined;
  retry_sec?: number | undefined;
  expire_sec?: number | undefined;
  ttl_sec?: number | undefined;
}

/** Record fields as the request schemas give them (before the API's spelling is applied). */
export interface RecordInput {
  type?: RecordType | undefined;
  name?: string | undefined;
  target?: string | undefined;
  ttl_sec?: number | undefined;
  priority?: number | null | undefined;
  weight?: number | null | undefined;
  port?: number | null | undefined;
  service?: string | null | undefined;
  protocol?: string | null | undefined;
  tag?: string | null | undefined;
}

export function findDomain(account: AccountState, id: number): StoredDomain | undefined {
  return account.domains.find((d) => d.id === id);
}

export function findRecord(domain: StoredDomain, id: number): StoredRecord | undefined {
  return domain.records.find((r) => r.id === id);
}

/** Every domain of every account: names are unique across the whole platform. */
export function platformDomains(state: EmulatorState): StoredDomain[] {
  return Object.values(state.accounts).flatMap((a) => a.domains ?? []);
}

export function domainNameTaken(state: EmulatorState, name: string, except?: StoredDomain): boolean {
  const wanted = name.toLowerCase();
  return platformDomains(state).some((d) => d !== except && d.domain === wanted);
}

export function renderDomain(domain: StoredDomain): Domain {
  return {
    id: domain.id,
    type: domain.type,
    domain: domain.domain,
    tags: [...domain.tags],
    group: domain.group,
    status: domain.status,
    errors: "",
    description: domain.description,
    soa_email: domain.soa_email,
    retry_sec: domain.retry_sec,
    master_ips: [...domain.master_ips],
    axfr_ips: [...domain.axfr_ips],
    expire_sec: domain.expire_sec,
    refresh_sec: domain.refresh_sec,
    ttl_sec: domain.ttl_sec,
    created: domain.created,
    updated: domain.updated,
  };
}

export function renderRecord(record: StoredRecord): DomainRecord {
  return {
    id: record.id,
    type: record.type,
    name: record.name,
    target: record.target,
    priority: record.priority,
    weight: record.weight,
    port: record.port,
    service: record.service,
    protocol: record.protocol,
    ttl_sec: record.ttl_sec,
    tag: record.tag,
    created: record.created,
    updated: record.updated,
  };
}

export const domainUrl = (id: number) => `/v4/domains/${id}`;
const domainEntity = (domain: StoredDomain) => eventEntity("domain", domain.id, domain.domain, domainUrl(domain.id));

/** Everything an operation needs to act on an account as a user. */
export interface Actor {
  runtime: EmulatorRuntime;
  account: AccountState;
  user: UserRecord;
}

function event(actor: Actor, action: string, domain: StoredDomain): void {
  recordEvent(actor.runtime, actor.account, { action, username: actor.user.username, entity: domainEntity(domain) });
}

/** Applies the writable fields the API stores as given or rounds (P2-9). */
function applyDomainFields(domain: StoredDomain, input: DomainInput): void {
  if (input.domain !== undefined) domain.domain = input.domain.toLowerCase();
  if (input.type !== undefined) domain.type = input.type;
  if (input.status !== undefined) domain.status = input.status;
  if (input.soa_email !== undefined) domain.soa_email = input.soa_email;
  if (input.master_ips !== undefined) domain.master_ips = [...(input.master_ips ?? [])];
  if (input.axfr_ips !== undefined) domain.axfr_ips = [...(input.axfr_ips ?? [])];
  if (input.description !== undefined) domain.description = input.description;
  if (input.group !== undefined) domain.group = input.group;
  if (input.tags !== undefined) domain.tags = [...new Set(input.tags ?? [])].sort();
  for (const key of ["refresh_sec", "retry_sec", "expire_sec", "ttl_sec"] as const) {
    if (input[key] !== undefined) domain[key] = roundUpDomainSeconds(input[key]);
  }
}

function newDomain(actor: Actor, input: DomainInput & { domain: string; type: DomainType }): StoredDomain {
  const now = actor.runtime.clock.timestamp();
  const domain: StoredDomain = {
    id: actor.runtime.nextId("domain"),
    domain: input.domain.toLowerCase(),
    type: input.type,
    status: "active",
    soa_email: "",
    master_ips: [],
    axfr_ips: [],
    description: "",
    group: "",
    tags: [],
    refresh_sec: 0,
    retry_sec: 0,
    expire_sec: 0,
    ttl_sec: 0,
    created: now,
    updated: now,
    records: [],
    zone_file: [],
    zone_serial: 0,
    pending_render: null,
  };
  applyDomainFields(domain, input);
  return domain;
}

/** `POST /domains`: event `dns_zone_create`; the zone renders on the clock. */
export function createDomain(actor: Actor, input: DomainInput & { domain: string; type: DomainType }): StoredDomain {
  const domain = newDomain(actor, input);
  actor.account.domains.push(domain);
  event(actor, "dns_zone_create", domain);
  scheduleRender(actor.runtime, actor.account, domain);
  return domain;
}

/** `PUT /domains/{id}`: any writable field; event `dns_zone_update`. */
export function updateDomain(actor: Actor, domain: StoredDomain, input: DomainInput): StoredDomain {
  applyDomainFields(domain, input);
  domain.updated = actor.runtime.clock.timestamp();
  event(actor, "dns_zone_update", domain);
  scheduleRender(actor.runtime, actor.account, domain);
  return domain;
}

/** `DELETE /domains/{id}`: the domain and its records; event `dns_zone_delete`. */
export function deleteDomain(actor: Actor, domain: StoredDomain): void {
  actor.account.domains = actor.account.domains.filter((d) => d !== domain);
  event(actor, "dns_zone_delete", domain);
}

/** `POST /domains/{id}/clone`: a new domain with the source's settings and a copy of every record; event `dns_zone_create`. */
export function cloneDomain(actor: Actor, source: StoredDomain, name: string): StoredDomain {
  const now = actor.runtime.clock.timestamp();
  const { records, zone_file: _zone, zone_serial: _serial, pending_render: _pending, id: _id, created: _c, updated: _u, ...settings } = source;
  const domain = newDomain(actor, { ...settings, domain: name });
  domain.records = records.map((r) => ({ ...r, id: actor.runtime.nextId("domain_record"), created: now, updated: now }));
  actor.account.domains.push(domain);
  event(actor, "dns_zone_create", domain);
  scheduleRender(actor.runtime, actor.account, domain);
  return domain;
}

/** `POST /domains/import`: a master domain holding the transferred records; event `dns_zone_import`. */
export function importDomain(actor: Actor, input: DomainInput & { domain: string; type: DomainType }, records: RecordInput[]): StoredDomain {
  const domain = newDomain(actor, input);
  domain.records = records.map((r) => buildRecord(actor, domain, r));
  actor.account.domains.push(domain);
  event(actor, "dns_zone_import", domain);
  scheduleRender(actor.runtime, actor.account, domain);
  return domain;
}

/**
 * The record as the API stores it from a (validated) input, merged over `previous` on update:
 * the name relative to the zone (SRV names generated from service and protocol), the target in
 * the API's spelling, the TTL rounded, and fields that do not apply to the type at the values the
 * API reports for them (0 and null).
 */
export function recordFields(zone: string, input: RecordInput, previous?: StoredRecord): Omit<StoredRecord, "id" | "created" | "updated"> {
  const type = (previous?.type ?? input.type)!;
  const srv = type === "SRV";
  const service = srv ? srvLabel((input.service ?? previous?.service)!) : null;
  const protocol = srv ? srvLabel((input.protocol ?? previous?.protocol)!) : null;
  let name: string;
  if (input.name !== undefined) name = relativeRecordName(input.name, zone) ?? input.name.toLowerCase();
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
    target: input.target !== undefined ? storedRecordTarget(type, input.target, zone) : previous!.target,
    priority: type === "MX" || srv ? number(input.priority, previous?.priority) : 0,
    weight: srv ? number(input.weight, previous?.weight) : 0,
    port: srv ? number(input.port, previous?.port) : 0,
    service,
    protocol,
    ttl_sec: input.ttl_sec !== undefined ? roundRecordTtl(input.ttl_sec) : previous?.ttl_sec ?? 0,
    tag: type === "CAA" ? (input.tag ?? previous?.tag ?? null) : null,
  };
}

function buildRecord(actor: Actor, domain: StoredDomain, input: RecordInput): StoredRecord {
  const now = actor.runtime.clock.timestamp();
  return { id: actor.runtime.nextId("domain_record"), ...recordFields(domain.domain, input), created: now, updated: now };
}

export function createRecord(actor: Actor, domain: StoredDomain, input: RecordInput): StoredRecord {
  const record = buildRecord(actor, domain, input);
  domain.records.push(record);
  event(actor, "dns_record_create", domain);
  scheduleRender(actor.runtime, actor.account, domain);
  return record;
}

export function updateRecord(actor: Actor, domain: StoredDomain, record: StoredRecord, input: RecordInput): StoredRecord {
  Object.assign(record, recordFields(domain.domain, input, record), { updated: actor.runtime.clock.timestamp() });
  event(actor, "dns_record_update", domain);
  scheduleRender(actor.runtime, actor.account, domain);
  return record;
}

export function deleteRecord(actor: Actor, domain: StoredDomain, record: StoredRecord): void {
  domain.records = domain.records.filter((r) => r !== record);
  event(actor, "dns_record_delete", domain);
  scheduleRender(actor.runtime, actor.account, domain);
}
