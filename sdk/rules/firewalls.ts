/**
 * Cloud Firewalls: the device kinds, limits and reason texts, the field schemas of a firewall and
 * its rules (label, tags, policies, protocols, ports, addresses) and the request schemas, carrying
 * every rule of the spec's Errors and Limits tables with the API's reason texts where they are
 * recorded (`Label must be unique among your Cloud Firewalls`, `inbound_policy is required`) and
 * clear texts of our own where they are not; shared by the sdk's validation, the emulator's checks
 * and the provider's `check` (re-exported by `firewalls.ts`; api-facts P7-2).
 */
import { z } from "zod";
import { missingOr, requiredInt, requiredString } from "../core/schema";
import { parseIpv4Cidr, parseIpv6Cidr } from "../core/net";

/** Device entity kinds a firewall can be assigned to. */
export const FIREWALL_DEVICE_TYPES = ["compute", "nodebalancer"] as const;
/** The kinds of entity a firewall device assigns: `compute` or `nodebalancer`. */
export type FirewallDeviceType = (typeof FIREWALL_DEVICE_TYPES)[number];

const ENTITY_NAMES: Record<FirewallDeviceType, string> = { compute: "Compute Instance", nodebalancer: "NodeBalancer" };

/** Limits of the spec's Limits table (api-facts P8-3). */
export const FIREWALL_LIMITS = {
  labelMin: 3,
  labelMax: 32,
  rules: 25,
  addressesPerRule: 255,
  portPieces: 15,
  ruleLabelMin: 3,
  ruleLabelMax: 32,
  ruleDescriptionMax: 100,
  nodebalancers: 1,
} as const;

/**
 * Reason texts of the firewall rules, shared with the emulator and the tests. Recorded texts
 * (api-facts P7-2): `labelUnique`, `inboundPolicyRequired`, `outboundPolicyRequired`, and the
 * `Invalid Compute ID <n>` pattern; the others are our own wording, since the API's is unknown.
 */
export const FIREWALL_REASONS = {
  labelRequired: "label is required",
  labelLength: "Label must be 3-32 characters",
  labelChars: "Label must include only ASCII letters, numbers, hyphens, underscores and periods",
  labelEnds: "Label must begin and end with an ASCII letter or number",
  labelRepeat: "Label must not contain two hyphens, underscores or periods in a row",
  labelUnique: "Label must be unique among your Cloud Firewalls",
  rulesRequired: "rules is required",
  inboundPolicyRequired: "inbound_policy is required",
  outboundPolicyRequired: "outbound_policy is required",
  policyInvalid: "Policy must be ACCEPT or DROP",
  actionRequired: "action is required",
  actionInvalid: "action must be ACCEPT or DROP",
  protocolRequired: "protocol is required",
  protocolInvalid: "protocol must be one of TCP, UDP, ICMP, IPENCAP",
  portsFormat: "Ports must be a port, a range such as 8000-8080, or a comma-separated list of them",
  portsRange: "Ports must be between 1 and 65535",
  portsLeadingZero: "Ports must not have leading zeroes",
  portsRangeOrder: "The end of a port range must be greater than its start",
  portsTooMany: "A rule may list at most 15 ports (a range counts as 2)",
  portsNotAllowed: "Ports are not allowed for the ICMP and IPENCAP protocols",
  addressesRequired: "addresses is required",
  addressesFamily: "addresses must contain ipv4 or ipv6",
  addressesEmpty: "Address list must not be empty",
  ipv4Invalid: "Must be an IPv4 address or network in IP/mask form, such as 192.0.2.0/24 or 192.0.2.1/32",
  ipv6Invalid: "Must be an IPv6 address or network in IP/mask form, such as 2001:db8::/32 or 2001:db8::1/128",
  ipv6ZoneId: "IPv6 addresses must not carry a zone id",
  addressesTooMany: "A rule may have at most 255 addresses and networks (IPv4 and IPv6 together)",
  rulesTooMany: "A Cloud Firewall may have at most 25 rules (inbound and outbound together)",
  ruleLabelLength: "Rule label must be 3-32 characters",
  ruleDescriptionLength: "Rule description must be 1-100 characters",
  nodebalancersTooMany: "A Cloud Firewall may be assigned to at most one NodeBalancer",
  deviceIdInvalid: "Device ids must be positive integers",
  statusInvalid: "status must be enabled or disabled",
  typeRequired: "type is required",
  typeInvalid: "type must be compute or nodebalancer",
  /** `Invalid Compute ID 99999` (recorded for IP assign, api-facts P7-2); the same pattern for NodeBalancers. */
  invalidEntity: (type: FirewallDeviceType, id: number) =>
    type === "compute" ? `Invalid Compute ID ${id}` : `Invalid NodeBalancer ID ${id}`,
  activeFirewall: (type: FirewallDeviceType, id: number) => `${ENTITY_NAMES[type]} ${id} already has an active Cloud Firewall assigned`,
  deviceExists: (type: FirewallDeviceType, id: number) => `${ENTITY_NAMES[type]} ${id} is already assigned to this Cloud Firewall`,
  migrating: (id: number) => `Compute Instance ${id} has a live migration in progress; try again once it has finished`,
} as const;

