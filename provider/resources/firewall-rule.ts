/**
 * `compute:FirewallRule`: one rule of a firewall someone else may own (another stack's `Firewall`,
 * the console), keyed by its label within its direction. The API changes rules only by replacing
 * both rulesets (`PUT .../rules`), so create, update and delete are read-modify-write of the whole
 * document through the engine's `SharedWrites` (`engine/shared-writes.ts`): serialized and batched
 * per firewall in this process, checked against the rules' `version`, and confirmed by reads until
 * the rule holds. Every rule this resource does not own goes back exactly as read.
 *
 * Refresh reads the rule by its label: changed by hand is drift on this rule, gone is gone (the
 * next `up` adds it again). Check refuses, before any write, what only the program as a whole gets
 * wrong: a `Firewall` of this program that owns the same firewall's rule lists, and more than 25
 * rules on the firewall counting the rules already there and every `FirewallRule` of the program;
 * and (its natural key) a new rule whose label is taken: by a resource of this stack under another
 * name, it names the `aliases` of a rename.
 */
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import {
  FIREWALL_LIMITS,
  FIREWALL_REASONS,
  FirewallAddresses,
  FirewallPorts,
  FirewallRule,
  type FirewallRuleInput,
  type FirewallRuleRecord,
  type FirewallRules,
} from "../../sdk/resources/firewalls";
import { isNotFound } from "../../sdk/core/errors";
import type { ProviderContext } from "../engine/context";
import { resourceSpec, type Failure, type Values } from "../engine/spec";
import { viaWire } from "../engine/schemas";
import type { SharedChange } from "../engine/shared-writes";
import { isUnknown } from "../engine/values";
import { MINUTE, apiId, normalizeId, parentAtCheck, parentIdField, sharedEntryDescription } from "./common";
import { canonicalRule, changeFirewallRules, firewallDeclarations, wirePorts, wireRule } from "./firewall";

export const RULE_DIRECTIONS = ["inbound", "outbound"] as const;
export type RuleDirection = (typeof RULE_DIRECTIONS)[number];
export const RULE_POSITIONS = ["first", "last"] as const;

/** A rule as the hooks return it: the API's rule plus where it is. */
export type FirewallRuleObject = FirewallRuleRecord & { id: string; direction: RuleDirection; firewall_id: number };

const ruleFields = FirewallRule.shape;

/** `<firewallId>:<direction>:<label>` — a rule has no id of its own; its label is its key within its direction. */
export const ruleId = (firewallId: number, direction: string, label: string): string => `${firewallId}:${direction}:${label}`;

function parseRuleId(id: string): { firewallId: number; direction: RuleDirection; label: string } {
  const [firewall, direction, ...label] = id.split(":");
  const found = RULE_DIRECTIONS.find((d) => d === direction);
  if (!found || label.length === 0) throw new Error(`${JSON.stringify(id)} is not a firewall rule id (<firewallId>:<direction>:<label>)`);
  return { firewallId: apiId(firewall), direction: found, label: label.join(":") };
}

/** The wire rule of the inputs (natural spellings mapped, only the keys given). */
function wireRuleOf(inputs: Values): FirewallRuleInput {
  const { action, protocol, ports, addresses, label, description } = inputs;
  return wireRule({ action, protocol, ports, addresses, label, description }) as FirewallRuleInput;
}

const rulesOf = (doc: FirewallRules, direction: RuleDirection): FirewallRuleRecord[] => doc[direction] ?? [];

const sameRule = (a: unknown, b: unknown): boolean => isDeepStrictEqual(canonicalRule(a), canonicalRule(b));

/**
 * Puts the rule (replacing the one with its label in place, or adding it at `position`; `move`
 * puts it there again). A create (`firewallId` given) is refused when the label is taken on the
 * first read it meets: the rule is someone else's, or one an earlier run made and lost track of;
 * `adoptId` takes it over.
 */
