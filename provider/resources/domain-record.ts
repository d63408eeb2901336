/**
 * `compute:DomainRecord`: one record of a domain. The type and the domain force a replacement;
 * everything else changes in place. The record's fields, and how their natural spellings compare
 * with what the API stores, are declared once in `record-common.ts` (shared with
 * `DomainRecordSet`).
 */
import {
  recordRuleErrors,
  relativeRecordName,
  srvBaseName,
  srvRecordName,
  storedRecordTarget,
  type DomainRecord,
  type RecordCreateRequest,
  type RecordUpdateRequest,
} from "../../sdk/resources/domains";
import type { ProviderContext } from "../engine/context";
import { resourceSpec, type Values } from "../engine/spec";
import { rememberZoneName, zoneName } from "./domain";
import { MINUTE, apiId, byParent, idField } from "./common";
import { RECORD_FIELDS, recordedFor } from "./record-common";

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
    ...RECORD_FIELDS,
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
