/**
 * Domains (DNS zones) and their records (spec "Domain", "Domain record", "Domains" endpoints;
 * api-facts P2-7, P2-8, P2-9, P7-2). The request schemas carry the API's rules and reason texts;
 * the pure functions of `sdk/rules/domains.ts` (type rules, TTL rounding, name and target
 * spelling), re-exported here, are shared by the sdk's validation, the emulator's rules and the
 * provider's `check` and normalization, so every layer agrees on what a record means.
 */
import { z } from "zod";
import { Timestamp, clearable, filterable, missingOr, requiredString } from "../core/schema";
import { crud, endpoints, readWrite } from "../core/endpoint";
import { resource } from "../core/resource";
import {
  DOMAIN_REASONS,
  RECORD_REASONS,
  domainNameProblem,
  domainTypeErrors,
  isIpAddress,
  isRecordNameSpelling,
  recordRuleErrors,
} from "../rules/domains";
export * from "../rules/domains";

// ---------------------------------------------------------------------------------------------
// field schemas

const stringField = (field: string, required = false) =>
  required ? requiredString(field) : z.string({ error: `${field} must be a string` });

/** A whole number in a range; every failure (wrong type, fraction, out of range) reads `reason`. */
const intField = (reason: string, min: number, max?: number) => {
  const base = z
    .number({ error: () => reason })
    .int(reason)
    .min(min, reason);
  return max === undefined ? base : base.max(max, reason);
};

