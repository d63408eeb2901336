/**
 * `compute:Firewall`: a Cloud Firewall with ordered inbound and outbound rules, default policies,
 * tags, a status, and optionally the devices it protects. Everything changes in place: label,
 * tags and status through the firewall update, the four rule fields through one rules PUT, and
 * devices (when the program lists them) by adding and removing devices until they match.
 *
 * Rule lists and devices follow one rule: given, the firewall owns them exactly; absent, they are
 * left alone (`FirewallRule` and `FirewallDevice` add them one at a time, from any stack). A
 * program that gives rule lists and also adds a `FirewallRule` to the same firewall is refused at
 * check (the `FirewallRule`'s, which says which to use).
 *
 * Natural spellings never diff forever: addresses are compared in canonical form (a bare address
 * is sent and compared as its /32 or /128, IPv6 in RFC 5952 spelling, the order of a rule's
 * addresses does not matter), whitespace in `ports` is ignored, tags are a set. Rule order stays
 * significant: the first matching rule wins.
 */
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { canonicalIpv6 } from "../../sdk/core/net";
import {
  FIREWALL_DEVICE_TYPES,
  FirewallCreateDevices,
  FirewallCreateRequest,
  FirewallRule,
  FirewallRulesUpdateRequest,
  FirewallStatusInput,
  FirewallUpdateRequest,
  type Firewall,
  type FirewallDevice,
  type FirewallDeviceType,
  type FirewallRuleInput,
  type FirewallRuleRecord,
  type FirewallRules,
} from "../../sdk/resources/firewalls";
import type { ComputeClient } from "../../sdk/client";
import { viaWire } from "../engine/schemas";
import { resourceSpec, type Failure } from "../engine/spec";
import type { ProviderContext } from "../engine/context";
import { postExactlyOnce } from "../engine/natural-key";
import { Declarations } from "../engine/declarations";
import { sharedWritesOf, type SharedChange, type SharedDocument } from "../engine/shared-writes";
import { isNotFound } from "../../sdk/core/errors";
import { isRecord, isUnknown, type Camelized } from "../engine/values";
import { MINUTE, apiId, normalizeId, timestamps, uniqueLabel } from "./common";

const fields = FirewallCreateRequest.shape;

// ---------------------------------------------------------------------------------------------
// natural spellings → wire form (sent to the API, and what `check` validates with the sdk schemas)

/** A bare address means the single host: `192.0.2.1` → `192.0.2.1/32`, `2001:db8::1` → `/128`. */
export function wireAddress(text: string, family: "ipv4" | "ipv6"): string {
  const trimmed = text.trim();
  return trimmed.includes("/") ? trimmed : `${trimmed}/${family === "ipv4" ? 32 : 128}`;
}

/** `22, 80 - 90` → `22,80-90`: the API's grammar allows no other whitespace. */
export const wirePorts = (text: string): string => text.replace(/\s+/g, "");

/** A rule as the program wrote it → the wire rule (only the keys given; `ports: null` means all ports, as absent). */
export function wireRule(rule: unknown): unknown {
  if (!isRecord(rule)) return rule;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rule)) {
    if (value === undefined || (key === "ports" && value === null)) continue;
    if (key === "ports" && typeof value === "string") out.ports = wirePorts(value);
    else if (key === "addresses" && isRecord(value)) {
      const addresses: Record<string, unknown> = {};
      for (const [family, list] of Object.entries(value)) {
        if (list === undefined) continue;
        addresses[family] =
          Array.isArray(list) && (family === "ipv4" || family === "ipv6")
            ? list.map((a) => (typeof a === "string" ? wireAddress(a, family) : a))
            : list;
      }
      out.addresses = addresses;
    } else out[key] = value;
  }
  return out;
}

const wireRules = (rules: unknown): unknown => (Array.isArray(rules) ? rules.map(wireRule) : rules);

