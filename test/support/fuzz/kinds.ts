/**
 * The fuzzer's model of each resource kind, keyed by the spec's name (`provider/generated/spec-table.ts`):
 * how a new resource's inputs are made (labels and names unique by a counter, so a shrunk
 * sequence never collides), which fields change in place and which replace (as the spec declares
 * them: `replaceOnChange`), how the kind's objects are listed in the emulated account with the
 * sdk client, and which fields a hand change through the API may touch.
 *
 * Every value a step needs is drawn when the step is generated and stored in the step, so a step
 * list replays without the random source (`steps.ts`). Every kind of the spec table is either
 * modelled here or in `NOT_YET` with its reason (`unmodelledKinds`, held by the fuzz test).
 */
import type { ComputeClient } from "../../../sdk/client";
import type { Prng } from "../../../emulator/core/prng";
import type { EmulatorControl } from "../../../emulator";

/** Input values of a declared resource, as the program passes them (the parent's id aside). */
export type Props = Record<string, string | number>;

/** An object of a kind found in the emulated account: its id, its parent's, and the modelled fields as inputs name them. */
export interface CloudObject {
  id: number;
  /** The id Pulumi holds when it is not the API's number (a firewall rule's `<firewallId>:<direction>:<label>`). */
  stateId?: string;
  parentId?: number;
  values: Props;
}

/** What the model knows of the others when it draws a value: a counter for unique names, and the random source. */
export interface Draw {
  rng: Prng;
  /** A number never drawn before in this run (labels, names, ranges). */
  unique(): number;
}

/** A field the fuzzer changes: how a new value is drawn from the current props. */
export interface Mutation {
  field: string;
  next(props: Props, draw: Draw): string | number;
}

export interface KindModel {
  /** The spec's name (`compute:index:<kind>`, the class of `provider/index.ts`). */
  kind: string;
  /** Short prefix of the program's resource names (`vpc3`). */
  prefix: string;
  /** The parent kind and the input that takes its id (subnets in VPCs, records in domains). */
  parent?: { kind: string; input: string };
  /** The most of this kind the generator declares at once (per parent for a child kind). */
  most: number;
  /** Inputs of a new resource. */
  create(draw: Draw): Props;
  /** Fields that change in place. */
  inPlace: Mutation[];
  /** Fields whose change replaces the object (the spec's `replaceOnChange`); a mutation may change others with it. */
  replacing: Array<{ field: string; next(props: Props, draw: Draw): Props }>;
  /** Fields a person changes by hand through the API, and how the API call is made. */
  hand: Array<Mutation & { apply(client: ComputeClient, object: CloudObject, value: string | number): Promise<unknown> }>;
  /** Deletes an object by hand through the API. */
  remove(client: ComputeClient, object: CloudObject): Promise<unknown>;
  /**
   * What the account must hold before the program declares these props, made by the world (an
   * instance a team made elsewhere, for a firewall device): the run makes each `key` once, at the
   * `add` or replacing change that first needs it.
   */
  needs?(props: Props): { key: string; make(control: EmulatorControl): void };
  /** Inputs every resource of the kind has, beside its props (a domain's `type`, a rule's addresses): both doors declare them. */
  fixed?: Record<string, unknown>;
  /** Every object of the kind in the account (under one parent object for a child kind). */
  list(client: ComputeClient, parentId?: number): Promise<CloudObject[]>;
}

const REGIONS = ["us-iad", "us-ord", "fr-par", "us-sea"];
const pick = <T>(rng: Prng, items: readonly T[]): T => items[Math.floor(rng.next() * items.length)]!;
const other = <T>(rng: Prng, items: readonly T[], not: T): T =>
  pick(
    rng,
    items.filter((x) => x !== not),
  );
/** TTLs the API stores as given (P2-9: no rounding), for records and domains alike. */
const TTLS = [300, 3600, 7200, 86400];

