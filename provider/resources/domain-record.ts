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
import * as pulumi from "@pulumi/pulumi";
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
  type DomainRecord as DomainRecordApi,
  type RecordCreateRequest,
  type RecordFields,
  type RecordUpdateRequest,
} from "../../sdk/resources/domains";
import type { ComputeClient } from "../../sdk/client";
import { TYPE_MODULE, dynamicProps, resourceOptions } from "../engine/resource";
import type { ApiObject, InputField, Inputs, Outputs, ResourceSpec } from "../engine/spec";
import { toSnake } from "../engine/values";
import { providerFor } from "../shim";
import { MINUTE, apiId, idReference, normalizeId } from "./common";
import { ruleFailures } from "./domain";

const zoneOf = (recorded: Outputs) => (typeof recorded.domain === "string" ? recorded.domain : undefined);

/** The name as the API stores it, relative to the zone; for SRV, only the part after `_service._protocol`. */
export function normalizeRecordName(value: unknown, recorded: Outputs): unknown {
  if (typeof value !== "string") return value;
  const zone = zoneOf(recorded);
  let name = zone === undefined ? (value === "@" ? "" : value.toLowerCase().replace(/\.$/, "")) : (relativeRecordName(value, zone) ?? value.toLowerCase());
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

const recordInputs = {
  domainId: { schema: idReference("domainId"), required: true, replaceOnChange: true, normalize: normalizeId, description: "Id of the domain. Changing it replaces the record." },
  type: { schema: RecordType, required: true, replaceOnChange: true, description: "A, AAAA, NS, MX, CNAME, TXT, SRV, PTR or CAA. Changing it replaces the record." },
  name: {
    schema: RecordName,
    default: "",
    normalize: normalizeRecordName,
    description: "Relative (`www`) or fully qualified (`www.example.com.`); `@` or `\"\"` for the apex. For SRV records the API prefixes `_service._protocol`.",
  },
  target: {
    schema: RecordTarget,
    required: true,
    normalize: normalizeRecordTarget,
    description: "Address (A, AAAA), host name (NS, MX, CNAME, SRV, PTR; a single label is expanded within the domain), text (TXT) or CAA value.",
  },
  ttlSec: { schema: RecordTtl, default: 0, normalize: ttlOf, description: "TTL in seconds, rounded by the API to the nearest valid value; 0 = the domain's default." },
  priority: { schema: RecordPriority, default: 0, description: "MX and SRV: 0–255, lower is preferred. Required for MX and SRV." },
  weight: { schema: RecordWeight, default: 0, description: "SRV: 0–65535, higher is preferred. Required for SRV." },
  port: { schema: RecordPort, default: 0, description: "SRV: 0–65535. Required for SRV." },
  protocol: { schema: SrvProtocol, normalize: srvLabelOf, description: "SRV: the protocol (`tcp`, `_tcp`, …). Required for SRV." },
  service: { schema: SrvService, normalize: srvLabelOf, description: "SRV: the service (`sip`, `_sip`, …). Required for SRV." },
  tag: { schema: CaaTag, description: "CAA: `issue`, `issuewild` or `iodef`. Required for CAA." },
} satisfies Record<string, InputField>;

/** Fields sent only to the record types they apply to. */
const APPLIES_TO: Record<string, readonly string[]> = {
  priority: ["MX", "SRV"],
  weight: ["SRV"],
  port: ["SRV"],
  protocol: ["SRV"],
  service: ["SRV"],
  tag: ["CAA"],
};

function requestBody(inputs: Inputs, keys: readonly string[], type: string): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const key of keys) {
    if (key === "domainId" || key === "type") continue;
    const value = inputs[key] ?? (recordInputs as Record<string, InputField>)[key]?.default;
    if (value === undefined) continue;
    if (APPLIES_TO[key] && !APPLIES_TO[key].includes(type)) continue;
    body[toSnake(key)] = value;
  }
  return body;
}

/** The API record with the zone's name (`domain`) and the full name (`fqdn`), which normalization and programs use. */
async function withZone(client: ComputeClient, domainId: number, record: DomainRecordApi, signal: AbortSignal): Promise<ApiObject> {
  const zone = (await client.domains.get(domainId, { signal })).domain;
  return { ...record, domain: zone, fqdn: record.name === "" ? zone : `${record.name}.${zone}` };
}

