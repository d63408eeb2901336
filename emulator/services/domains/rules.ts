/**
 * The domain and record rules that need state: platform-wide name uniqueness (spec "Errors":
 * domain create, update, clone), the type rules of an updated domain (P2-7, P2-8, applied to the
 * result), names outside the zone, CNAME conflicts, the 12,000-record limit, slave domains being
 * read-only, and the type-specific record rules of an updated record (applied to the result).
 * Field-level rules are enforced by the sdk schemas before these run. Each check returns every
 * problem it finds.
 */
import type { ErrorEntry } from "../../../sdk/core/schema";
import {
  DOMAIN_REASONS,
  MAX_RECORDS_PER_DOMAIN,
  RECORD_REASONS,
  domainTypeErrors,
  recordRuleErrors,
  relativeRecordName,
} from "../../../sdk/resources/domains";
import type { DomainUpdateRequest } from "../../../sdk/resources/domains";
import type { EmulatorState } from "../../core/state";
import { entry } from "../../core/errors";
import { type RecordWrite, type StoredDomain, type StoredRecord, domainNameTaken, recordFields } from "./store";

export function checkDomainName(state: EmulatorState, name: string, except?: StoredDomain): ErrorEntry[] {
  return domainNameTaken(state, name, except) ? [entry(DOMAIN_REASONS.domainTaken, "domain")] : [];
}

export function checkDomainUpdate(state: EmulatorState, domain: StoredDomain, input: DomainUpdateRequest): ErrorEntry[] {
  const errors = input.domain !== undefined ? checkDomainName(state, input.domain, domain) : [];
  const merged = {
    type: input.type ?? domain.type,
    soa_email: input.soa_email ?? domain.soa_email,
    master_ips: input.master_ips !== undefined ? input.master_ips : domain.master_ips,
  };
  return [...errors, ...domainTypeErrors(merged)];
}

/** Another record with the same name blocks a CNAME, and a CNAME blocks any other record; the apex always holds SOA and NS. */
function cnameConflict(domain: StoredDomain, type: string, name: string, self?: StoredRecord): boolean {
  const others = domain.records.filter((r) => r !== self && r.name === name);
  if (type === "CNAME") return name === "" || others.length > 0;
  return others.some((r) => r.type === "CNAME");
}

function checkRecordResult(domain: StoredDomain, input: RecordWrite, previous?: StoredRecord): ErrorEntry[] {
  if (input.name !== undefined && input.name !== null && relativeRecordName(input.name, domain.domain) === undefined) {
    return [entry(RECORD_REASONS.nameOutsideDomain, "name")];
  }
  const result = recordFields(domain.domain, input, previous);
  return cnameConflict(domain, result.type, result.name, previous) ? [entry(RECORD_REASONS.cnameConflict, "name")] : [];
}

export function checkRecordCreate(domain: StoredDomain, input: RecordWrite): ErrorEntry[] {
  if (domain.type === "slave") return [entry(RECORD_REASONS.slaveReadOnly)];
  if (domain.records.length >= MAX_RECORDS_PER_DOMAIN) return [entry(RECORD_REASONS.recordLimit)];
  return checkRecordResult(domain, input);
}

/** The type-specific rules apply to the record as it would be after the update. */
export function checkRecordUpdate(domain: StoredDomain, record: StoredRecord, input: RecordWrite): ErrorEntry[] {
  if (domain.type === "slave") return [entry(RECORD_REASONS.slaveReadOnly)];
  if (input.type !== undefined && input.type !== record.type) return [entry(RECORD_REASONS.typeFixed, "type")];
  const pick = <K extends keyof RecordWrite>(key: K, stored: RecordWrite[K]) => (input[key] !== undefined ? input[key] : stored);
  const merged = {
    type: record.type,
    name: pick("name", record.name),
    target: pick("target", record.target),
    priority: pick("priority", record.priority),
    weight: pick("weight", record.weight),
    port: pick("port", record.port),
    service: pick("service", record.service),
    protocol: pick("protocol", record.protocol),
    tag: pick("tag", record.tag),
  };
  // Stored values passed these rules when they were written, so whatever fails comes from the input.
  const errors = recordRuleErrors(merged);
  return errors.length > 0 ? errors : checkRecordResult(domain, input, record);
}

/** The record limit applies to imports as a whole. */
export function checkImportSize(count: number): ErrorEntry[] {
  return count > MAX_RECORDS_PER_DOMAIN ? [entry(RECORD_REASONS.recordLimit)] : [];
}