const vpc: KindModel = {
  kind: "Vpc",
  prefix: "vpc",
  most: 4,
  create: (d) => ({ label: `fz-net-${d.unique()}`, region: pick(d.rng, REGIONS), description: "" }),
  inPlace: [
    { field: "label", next: (_p, d) => `fz-net-${d.unique()}` },
    { field: "description", next: (_p, d) => `note ${d.unique()}` },
  ],
  replacing: [
    { field: "region", next: (p, d) => ({ region: other(d.rng, REGIONS, p.region) }) },
    // Region and label together: the new object's label is free, so it may be created first.
    { field: "region", next: (p, d) => ({ region: other(d.rng, REGIONS, p.region), label: `fz-net-${d.unique()}` }) },
  ],
  hand: [
    {
      field: "description",
      next: (_p, d) => `by hand ${d.unique()}`,
      apply: (client, o, value) => client.vpcs.update(o.id, { description: String(value) }),
    },
    {
      field: "label",
      next: (_p, d) => `fz-hand-${d.unique()}`,
      apply: (client, o, value) => client.vpcs.update(o.id, { label: String(value) }),
    },
  ],
  remove: (client, o) => client.vpcs.delete(o.id),
  list: async (client) =>
    (await client.vpcs.listAll()).map((v) => ({
      id: v.id,
      values: { label: v.label, region: v.region, description: v.description ?? "" },
    })),
};

const vpcSubnet: KindModel = {
  kind: "VpcSubnet",
  prefix: "sub",
  parent: { kind: "Vpc", input: "vpcId" },
  most: 3,
  // Ranges never repeat in a run (10.N.M.0/24 from the counter), so no two subnets of a VPC overlap.
  create: (d) => ({ label: `sub-${d.unique()}`, ipv4: subnetRange(d.unique()) }),
  inPlace: [{ field: "label", next: (_p, d) => `sub-${d.unique()}` }],
  replacing: [{ field: "ipv4", next: (_p, d) => ({ ipv4: subnetRange(d.unique()) }) }],
  hand: [
    {
      field: "label",
      next: (_p, d) => `sub-hand-${d.unique()}`,
      apply: (client, o, value) => client.vpcs.subnets.update(o.parentId!, o.id, { label: String(value) }),
    },
  ],
  remove: (client, o) => client.vpcs.subnets.delete(o.parentId!, o.id),
  list: async (client, vpcId) =>
    (await client.vpcs.subnets.listAll(vpcId!)).map((s) => ({ id: s.id, parentId: vpcId, values: { label: s.label, ipv4: s.ipv4 } })),
};

function subnetRange(n: number): string {
  return `10.${Math.floor(n / 250) % 250}.${n % 250}.0/24`;
}

const domain: KindModel = {
  kind: "Domain",
  prefix: "zone",
  most: 3,
  create: (d) => ({ domain: `fz${d.unique()}.example`, soaEmail: "admin@fuzz.example", ttlSec: pick(d.rng, TTLS) }),
  inPlace: [
    { field: "domain", next: (_p, d) => `fz${d.unique()}.example` },
    { field: "ttlSec", next: (p, d) => other(d.rng, TTLS, p.ttlSec) },
    { field: "soaEmail", next: (_p, d) => `admin${d.unique()}@fuzz.example` },
  ],
  // `type` replaces, but a slave zone holds no records of its own: not modelled yet.
  replacing: [],
  hand: [
    {
      field: "ttlSec",
      next: (p, d) => other(d.rng, TTLS, p.ttlSec),
      apply: (client, o, value) => client.domains.update(o.id, { ttl_sec: Number(value) }),
    },
    {
      field: "soaEmail",
      next: (_p, d) => `hand${d.unique()}@fuzz.example`,
      apply: (client, o, value) => client.domains.update(o.id, { soa_email: String(value) }),
    },
  ],
  remove: (client, o) => client.domains.delete(o.id),
  fixed: { type: "master" },
  list: async (client) =>
    (await client.domains.listAll()).map((z) => ({
      id: z.id,
      values: { domain: z.domain, soaEmail: z.soa_email ?? "", ttlSec: z.ttl_sec },
    })),
};

