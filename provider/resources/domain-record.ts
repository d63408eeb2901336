/**
 * `compute:DomainRecord`: one record of a domain. The type and the domain force a replacement;
 * everything else changes in place. Values are compared the way the API stores them, so the ways
 * people write records never diff forever: a name may be relative (`www`), fully qualified
 * (`www.example.com`, `www.example.com.`), `@` or `""` for the apex, in any letter case; a host
 * name target may carry a trailing period, any letter case, or be a single label the API expands
 * within the zone (`mail` → `mail.example.com`); TTLs are rounded as the API rounds them; an SRV
 * record's name is generated (`_service._protocol`), so only what follows that prefix is compared.
 * Normalizing needs the zone's name and the record's type, taken from the recorded state
 * (outputs `domain` and `type`).
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
  recordRuleErrors,
  relativeRecordName,
  roundRecordTtl,
  srvBaseName,
  srvLabel,
  srvRecordName,
  storedRecordTarget,
  type DomainRecord,
  type RecordCreateRequest,
  type RecordUpdateRequest,
} from "../../sdk/resources/domains";
import type { ProviderContext } from "../engine/context";
import { resourceSpec, type Inputs, type Outputs, type Values } from "../engine/spec";
import { rememberZoneName, zoneName } from "./domain";
import { MINUTE, apiId, byParent, idField } from "./common";

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

const srvLabelOf = (value: unknown): unknown => (typeof value === "string" ? srvLabel(value) : value);
const ttlOf = (value: unknown): unknown => (typeof value === "number" ? roundRecordTtl(value) : value);

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
const appliesTo = (field: TypeSpecific, type: unknown) => (APPLIES_TO[field] as readonly string[]).includes(String(type));

/** A field sent only to the record types it applies to (`toWire`). */
const onlyFor =
  (field: TypeSpecific) =>
  (value: unknown, inputs: Inputs): unknown =>
    appliesTo(field, inputs.type) ? value : undefined;

/**
 * A field recorded only for the record types it applies to: an A record has no port, priority,
 * weight, protocol, service or tag, and a zone's hundreds of records would each carry them in state
 * (the API answers 0 or null). `diff` compares an absent output as the field's default, as before.
 */
const recordedFor =
  <K extends TypeSpecific>(field: K) =>
  (record: DomainRecord): DomainRecord[K] | undefined =>
    appliesTo(field, record.type) ? record[field] : undefined;

/** The record with the zone's name (`domain`) and the full name (`fqdn`), which normalization and programs use. */
type RecordWithZone = DomainRecord & { domain: string; fqdn: string };

const withZone = (record: DomainRecord, zone: string): RecordWithZone => ({
  ...record,
  domain: zone,
  fqdn: record.name === "" ? zone : `${record.name}.${zone}`,
});

/**
 * The zone's name for a record already in state: the recorded one (`domain`), else the process's
 * (one GET per domain). Never a GET per record: a listing of the records reads the domain again,
 * so a renamed zone shows at the next refresh.
 */
const recordedZone = (ctx: ProviderContext, domainId: number, state: Values, signal: AbortSignal): Promise<string> =>
  typeof state.domain === "string" ? Promise.resolve(state.domain) : zoneName(ctx, domainId, signal);

export const domainRecordSpec = resourceSpec<RecordWithZone, RecordCreateRequest, RecordUpdateRequest>()({
  name: "DomainRecord",
  noun: "domain record",
  description: "A record of a domain: A, AAAA, NS, MX, CNAME, TXT, SRV, PTR or CAA.",
  example: [
    'new compute.DomainRecord("www", { domainId: zone.id, type: "A", name: "www.example.com.", target: "203.0.113.10", ttlSec: 300 });',
    'new compute.DomainRecord("mx", { domainId: zone.id, type: "MX", name: "@", target: "mail.example.com.", priority: 10 });',
  ].join("\n"),
  inputs: {
    domainId: {
      ...idField("domainId"),
      send: "never",
      required: true,
      replaceOnChange: true,
      description: "Id of the domain. Changing it replaces the record.",
    },
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
  },
  outputs: {
    domain: { description: "The name of the record's domain (zone)." },
    fqdn: { description: "The record's fully qualified name, without a trailing period." },
    // No `created`/`updated`: zones hold hundreds of records, and every byte of a record's outputs
    // is repeated in state for each one (issue 13: at most 1.5 KB per record); nothing reads them.
  },
  // The record does not name its domain; keep the id (as a number) so reads can find it.
  computed: {
    domainId: (_record, given) => apiId(given.domainId),
    priority: recordedFor("priority"),
    weight: recordedFor("weight"),
    port: recordedFor("port"),
    protocol: recordedFor("protocol"),
    service: recordedFor("service"),
    tag: recordedFor("tag"),
  },
  timeouts: { create: 5 * MINUTE, update: 5 * MINUTE, delete: 5 * MINUTE },
  validatesUnknowns: true,
  wireRules: ({ type, ...fields }) => (typeof type === "string" ? recordRuleErrors({ ...fields, type }) : []),
  hooks: {
    // One request per record: the zone's name comes from the process (one GET per domain) or from state.
    create: async ({ ctx, body, inputs, signal }) => {
      const domainId = apiId(inputs.domainId);
      const [record, zone] = await Promise.all([
        ctx.client().domains.records.create(domainId, body, { signal }),
        zoneName(ctx, domainId, signal),
      ]);
      return withZone(record, zone);
    },
    read: async ({ ctx, id, state, signal }) => {
      const domainId = apiId(state.domainId);
      const record = await ctx.client().domains.records.get(domainId, apiId(id), { signal });
      return withZone(record, await recordedZone(ctx, domainId, state, signal));
    },
    update: async ({ ctx, id, body, olds, signal }) => {
      const domainId = apiId(olds.domainId);
      const record = await ctx.client().domains.records.update(domainId, apiId(id), body, { signal });
      return withZone(record, await recordedZone(ctx, domainId, olds, signal));
    },
    delete: ({ ctx, id, state, signal }) => ctx.client().domains.records.delete(apiId(state.domainId), apiId(id), { signal }),
    // Records have no unique key; a record created by an ambiguous request is the one of this type, name and target.
    find: async ({ ctx, inputs, signal }) => {
      const domainId = apiId(inputs.domainId);
      const zone = await zoneName(ctx, domainId, signal);
      const { type, service = "", protocol = "" } = inputs;
      const target = storedRecordTarget(type, inputs.target, zone);
      let name = relativeRecordName(inputs.name ?? "", zone) ?? "";
      if (type === "SRV") name = srvRecordName(service, protocol, srvBaseName(name, service, protocol));
      const records = await ctx.client().domains.records.listAll(domainId, { signal });
      const match = records.find((r) => r.type === type && r.name === name && r.target === target);
      return match && withZone(match, zone);
    },
  },
  // A refresh reads a domain's records with one listing (pages of 500) and one GET of the domain.
  listing: byParent("domainId", async (ctx, domainId, signal) => {
    const [records, domain] = await Promise.all([
      ctx.client().domains.records.listAll(domainId, { signal }),
      ctx.client().domains.get(domainId, { signal }),
    ]);
    rememberZoneName(ctx, domainId, domain.domain);
    return records.map((record) => withZone(record, domain.domain));
  }),
});
