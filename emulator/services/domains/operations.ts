/**
 * What the domain endpoints do to the state, with their events (`dns_zone_*`, `dns_record_*`,
 * api-facts P6-2). Every change schedules the zone's render (`zone-file.ts`). Callers check the
 * rules (`rules.ts`) first.
 */
import type { DomainCreateRequest, DomainUpdateRequest } from "../../../sdk/resources/domains";
import { roundUpDomainSeconds } from "../../../sdk/resources/domains";
import type { Actor } from "../../core/runtime";
import { removeStored } from "../../core/state";
import { eventEntity, recordEvent } from "../events/operations";
import {
  DOMAINS,
  DOMAIN_ID,
  DOMAIN_RECORD_ID,
  type RecordWrite,
  type StoredDomain,
  type StoredRecord,
  domainUrl,
  recordFields,
} from "./store";
import { scheduleRender } from "./zone-file";

const domainEntity = (domain: StoredDomain) => eventEntity("domain", domain.id, domain.domain, domainUrl(domain.id));

function event(actor: Actor, action: string, domain: StoredDomain): void {
  recordEvent(actor, { action, entity: domainEntity(domain) });
}

/** Applies the writable fields the API stores as given or rounds (P2-9). */
function applyDomainFields(domain: StoredDomain, input: DomainUpdateRequest): void {
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

function newDomain(actor: Actor, input: DomainCreateRequest): StoredDomain {
  const now = actor.runtime.clock.timestamp();
  const domain: StoredDomain = {
    id: actor.runtime.nextId(DOMAIN_ID),
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
export function createDomain(actor: Actor, input: DomainCreateRequest): StoredDomain {
  const domain = newDomain(actor, input);
  DOMAINS.of(actor.account).push(domain);
  event(actor, "dns_zone_create", domain);
  scheduleRender(actor.runtime, actor.account, domain);
  return domain;
}

/** `PUT /domains/{id}`: any writable field; event `dns_zone_update`. */
export function updateDomain(actor: Actor, domain: StoredDomain, input: DomainUpdateRequest): StoredDomain {
  applyDomainFields(domain, input);
  domain.updated = actor.runtime.clock.timestamp();
  event(actor, "dns_zone_update", domain);
  scheduleRender(actor.runtime, actor.account, domain);
  return domain;
}

/** `DELETE /domains/{id}`: the domain and its records; event `dns_zone_delete`. */
export function deleteDomain(actor: Actor, domain: StoredDomain): void {
  removeStored(DOMAINS, actor.account, domain);
  event(actor, "dns_zone_delete", domain);
}

/** `POST /domains/{id}/clone`: a new domain with the source's settings and a copy of every record; event `dns_zone_create`. */
export function cloneDomain(actor: Actor, source: StoredDomain, name: string): StoredDomain {
  const now = actor.runtime.clock.timestamp();
  const {
    records,
    zone_file: _zone,
    zone_serial: _serial,
    pending_render: _pending,
    id: _id,
    created: _c,
    updated: _u,
    ...settings
  } = source;
  const domain = newDomain(actor, { ...settings, domain: name });
  domain.records = records.map((r) => ({ ...r, id: actor.runtime.nextId(DOMAIN_RECORD_ID), created: now, updated: now }));
  DOMAINS.of(actor.account).push(domain);
  event(actor, "dns_zone_create", domain);
  scheduleRender(actor.runtime, actor.account, domain);
  return domain;
}

/** `POST /domains/import`: a master domain holding the transferred records; event `dns_zone_import`. */
export function importDomain(actor: Actor, input: DomainCreateRequest, records: RecordWrite[]): StoredDomain {
  const domain = newDomain(actor, input);
  domain.records = records.map((r) => buildRecord(actor, domain, r));
  DOMAINS.of(actor.account).push(domain);
  event(actor, "dns_zone_import", domain);
  scheduleRender(actor.runtime, actor.account, domain);
  return domain;
}

function buildRecord(actor: Actor, domain: StoredDomain, input: RecordWrite): StoredRecord {
  const now = actor.runtime.clock.timestamp();
  return { id: actor.runtime.nextId(DOMAIN_RECORD_ID), ...recordFields(domain.domain, input), created: now, updated: now };
}

export function createRecord(actor: Actor, domain: StoredDomain, input: RecordWrite): StoredRecord {
  const record = buildRecord(actor, domain, input);
  domain.records.push(record);
  event(actor, "dns_record_create", domain);
  scheduleRender(actor.runtime, actor.account, domain);
  return record;
}

export function updateRecord(actor: Actor, domain: StoredDomain, record: StoredRecord, input: RecordWrite): StoredRecord {
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