/** A record's type and a target of that type (A: 192.0.2.x, AAAA: 2001:db8::x). */
const recordTarget = (type: string, n: number): string => (type === "A" ? `192.0.2.${n % 250}` : `2001:db8::${(n % 65000).toString(16)}`);

const domainRecord: KindModel = {
  kind: "DomainRecord",
  prefix: "rec",
  parent: { kind: "Domain", input: "domainId" },
  most: 3,
  // Names never repeat in a run, so no two records are one record to DNS (their natural key).
  create: (d) => {
    const type = pick(d.rng, ["A", "AAAA"]);
    return { type, name: `h${d.unique()}`, target: recordTarget(type, d.unique()), ttlSec: pick(d.rng, TTLS) };
  },
  inPlace: [
    { field: "name", next: (_p, d) => `h${d.unique()}` },
    { field: "target", next: (p, d) => recordTarget(String(p.type), d.unique()) },
    { field: "ttlSec", next: (p, d) => other(d.rng, TTLS, p.ttlSec) },
  ],
  replacing: [
    {
      field: "type",
      next: (p, d) => {
        const type = p.type === "A" ? "AAAA" : "A";
        return { type, target: recordTarget(type, d.unique()) };
      },
    },
  ],
  hand: [
    {
      field: "ttlSec",
      next: (p, d) => other(d.rng, TTLS, p.ttlSec),
      apply: (client, o, value) => client.domains.records.update(o.parentId!, o.id, { ttl_sec: Number(value) }),
    },
  ],
  remove: (client, o) => client.domains.records.delete(o.parentId!, o.id),
  list: async (client, domainId) =>
    (await client.domains.records.listAll(domainId!)).map((r) => ({
      id: r.id,
      parentId: domainId,
      values: { type: r.type, name: r.name, target: r.target, ttlSec: r.ttl_sec },
    })),
};

const POLICIES = ["ACCEPT", "DROP"] as const;
type Policy = (typeof POLICIES)[number];

const firewall: KindModel = {
  kind: "Firewall",
  prefix: "fw",
  most: 2,
  // No rule lists: the firewall's rules are its FirewallRules' (a Firewall without them leaves them alone).
  create: (d) => ({ label: `fz-fw-${d.unique()}`, inboundPolicy: pick(d.rng, POLICIES), outboundPolicy: pick(d.rng, POLICIES) }),
  inPlace: [
    { field: "label", next: (_p, d) => `fz-fw-${d.unique()}` },
    { field: "inboundPolicy", next: (p, d) => other(d.rng, POLICIES, p.inboundPolicy) },
    { field: "outboundPolicy", next: (p, d) => other(d.rng, POLICIES, p.outboundPolicy) },
  ],
  replacing: [],
  hand: [
    {
      field: "label",
      next: (_p, d) => `fz-hand-${d.unique()}`,
      apply: (client, o, value) => client.networking.firewalls.update(o.id, { label: String(value) }),
    },
    {
      field: "inboundPolicy",
      next: (p, d) => other(d.rng, POLICIES, p.inboundPolicy),
      apply: (client, o, value) => putRules(client, o.id, (doc) => ({ ...doc, inbound_policy: value as Policy })),
    },
  ],
  remove: (client, o) => client.networking.firewalls.delete(o.id),
  list: async (client) =>
    (await client.networking.firewalls.listAll()).map((f) => ({
      id: f.id,
      values: { label: f.label, inboundPolicy: f.rules.inbound_policy, outboundPolicy: f.rules.outbound_policy },
    })),
};

type RulesBody = NonNullable<Parameters<ComputeClient["networking"]["firewalls"]["rules"]["update"]>[1]>;

