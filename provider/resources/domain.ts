/**
 * `compute:Domain`: a DNS zone. Every writable field is an input; the name changes in place (it is
 * unique on the whole platform), the type forces a replacement. Timers are compared the way the
 * API rounds them (up, P2-9), so `ttlSec: 1000` never diffs against the stored 3600. A domain can
 * be created as a clone of another (`cloneFromId`): it then starts with a copy of every record of
 * the source, which this program does not manage. Records are their own resource (`DomainRecord`).
 */
import {
  AxfrIps,
  DOMAIN_SECONDS_DEFAULTS,
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
  type Domain,
  type DomainCreateRequest,
  type DomainUpdateRequest,
} from "../../sdk/resources/domains";
import type { ProviderContext } from "../engine/context";
import { resourceSpec } from "../engine/spec";
import { MINUTE, apiId, idField, optionalId, timestamps } from "./common";

const lowerCase = (value: unknown): unknown => (typeof value === "string" ? value.toLowerCase() : value);
const roundedUp = (value: unknown): unknown => (typeof value === "number" ? roundUpDomainSeconds(value) : value);

/** An SOA timer input: rounded up the way the API rounds it; 0 is the platform's default. */
const seconds = (field: keyof typeof DOMAIN_SECONDS_DEFAULTS, what: string) => ({
  schema: domainSeconds(field),
  default: 0,
  normalize: roundedUp,
  description: `${what} in seconds; rounded up to a valid value, 0 = default (${DOMAIN_SECONDS_DEFAULTS[field]}).`,
});

const zoneKey = (domainId: number) => `domain name ${domainId}`;

/**
 * A domain's name, kept per provider process: its records need it (their names and targets are
 * relative to it), and one GET per domain serves them all instead of one per record.
 */
export function zoneName(ctx: ProviderContext, domainId: number, signal: AbortSignal): Promise<string> {
  return ctx.memo(zoneKey(domainId), async () => (await ctx.client().domains.get(domainId, { signal })).domain);
}

/** A domain's name as just read (a listing of its records reads it again), or forgotten (`undefined`) when it may change. */
export function rememberZoneName(ctx: ProviderContext, domainId: number, name: string | undefined): void {
  ctx.remember(zoneKey(domainId), name);
}

export const domainSpec = resourceSpec<Domain, DomainCreateRequest, DomainUpdateRequest>()({
  name: "Domain",
  noun: "domain",
  description: "A DNS zone (domain), master or slave, served by the platform's nameservers.",
  example: 'const zone = new compute.Domain("zone", { domain: "example.com", type: "master", soaEmail: "admin@example.com" });',
  inputs: {
    domain: {
      schema: DomainName,
      required: true,
      normalize: lowerCase,
      description: "The zone's name, such as `example.com` (RFC 1035; unique on the whole platform). Changes in place.",
    },
    type: {
      schema: DomainType,
      required: true,
      replaceOnChange: true,
      description: "`master` (authoritative here) or `slave` (a read-only copy of `masterIps`). Changing it replaces the domain.",
    },
    status: { schema: DomainStatus, default: "active", description: "`active` (served) or `disabled` (not rendered)." },
    soaEmail: { schema: SoaEmail, description: "The zone's contact address, written into its SOA. Required for master domains." },
    masterIps: {
      schema: MasterIps,
      set: true,
      default: [],
      description: "Addresses of the master nameservers. At least one is required for slave domains.",
    },
    axfrIps: {
      schema: AxfrIps,
      set: true,
      default: [],
      description: "Addresses allowed to transfer the zone (AXFR); at most 1000 characters together.",
    },
    description: { schema: DomainDescription, description: "1–253 characters, display only. Left as it is when not set." },
    group: { schema: DomainGroup, description: "1–50 characters, display only. Left as it is when not set." },
    tags: { schema: DomainTags, set: true, default: [], description: "Tags." },
    refreshSec: seconds("refresh_sec", "SOA refresh"),
    retrySec: seconds("retry_sec", "SOA retry"),
    expireSec: seconds("expire_sec", "SOA expire"),
    ttlSec: seconds("ttl_sec", "Default TTL of the zone's records"),
    cloneFromId: {
      ...idField("cloneFromId"),
      send: "never",
      replaceOnChange: true,
      description:
        "Create the domain as a clone of this domain: it starts with a copy of every record (not managed by this program). Changing it replaces the domain.",
    },
  },
  outputs: {
    ...timestamps("domain"),
  },
  // The API does not say what a domain was cloned from; keep the program's value.
  computed: { cloneFromId: (_domain, given) => optionalId(given.cloneFromId) },
  // Not cloned: never recorded, so a program reading it gets a known undefined, at preview too.
  unrecorded: () => ["cloneFromId"],
  timeouts: { create: 5 * MINUTE, update: 5 * MINUTE, delete: 5 * MINUTE },
  endpoints: { read: ["domains.list", "domains.get"], write: ["domains.create", "domains.clone", "domains.update", "domains.delete"] },
  // Names are unique on the platform: a replacement with the same name must delete the old domain first.
  uniqueInputs: ["domain"],
  validatesUnknowns: true,
  wireRules: (wire) => (wire.type === undefined ? [] : domainTypeErrors(wire)),
  // Names are unique on the whole platform (a name another account holds is refused by the API).
  naturalKey: {
    describe: (inputs) => `name ${JSON.stringify(inputs.domain)}`,
    exclusive: true,
    inputs: ["domain"],
    find: async ({ ctx, inputs, signal }) => {
      const name = inputs.domain.toLowerCase();
      return (await ctx.client().domains.listAll({ filter: { domain: name }, signal })).filter((d) => d.domain.toLowerCase() === name);
    },
  },
  hooks: {
    create: async ({ ctx, body, inputs, bodyOf, signal }) => {
      const api = ctx.client().domains;
      if (inputs.cloneFromId === undefined) return api.create(body, { signal });
      // The clone copies the source's settings; the program's own ones (defaults included) are applied right after.
      const clone = await api.clone(apiId(inputs.cloneFromId), { domain: inputs.domain }, { signal });
      const rest = bodyOf(Object.keys(domainSpec.inputs).filter((key) => key !== "domain"));
      return Object.keys(rest).length === 0 ? clone : api.update(clone.id, rest, { signal });
    },
    read: ({ ctx, id, signal }) => ctx.client().domains.get(apiId(id), { signal }),
    update: async ({ ctx, id, body, signal }) => {
      const domain = await ctx.client().domains.update(apiId(id), body, { signal });
      rememberZoneName(ctx, domain.id, domain.domain);
      return domain;
    },
    delete: ({ ctx, id, signal }) => ctx.client().domains.delete(apiId(id), { signal }),
  },
});
