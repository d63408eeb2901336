/**
 * Cloud Firewalls, their rules and their devices (spec "Firewall", "Firewall device",
 * "Networking: firewalls"; api-facts P2-3, P2-4, P7-2). The request schemas carry every rule of
 * the spec's Errors and Limits tables with the API's reason texts where they are recorded
 * (`Label must be unique among your Cloud Firewalls`, `inbound_policy is required`) and clear
 * texts of our own where they are not; the emulator validates with the same schemas and the
 * provider's `check` derives from them.
 */
import { z } from "zod";
import { FILTERABLE_STAMPS, STAMPS_UPDATED_NULLABLE, filterable, missingOr, requiredInt } from "../core/schema";
import { crud, endpoints, readWrite } from "../core/endpoint";
import { resource } from "../core/resource";
import {
  FIREWALL_DEVICE_TYPES,
  FIREWALL_LIMITS,
  FIREWALL_REASONS,
  FirewallAction,
  FirewallAddresses,
  FirewallLabel,
  FirewallPolicy,
  FirewallPorts,
  FirewallProtocol,
  FirewallTags,
  PORTLESS_PROTOCOLS,
  enumOf,
} from "../rules/firewalls";
export * from "../rules/firewalls";

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

// ---------------------------------------------------------------------------------------------
// response schemas (tolerant: unknown keys pass, `null`s stay)

/** A rule as returned: only the keys that were supplied (no `ports` on an ICMP rule, say). */
export const FirewallRuleRecord = z.looseObject({
  action: z.string(),
  protocol: z.string(),
  ports: z.string().nullable().optional(),
  addresses: z.looseObject({
    ipv4: z.array(z.string()).nullable().optional(),
    ipv6: z.array(z.string()).nullable().optional(),
  }),
  label: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
});
export type FirewallRuleRecord = z.infer<typeof FirewallRuleRecord>;

/**
 * `{inbound, inbound_policy, outbound, outbound_policy}`; a ruleset sent as `null` reads `null`.
 * The later API's rules endpoints (`GET`/`PUT .../rules`) add `version`, which grows by one on
 * every change of the rules, and `fingerprint`, a digest of their content (api-facts P2-3: HEAD
 * recordings; linodego `FirewallRuleSet.Version`/`Fingerprint`); 4.174 has neither, so both are
 * optional.
 */
export const FirewallRules = z.looseObject({
  inbound: z.array(FirewallRuleRecord).nullable(),
  inbound_policy: z.string(),
  outbound: z.array(FirewallRuleRecord).nullable(),
  outbound_policy: z.string(),
  version: z.number().int().optional(),
  fingerprint: z.string().optional(),
});
export type FirewallRules = z.infer<typeof FirewallRules>;

/** A firewall record (api-facts P2-3). Its devices are not part of it. */
export const Firewall = z.looseObject({
  id: z.number().int(),
  label: z.string(),
  ...STAMPS_UPDATED_NULLABLE,
  /** `enabled`, `disabled` or `deleted`. */
  status: z.string(),
  rules: FirewallRules,
  tags: z.array(z.string()),
});
export type Firewall = z.infer<typeof Firewall>;

/** A device record (api-facts P2-4): the assignment of a firewall to one entity. */
export const FirewallDevice = z.looseObject({
  id: filterable(z.number().int()),
  ...FILTERABLE_STAMPS,
  entity: z.looseObject({
    id: filterable(z.number().int()),
    /** `compute` or `nodebalancer`. */
    type: filterable(z.string()),
    label: filterable(z.string().nullable()),
    /** `/v4/compute/instances/<id>` or `/v4/nodebalancers/<id>`. */
    url: z.string(),
  }),
});
export type FirewallDevice = z.infer<typeof FirewallDevice>;

// ---------------------------------------------------------------------------------------------
// endpoints

const [READ, WRITE] = readWrite("firewalls", "firewall");

/** The `/networking/firewalls` endpoints (spec "Networking: firewalls"). */
export const FIREWALL_ENDPOINTS = endpoints("networking.firewalls", {
  ...crud(READ, WRITE, "/networking/firewalls", "firewallId", Firewall, {
    list: "Firewalls the caller can access",
    create: ["Create a firewall with its rules and optional devices", FirewallCreateRequest],
    get: "One firewall (without devices)",
    update: ["Update a firewall's label, status or tags", FirewallUpdateRequest],
    delete: "Delete a firewall; its rules leave every assigned service",
  }),
  /** `/networking/firewalls/{firewallId}/devices`. */
  devices: crud(READ, WRITE, "/networking/firewalls/{firewallId}/devices", "deviceId", FirewallDevice, {
    list: "Devices of a firewall",
    create: ["Assign a firewall to a compute instance or nodebalancer", FirewallDeviceCreateRequest],
    get: "One device of a firewall",
    delete: "Remove a firewall from one service",
  }),
  /** `/networking/firewalls/{firewallId}/rules`. */
  rules: {
    get: {
      ...READ.get,
      path: "/networking/firewalls/{firewallId}/rules",
      summary: "Both rulesets and policies of a firewall",
      response: FirewallRules,
    },
    update: {
      ...WRITE.put,
      path: "/networking/firewalls/{firewallId}/rules",
      summary: "Replace both rulesets of a firewall",
      body: FirewallRulesUpdateRequest,
      // linodego's FirewallRuleSet sends back the read-only `version` and `fingerprint` it read.
      echoedFields: ["version", "fingerprint"],
      response: FirewallRules,
    },
  },
});

/**
 * `/networking/firewalls`: Cloud Firewalls, with their devices (`firewalls.devices`) and rules
 * (`firewalls.rules`). Create is a POST without an idempotency key: never retried after an
 * ambiguous failure (look the firewall up by its unique label instead).
 */
export class Firewalls extends resource(FIREWALL_ENDPOINTS) {}