/** Device ids may be Pulumi ids (strings) or numbers; the wire wants integers. */
function wireDevices(devices: unknown): unknown {
  if (!isRecord(devices)) return devices;
  const out: Record<string, unknown> = {};
  for (const [key, list] of Object.entries(devices)) {
    if (list === undefined || list === null) continue;
    out[key] = Array.isArray(list) ? list.map(normalizeId) : list;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// canonical forms for comparison

function canonicalAddress(text: unknown, family: "ipv4" | "ipv6"): unknown {
  if (typeof text !== "string") return text;
  const wire = wireAddress(text, family);
  if (family === "ipv4") return wire;
  const slash = wire.lastIndexOf("/");
  return `${canonicalIpv6(wire.slice(0, slash)) ?? wire.slice(0, slash).toLowerCase()}${wire.slice(slash)}`;
}

/** One rule, canonical: whitespace-free ports, no null ports, addresses canonical and sorted (a rule matches any of them). */
export function canonicalRule(rule: unknown): unknown {
  const wire = wireRule(rule);
  if (!isRecord(wire)) return wire;
  const out: Record<string, unknown> = { ...wire };
  for (const key of ["label", "description"]) if (out[key] === null) delete out[key];
  if (isRecord(wire.addresses)) {
    const addresses: Record<string, unknown> = {};
    for (const family of ["ipv4", "ipv6"] as const) {
      const list = wire.addresses[family];
      if (list === undefined || list === null) continue;
      addresses[family] = Array.isArray(list) ? [...new Set(list.map((a) => String(canonicalAddress(a, family))))].sort() : list;
    }
    out.addresses = addresses;
  }
  return out;
}

/** A ruleset, canonical rule by rule; the order of rules is kept (the first match wins). */
export const normalizeRules = (rules: unknown): unknown => (Array.isArray(rules) ? rules.map(canonicalRule) : rules);

/** `{computes, nodebalancers}` as two sorted id sets; an absent list is empty (the firewall is authoritative). */
export function normalizeDevices(devices: unknown): unknown {
  if (!isRecord(devices)) return devices;
  const ids = (list: unknown) => (Array.isArray(list) ? [...new Set(list.map(normalizeId))].sort((a, b) => Number(a) - Number(b)) : []);
  return { computes: ids(devices.computes), nodebalancers: ids(devices.nodebalancers) };
}

// ---------------------------------------------------------------------------------------------
// schemas of the inputs (the sdk's, behind natural spellings)

const ruleList = z.array(viaWire<z.input<typeof FirewallRule>>(FirewallRule, wireRule));

/** What a program may write for `devices`: ids as numbers or Pulumi id strings. */
export interface FirewallDevicesArgs {
  /** Compute instance ids; each gets a device. */
  computes?: Array<number | string>;
  /** At most one nodebalancer id. */
  nodebalancers?: Array<number | string>;
}

const devicesSchema = viaWire<FirewallDevicesArgs>(FirewallCreateDevices, wireDevices);

/** Device sets as the provider records them: `{computes: [ids], nodebalancers: [ids]}`. */
type DeviceSets = { computes: number[]; nodebalancers: number[] };

const LIST_OF = { compute: "computes", nodebalancer: "nodebalancers" } as const satisfies Record<FirewallDeviceType, keyof DeviceSets>;
/** The list of a device's entity type (`undefined` for a type the provider does not manage). */
const listOf = (device: FirewallDevice) => {
  const type = FIREWALL_DEVICE_TYPES.find((t) => t === device.entity.type);
  return type && LIST_OF[type];
};

function deviceSets(devices: FirewallDevice[]): DeviceSets {
  const sets: DeviceSets = { computes: [], nodebalancers: [] };
  for (const d of devices) {
    const list = listOf(d);
    if (list) sets[list].push(d.entity.id);
  }
  return sets;
}

/** The devices the program asks for (ids checked by `check`), as sorted id sets. */
function desiredDevices(devices: FirewallDevicesArgs | undefined): DeviceSets | undefined {
  if (devices === undefined) return undefined;
  const ids = (list: Array<number | string> = []) => [...new Set(list.map(apiId))].sort((a, b) => a - b);
  return { computes: ids(devices.computes), nodebalancers: ids(devices.nodebalancers) };
}

/** The firewall as the provider records it: the API's record, plus its devices when the program manages them. */
type FirewallWithDevices = Firewall & { devices?: DeviceSets };

/** The four rule inputs: whenever one changes, the rules PUT carries all of them (it replaces both rulesets). */
const RULE_KEYS = ["inbound", "outbound", "inboundPolicy", "outboundPolicy"] as const;
const DEFAULT_STATUS = "enabled";

/**
 * Adds and removes devices until the firewall's devices are exactly `desired` (ids per type).
 * Removals go first, so a move between types or a swap never trips the one-nodebalancer limit.
 */
/**
 * Adds one device. An entity is assigned to a firewall at most once, so after an ambiguous failure
 * (the answer lost; the API may have acted) the device list says whether it landed: if so it is
 * taken, else the request is sent again (`postExactlyOnce`).
 */
function addDevice(
  ctx: ProviderContext,
  client: ComputeClient,
  firewallId: number,
  type: FirewallDeviceType,
  id: number,
  signal: AbortSignal,
) {
  const api = client.networking.firewalls.devices;
  return postExactlyOnce({
    what: `firewall ${firewallId}: ${type} ${id}`,
    post: () => api.create(firewallId, { id, type }, { signal }),
    made: async () => (await api.listAll(firewallId, { signal })).filter((d) => d.entity.type === type && d.entity.id === id),
    idOf: (device) => device.id,
    progress: (line) => ctx.progress(line),
  });
}

async function reconcileDevices(
  ctx: ProviderContext,
  client: ComputeClient,
  firewallId: number,
  desired: DeviceSets,
  phase: "remove" | "add" | "both",
  signal: AbortSignal,
): Promise<DeviceSets> {
  const api = client.networking.firewalls.devices;
  let current = await api.listAll(firewallId, { signal });
  const wanted = (d: FirewallDevice) => {
    const list = listOf(d);
    return list !== undefined && desired[list].includes(d.entity.id);
  };
  if (phase !== "add") {
    for (const device of current.filter((d) => !wanted(d))) {
      ctx.progress(`firewall ${firewallId}: removing ${device.entity.type} ${device.entity.id}`);
      // A repeat of a delete whose answer was lost finds the device gone: that is the goal.
      await api.delete(firewallId, device.id, { signal }).catch((error: unknown) => {
        if (!isNotFound(error)) throw error;
      });
    }
    current = current.filter(wanted);
  }
  if (phase !== "remove") {
    for (const type of FIREWALL_DEVICE_TYPES) {
      for (const id of desired[LIST_OF[type]]) {
        if (current.some((d) => d.entity.type === type && d.entity.id === id)) continue;
        ctx.progress(`firewall ${firewallId}: adding ${type} ${id}`);
        current.push(await addDevice(ctx, client, firewallId, type, id, signal));
      }
    }
  }
  return deviceSets(current);
}

// ---------------------------------------------------------------------------------------------
// rules owned by the Firewall, or left to FirewallRule

/** What a program declared about a firewall's rules: its `Firewall` owns the lists, or a `FirewallRule` adds one. */
export interface FirewallRulesDeclaration {
  kind: "lists" | "rule";
}

/** The program's declarations about firewalls' rules, by firewall id (`engine/declarations.ts`). */
export const firewallDeclarations = (ctx: ProviderContext) =>
  ctx.shared("firewall rules declared", () => new Declarations<FirewallRulesDeclaration>());

const rulesOf = (doc: FirewallRules, direction: "inbound" | "outbound") => doc[direction] ?? [];

/** A rule as read, as a PUT carries it: exactly as read, `null` keys left out (the request schema has no nulls). */
const asSent = (rule: FirewallRuleRecord): FirewallRuleInput =>
  Object.fromEntries(Object.entries(rule).filter(([, v]) => v !== null)) as FirewallRuleInput;

/** A firewall's rules as a document several writers share (`engine/shared-writes.ts`). */
function rulesDocument(ctx: ProviderContext, firewallId: number): SharedDocument<FirewallRules> {
  const api = ctx.client().networking.firewalls.rules;
  const content = (doc: FirewallRules) => [doc.inbound, doc.inbound_policy, doc.outbound, doc.outbound_policy];
  return {
    what: `firewall ${firewallId} rules`,
    read: (signal) => api.get(firewallId, { signal }),
    write: (doc, signal) => {
      const body = {
        inbound: doc.inbound === null ? null : rulesOf(doc, "inbound").map(asSent),
        inbound_policy: doc.inbound_policy,
        outbound: doc.outbound === null ? null : rulesOf(doc, "outbound").map(asSent),
        outbound_policy: doc.outbound_policy,
      } as FirewallRulesUpdateRequest;
      return api.update(firewallId, body, { signal });
    },
    version: (doc) => doc.version,
    same: (a, b) => a.version === b.version && a.fingerprint === b.fingerprint && isDeepStrictEqual(content(a), content(b)),
  };
}

/**
 * Applies one change to a firewall's rules with the process's shared writes: serialized and
 * batched per firewall, confirmed until it holds; everything else comes back as read. Resolves
 * with the converged rules.
 */
export function changeFirewallRules(ctx: ProviderContext, firewallId: number, change: SharedChange<FirewallRules>, signal: AbortSignal) {
  return sharedWritesOf(ctx).submit(`firewall ${firewallId} rules`, rulesDocument(ctx, firewallId), change, signal);
}

/**
 * The rules PUT of an update when the program leaves a ruleset out: the given fields are set on
 * the rules as read, so the rules the program does not own stay as they are.
 */
function setSomeRules(ctx: ProviderContext, firewallId: number, given: FirewallRulesUpdateRequest, signal: AbortSignal) {
  const keys = (Object.keys(given) as Array<keyof FirewallRulesUpdateRequest>).filter((k) => given[k] !== undefined);
  const canonical = (k: keyof FirewallRulesUpdateRequest, value: unknown) => (k.endsWith("policy") ? value : normalizeRules(value));
  const wanted = keys.map((k) => canonical(k, given[k]));
  return changeFirewallRules(
    ctx,
    firewallId,
    {
      what: keys.join(", "),
      holds: (doc) =>
        isDeepStrictEqual(
          keys.map((k) => canonical(k, doc[k])),
          wanted,
        ),
      apply: (doc) => ({ ...doc, ...given }) as FirewallRules,
    },
    signal,
  );
}

// ---------------------------------------------------------------------------------------------
// the spec

/** The body of a firewall update; the rules go to their own endpoint. */
type FirewallChange = FirewallUpdateRequest & { rules?: FirewallRulesUpdateRequest };

export const firewallSpec = resourceSpec<FirewallWithDevices, FirewallCreateRequest, FirewallChange>()({
  name: "Firewall",
  noun: "firewall",
  description:
    "A Cloud Firewall: ordered inbound and outbound rules with default policies, assigned to compute instances and nodebalancers.",
  example: [
    "// The first of the account's instances with a public IPv4 address.",
    'const frontend = compute.getIpsOutput({ type: "ipv4", public: true }).apply((ips) => ips[0]!.computeId!);',
    'const fw = new compute.Firewall("web", {',
    '  label: "web-fw",',
    '  inboundPolicy: "DROP",',
    '  outboundPolicy: "ACCEPT",',
    "  inbound: [",
    '    { action: "ACCEPT", protocol: "TCP", ports: "443", addresses: { ipv4: ["0.0.0.0/0"], ipv6: ["::/0"] }, label: "https" },',
    '    { action: "ACCEPT", protocol: "TCP", ports: "22", addresses: { ipv4: ["203.0.113.0/24"] }, label: "ssh-office" },',
    "  ],",
    "  devices: { computes: [frontend] },",
    "});",
  ].join("\n"),
  inputs: {
    label: {
      schema: fields.label,
      required: true,
      description:
        "3–32 characters: ASCII letters, digits, `-`, `_`, `.`; a letter or digit at both ends; no two of `-_.` in a row. Unique among the account's firewalls.",
    },
    tags: {
      schema: FirewallUpdateRequest.shape.tags.unwrap(),
      set: true,
      default: [],
      description: "Tags (a set: order does not matter).",
    },
    // A new firewall is enabled; `settle` brings it to the program's status.
    status: {
      schema: FirewallStatusInput,
      send: "update",
      default: DEFAULT_STATUS,
      description: "`enabled` (default) or `disabled`; changes in place.",
    },
    inbound: {
      schema: ruleList,
      othersWhenAbsent: true,
      wire: "rules.inbound",
      toWire: wireRules,
      normalize: normalizeRules,
      description:
        "Inbound rules, in order (the first match wins): action, protocol, ports, addresses {ipv4, ipv6}, label, description. When given, the firewall owns its inbound rules exactly; when absent, they are left alone (use `FirewallRule`). A new firewall without it has none.",
    },
    outbound: {
      schema: ruleList,
      othersWhenAbsent: true,
      wire: "rules.outbound",
      toWire: wireRules,
      normalize: normalizeRules,
      description: "Outbound rules, in order; same fields as `inbound`. Given: owned exactly; absent: left alone (use `FirewallRule`).",
    },
    inboundPolicy: {
      schema: FirewallRulesUpdateRequest.shape.inbound_policy.unwrap(),
      wire: "rules.inbound_policy",
      required: true,
      description: "`ACCEPT` or `DROP`: what happens to inbound traffic no rule matches.",
    },
    outboundPolicy: {
      schema: FirewallRulesUpdateRequest.shape.outbound_policy.unwrap(),
      wire: "rules.outbound_policy",
      required: true,
      description: "`ACCEPT` or `DROP`: what happens to outbound traffic no rule matches.",
    },
    devices: {
      schema: devicesSchema,
      othersWhenAbsent: true,
      send: "never",
      normalize: normalizeDevices,
      description:
        "Optional `{computes, nodebalancers}` (ids; at most one nodebalancer). When given, the firewall is authoritative: devices are added and removed to match. When absent, devices are left alone (use `FirewallDevice`).",
    },
  },
  outputs: {
    ...timestamps("firewall", { updatedNullable: true }),
  },
  timeouts: { create: 5 * MINUTE, update: 5 * MINUTE, delete: 5 * MINUTE },
  endpoints: {
    read: ["networking.firewalls.list", "networking.firewalls.get", "networking.firewalls.devices.list"],
    write: [
      "networking.firewalls.create",
      "networking.firewalls.update",
      "networking.firewalls.delete",
      "networking.firewalls.rules.update",
      "networking.firewalls.devices.create",
      "networking.firewalls.devices.delete",
    ],
  },
  uniqueInputs: ["label"],
  // Labels are unique among the account's firewalls.
  naturalKey: uniqueLabel((ctx, filter, signal) => ctx.client().networking.firewalls.listAll({ filter, signal })),
  // At most 25 rules across both rulesets: the sdk's rule, named on the ruleset where the 26th lands.
  validate: (inputs) => {
    const parsed = FirewallRulesUpdateRequest.safeParse({
      inbound: wireRules(inputs.inbound ?? []),
      outbound: wireRules(inputs.outbound ?? []),
    });
    if (parsed.success) return [];
    return parsed.error.issues.filter((i) => i.path.length === 1).map((i): Failure => ({ property: String(i.path[0]), reason: i.message }));
  },
  // Tells the program's FirewallRules when this firewall's rule lists are owned here.
  declare: ({ ctx, id, inputs }) => {
    const owned = [inputs.inbound, inputs.outbound].some((list) => list !== undefined && list !== null && !isUnknown(list));
    if (id !== undefined && owned) firewallDeclarations(ctx).declare(String(apiId(id)), "lists", { kind: "lists" });
  },
  hooks: {
    create: ({ ctx, body, inputs, bodyOf, signal }) => {
      // A firewall meant to be disabled gets its devices only once disabled (in `settle`), so it
      // can join services that already have an active firewall.
      const devices = inputs.status === "disabled" ? undefined : desiredDevices(inputs.devices);
      // Both rulesets always: an absent one is sent empty.
      const rules = { ...body.rules, ...bodyOf(RULE_KEYS).rules };
      const withDevices = devices && devices.computes.length + devices.nodebalancers.length > 0 ? { devices } : {};
      return ctx.client().networking.firewalls.create({ ...body, rules, ...withDevices }, { signal });
    },
    read: async ({ ctx, id, state, signal }) => {
      const client = ctx.client();
      const firewall = await client.networking.firewalls.get(apiId(id), { signal });
      // Devices are read only when the program manages them, so unmanaged devices are never drift.
      if (state.devices === undefined) return firewall;
      return { ...firewall, devices: deviceSets(await client.networking.firewalls.devices.listAll(apiId(id), { signal })) };
    },
    update: async ({ ctx, id, body, news, changed, bodyOf, signal }) => {
      const client = ctx.client();
      const api = client.networking.firewalls;
      const firewallId = apiId(id);
      const desired = changed.includes("devices") ? desiredDevices(news.devices) : undefined;
      if (desired) await reconcileDevices(ctx, client, firewallId, desired, "remove", signal);
      const { rules: _rules, ...firewall } = body;
      if (Object.keys(firewall).length > 0) await api.update(firewallId, firewall, { signal });
      if (RULE_KEYS.some((k) => changed.includes(k))) {
        const rules = bodyOf(RULE_KEYS).rules ?? {};
        // Both lists given: the firewall owns its rules, and one PUT sets them exactly.
        if (news.inbound !== undefined && news.outbound !== undefined) await api.rules.update(firewallId, rules, { signal });
        else await setSomeRules(ctx, firewallId, rules, signal);
      }
      if (desired) await reconcileDevices(ctx, client, firewallId, desired, "add", signal);
      return api.get(firewallId, { signal });
    },
    delete: ({ ctx, id, signal }) => ctx.client().networking.firewalls.delete(apiId(id), { signal }),
    // After create and update: bring the status to the program's (a new firewall is enabled) and,
    // when the program lists devices, make the devices match; the record carries them for outputs.
    settle: async ({ ctx, record, inputs, signal }) => {
      const client = ctx.client();
      const firewallId = apiId(record.id);
      const status = inputs.status ?? DEFAULT_STATUS;
      const firewall = record.status === status ? record : await client.networking.firewalls.update(firewallId, { status }, { signal });
      const desired = desiredDevices(inputs.devices);
      const devices = desired && (await reconcileDevices(ctx, client, firewallId, desired, "both", signal));
      return { ...firewall, devices };
    },
  },
});

/** A firewall rule as outputs carry it. */
export type FirewallRuleOutput = Camelized<FirewallRuleInput>;
