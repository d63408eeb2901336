/**
 * Domains: the reason texts of the domain rules, the pure functions on zone names and timers, and
 * the field and request schemas built on them, shared by the sdk's validation, the emulator's rules
 * and the provider's `check` (re-exported by `domains.ts`). A domain's records have their own file,
 * `domain-records.ts`.
 */
import { isIPv6 } from "node:net";
import { z } from "zod";
import { parseIpv4 } from "../core/net";
import { intField, missingOr, requiredString, stringField, type ErrorEntry } from "../core/schema";

/** Reason texts of the domain rules, shared with the emulator and the tests. */
export const DOMAIN_REASONS = {
  // recorded (api-facts P2-7, P2-8, P7-2)
  typeRequired: "type is required",
  soaEmailRequired: "soa_email required when type=master",
  masterIpsRequired: "You need at least one master DNS server IP address for this zone.",
  domainInvalid: "Domain is not valid.",
  // emulator wording where the API's is not recorded
  typeInvalid: "type must be master or slave",
  domainRequired: "domain is required",
  domainLength: "Domain must be 1-253 characters",
  domainLabelLength: "Each label of a domain must be 1-63 characters",
  domainTaken: "A domain with this name already exists",
  statusInvalid: "status must be active or disabled",
  soaEmailInvalid: "soa_email must be a valid email address",
  ipInvalid: "Must be a valid IPv4 or IPv6 address",
  axfrIpsLength: "axfr_ips may hold at most 1000 characters in total",
  descriptionLength: "Description must be between 1 and 253 characters",
  groupLength: "Group must be between 1 and 50 characters",
  secondsInvalid: (field: string) => `${field} must be a whole number of seconds, 0 or more`,
  remoteNameserverRequired: "remote_nameserver is required",
  remoteNameserverInvalid: "remote_nameserver must be the IPv4 or IPv6 address of a nameserver",
  transferUnreachable: "Could not connect to the remote nameserver for a zone transfer",
  transferRefused: "The remote nameserver refused the zone transfer (AXFR)",
  transferFailed: "The zone transfer (AXFR) from the remote nameserver did not complete",
} as const;

// ---------------------------------------------------------------------------------------------
// names, addresses, values

/** Valid refresh/retry/expire/ttl seconds of a domain (api-facts P2-9); other values round up; 0 means the default. */
export const DOMAIN_SECONDS = [0, 30, 120, 300, 3600, 7200, 14400, 28800, 57600, 86400, 172800, 345600, 604800, 1209600, 2419200] as const;

/** What `0` means for each domain timer (api-facts P2-9). */
export const DOMAIN_SECONDS_DEFAULTS = { refresh_sec: 14400, retry_sec: 14400, expire_sec: 1209600, ttl_sec: 86400 } as const;

/** A domain timer as the API stores it: rounded up to the next valid value (the largest when beyond it). */
export function roundUpDomainSeconds(seconds: number): number {
  return DOMAIN_SECONDS.find((valid) => valid >= seconds) ?? DOMAIN_SECONDS[DOMAIN_SECONDS.length - 1];
}

const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

/**
 * Why a domain name is not valid, or `undefined`: RFC 1035 names (letters, digits and hyphens,
 * labels not starting or ending with a hyphen; a leading digit is allowed as RFC 1123 relaxed it),
 * labels of 1–63 characters, at most 253 in total, at least two labels, not an IP address.
 */
export function domainNameProblem(name: string): string | undefined {
  if (name.length < 1 || name.length > 253) return DOMAIN_REASONS.domainLength;
  const labels = name.split(".");
  if (labels.some((l) => l.length === 0 || l.length > 63)) {
    return labels.some((l) => l.length > 63) ? DOMAIN_REASONS.domainLabelLength : DOMAIN_REASONS.domainInvalid;
  }
  if (labels.length < 2 || !labels.every((l) => LDH_LABEL.test(l)) || /^[0-9]+$/.test(labels[labels.length - 1]!)) {
    return DOMAIN_REASONS.domainInvalid;
  }
  return undefined;
}

/** `a.b.c.d` (no leading zeroes) or any IPv6 spelling. */
export function isIpAddress(text: string): boolean {
  return parseIpv4(text) !== undefined || isIPv6(text);
}

/** The type rules of a domain (P2-7, P2-8): master needs `soa_email`, slave at least one `master_ips` entry. */
export function domainTypeErrors(domain: {
  type?: string | null;
  soa_email?: string | null;
  master_ips?: readonly string[] | null;
}): ErrorEntry[] {
  if (domain.type === "master" && !domain.soa_email) return [{ field: "soa_email", reason: DOMAIN_REASONS.soaEmailRequired }];
  if (domain.type === "slave" && (domain.master_ips ?? []).length === 0)
    return [{ field: "master_ips", reason: DOMAIN_REASONS.masterIpsRequired }];
  return [];
}

