/**
 * The fields of a DNS record, declared once for the two resources that manage records:
 * `DomainRecord` (one record) and `DomainRecordSet` (many records of one domain). Values are
 * compared the way the API stores them, so the ways people write records never diff forever: a
 * name may be relative (`www`), fully qualified (`www.example.com`, `www.example.com.`), `@` or
 * `""` for the apex, in any letter case; a host name target may carry a trailing period, any
 * letter case, or be a single label the API expands within the zone (`mail` → `mail.example.com`);
 * TTLs are rounded as the API rounds them; an SRV record's name is generated (`_service._protocol`),
 * so only what follows that prefix is compared. Normalizing needs the zone's name and the record's
 * type, taken from the recorded state (`domain` and `type`).
 */
import {
  CaaTag,
  HOSTNAME_TARGET_TYPES,
  RecordName,
  RecordPort,
  RecordPriority,
  RecordTarget,
  RecordTtl,
  RecordType,
  RecordWeight,
  SrvProtocol,
  SrvService,
  relativeRecordName,
  roundRecordTtl,
  srvBaseName,
  srvLabel,
  storedRecordTarget,
  type DomainRecord,
} from "../../sdk/resources/domains";
import type { Inputs, Outputs } from "../engine/spec";

const zoneOf = (recorded: Outputs) => (typeof recorded.domain === "string" ? recorded.domain : undefined);

/** The name as the API stores it, relative to the zone; for SRV, only the part after `_service._protocol`. */
export function normalizeRecordName(value: unknown, recorded: Outputs): unknown {
  if (typeof value !== "string") return value;
  const zone = zoneOf(recorded);
  let name =
    zone === undefined
      ? value === "@"
        ? ""
        : value.toLowerCase().replace(/\.$/, "")
      : (relativeRecordName(value, zone) ?? value.toLowerCase());
  if (recorded.type === "SRV" && typeof recorded.service === "string" && typeof recorded.protocol === "string") {
    name = srvBaseName(name, recorded.service, recorded.protocol);
  }
  return name;
}

/** The target as the API stores it for the recorded type (host names expanded within the recorded zone). */
export function normalizeRecordTarget(value: unknown, recorded: Outputs): unknown {
  if (typeof value !== "string" || typeof recorded.type !== "string") return value;
  const zone = zoneOf(recorded);
  if (zone !== undefined) return storedRecordTarget(recorded.type, value, zone);
  return HOSTNAME_TARGET_TYPES.has(recorded.type) ? value.toLowerCase().replace(/\.$/, "") : value;
}

export const srvLabelOf = (value: unknown): unknown => (typeof value === "string" ? srvLabel(value) : value);
export const ttlOf = (value: unknown): unknown => (typeof value === "number" ? roundRecordTtl(value) : value);

/** The record types each type-specific field applies to. */
const APPLIES_TO = {
  priority: ["MX", "SRV"],
  weight: ["SRV"],
  port: ["SRV"],
  protocol: ["SRV"],
  service: ["SRV"],
  tag: ["CAA"],
} as const satisfies Record<string, readonly string[]>;
type TypeSpecific = keyof typeof APPLIES_TO;
/** The fields that apply to some record types only. */
export const TYPE_SPECIFIC = Object.keys(APPLIES_TO) as TypeSpecific[];
export const appliesTo = (field: TypeSpecific, type: unknown) => (APPLIES_TO[field] as readonly string[]).includes(String(type));

/** A field sent only to the record types it applies to (`toWire`). */
const onlyFor =
  (field: TypeSpecific) =>
  (value: unknown, inputs: Inputs): unknown =>
    appliesTo(field, inputs.type) ? value : undefined;

/**
 * A field recorded only for the record types it applies to (a `computed` output): an A record has
 * no port, priority, weight, protocol, service or tag, and a zone's hundreds of records would each
 * carry them in state (the API answers 0 or null). `diff` compares an absent output as the field's
 * default, as before.
 */
export const recordedFor =
  <K extends TypeSpecific>(field: K) =>
  (record: DomainRecord): DomainRecord[K] | undefined =>
    appliesTo(field, record.type) ? record[field] : undefined;

/**
 * A record's own fields (everything but its domain), as input field declarations. `DomainRecord`
 * spreads them into its inputs; `DomainRecordSet` declares each element of `records` with them.
 */
export const RECORD_FIELDS = {
  type: {
    schema: RecordType,
    required: true,
    replaceOnChange: true,
    description: "A, AAAA, NS, MX, CNAME, TXT, SRV, PTR or CAA. Changing it replaces the record.",
  },
  name: {
    schema: RecordName,
    default: "",
    normalize: normalizeRecordName,
    description:
      'Relative (`www`) or fully qualified (`www.example.com.`); `@` or `""` for the apex. For SRV records the API prefixes `_service._protocol`.',
  },
  target: {
    schema: RecordTarget,
    required: true,
    normalize: normalizeRecordTarget,
    description:
      "Address (A, AAAA), host name (NS, MX, CNAME, SRV, PTR; a single label is expanded within the domain), text (TXT) or CAA value.",
  },
  ttlSec: {
    schema: RecordTtl,
    default: 0,
    normalize: ttlOf,
    description: "TTL in seconds, rounded by the API to the nearest valid value; 0 = the domain's default.",
  },
  priority: {
    schema: RecordPriority,
    default: 0,
    toWire: onlyFor("priority"),
    description: "MX and SRV: 0–255, lower is preferred. Required for MX and SRV.",
  },
  weight: {
    schema: RecordWeight,
    default: 0,
    toWire: onlyFor("weight"),
    description: "SRV: 0–65535, higher is preferred. Required for SRV.",
  },
  port: { schema: RecordPort, default: 0, toWire: onlyFor("port"), description: "SRV: 0–65535. Required for SRV." },
  protocol: {
    schema: SrvProtocol,
    normalize: srvLabelOf,
    toWire: onlyFor("protocol"),
    description: "SRV: the protocol (`tcp`, `_tcp`, …). Required for SRV.",
  },
  service: {
    schema: SrvService,
    normalize: srvLabelOf,
    toWire: onlyFor("service"),
    description: "SRV: the service (`sip`, `_sip`, …). Required for SRV.",
  },
  tag: { schema: CaaTag, toWire: onlyFor("tag"), description: "CAA: `issue`, `issuewild` or `iodef`. Required for CAA." },
} as const;