// ---------------------------------------------------------------------------------------------
// request schemas

/** 3..32 chars; alphanumerics, `-`, `_`, `.`; alphanumeric at both ends; no two of `-_.` in a row. */
export const FirewallLabel = requiredString("label", FIREWALL_REASONS.labelRequired)
  .min(FIREWALL_LIMITS.labelMin, FIREWALL_REASONS.labelLength)
  .max(FIREWALL_LIMITS.labelMax, FIREWALL_REASONS.labelLength)
  .regex(/^[A-Za-z0-9._-]*$/, FIREWALL_REASONS.labelChars)
  .refine((s) => s === "" || /^[A-Za-z0-9](.*[A-Za-z0-9])?$/.test(s), FIREWALL_REASONS.labelEnds)
  .refine((s) => !/[-_.]{2}/.test(s), FIREWALL_REASONS.labelRepeat);

/** A firewall's tags. */
export const FirewallTags = z.array(z.string({ error: "Tags must be strings" }));

/** A string enum whose missing and wrong values each have their reason text. */
export function enumOf<const T extends readonly [string, ...string[]]>(values: T, required: string, invalid: string) {
  return z.enum(values, missingOr(required, invalid));
}

/** What happens to traffic no rule matches: `ACCEPT` or `DROP`. */
export const FirewallPolicy = z.enum(["ACCEPT", "DROP"], { error: FIREWALL_REASONS.policyInvalid });
/** What a rule does with matching traffic: `ACCEPT` or `DROP`. */
export const FirewallAction = enumOf(["ACCEPT", "DROP"], FIREWALL_REASONS.actionRequired, FIREWALL_REASONS.actionInvalid);
/** A rule's protocol: `TCP`, `UDP`, `ICMP` or `IPENCAP`. */
export const FirewallProtocol = enumOf(
  ["TCP", "UDP", "ICMP", "IPENCAP"],
  FIREWALL_REASONS.protocolRequired,
  FIREWALL_REASONS.protocolInvalid,
);

/** Protocols that take no `ports`. */
export const PORTLESS_PROTOCOLS: readonly string[] = ["ICMP", "IPENCAP"];

/**
 * The pieces of a `ports` string, each as its one or two ends as written (`"22, 8000-8080"` →
 * `[["22"], ["8000", "8080"]]`). White space around the commas and dashes is passed over, so the
 * same reading serves a program's spelling (`8000 - 8080`) and the API's.
 */
const portEnds = (text: string): string[][] => text.split(/\s*,\s*/).map((piece) => piece.split(/\s*-\s*/));

/**
 * The first problem of a `ports` string, if any: single ports and inclusive ranges, separated by
 * commas with at most one space after each; 1..65535 without leading zeroes; a range's end above
 * its start; at most 15 pieces, a range counting 2.
 */
export function portsProblem(text: string): string | undefined {
  if (!/^\d+(-\d+)?(, ?\d+(-\d+)?)*$/.test(text)) return FIREWALL_REASONS.portsFormat;
  let pieces = 0;
  for (const ends of portEnds(text)) {
    for (const end of ends) {
      if (/^0\d/.test(end)) return FIREWALL_REASONS.portsLeadingZero;
      const port = Number(end);
      if (port < 1 || port > 65535) return FIREWALL_REASONS.portsRange;
    }
    if (ends.length === 2 && Number(ends[1]) <= Number(ends[0])) return FIREWALL_REASONS.portsRangeOrder;
    pieces += ends.length;
  }
  return pieces > FIREWALL_LIMITS.portPieces ? FIREWALL_REASONS.portsTooMany : undefined;
}