export const domainRecordSpec = {
  name: "DomainRecord",
  noun: "domain record",
  description: "A record of a domain: A, AAAA, NS, MX, CNAME, TXT, SRV, PTR or CAA.",
  inputs: recordInputs,
  outputs: {
    domain: { description: "The name of the record's domain (zone)." },
    fqdn: { description: "The record's fully qualified name, without a trailing period." },
    created: { description: "When the record was created (UTC)." },
    updated: { description: "When the record was last updated (UTC)." },
  },
  timeouts: { create: 5 * MINUTE, update: 5 * MINUTE, delete: 5 * MINUTE },
  validatesUnknowns: true,
  validate: (inputs) => ruleFailures(inputs, (wire) => (typeof wire.type === "string" ? recordRuleErrors(wire as unknown as RecordFields) : [])),
  hooks: {
    create: async (ctx, inputs, signal) => {
      const client = ctx.client();
      const domainId = apiId(inputs.domainId as string);
      const type = inputs.type as string;
      const body = { type, ...requestBody(inputs, Object.keys(recordInputs), type) } as RecordCreateRequest;
      return withZone(client, domainId, await client.domains.records.create(domainId, body, { signal }), signal);
    },
    read: async (ctx, id, state, signal) => {
      const client = ctx.client();
      const domainId = apiId(state.domainId as string);
      return withZone(client, domainId, await client.domains.records.get(domainId, apiId(id), { signal }), signal);
    },
    update: async (ctx, id, olds, news, changed, signal) => {
      const client = ctx.client();
      const domainId = apiId(olds.domainId as string);
      const body = requestBody(news, changed, olds.type as string) as RecordUpdateRequest;
      return withZone(client, domainId, await client.domains.records.update(domainId, apiId(id), body, { signal }), signal);
    },
    delete: (ctx, id, state, signal) => ctx.client().domains.records.delete(apiId(state.domainId as string), apiId(id), { signal }),
    // Records have no unique key; a record created by an ambiguous request is the one of this type, name and target.
    find: async (ctx, inputs, signal) => {
      const client = ctx.client();
      const domainId = apiId(inputs.domainId as string);
      const zone = (await client.domains.get(domainId, { signal })).domain;
      const type = inputs.type as string;
      const target = storedRecordTarget(type, inputs.target as string, zone);
      let name = relativeRecordName((inputs.name as string | undefined) ?? "", zone) ?? "";
      if (type === "SRV") name = srvRecordName(inputs.service as string, inputs.protocol as string, srvBaseName(name, inputs.service as string, inputs.protocol as string));
      const records = await client.domains.records.listAll(domainId, { signal });
      const match = records.find((r) => r.type === type && r.name === name && r.target === target);
      return match && withZone(client, domainId, match, signal);
    },
    // The record does not name its domain; keep the id (as a number) so reads can find it.
    extraOutputs: (_object, inputs) => ({ domainId: normalizeId(inputs.domainId) }),
  },
} satisfies ResourceSpec;

/** Constructor arguments, documented per input (generated from the spec: `provider/args.generated.ts`). */
export type DomainRecordArgs = import("../args.generated").DomainRecordArgs;

/**
 * A record of a domain.
 *
 * ```ts
 * new compute.DomainRecord("www", { domainId: zone.id, type: "A", name: "www.example.com.", target: "203.0.113.10", ttlSec: 300 });
 * new compute.DomainRecord("mx", { domainId: zone.id, type: "MX", name: "@", target: "mail.example.com.", priority: 10 });
 * ```
 */
export class DomainRecord extends pulumi.dynamic.Resource {
  /** Id of the domain (a number). */
  declare readonly domainId: pulumi.Output<number>;
  /** The record type. */
  declare readonly type: pulumi.Output<string>;
  /** The name as the API stores it: relative to the zone, `""` for the apex. */
  declare readonly name: pulumi.Output<string>;
  /** The target as the API stores it (no trailing period). */
  declare readonly target: pulumi.Output<string>;
  /** TTL as stored (0 = the domain's default). */
  declare readonly ttlSec: pulumi.Output<number>;
  declare readonly priority: pulumi.Output<number>;
  declare readonly weight: pulumi.Output<number>;
  declare readonly port: pulumi.Output<number>;
  declare readonly protocol: pulumi.Output<string | null>;
  declare readonly service: pulumi.Output<string | null>;
  declare readonly tag: pulumi.Output<string | null>;
  /** The zone's name. */
  declare readonly domain: pulumi.Output<string>;
  /** The fully qualified name. */
  declare readonly fqdn: pulumi.Output<string>;
  /** Creation time (UTC). */
  declare readonly created: pulumi.Output<string>;
  /** Last update time (UTC). */
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: DomainRecordArgs, opts?: pulumi.CustomResourceOptions) {
    super(providerFor(domainRecordSpec.name), name, dynamicProps(domainRecordSpec, args), resourceOptions(domainRecordSpec, opts), TYPE_MODULE, domainRecordSpec.name);
  }
}