/** A change by hand of a firewall's rules: the whole document read, changed and put back (the API replaces it whole). */
async function putRules(client: ComputeClient, firewallId: number, change: (doc: RulesBody) => RulesBody): Promise<unknown> {
  const doc = await client.networking.firewalls.rules.get(firewallId);
  const rules = (list: typeof doc.inbound) =>
    (list ?? []).map(({ action, protocol, ports, addresses, label, description }) => ({
      action,
      protocol,
      ...(ports === null || ports === undefined ? {} : { ports }),
      addresses,
      ...(label === null || label === undefined ? {} : { label }),
      ...(description === null || description === undefined ? {} : { description }),
    })) as RulesBody["inbound"];
  return client.networking.firewalls.rules.update(
    firewallId,
    change({
      inbound: rules(doc.inbound),
      inbound_policy: doc.inbound_policy as Policy,
      outbound: rules(doc.outbound),
      outbound_policy: doc.outbound_policy as Policy,
    }),
  );
}

/** A rule's direction and label, from the id Pulumi holds (`<firewallId>:<direction>:<label>`). */
const ruleKey = (o: CloudObject): { direction: "inbound" | "outbound"; label: string } => {
  const [, direction, ...label] = o.stateId!.split(":");
  return { direction: direction as "inbound" | "outbound", label: label.join(":") };
};

const firewallRule: KindModel = {
  kind: "FirewallRule",
  prefix: "rule",
  parent: { kind: "Firewall", input: "firewallId" },
  most: 3,
  // Labels never repeat in a run, so no two rules share one within a direction (their natural key).
  create: (d) => ({
    direction: pick(d.rng, ["inbound", "outbound"]),
    label: `rule-${d.unique()}`,
    action: pick(d.rng, POLICIES),
    protocol: "TCP",
    ports: String(1000 + d.unique()),
  }),
  inPlace: [
    { field: "action", next: (p, d) => other(d.rng, POLICIES, p.action) },
    { field: "ports", next: (_p, d) => String(1000 + d.unique()) },
  ],
  replacing: [
    { field: "label", next: (_p, d) => ({ label: `rule-${d.unique()}` }) },
    { field: "direction", next: (p) => ({ direction: p.direction === "inbound" ? "outbound" : "inbound" }) },
  ],
  hand: [
    {
      field: "ports",
      next: (_p, d) => String(1000 + d.unique()),
      apply: (client, o, value) => {
        const { direction, label } = ruleKey(o);
        return putRules(client, o.parentId!, (doc) => ({
          ...doc,
          [direction]: (doc[direction] ?? []).map((r) => (r.label === label ? { ...r, ports: String(value) } : r)),
        }));
      },
    },
  ],
  remove: (client, o) => {
    const { direction, label } = ruleKey(o);
    return putRules(client, o.parentId!, (doc) => ({ ...doc, [direction]: (doc[direction] ?? []).filter((r) => r.label !== label) }));
  },
  fixed: { addresses: { ipv4: ["0.0.0.0/0"] } },
  list: async (client, firewallId) => {
    const doc = await client.networking.firewalls.rules.get(firewallId!);
    return (["inbound", "outbound"] as const).flatMap((direction) =>
      (doc[direction] ?? []).map((r) => ({
        id: 0,
        stateId: `${firewallId}:${direction}:${r.label}`,
        parentId: firewallId,
        values: { direction, label: r.label ?? "", action: r.action, protocol: r.protocol, ports: r.ports ?? "" },
      })),
    );
  },
};

/** Instances the world seeds for firewall devices: one per device ever drawn in a run, so none is on two firewalls. */
const INSTANCE_BASE = 8_000_000;

const firewallDevice: KindModel = {
  kind: "FirewallDevice",
  prefix: "dev",
  parent: { kind: "Firewall", input: "firewallId" },
  most: 2,
  create: (d) => ({ entityId: INSTANCE_BASE + d.unique(), entityType: "compute" }),
  // Every input replaces: a device is removed and added again.
  inPlace: [],
  replacing: [{ field: "entityId", next: (_p, d) => ({ entityId: INSTANCE_BASE + d.unique() }) }],
  hand: [],
  needs: (props) => {
    const id = Number(props.entityId);
    return { key: `compute ${id}`, make: (control) => control.seedCompute({ id, label: `fz-vm-${id - INSTANCE_BASE}`, region: "us-iad" }) };
  },
  remove: (client, o) => client.networking.firewalls.devices.delete(o.parentId!, o.id),
  list: async (client, firewallId) =>
    (await client.networking.firewalls.devices.listAll(firewallId!)).map((d) => ({
      id: d.id,
      parentId: firewallId,
      values: { entityId: d.entity.id, entityType: d.entity.type },
    })),
};