// ---------------------------------------------------------------------------------------------
// field schemas

/** A domain (zone) name: RFC 1035, labels ≤ 63, total ≤ 253. */
export const DomainName = requiredString("domain", DOMAIN_REASONS.domainRequired).superRefine((text, ctx) => {
  const problem = domainNameProblem(text);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

/** A domain's type: `master` (authoritative) or `slave` (a read-only copy). */
export const DomainType = z.enum(["master", "slave"], missingOr(DOMAIN_REASONS.typeRequired, DOMAIN_REASONS.typeInvalid));
export type DomainType = z.infer<typeof DomainType>;

/** Whether the domain is rendered: `active` or `disabled`. */
export const DomainStatus = z.enum(["active", "disabled"], { error: () => DOMAIN_REASONS.statusInvalid });

/** The SOA contact address of a master domain. */
export const SoaEmail = stringField("soa_email").regex(/^[^@\s]+@[^@\s]+\.[^@\s.]+$/, DOMAIN_REASONS.soaEmailInvalid);

/** The address of a nameserver (`master_ips`, `axfr_ips`). */
export const NameserverIp = z.string({ error: () => DOMAIN_REASONS.ipInvalid }).refine(isIpAddress, DOMAIN_REASONS.ipInvalid);

/** `master_ips`: addresses of the master nameservers of a slave domain. `null` is read as none. */
export const MasterIps = z.array(NameserverIp, { error: () => "master_ips must be a list of IP addresses" });

/** `axfr_ips`: addresses allowed to transfer the zone; all of them together ≤ 1000 characters. */
export const AxfrIps = z
  .array(NameserverIp, { error: () => "axfr_ips must be a list of IP addresses" })
  .refine((ips) => ips.join(",").length <= 1000, DOMAIN_REASONS.axfrIpsLength);

/** A domain's description: 1–253 characters. */
export const DomainDescription = stringField("description")
  .min(1, DOMAIN_REASONS.descriptionLength)
  .max(253, DOMAIN_REASONS.descriptionLength);
/** A domain's group: 1–50 characters. */
export const DomainGroup = stringField("group").min(1, DOMAIN_REASONS.groupLength).max(50, DOMAIN_REASONS.groupLength);
/** A domain's tags. */
export const DomainTags = z.array(z.string({ error: () => "tags must be strings" }), { error: () => "tags must be a list of strings" });

/** refresh/retry/expire/ttl seconds: any whole number ≥ 0; the API rounds it up (P2-9). */
export const domainSeconds = (field: string) => intField(DOMAIN_REASONS.secondsInvalid(field), 0);

const domainWritable = {
  domain: DomainName,
  type: DomainType,
  status: DomainStatus.optional(),
  soa_email: SoaEmail.optional(),
  master_ips: MasterIps.nullable().optional(),
  axfr_ips: AxfrIps.nullable().optional(),
  description: DomainDescription.optional(),
  group: DomainGroup.optional(),
  tags: DomainTags.nullable().optional(),
  refresh_sec: domainSeconds("refresh_sec").optional(),
  retry_sec: domainSeconds("retry_sec").optional(),
  expire_sec: domainSeconds("expire_sec").optional(),
  ttl_sec: domainSeconds("ttl_sec").optional(),
};

/** `POST /domains`. `master_ips`, `axfr_ips` and `tags` may be `null` (read as empty), as recorded clients send. */
export const DomainCreateRequest = z.strictObject(domainWritable).superRefine((body, ctx) => {
  for (const e of domainTypeErrors(body)) ctx.addIssue({ code: "custom", message: e.reason, path: [e.field!] });
});
export type DomainCreateRequest = z.input<typeof DomainCreateRequest>;

/** `PUT /domains/{domainId}`: any writable field. The type rules apply to the result (checked by the API). */
export const DomainUpdateRequest = z.strictObject({ ...domainWritable, domain: DomainName.optional(), type: DomainType.optional() });
export type DomainUpdateRequest = z.input<typeof DomainUpdateRequest>;

/** `POST /domains/{domainId}/clone`. */
export const DomainCloneRequest = z.strictObject({ domain: DomainName });
export type DomainCloneRequest = z.input<typeof DomainCloneRequest>;

/** `POST /domains/import`: the zone is transferred (AXFR) from `remote_nameserver`. */
export const DomainImportRequest = z.strictObject({
  domain: DomainName,
  remote_nameserver: z
    .string(missingOr(DOMAIN_REASONS.remoteNameserverRequired, DOMAIN_REASONS.remoteNameserverInvalid))
    .refine(isIpAddress, DOMAIN_REASONS.remoteNameserverInvalid),
});
export type DomainImportRequest = z.input<typeof DomainImportRequest>;
