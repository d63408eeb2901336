/**
 * `compute:Domain`: a DNS zone. Every writable field is an input; the name changes in place (it is
 * unique on the whole platform), the type forces a replacement. Timers are compared the way the
 * API rounds them (up, P2-9), so `ttlSec: 1000` never diffs against the stored 3600. A domain can
 * be created as a clone of another (`cloneFromId`): it then starts with a copy of every record of
 * the source, which this program does not manage. Records are their own resource (`DomainRecord`).
 */
import * as pulumi from "@pulumi/pulumi";
import type { ErrorEntry } from "../../sdk/core/schema";
import {
  AxfrIps,
  DomainDescription,
  DomainGroup,
  DomainName,
  DomainStatus,
  DomainTags,
  DomainType,
  MasterIps,
  SoaEmail,
  domainSeconds,
  domainTypeErrors,
  roundUpDomainSeconds,
  type Domain as DomainRecord,
  type DomainUpdateRequest,
} from "../../sdk/resources/domains";
import { TYPE_MODULE, dynamicProps, resourceOptions } from "../engine/resource";
import type { Failure, InputField, Inputs, ResourceSpec } from "../engine/spec";
import { isUnknown, toCamel, toSnake } from "../engine/values";
import { providerFor } from "../shim";
import { MINUTE, apiId, idReference, normalizeId } from "./common";

const lowerCase = (value: unknown): unknown => (typeof value === "string" ? value.toLowerCase() : value);
const roundedUp = (value: unknown): unknown => (typeof value === "number" ? roundUpDomainSeconds(value) : value);

/**
 * Runs an sdk rule (wire field names) on inputs that may hold preview's unknowns: unknown values
 * count as not given, and a failure about a field whose value is unknown is dropped (it will be
 * checked once known). Failures name the program's input.
 */
export function ruleFailures(inputs: Inputs, rule: (wire: Record<string, unknown>) => ErrorEntry[]): Failure[] {
  const wire: Record<string, unknown> = {};
  const unknown = new Set<string>();
  for (const [key, value] of Object.entries(inputs)) {
    if (isUnknown(value)) unknown.add(toSnake(key));
    else wire[toSnake(key)] = value;
  }
  return rule(wire)
    .filter((e) => e.field === undefined || !unknown.has(e.field))
    .map((e) => ({ property: e.field ? toCamel(e.field) : "", reason: e.reason }));
}

/**
 * The wire body for some inputs (camelCase keys): each one's value, or the API default the
 * program implies by leaving it out (so a clone, which starts from its source's settings, ends up
 * exactly as the program says).
 */
function wireBody(inputs: Inputs, keys: readonly string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const key of keys) {
    const value = inputs[key] ?? (domainInputs as Record<string, InputField>)[key]?.default;
    if (value !== undefined && key !== "cloneFromId") body[toSnake(key)] = value;
  }
  return body;
}

const domainInputs = {
  domain: { schema: DomainName, required: true, normalize: lowerCase, description: "The zone's name, such as `example.com` (RFC 1035; unique on the whole platform). Changes in place." },
  type: { schema: DomainType, required: true, replaceOnChange: true, description: "`master` (authoritative here) or `slave` (a read-only copy of `masterIps`). Changing it replaces the domain." },
  status: { schema: DomainStatus, default: "active", description: "`active` (served) or `disabled` (not rendered)." },
  soaEmail: { schema: SoaEmail, description: "The zone's contact address, written into its SOA. Required for master domains." },
  masterIps: { schema: MasterIps, set: true, default: [], description: "Addresses of the master nameservers. At least one is required for slave domains." },
  axfrIps: { schema: AxfrIps, set: true, default: [], description: "Addresses allowed to transfer the zone (AXFR); at most 1000 characters together." },
  description: { schema: DomainDescription, description: "1–253 characters, display only. Left as it is when not set." },
  group: { schema: DomainGroup, description: "1–50 characters, display only. Left as it is when not set." },
  tags: { schema: DomainTags, set: true, default: [], description: "Tags." },
  refreshSec: { schema: domainSeconds("refresh_sec"), default: 0, normalize: roundedUp, description: "SOA refresh in seconds; rounded up to a valid value, 0 = default (14400)." },
  retrySec: { schema: domainSeconds("retry_sec"), default: 0, normalize: roundedUp, description: "SOA retry in seconds; rounded up to a valid value, 0 = default (14400)." },
  expireSec: { schema: domainSeconds("expire_sec"), default: 0, normalize: roundedUp, description: "SOA expire in seconds; rounded up to a valid value, 0 = default (1209600)." },
  ttlSec: { schema: domainSeconds("ttl_sec"), default: 0, normalize: roundedUp, description: "Default TTL of the zone's records in seconds; rounded up to a valid value, 0 = default (86400)." },
  cloneFromId: {
    schema: idReference("cloneFromId"),
    replaceOnChange: true,
    normalize: normalizeId,
    description: "Create the domain as a clone of this domain: it starts with a copy of every record (not managed by this program). Changing it replaces the domain.",
  },
} satisfies Record<string, InputField>;

