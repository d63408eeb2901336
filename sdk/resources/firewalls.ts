/**
 * Cloud Firewalls, their rules and their devices (spec "Firewall", "Firewall device",
 * "Networking: firewalls"; api-facts P2-3, P2-4): the records, the endpoint table and the class.
 * The request schemas, with every rule of the spec's Errors and Limits tables, are in
 * `sdk/rules/firewalls.ts`, re-exported here.
 */
import { z } from "zod";
import { FILTERABLE_STAMPS, STAMPS_UPDATED_NULLABLE, filterable } from "../core/schema";
import { crud, endpoints, readWrite } from "../core/endpoint";
import { resource } from "../core/resource";
import { FirewallCreateRequest, FirewallDeviceCreateRequest, FirewallRulesUpdateRequest, FirewallUpdateRequest } from "../rules/firewalls";
export * from "../rules/firewalls";

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