function putRule(
  direction: RuleDirection,
  rule: FirewallRuleInput,
  position: string,
  move: boolean,
  creating?: number,
): SharedChange<FirewallRules> {
  const mine = (r: FirewallRuleRecord) => r.label === rule.label;
  return {
    refuse: (doc) => {
      if (creating === undefined || !rulesOf(doc, direction).some(mine)) return undefined;
      const id = ruleId(creating, direction, String(rule.label));
      return new Error(
        `firewall ${creating} already has an ${direction} rule labelled ${JSON.stringify(rule.label)} (it already exists: someone else's, or made by a run that lost track of it). ` +
          `If this resource should manage it, set adoptId: ${JSON.stringify(id)} on the resource and run \`pulumi up\` again; otherwise choose another label.`,
      );
    },
    what: `${direction} rule ${JSON.stringify(rule.label)}`,
    holds: (doc) => rulesOf(doc, direction).some((r) => mine(r) && sameRule(r, rule)),
    apply: (doc) => {
      const list = rulesOf(doc, direction);
      const at = list.findIndex(mine);
      let next: FirewallRuleRecord[];
      if (at >= 0 && !move) next = list.map((r, i) => (i === at ? { ...rule } : r));
      else {
        const others = list.filter((r) => !mine(r));
        next = position === "first" ? [{ ...rule }, ...others] : [...others, { ...rule }];
      }
      return { ...doc, [direction]: next };
    },
  };
}

/** Removes the rule with this label (and nothing else). */
function dropRule(direction: RuleDirection, label: string): SharedChange<FirewallRules> {
  return {
    what: `removal of ${direction} rule ${JSON.stringify(label)}`,
    holds: (doc) => !rulesOf(doc, direction).some((r) => r.label === label),
    apply: (doc) => ({ ...doc, [direction]: rulesOf(doc, direction).filter((r) => r.label !== label) }),
  };
}

function ruleObject(firewallId: number, direction: RuleDirection, rule: FirewallRuleRecord): FirewallRuleObject {
  return { ...rule, id: ruleId(firewallId, direction, String(rule.label)), direction, firewall_id: firewallId };
}

/** The rule with `label` in the converged rules; after a create or update it holds, so it is there. */
function found(doc: FirewallRules, firewallId: number, direction: RuleDirection, label: string): FirewallRuleObject {
  const rule = rulesOf(doc, direction).find((r) => r.label === label);
  if (!rule) throw new Error(`firewall ${firewallId}: ${direction} rule ${JSON.stringify(label)} is not there after the write`);
  return ruleObject(firewallId, direction, rule);
}

/** Every labelled rule of a firewall, as the hooks return them. */
async function listRules(ctx: ProviderContext, firewallId: number, signal: AbortSignal): Promise<FirewallRuleObject[]> {
  const doc = await ctx.client().networking.firewalls.rules.get(firewallId, { signal });
  return RULE_DIRECTIONS.flatMap((d) =>
    rulesOf(doc, d)
      .filter((r) => typeof r.label === "string")
      .map((r) => ruleObject(firewallId, d, r)),
  );
}

/** The program's rule in its own words for `check`: the sdk's `FirewallRule` rules on the whole rule (ports with ICMP, say). */
function ruleFailures(inputs: Values): Failure[] {
  const parsed = FirewallRule.safeParse(wireRuleOf(inputs));
  if (parsed.success) return [];
  return parsed.error.issues.filter((i) => i.path.length === 1).map((i) => ({ property: String(i.path[0]), reason: i.message }));
}

/** The firewall's key in the program's declarations, when its id is known. */
const firewallKey = (inputs: Values): string | undefined =>
  inputs.firewallId === undefined || isUnknown(inputs.firewallId) ? undefined : String(normalizeId(inputs.firewallId));
const memberKey = (direction: unknown, label: unknown) => `rule ${String(direction)} ${String(label)}`;

/** The firewall's rules as check sees them (`parentAtCheck`): `gone` when the firewall does not exist. */
const rulesAtCheck = (ctx: ProviderContext, firewallId: number, signal: AbortSignal): Promise<FirewallRules | "gone" | undefined> =>
  parentAtCheck(ctx, `firewall ${firewallId} rules at check`, () => ctx.client().networking.firewalls.rules.get(firewallId, { signal }));

