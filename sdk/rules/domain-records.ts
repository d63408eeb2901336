/**
 * Domain records: the reason texts of the record rules, the pure functions of the type rules, TTL
 * rounding, name and target spelling, and the field and request schemas built on them, shared by
 * the sdk's validation, the emulator's rules and the provider's `check` and normalization
 * (re-exported by `domains.ts`), so every layer agrees on what a record means.
 */
import { isIPv6 } from "node:net";
import { z } from "zod";
import { parseIpv4 } from "../core/net";
import { clearable, intField, missingOr, stringField, type ErrorEntry } from "../core/schema";

/** Reason texts of the record rules. */
export const RECORD_REASONS = {
  typeRequired: "type is required",
  typeInvalid: "type must be one of A, AAAA, NS, MX, CNAME, TXT, SRV, PTR, CAA",
  typeFixed: "The type of a record cannot be changed",
  nameLength: "name must be 100 characters or fewer",
  nameInvalid: "name is not a valid record name",
  nameOutsideDomain: "name must be within the domain",
  targetRequired: "target is required",
  targetLength: "target must be 1-65535 characters",
  trailingPeriod: (type: string) => `A trailing period is not allowed in the target of ${type} records`,
  targetIpv4: "target must be an IPv4 address for A records",
  targetIpv6: "target must be an IPv6 address for AAAA records",
  targetHostname: (type: string) => `target must be a hostname for ${type} records`,
  targetCaaDomain: "target must be a domain name for CAA issue and issuewild records",
  targetCaaIodef: "target must be a mailto:, http:// or https:// URL for CAA iodef records",
  ttlInvalid: "ttl_sec must be a whole number of seconds, 0 or more",
  priorityRange: "priority must be between 0 and 255",
  weightRange: "weight must be between 0 and 65535",
  portRange: "port must be between 0 and 65535",
  serviceInvalid: "service must be 1-63 letters, digits or dashes",
  protocolInvalid: "protocol must be 1-63 letters, digits or dashes",
  tagInvalid: "tag must be issue, issuewild or iodef",
  requiredFor: (field: string, type: string) => `${field} is required for ${type} records`,
  onlyFor: (field: string, types: string) => `${field} is only valid for ${types} records`,
  cnameConflict: "Record conflict - CNAMES must be unique",
  recordLimit: "A domain may have at most 12000 records",
  slaveReadOnly: "Records of a slave domain cannot be changed; it is a read-only copy of its master",
} as const;

// ---------------------------------------------------------------------------------------------
// names, targets, values

/** The API's limit on records per domain (spec "Limits"). */
export const MAX_RECORDS_PER_DOMAIN = 12_000;

/** Valid record TTLs (spec "Domain record"); other values are rounded to the nearest one, 0 means the domain's default. */
export const RECORD_TTLS = [300, 3600, 7200, 14400, 28800, 57600, 86400, 172800, 345600, 604800, 1209600, 2419200] as const;

/** A record TTL as the API stores it: 0 stays 0, anything else goes to the nearest valid value (ties go up). */
export function roundRecordTtl(seconds: number): number {
  if (seconds <= 0) return 0;
  let best: number = RECORD_TTLS[0];
  for (const valid of RECORD_TTLS) if (Math.abs(valid - seconds) <= Math.abs(best - seconds)) best = valid;
  return best;
}

/** The canonical spelling of an IPv6 address (RFC 5952: lower case, longest zero run compressed), or `undefined`. */
function canonicalV6(text: string): string | undefined {
  if (!isIPv6(text)) return undefined;
  return new URL(`http://[${text}]/`).hostname.slice(1, -1);
}

/** A label of a record's name or host name target: 1–63 letters, digits, hyphens and underscores (`_domainkey`), no hyphen at either end. */
const isRecordLabel = (label: string) => label.length <= 63 && /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?$/i.test(label);

/** A host name as a record target: record labels, optional trailing period. */
export function isHostname(text: string): boolean {
  const name = text.endsWith(".") ? text.slice(0, -1) : text;
  return name.length >= 1 && name.length <= 253 && name.split(".").every(isRecordLabel);
}

/** A record name as written: relative or fully qualified, `@` for the apex, a leading `*` label for wildcards. */
export function isRecordNameSpelling(text: string): boolean {
  if (text === "" || text === "@") return true;
  const name = text.endsWith(".") ? text.slice(0, -1) : text;
  return name.split(".").every((l, i) => (i === 0 && l === "*") || isRecordLabel(l));
}

/**
 * A record name relative to its zone, as the API stores it: lower case, `""` for the apex. A name
 * ending in the zone's name (`www.example.com`, `www.example.com.`) is fully qualified; `@` is the
 * apex; anything else without a trailing period is already relative. `undefined` when a fully
 * qualified name (trailing period) lies outside the zone.
 */
export function relativeRecordName(name: string, zone: string): string | undefined {
  const lower = name.toLowerCase();
  const origin = zone.toLowerCase();
  if (lower === "" || lower === "@" || lower === origin || lower === `${origin}.`) return "";
  const absolute = lower.endsWith(".");
  const bare = absolute ? lower.slice(0, -1) : lower;
  if (bare.endsWith(`.${origin}`)) return bare.slice(0, -(origin.length + 1));
  return absolute ? undefined : bare;
}

/** Record types whose target is a host name. */
export const HOSTNAME_TARGET_TYPES: ReadonlySet<string> = new Set(["NS", "MX", "CNAME", "SRV", "PTR"]);