/** The root password of every modelled instance: secret, so the state must never hold it in the clear (`run.ts`). */
export const ROOT_PASS = "fz-Root-pass-7788";
/** Plans and images the model moves instances between: any plan resizes to any other; the images are public and supported. */
const PLANS = ["g6-nanode-1", "g6-standard-1", "g6-standard-2"];
const IMAGES = ["public/debian12", "public/ubuntu22.04", "public/rocky9"];
/** Labels of the program's instances; the world's (`fz-vm-`, for devices) are not the program's. */
const programInstance = (label: string): boolean => !label.startsWith("fz-vm-");

const instance: KindModel = {
  kind: "Instance",
  prefix: "vm",
  most: 2,
  // No interfaces: the API gives one `public` interface. The provider's waits jump the emulator's clock.
  create: (d) => ({ label: `fz-in-${d.unique()}`, region: pick(d.rng, REGIONS), type: pick(d.rng, PLANS), image: pick(d.rng, IMAGES) }),
  inPlace: [
    { field: "label", next: (_p, d) => `fz-in-${d.unique()}` },
    // A resize, waited for.
    { field: "type", next: (p, d) => other(d.rng, PLANS, p.type) },
  ],
  replacing: [
    { field: "region", next: (p, d) => ({ region: other(d.rng, REGIONS, p.region) }) },
    { field: "image", next: (p, d) => ({ image: other(d.rng, IMAGES, p.image), label: `fz-in-${d.unique()}` }) },
  ],
  hand: [
    {
      field: "label",
      next: (_p, d) => `fz-inh-${d.unique()}`,
      apply: (client, o, value) => client.computes.instances.update(o.id, { label: String(value) }),
    },
  ],
  remove: (client, o) => client.computes.instances.delete(o.id),
  fixed: { rootPass: ROOT_PASS },
  list: async (client) =>
    (await client.computes.instances.listAll())
      // One `deleting` (deleted by hand, the emulator's clock not yet past its 10 s) is gone, as the provider reads it.
      .filter((c) => programInstance(c.label) && c.status !== "deleting")
      .map((c) => ({ id: c.id, values: { label: c.label, region: c.region, type: c.type ?? "", image: c.image ?? "" } })),
};

/** The modelled kinds, parents before their children. */
export const KINDS: readonly KindModel[] = [vpc, vpcSubnet, domain, domainRecord, firewall, firewallRule, firewallDevice, instance];
export const KIND_BY_NAME: ReadonlyMap<string, KindModel> = new Map(KINDS.map((k) => [k.kind, k]));

/** The kinds of the spec table the model does not cover yet, each with why. */
export const NOT_YET: Readonly<Record<string, string>> = {
  DomainRecordSet: "owns a whole name's records: a second owner of DomainRecord's objects, to be modelled with it",
  MysqlDatabase: "provisioning takes emulated minutes and the clock jumps: slower steps, a later slice",
  PostgresqlDatabase: "as MysqlDatabase",
  DatabaseAllowListEntry: "an entry of a database's allow list: comes with the databases",
  Image: "an upload from a local file: needs a file per step",
  Ipv6Range: "routed to a modelled instance's IPv6 address: its route follows the instance through replacements, a later slice",
  ReverseDns: "names a modelled instance's address, and the API takes it only once a forward record resolves to it: a later slice",
};

/** Kinds of `specNames` neither modelled nor in `NOT_YET`: a kind added without a decision. */
export function unmodelledKinds(specNames: readonly string[]): string[] {
  return specNames.filter((name) => !KIND_BY_NAME.has(name) && !(name in NOT_YET));
}