/**
 * What only the program as a whole gets wrong: its `Firewall` owns this firewall's rule lists, or
 * the firewall would have more than 25 rules (those on it that the program does not declare, plus
 * every `FirewallRule` the program declares on it).
 */
async function sharedFailures({ ctx, inputs, signal }: { ctx: ProviderContext; inputs: Values; signal: AbortSignal }): Promise<Failure[]> {
  const key = firewallKey(inputs);
  if (key === undefined) return [];
  const declared = firewallDeclarations(ctx).members(key);
  if (declared.has("lists")) {
    return [
      {
        property: "firewallId",
        reason:
          `firewall ${key} has its rules set by a Firewall resource of this program (its inbound/outbound lists), which would remove this rule on its next update: ` +
          "either add the rule to that Firewall's inbound or outbound list and remove this FirewallRule, or remove inbound and outbound from the Firewall so that FirewallRule resources manage its rules one by one",
      },
    ];
  }
  const ours = [...declared.keys()].filter((k) => k.startsWith("rule "));
  const current = await rulesAtCheck(ctx, apiId(key), signal);
  if (current === "gone") return [{ property: "firewallId", reason: `firewall ${key} does not exist` }];
  const foreign = current
    ? RULE_DIRECTIONS.flatMap((d) => rulesOf(current, d).filter((r) => !ours.includes(memberKey(d, r.label)))).length
    : 0;
  const total = foreign + ours.length;
  if (total <= FIREWALL_LIMITS.rules) return [];
  return [
    {
      property: "",
      reason: `firewall ${key} would have ${total} rules (${foreign} already on it that this program does not manage, ${ours.length} FirewallRule resources of this program): ${FIREWALL_REASONS.rulesTooMany}`,
    },
  ];
}