/** Counts the pieces of a valid `ports` string (a range counts 2). */
export function portPieces(text: string): number {
  return portEnds(text).reduce((n, ends) => n + ends.length, 0);
}

/** The inclusive ranges of a `ports` string: `"22, 8000-8080"` → `[[22, 22], [8000, 8080]]`. */
export function portRanges(text: string): Array<[number, number]> {
  return portEnds(text).map((ends) => {
    const [from, to = from] = ends.map(Number);
    return [from!, to!];
  });
}

/** A rule's ports: a port, a range or a comma list of both (1–65535, at most 15 pieces). */
export const FirewallPorts = z.string({ error: "ports must be a string" }).superRefine((text, ctx) => {
  const problem = portsProblem(text);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

/** An IPv4 address or network in IP/mask form (`0.0.0.0/0` = every IPv4 address). */
export const FirewallIpv4 = z
  .string({ error: FIREWALL_REASONS.ipv4Invalid })
  .refine((text) => parseIpv4Cidr(text) !== undefined, FIREWALL_REASONS.ipv4Invalid);

/** An IPv6 address or network in IP/mask form, without zone id (`::/0` = every IPv6 address). */
export const FirewallIpv6 = z.string({ error: FIREWALL_REASONS.ipv6Invalid }).superRefine((text, ctx) => {
  if (text.includes("%")) return void ctx.addIssue({ code: "custom", message: FIREWALL_REASONS.ipv6ZoneId });
  if (parseIpv6Cidr(text) === undefined) ctx.addIssue({ code: "custom", message: FIREWALL_REASONS.ipv6Invalid });
});

/** `ipv4` and/or `ipv6`, each never empty; at most 255 entries in all. */
export const FirewallAddresses = z
  .strictObject(
    {
      ipv4: z.array(FirewallIpv4).min(1, FIREWALL_REASONS.addressesEmpty).optional(),
      ipv6: z.array(FirewallIpv6).min(1, FIREWALL_REASONS.addressesEmpty).optional(),
    },
    missingOr(FIREWALL_REASONS.addressesRequired, "addresses must be an object with ipv4 and/or ipv6"),
  )
  .superRefine((addresses, ctx) => {
    if (addresses.ipv4 === undefined && addresses.ipv6 === undefined) {
      ctx.addIssue({ code: "custom", message: FIREWALL_REASONS.addressesFamily });
    } else if ((addresses.ipv4?.length ?? 0) + (addresses.ipv6?.length ?? 0) > FIREWALL_LIMITS.addressesPerRule) {
      ctx.addIssue({ code: "custom", message: FIREWALL_REASONS.addressesTooMany });
    }
  });

/** One rule. `ports` null or absent means every port; only TCP and UDP take ports. */
export const FirewallRule = z
  .strictObject({
    action: FirewallAction,
    protocol: FirewallProtocol,
    ports: FirewallPorts.nullable().optional(),
    addresses: FirewallAddresses,
    label: z
      .string({ error: "label must be a string" })
      .min(FIREWALL_LIMITS.ruleLabelMin, FIREWALL_REASONS.ruleLabelLength)
      .max(FIREWALL_LIMITS.ruleLabelMax, FIREWALL_REASONS.ruleLabelLength)
      .optional(),
    description: z
      .string({ error: "description must be a string" })
      .min(1, FIREWALL_REASONS.ruleDescriptionLength)
      .max(FIREWALL_LIMITS.ruleDescriptionMax, FIREWALL_REASONS.ruleDescriptionLength)
      .optional(),
  })
  .superRefine((rule, ctx) => {
    if (PORTLESS_PROTOCOLS.includes(rule.protocol) && rule.ports !== undefined && rule.ports !== null) {
      ctx.addIssue({ code: "custom", path: ["ports"], message: FIREWALL_REASONS.portsNotAllowed });
    }
  });
/** One firewall rule as sent to the API, with every rule of the spec. */
export type FirewallRuleInput = z.infer<typeof FirewallRule>;

/** A ruleset; `null` is accepted, stored and returned as `null` (api-facts P2-3). */
export const FirewallRuleList = z.array(FirewallRule, { error: "Rules must be an array of rule objects" }).nullable();

/** Total rules across both rulesets; reported on the ruleset where the 26th rule lands. */
function limitRuleCount(
  rules: { inbound?: unknown[] | null | undefined; outbound?: unknown[] | null | undefined },
  ctx: z.RefinementCtx,
): void {
  const inbound = rules.inbound?.length ?? 0;
  const outbound = rules.outbound?.length ?? 0;
  if (inbound + outbound > FIREWALL_LIMITS.rules) {
    ctx.addIssue({
      code: "custom",
      path: [inbound > FIREWALL_LIMITS.rules ? "inbound" : "outbound"],
      message: FIREWALL_REASONS.rulesTooMany,
    });
  }
}

const policyRequired = (required: string) => z.enum(["ACCEPT", "DROP"], missingOr(required, FIREWALL_REASONS.policyInvalid));

/** `rules` of a create: both policies required. */
export const FirewallRulesCreate = z
  .strictObject(
    {
      inbound: FirewallRuleList.optional(),
      inbound_policy: policyRequired(FIREWALL_REASONS.inboundPolicyRequired),
      outbound: FirewallRuleList.optional(),
      outbound_policy: policyRequired(FIREWALL_REASONS.outboundPolicyRequired),
    },
    missingOr(FIREWALL_REASONS.rulesRequired, "rules must be an object"),
  )
  .superRefine(limitRuleCount);

/** `PUT .../rules`: replaces both rulesets; the policies are optional here. */
export const FirewallRulesUpdateRequest = z
  .strictObject({
    inbound: FirewallRuleList.optional(),
    inbound_policy: FirewallPolicy.optional(),
    outbound: FirewallRuleList.optional(),
    outbound_policy: FirewallPolicy.optional(),
  })
  .superRefine(limitRuleCount);
export type FirewallRulesUpdateRequest = z.infer<typeof FirewallRulesUpdateRequest>;

const deviceIds = z.array(
  z.number({ error: FIREWALL_REASONS.deviceIdInvalid }).int(FIREWALL_REASONS.deviceIdInvalid).positive(FIREWALL_REASONS.deviceIdInvalid),
);

/** `devices` of a create: a device per compute id, and at most one nodebalancer. */
export const FirewallCreateDevices = z.strictObject({
  computes: deviceIds.optional(),
  nodebalancers: deviceIds.max(FIREWALL_LIMITS.nodebalancers, FIREWALL_REASONS.nodebalancersTooMany).optional(),
});
export type FirewallCreateDevices = z.infer<typeof FirewallCreateDevices>;

/** The body of `POST /networking/firewalls`. */
export const FirewallCreateRequest = z.strictObject({
  label: FirewallLabel,
  rules: FirewallRulesCreate,
  tags: FirewallTags.optional(),
  devices: FirewallCreateDevices.optional(),
});
export type FirewallCreateRequest = z.infer<typeof FirewallCreateRequest>;

/** Settable statuses (`deleted` is a status, but not one an update can set). */
export const FirewallStatusInput = z.enum(["enabled", "disabled"], { error: FIREWALL_REASONS.statusInvalid });

/** `PUT /networking/firewalls/{id}`: label, status, tags. Devices and rules cannot change here. */
export const FirewallUpdateRequest = z.strictObject({
  label: FirewallLabel.optional(),
  status: FirewallStatusInput.optional(),
  tags: FirewallTags.optional(),
});
export type FirewallUpdateRequest = z.infer<typeof FirewallUpdateRequest>;

/** The body of `POST /networking/firewalls/{firewallId}/devices`. */
export const FirewallDeviceCreateRequest = z.strictObject({
  id: requiredInt("id").positive("id must be a positive integer"),
  type: enumOf(FIREWALL_DEVICE_TYPES, FIREWALL_REASONS.typeRequired, FIREWALL_REASONS.typeInvalid),
});
export type FirewallDeviceCreateRequest = z.infer<typeof FirewallDeviceCreateRequest>;