export const domainSpec = {
  name: "Domain",
  noun: "domain",
  description: "A DNS zone (domain), master or slave, served by the platform's nameservers.",
  inputs: domainInputs,
  outputs: {
    created: { description: "When the domain was created (UTC)." },
    updated: { description: "When the domain was last updated (UTC)." },
  },
  timeouts: { create: 5 * MINUTE, update: 5 * MINUTE, delete: 5 * MINUTE },
  // Names are unique on the platform: a replacement with the same name must delete the old domain first.
  uniqueInputs: ["domain"],
  validatesUnknowns: true,
  validate: (inputs) => ruleFailures(inputs, (wire) => (wire.type === undefined ? [] : domainTypeErrors(wire))),
  hooks: {
    create: async (ctx, inputs, signal) => {
      const api = ctx.client().domains;
      const keys = Object.keys(domainInputs);
      if (inputs.cloneFromId === undefined) return api.create(wireBody(inputs, keys.filter((k) => inputs[k] !== undefined)) as never, { signal });
      // The clone copies the source's settings; the program's own ones (defaults included) are applied right after.
      const clone = await api.clone(apiId(inputs.cloneFromId as string), { domain: inputs.domain as string }, { signal });
      const rest = wireBody(inputs, keys.filter((k) => k !== "domain"));
      return Object.keys(rest).length === 0 ? clone : api.update(clone.id, rest as DomainUpdateRequest, { signal });
    },
    read: (ctx, id, _state, signal) => ctx.client().domains.get(apiId(id), { signal }),
    update: (ctx, id, _olds, news, changed, signal) => {
      return ctx.client().domains.update(apiId(id), wireBody(news, changed) as DomainUpdateRequest, { signal });
    },
    delete: (ctx, id, _state, signal) => ctx.client().domains.delete(apiId(id), { signal }),
    // Names are unique on the whole platform: a domain created by an ambiguous request is found by its name.
    find: async (ctx, inputs, signal) => {
      const name = String(inputs.domain).toLowerCase();
      const matches = await ctx.client().domains.listAll({ filter: { domain: name }, signal });
      return matches.find((d) => d.domain.toLowerCase() === name && d.type === inputs.type);
    },
    // The API does not say what a domain was cloned from; keep the program's value.
    extraOutputs: (_object, inputs) => (inputs.cloneFromId === undefined ? {} : { cloneFromId: normalizeId(inputs.cloneFromId) }),
  },
} satisfies ResourceSpec;

/** Constructor arguments, documented per input (generated from the spec: `provider/args.generated.ts`). */
export type DomainArgs = import("../args.generated").DomainArgs;

/**
 * A DNS zone.
 *
 * ```ts
 * const zone = new compute.Domain("zone", { domain: "example.com", type: "master", soaEmail: "admin@example.com" });
 * ```
 */
export class Domain extends pulumi.dynamic.Resource {
  /** The zone's name. */
  declare readonly domain: pulumi.Output<string>;
  /** `master` or `slave`. */
  declare readonly type: pulumi.Output<"master" | "slave">;
  /** `active` or `disabled`. */
  declare readonly status: pulumi.Output<string>;
  /** The SOA contact (`""` when none). */
  declare readonly soaEmail: pulumi.Output<string>;
  /** Master nameserver addresses. */
  declare readonly masterIps: pulumi.Output<string[]>;
  /** Addresses allowed to transfer the zone. */
  declare readonly axfrIps: pulumi.Output<string[]>;
  /** Description (`""` when none). */
  declare readonly description: pulumi.Output<string>;
  /** Group (`""` when none). */
  declare readonly group: pulumi.Output<string>;
  /** Tags. */
  declare readonly tags: pulumi.Output<string[]>;
  /** SOA refresh as stored (0 = default). */
  declare readonly refreshSec: pulumi.Output<number>;
  /** SOA retry as stored (0 = default). */
  declare readonly retrySec: pulumi.Output<number>;
  /** SOA expire as stored (0 = default). */
  declare readonly expireSec: pulumi.Output<number>;
  /** Default record TTL as stored (0 = default). */
  declare readonly ttlSec: pulumi.Output<number>;
  /** The domain this one was cloned from, when it was. */
  declare readonly cloneFromId: pulumi.Output<number | undefined>;
  /** Creation time (UTC). */
  declare readonly created: pulumi.Output<string>;
  /** Last update time (UTC). */
  declare readonly updated: pulumi.Output<string>;

  constructor(name: string, args: DomainArgs, opts?: pulumi.CustomResourceOptions) {
    super(providerFor(domainSpec.name), name, dynamicProps(domainSpec, args), resourceOptions(domainSpec, opts), TYPE_MODULE, domainSpec.name);
  }
}

export type { DomainRecord as DomainApiRecord };