export const firewallRuleSpec = resourceSpec<FirewallRuleObject>()({
  name: "FirewallRule",
  noun: "firewall rule",
  description: sharedEntryDescription("rule of a firewall", "its label within its direction", "rules"),
  adoptIdForm: { example: '"12345:inbound:app-https"', what: "`<firewallId>:<direction>:<label>`" },
  example: [
    "// `edge`: a firewall whose rule lists are not its own (no `inbound`, `outbound`); often another stack's.",
    'new compute.FirewallRule("https-from-lb", {',
    "  firewallId: edge.id,",
    '  direction: "inbound",',
    '  label: "app-https",',
    '  action: "ACCEPT",',
    '  protocol: "TCP",',
    '  ports: "443",',
    '  addresses: { ipv4: ["10.0.0.0/24"] },',
    "});",
  ].join("\n"),
  inputs: {
    firewallId: parentIdField("firewallId", "firewall", "moves the rule (removed from the old firewall, added to the new)"),
    direction: {
      schema: z.enum(RULE_DIRECTIONS, { error: "direction must be inbound or outbound" }),
      send: "never",
      required: true,
      replaceOnChange: true,
      description: "`inbound` or `outbound`: which ruleset the rule belongs to.",
    },
    label: {
      schema: ruleFields.label.unwrap(),
      send: "never",
      required: true,
      replaceOnChange: true,
      description: "3–32 characters; the rule's key within its direction, so unique there. Changing it replaces the rule.",
    },
    action: {
      schema: ruleFields.action,
      send: "never",
      required: true,
      description: "`ACCEPT` or `DROP`: what the rule does with matching traffic.",
    },
    protocol: { schema: ruleFields.protocol, send: "never", required: true, description: "`TCP`, `UDP`, `ICMP` or `IPENCAP`." },
    ports: {
      schema: viaWire<string>(FirewallPorts, (v) => (typeof v === "string" ? wirePorts(v) : v)),
      send: "never",
      normalize: (v) => (typeof v === "string" ? wirePorts(v) : v),
      description: "Ports and ranges (`22`, `8000-8080`, `80, 443`); absent means every port. Only TCP and UDP take ports.",
    },
    addresses: {
      schema: viaWire<z.input<typeof FirewallAddresses>>(
        FirewallAddresses,
        (v) => (wireRule({ addresses: v }) as { addresses: unknown }).addresses,
      ),
      send: "never",
      required: true,
      normalize: (v) => (canonicalRule({ addresses: v }) as { addresses: unknown }).addresses,
      description: "`{ipv4, ipv6}`: addresses and networks the rule matches (a bare address means the host).",
    },
    description: {
      schema: ruleFields.description.unwrap(),
      send: "never",
      description: "1–100 characters.",
    },
    position: {
      schema: z.enum(RULE_POSITIONS, { error: "position must be first or last" }),
      send: "never",
      default: "last",
      description:
        "`first` or `last` (default): where the rule is added among the rules it does not manage. Changing it moves the rule there.",
    },
  },
  outputs: {},
  computed: {
    firewallId: (rule) => rule.firewall_id,
    // Where it was put: the API records no position, so the program's (or state's) value stands.
    position: (_rule, given) => (given.position === "first" ? "first" : "last"),
  },
  timeouts: { create: 5 * MINUTE, update: 5 * MINUTE, delete: 5 * MINUTE },
  endpoints: { read: ["networking.firewalls.rules.get"], write: ["networking.firewalls.rules.update"] },
  validate: ruleFailures,
  declare: ({ ctx, inputs }) => {
    const key = firewallKey(inputs);
    if (key === undefined || isUnknown(inputs.direction) || isUnknown(inputs.label)) return;
    firewallDeclarations(ctx).declare(key, memberKey(inputs.direction, inputs.label), { kind: "rule" });
  },
  checkShared: sharedFailures,
  // A label is unique within its direction. Looked up at check for a create (from the rules the
  // check reads anyway), so a renamed rule is found again and its aliases named; the create
  // itself refuses a taken label on the document it writes (`putRule`).
  naturalKey: {
    describe: (inputs) => `${inputs.direction} label ${JSON.stringify(inputs.label)} on firewall ${String(inputs.firewallId)}`,
    exclusive: true,
    inputs: ["firewallId", "direction", "label"],
    atCheck: "on create",
    resolvedByCreate: true,
    find: async ({ ctx, inputs, signal }) => {
      const firewallId = apiId(inputs.firewallId);
      const doc = await rulesAtCheck(ctx, firewallId, signal);
      if (doc === undefined || doc === "gone") return [];
      return rulesOf(doc, inputs.direction)
        .filter((r) => r.label === inputs.label)
        .map((r) => ruleObject(firewallId, inputs.direction, r));
    },
  },
  hooks: {
    create: async ({ ctx, inputs, signal }) => {
      const firewallId = apiId(inputs.firewallId);
      const rule = wireRuleOf(inputs);
      const put = putRule(inputs.direction, rule, inputs.position ?? "last", false, firewallId);
      const doc = await changeFirewallRules(ctx, firewallId, put, signal);
      return found(doc, firewallId, inputs.direction, inputs.label);
    },
    read: async ({ ctx, id, signal }) => {
      const { firewallId, direction, label } = parseRuleId(id);
      try {
        return (await listRules(ctx, firewallId, signal)).find((r) => r.direction === direction && r.label === label);
      } catch (error) {
        if (isNotFound(error)) return undefined; // the firewall is gone, and its rules with it
        throw error;
      }
    },
    update: async ({ ctx, id, news, changed, signal }) => {
      const { firewallId, direction, label } = parseRuleId(id);
      const put = putRule(direction, wireRuleOf(news), news.position ?? "last", changed.includes("position"));
      const doc = await changeFirewallRules(ctx, firewallId, put, signal);
      return found(doc, firewallId, direction, label);
    },
    delete: async ({ ctx, id, signal }) => {
      const { firewallId, direction, label } = parseRuleId(id);
      return changeFirewallRules(ctx, firewallId, dropRule(direction, label), signal);
    },
  },
  // A refresh reads a firewall's rules once for all its FirewallRules.
  listing: {
    collection: (values) => firewallKey(values),
    list: ({ ctx, collection, signal }) => listRules(ctx, Number(collection), signal),
  },
});
