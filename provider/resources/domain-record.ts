/**
 * `compute:DomainRecord`: one record of a domain. The type and the domain force a replacement;
 * everything else changes in place. The record's fields, and how their natural spellings compare
 * with what the API stores, are declared once in `record-common.ts` (shared with
 * `DomainRecordSet`).
 */
import {
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
import { collectionKeyOf } from "../engine/collections";
import type { ProviderContext } from "../engine/context";
import { resourceSpec, type Inputs, type Values } from "../engine/spec";
import { zoneName } from "./domain";
import { MINUTE, apiId, byParent, givenParentId, parentIdField } from "./common";
import { RECORD_FIELDS, TYPE_SPECIFIC, appliesTo, recordedFor } from "./record-common";

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

/**
 * Every record of a domain with the zone's name, as `read` returns them — one listing (pages of
 * 500) and the zone's name kept by the process — shared by a refresh's reads and by the lookups
 * before creates (`naturalKey`) that arrive together (`sdk/core/coalesce.ts`).
 */
async function listRecords(ctx: ProviderContext, domainId: number, signal: AbortSignal): Promise<RecordWithZone[]> {
  const [records, zone] = await Promise.all([ctx.client().domains.records.listAll(domainId, { signal }), zoneName(ctx, domainId, signal)]);
  return records.map((record) => withZone(record, zone));
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

/** The text a record's type, name and target make: every record of a key has its key's. */
const keyText = (record: { type?: unknown; name?: unknown; target?: unknown }): string =>
  `${String(record.type)}\n${String(record.name)}\n${String(record.target)}`;

/** Each listing's records by `keyText`, in the listing's order, made once per listing. */
const keyedListings = new WeakMap<readonly RecordWithZone[], Map<string, RecordWithZone[]>>();

/**
 * The records of a shared listing that have every field of `key`: the listing indexed once, so the
 * lookups before a burst of N creates cost N, not N² (each one a pass over every record).
 */
function recordsWithKey(records: readonly RecordWithZone[], key: Record<string, unknown>): RecordWithZone[] {
  let keyed = keyedListings.get(records);
  if (!keyed) {
    keyed = new Map();
    for (const record of records) {
      const text = keyText(record);
      const same = keyed.get(text);
      if (same) same.push(record);
      else keyed.set(text, [record]);
    }
    keyedListings.set(records, keyed);
  }
  return (keyed.get(keyText(key)) ?? []).filter((r) => sameRecordKey(r, key));
}

export const domainRecordSpec = resourceSpec<RecordWithZone, RecordCreateRequest, RecordUpdateRequest>()({
  name: "DomainRecord",
  noun: "domain record",
  description: "A record of a domain: A, AAAA, NS, MX, CNAME, TXT, SRV, PTR or CAA.",
  example: [
    'new compute.DomainRecord("www", { domainId: zone.id, type: "A", name: "www.example.com.", target: "203.0.113.10", ttlSec: 300 });',
    'new compute.DomainRecord("mx", { domainId: zone.id, type: "MX", name: "@", target: "mail.example.com.", priority: 10 });',
  ].join("\n"),
  inputs: {
    domainId: parentIdField("domainId", "domain", "replaces the record"),
    ...RECORD_FIELDS,
  },
  outputs: {
    domain: { description: "The name of the record's domain (zone)." },
    fqdn: { description: "The record's fully qualified name, without a trailing period.", recomputedBy: ["name", "service", "protocol"] },
    // No `created`/`updated`: zones hold hundreds of records, and every byte of a record's outputs
    // is repeated in state for each one (issue 13: at most 1.5 KB per record); nothing reads them.
  },
  // The record does not name its domain; keep the id (as a number) so reads can find it.
  computed: {
    domainId: givenParentId("domainId"),
    priority: recordedFor("priority"),
    weight: recordedFor("weight"),
    port: recordedFor("port"),
    protocol: recordedFor("protocol"),
    service: recordedFor("service"),
    tag: recordedFor("tag"),
  },
  timeouts: { create: 5 * MINUTE, update: 5 * MINUTE, delete: 5 * MINUTE },
  endpoints: {
    read: ["domains.get", "domains.records.list", "domains.records.get"],
    write: ["domains.records.create", "domains.records.update", "domains.records.delete"],
  },
  // A record of a type given as a plain value never records the fields of other types (`recordedFor`).
  unrecorded: ({ type }) => (typeof type === "string" ? TYPE_SPECIFIC.filter((field) => !appliesTo(field, type)) : []),
  validatesUnknowns: true,
  wireRules: ({ type, ...fields }) => (typeof type === "string" ? recordRuleErrors({ ...fields, type }) : []),
  // Records have no id the program knows: the key is every field, as the API stores it. Two
  // records equal in all of them are one record to DNS, so an existing one is never doubled. The
  // lookup before each create is the domain's records listing the creates around it share: a burst
  // of N creates lists the zone once, not N times.
  naturalKey: {
    describe: (inputs) => `${inputs.type} name ${JSON.stringify(inputs.name ?? "")} and target ${JSON.stringify(inputs.target)}`,
    exclusive: true,
    // A create's key, looked up at check: a renamed record is found again, and its aliases named.
    inputs: ["domainId", "type", "name", "target"],
    atCheck: "on create",
    find: async ({ ctx, inputs, signal }) => {
      const domainId = apiId(inputs.domainId);
      const records = await ctx.reads().list(collectionKeyOf("DomainRecord", String(domainId)), {
        list: (listSignal) => listRecords(ctx, domainId, listSignal),
        idOf: (record) => String(record.id),
      });
      const key = storedRecordKey(inputs, await zoneName(ctx, domainId, signal));
      return recordsWithKey(records, key);
    },
  },
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
  },
  // A refresh reads a domain's records with one listing (pages of 500) and the zone's name, once per process.
  listing: byParent("domainId", listRecords),
});
