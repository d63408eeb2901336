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
import type { ComputeClient } from "../../sdk/client";
import { resourceSpec, type Inputs } from "../engine/spec";
import { MINUTE, apiId, idField, timestamps } from "./common";
import { RECORD_FIELDS } from "./record-common";

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
    ...RECORD_FIELDS,
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