/** A domain (zone) name: RFC 1035, labels ≤ 63, total ≤ 253. */
export const DomainName = requiredString("domain", DOMAIN_REASONS.domainRequired).superRefine((text, ctx) => {
  const problem = domainNameProblem(text);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

/** A domain's type: `master` (authoritative) or `slave` (a read-only copy). */
export const DomainType = z.enum(["master", "slave"], missingOr(DOMAIN_REASONS.typeRequired, DOMAIN_REASONS.typeInvalid));
export type DomainType = z.infer<typeof DomainType>;

/** Whether the domain is rendered: `active` or `disabled`. */
export const DomainStatus = z.enum(["active", "disabled"], { error: () => DOMAIN_REASONS.statusInvalid });

/** The SOA contact address of a master domain. */
export const SoaEmail = stringField("soa_email").regex(/^[^@\s]+@[^@\s]+\.[^@\s.]+$/, DOMAIN_REASONS.soaEmailInvalid);

/** The address of a nameserver (`master_ips`, `axfr_ips`). */
export const NameserverIp = z.string({ error: () => DOMAIN_REASONS.ipInvalid }).refine(isIpAddress, DOMAIN_REASONS.ipInvalid);

/** `master_ips`: addresses of the master nameservers of a slave domain. `null` is read as none. */
export const MasterIps = z.array(NameserverIp, { error: () => "master_ips must be a list of IP addresses" });

/** `axfr_ips`: addresses allowed to transfer the zone; all of them together ≤ 1000 characters. */
export const AxfrIps = z
  .array(NameserverIp, { error: () => "axfr_ips must be a list of IP addresses" })
  .refine((ips) => ips.join(",").length <= 1000, DOMAIN_REASONS.axfrIpsLength);

/** A domain's description: 1–253 characters. */
export const DomainDescription = stringField("description")
  .min(1, DOMAIN_REASONS.descriptionLength)
  .max(253, DOMAIN_REASONS.descriptionLength);
/** A domain's group: 1–50 characters. */
export const DomainGroup = stringField("group").min(1, DOMAIN_REASONS.groupLength).max(50, DOMAIN_REASONS.groupLength);
/** A domain's tags. */
export const DomainTags = z.array(z.string({ error: () => "tags must be strings" }), { error: () => "tags must be a list of strings" });

/** refresh/retry/expire/ttl seconds: any whole number ≥ 0; the API rounds it up (P2-9). */
export const domainSeconds = (field: string) => intField(DOMAIN_REASONS.secondsInvalid(field), 0);

const domainWritable = {
  domain: DomainName,
  type: DomainType,
  status: DomainStatus.optional(),
  soa_email: SoaEmail.optional(),
  master_ips: MasterIps.nullable().optional(),
  axfr_ips: AxfrIps.nullable().optional(),
  description: DomainDescription.optional(),
  group: DomainGroup.optional(),
  tags: DomainTags.nullable().optional(),
  refresh_sec: domainSeconds("refresh_sec").optional(),
  retry_sec: domainSeconds("retry_sec").optional(),
  expire_sec: domainSeconds("expire_sec").optional(),
  ttl_sec: domainSeconds("ttl_sec").optional(),
};

/** `POST /domains`. `master_ips`, `axfr_ips` and `tags` may be `null` (read as empty), as recorded clients send. */
export const DomainCreateRequest = z.strictObject(domainWritable).superRefine((body, ctx) => {
  for (const e of domainTypeErrors(body)) ctx.addIssue({ code: "custom", message: e.reason, path: [e.field!] });
});
export type DomainCreateRequest = z.input<typeof DomainCreateRequest>;

/** `PUT /domains/{domainId}`: any writable field. The type rules apply to the result (checked by the API). */
export const DomainUpdateRequest = z.strictObject({ ...domainWritable, domain: DomainName.optional(), type: DomainType.optional() });
export type DomainUpdateRequest = z.input<typeof DomainUpdateRequest>;

/** `POST /domains/{domainId}/clone`. */
export const DomainCloneRequest = z.strictObject({ domain: DomainName });
export type DomainCloneRequest = z.input<typeof DomainCloneRequest>;

/** `POST /domains/import`: the zone is transferred (AXFR) from `remote_nameserver`. */
export const DomainImportRequest = z.strictObject({
  domain: DomainName,
  remote_nameserver: z
    .string(missingOr(DOMAIN_REASONS.remoteNameserverRequired, DOMAIN_REASONS.remoteNameserverInvalid))
    .refine(isIpAddress, DOMAIN_REASONS.remoteNameserverInvalid),
});
export type DomainImportRequest = z.input<typeof DomainImportRequest>;

/** A record's type: `A`, `AAAA`, `NS`, `MX`, `CNAME`, `TXT`, `SRV`, `PTR` or `CAA`. */
export const RecordType = z.enum(
  ["A", "AAAA", "NS", "MX", "CNAME", "TXT", "SRV", "PTR", "CAA"],
  missingOr(RECORD_REASONS.typeRequired, RECORD_REASONS.typeInvalid),
);
export type RecordType = z.infer<typeof RecordType>;

/** A CAA record's tag: `issue`, `issuewild` or `iodef`. */
export const CaaTag = z.enum(["issue", "issuewild", "iodef"], { error: () => RECORD_REASONS.tagInvalid });

/** A record's name: 1–100 characters, relative to the zone or fully qualified. */
export const RecordName = stringField("name").max(100, RECORD_REASONS.nameLength).refine(isRecordNameSpelling, RECORD_REASONS.nameInvalid);
/** A record's target: at most 65535 characters; its meaning depends on the type. */
export const RecordTarget = stringField("target", true).min(1, RECORD_REASONS.targetLength).max(65535, RECORD_REASONS.targetLength);
/** A record's TTL in seconds; the API rounds it to the nearest valid value. */
export const RecordTtl = intField(RECORD_REASONS.ttlInvalid, 0);
/** An MX or SRV record's priority: 0–255, lower is preferred. */
export const RecordPriority = intField(RECORD_REASONS.priorityRange, 0, 255);
/** An SRV record's weight: 0–65535, higher is preferred. */
export const RecordWeight = intField(RECORD_REASONS.weightRange, 0, 65535);
/** An SRV record's port: 0–65535. */
export const RecordPort = intField(RECORD_REASONS.portRange, 0, 65535);
/** An SRV record's service name (without the underscore). */
export const SrvService = stringField("service").regex(/^_?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i, RECORD_REASONS.serviceInvalid);
/** An SRV record's protocol (without the underscore). */
export const SrvProtocol = stringField("protocol").regex(/^_?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i, RECORD_REASONS.protocolInvalid);

const recordWritable = {
  name: RecordName.optional(),
  target: RecordTarget,
  ttl_sec: RecordTtl.optional(),
  ...clearable({
    priority: RecordPriority,
    weight: RecordWeight,
    port: RecordPort,
    service: SrvService,
    protocol: SrvProtocol,
    tag: CaaTag,
  }),
};

/** `POST /domains/{domainId}/records`: `type` and `target` required, the rest by type. */
export const RecordCreateRequest = z.strictObject({ type: RecordType, ...recordWritable }).superRefine((body, ctx) => {
  for (const e of recordRuleErrors(body)) ctx.addIssue({ code: "custom", message: e.reason, path: [e.field!] });
});
export type RecordCreateRequest = z.input<typeof RecordCreateRequest>;

/**
 * `PUT /domains/{domainId}/records/{recordId}`: record fields except `type`. A recorded client
 * (lexicon, `domain_record.update.txt.json`) sends the record's own `type` along, which the API
 * accepted; a different type is refused (checked against the record by the API).
 */
export const RecordUpdateRequest = z.strictObject({ ...recordWritable, target: RecordTarget.optional(), type: RecordType.optional() });
export type RecordUpdateRequest = z.input<typeof RecordUpdateRequest>;

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