/**
 * A record target as the API stores it. Host names (NS, MX, CNAME, SRV, PTR) lose a trailing
 * period, go to lower case, and a single label (or `@`) is expanded within the zone (`mail` →
 * `mail.example.com`). AAAA addresses take their canonical spelling. A, TXT and CAA targets are
 * kept as given: a TXT record's text is data, not a name.
 */
export function storedRecordTarget(type: string, target: string, zone: string): string {
  if (type === "AAAA") return canonicalV6(target) ?? target;
  if (!HOSTNAME_TARGET_TYPES.has(type)) return target;
  const lower = target.toLowerCase();
  if (lower === "@") return zone.toLowerCase();
  const bare = lower.endsWith(".") ? lower.slice(0, -1) : lower;
  return bare.includes(".") || lower.endsWith(".") ? bare : `${bare}.${zone.toLowerCase()}`;
}

/** SRV service or protocol as stored: without the leading underscore, lower case. */
export function srvLabel(value: string): string {
  return (value.startsWith("_") ? value.slice(1) : value).toLowerCase();
}

/** The name the API generates for an SRV record: `_service._protocol`, then the given name if any. */
export function srvRecordName(service: string, protocol: string, base: string): string {
  const prefix = `_${srvLabel(service)}._${srvLabel(protocol)}`;
  return base === "" ? prefix : `${prefix}.${base}`;
}

/** The part of an SRV record name after its generated `_service._protocol` prefix (`""` when none). */
export function srvBaseName(name: string, service: string, protocol: string): string {
  const prefix = `_${srvLabel(service)}._${srvLabel(protocol)}`;
  const lower = name.toLowerCase();
  if (lower === prefix) return "";
  return lower.startsWith(`${prefix}.`) ? lower.slice(prefix.length + 1) : lower;
}

/**
 * A record's fields, wire names; `null`/`undefined` = not given. The one shape every layer hands
 * record rules and record builders: the rules take any type name (`RecordFields`), a layer that
 * only knows valid types narrows it (`RecordFields<RecordType>`; `Partial<…>` for an update).
 */
export interface RecordFields<Type extends string = string> {
  type: Type;
  name?: string | null | undefined;
  target?: string | null | undefined;
  priority?: number | null | undefined;
  weight?: number | null | undefined;
  port?: number | null | undefined;
  service?: string | null | undefined;
  protocol?: string | null | undefined;
  tag?: string | null | undefined;
  /** Not looked at by the rules; rounded by the API (`roundRecordTtl`). */
  ttl_sec?: number | undefined;
}

const given = (value: unknown) => value !== undefined && value !== null;
/** A field that does not apply may be absent, or carry the value the API itself reports for it (0 or null). */
const meaningful = (value: unknown) => given(value) && value !== 0 && value !== "";

/**
 * The type-specific rules of a record (spec "Domain record"): required fields per type, fields
 * that only apply to some types, and what the target must be. Field-level rules (ranges, lengths)
 * are the schemas'. Returns every problem, wire field names.
 */
export function recordRuleErrors(record: RecordFields): ErrorEntry[] {
  const errors: ErrorEntry[] = [];
  const { type } = record;
  const require = (field: keyof RecordFields) => {
    if (!given(record[field]) || record[field] === "") errors.push({ field, reason: RECORD_REASONS.requiredFor(field, type) });
  };
  const only = (field: keyof RecordFields, types: readonly string[], label: string) => {
    if (!types.includes(type) && meaningful(record[field])) errors.push({ field, reason: RECORD_REASONS.onlyFor(field, label) });
  };
  if (type === "MX") require("priority");
  if (type === "SRV") for (const f of ["priority", "weight", "port", "service", "protocol"] as const) require(f);
  if (type === "CAA") require("tag");
  only("priority", ["MX", "SRV"], "MX and SRV");
  for (const f of ["weight", "port", "service", "protocol"] as const) only(f, ["SRV"], "SRV");
  only("tag", ["CAA"], "CAA");

  const target = record.target;
  if (typeof target === "string" && target !== "") {
    const trailing = target.endsWith(".");
    if (trailing && (type === "A" || type === "AAAA" || type === "CAA")) {
      errors.push({ field: "target", reason: RECORD_REASONS.trailingPeriod(type) });
    } else if (type === "A" && parseIpv4(target) === undefined) {
      errors.push({ field: "target", reason: RECORD_REASONS.targetIpv4 });
    } else if (type === "AAAA" && !isIPv6(target)) {
      errors.push({ field: "target", reason: RECORD_REASONS.targetIpv6 });
    } else if (HOSTNAME_TARGET_TYPES.has(type) && target !== "@" && !isHostname(target)) {
      errors.push({ field: "target", reason: RECORD_REASONS.targetHostname(type) });
    } else if (type === "CAA" && (record.tag === "issue" || record.tag === "issuewild") && target !== ";" && !isHostname(target)) {
      errors.push({ field: "target", reason: RECORD_REASONS.targetCaaDomain });
    } else if (type === "CAA" && record.tag === "iodef" && !/^(mailto:[^@\s]+@[^@\s]+|https?:\/\/\S+)$/i.test(target)) {
      errors.push({ field: "target", reason: RECORD_REASONS.targetCaaIodef });
    }
  }
  return errors;
}

// ---------------------------------------------------------------------------------------------
// field and request schemas

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
/** An SRV record's service or protocol: a label, the underscore optional. */
const srvPart = (field: string, reason: string) => stringField(field).regex(/^_?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i, reason);
/** An SRV record's service name (without the underscore). */
export const SrvService = srvPart("service", RECORD_REASONS.serviceInvalid);
/** An SRV record's protocol (without the underscore). */
export const SrvProtocol = srvPart("protocol", RECORD_REASONS.protocolInvalid);

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
