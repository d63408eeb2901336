/**
 * Domains (DNS zones) and their records (spec "Domain", "Domain record", "Domains" endpoints;
 * api-facts P2-7, P2-8, P2-9): the records, the endpoint table and the class. The request schemas
 * with the API's rules and reason texts, and the pure functions of the type rules, TTL rounding,
 * name and target spelling, are in `sdk/rules/domains.ts` and `sdk/rules/domain-records.ts`,
 * re-exported here: the sdk's validation, the emulator's rules and the provider's `check` and
 * normalization share them, so every layer agrees on what a record means.
 */
import { z } from "zod";
import { Timestamp, filterable } from "../core/schema";
import { crud, endpoints, readWrite } from "../core/endpoint";
import { resource } from "../core/resource";
import { DomainCloneRequest, DomainCreateRequest, DomainImportRequest, DomainType, DomainUpdateRequest } from "../rules/domains";
import { RecordCreateRequest, RecordType, RecordUpdateRequest } from "../rules/domain-records";
export * from "../rules/domains";
export * from "../rules/domain-records";

// ---------------------------------------------------------------------------------------------
// response schemas (tolerant)

/** A domain (DNS zone) as the API returns it. */
export const Domain = z.looseObject({
  id: z.number().int(),
  type: DomainType,
  domain: z.string(),
  /** Absent from the 2018 recordings (`domain.list.filtered.json`). */
  tags: z.array(z.string()).optional(),
  group: z.string(),
  /** `active` or `disabled`; the client UI also knows `edit_mode` and `has_errors`. */
  status: z.string(),
  /** Undocumented, always `""` in the recordings. */
  errors: z.string().optional(),
  description: z.string(),
  soa_email: z.string(),
  retry_sec: z.number().int(),
  master_ips: z.array(z.string()),
  axfr_ips: z.array(z.string()),
  expire_sec: z.number().int(),
  refresh_sec: z.number().int(),
  ttl_sec: z.number().int(),
  created: Timestamp.optional(),
  updated: Timestamp.optional(),
});
export type Domain = z.infer<typeof Domain>;

/** A domain record as the API returns it. */
export const DomainRecord = z.looseObject({
  id: filterable(z.number().int()),
  type: filterable(RecordType),
  name: filterable(z.string()),
  target: filterable(z.string()),
  priority: z.number().int(),
  weight: z.number().int(),
  port: z.number().int(),
  service: z.string().nullable(),
  protocol: z.string().nullable(),
  ttl_sec: z.number().int(),
  tag: filterable(z.string().nullable()),
  /** Absent from the 2018 recordings. */
  created: filterable(Timestamp.optional()),
  updated: filterable(Timestamp.optional()),
});
export type DomainRecord = z.infer<typeof DomainRecord>;

/** `GET /domains/{domainId}/zone-file`: the lines of the last rendered zone (`[]` until the first render). */
export const ZoneFile = z.looseObject({ zone_file: z.array(z.string()) });
export type ZoneFile = z.infer<typeof ZoneFile>;

// ---------------------------------------------------------------------------------------------
// endpoints

const [READ, WRITE] = readWrite("domains", "domains");

/** The `/domains` endpoints (spec "Domains"). */
export const DOMAIN_ENDPOINTS = endpoints("domains", {
  ...crud(READ, WRITE, "/domains", "domainId", Domain, {
    list: "Domain collection",
    create: ["Create a domain", DomainCreateRequest],
    get: "One domain",
    update: ["Update any writable field of a domain, its name included", DomainUpdateRequest],
    delete: "Delete a domain and all its records",
  }),
  importZone: {
    ...WRITE.post,
    path: "/domains/import",
    summary: "Import a domain by zone transfer (AXFR) from a remote nameserver",
    body: DomainImportRequest,
    response: Domain,
  },
  clone: {
    ...WRITE.post,
    path: "/domains/{domainId}/clone",
    summary: "Clone a domain with all its records under a new name",
    body: DomainCloneRequest,
    response: Domain,
  },
  zoneFile: {
    ...READ.get,
    path: "/domains/{domainId}/zone-file",
    summary: "The lines of the domain's last rendered zone",
    response: ZoneFile,
  },
  /** `/domains/{domainId}/records`. */
  records: crud(READ, WRITE, "/domains/{domainId}/records", "recordId", DomainRecord, {
    list: "Record collection of a domain",
    create: ["Create a record", RecordCreateRequest],
    get: "One record",
    update: ["Update a record (every field but its type)", RecordUpdateRequest],
    delete: "Delete a record",
  }),
});

/**
 * `/domains`: DNS zones, with their records (`domains.records`). Create, clone and import are
 * POSTs without an idempotency key: never retried after an ambiguous failure (look the domain
 * up by name instead; names are unique on the whole platform).
 */
export class Domains extends resource(DOMAIN_ENDPOINTS) {}
