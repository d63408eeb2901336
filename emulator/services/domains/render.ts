/** Domains and records on the wire: key order as in `fixtures/domain.get.json`, `domain_record.get.json`. */
import type { Domain, DomainRecord } from "../../../sdk/resources/domains";
import type { StoredDomain, StoredRecord } from "./store";

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
