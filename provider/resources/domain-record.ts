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
import type { ComputeClient } from "../../sdk/client";
import { resourceSpec, type Inputs, type Outputs } from "../engine/spec";
import { MINUTE, apiId, idField, timestamps } from "./common";

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

/** A field sent only to the record types it applies to (`toWire`). */
const onlyFor =
  (...types: string[]) =>
  (value: unknown, inputs: Inputs): unknown =>
    types.includes(String(inputs.type)) ? value : undefined;

/** The record with the zone's name (`domain`) and the full name (`fqdn`), which normalization and programs use. */
type RecordWithZone = DomainRecord & { domain: string; fqdn: string };

async function withZone(client: ComputeClient, domainId: number, record: DomainRecord, signal: AbortSignal): Promise<RecordWithZone> {
  const zone = (await client.domains.get(domainId, { signal })).domain;
  return { ...record, domain: zone, fqdn: record.name === "" ? zone : `${record.name}.${zone}` };
}

/** The fields of a record as the API would store these inputs in `zone` (those a type does not use are absent). */
function storedRecordKey(inputs: Inputs, zone: string): Record<string, unknown> {
  const type = String(inputs.type);
  const service = typeof inputs.service === "string" ? srvLabel(inputs.service) : "";
  const protocol = typeof inputs.protocol === "string" ? srvLabel(inputs.protocol) : "";
  let name = relativeRecordName(typeof inputs.name === "string" ? inputs.name : "", zone) ?? "";
  if (type === "SRV") name = srvRecordName(service, protocol, srvBaseName(name, service, protocol));
  return {
    type,
    name,
    target: storedRecordTarget(type, String(inputs.target), zone),
    ttl_sec: roundRecordTtl(typeof inputs.ttlSec === "number" ? inputs.ttlSec : 0),
    ...(type === "MX" || type === "SRV" ? { priority: inputs.priority ?? 0 } : {}),
    ...(type === "SRV" ? { weight: inputs.weight ?? 0, port: inputs.port ?? 0 } : {}),
    ...(type === "CAA" ? { tag: inputs.tag } : {}),
  };
}

/** Whether a stored record has every field of `key`. */
const sameRecordKey = (record: DomainRecord, key: Record<string, unknown>): boolean =>
  Object.entries(key).every(([field, value]) => (record as Record<string, unknown>)[field] === value);

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
      toWire: onlyFor("MX", "SRV"),
      description: "MX and SRV: 0–255, lower is preferred. Required for MX and SRV.",
    },
    weight: {
      schema: RecordWeight,
      default: 0,
      toWire: onlyFor("SRV"),
      description: "SRV: 0–65535, higher is preferred. Required for SRV.",
    },
    port: { schema: RecordPort, default: 0, toWire: onlyFor("SRV"), description: "SRV: 0–65535. Required for SRV." },
    protocol: {
      schema: SrvProtocol,
      normalize: srvLabelOf,
      toWire: onlyFor("SRV"),
      description: "SRV: the protocol (`tcp`, `_tcp`, …). Required for SRV.",
    },
    service: {
      schema: SrvService,
      normalize: srvLabelOf,
      toWire: onlyFor("SRV"),
      description: "SRV: the service (`sip`, `_sip`, …). Required for SRV.",
    },
    tag: { schema: CaaTag, toWire: onlyFor("CAA"), description: "CAA: `issue`, `issuewild` or `iodef`. Required for CAA." },
  },
  outputs: {
    domain: { description: "The name of the record's domain (zone)." },
    fqdn: { description: "The record's fully qualified name, without a trailing period." },
    ...timestamps("record"),
  },
  // The record does not name its domain; keep the id (as a number) so reads can find it.
  computed: { domainId: (_record, given) => apiId(given.domainId) },
  timeouts: { create: 5 * MINUTE, update: 5 * MINUTE, delete: 5 * MINUTE },
  validatesUnknowns: true,
  wireRules: ({ type, ...fields }) => (typeof type === "string" ? recordRuleErrors({ ...fields, type }) : []),
  // Records have no id the program knows: the key is every field, as the API stores it. Two
  // records equal in all of them are one record to DNS, so an existing one is never doubled.
  naturalKey: {
    describe: (inputs) => `${inputs.type} name ${JSON.stringify(inputs.name ?? "")} and target ${JSON.stringify(inputs.target)}`,
    exclusive: true,
    find: async ({ ctx, inputs, signal }) => {
      const client = ctx.client();
      const domainId = apiId(inputs.domainId);
      const zone = (await client.domains.get(domainId, { signal })).domain;
      const key = storedRecordKey(inputs, zone);
      const records = await client.domains.records.listAll(domainId, { signal });
      return records
        .filter((r) => sameRecordKey(r, key))
        .map((r) => ({ ...r, domain: zone, fqdn: r.name === "" ? zone : `${r.name}.${zone}` }));
    },
  },
  hooks: {
    create: async ({ ctx, body, inputs, signal }) => {
      const client = ctx.client();
      const domainId = apiId(inputs.domainId);
      return withZone(client, domainId, await client.domains.records.create(domainId, body, { signal }), signal);
    },
    read: async ({ ctx, id, state, signal }) => {
      const client = ctx.client();
      const domainId = apiId(state.domainId);
      return withZone(client, domainId, await client.domains.records.get(domainId, apiId(id), { signal }), signal);
    },
    update: async ({ ctx, id, body, olds, signal }) => {
      const client = ctx.client();
      const domainId = apiId(olds.domainId);
      return withZone(client, domainId, await client.domains.records.update(domainId, apiId(id), body, { signal }), signal);
    },
    delete: ({ ctx, id, state, signal }) => ctx.client().domains.records.delete(apiId(state.domainId), apiId(id), { signal }),
  },
});
