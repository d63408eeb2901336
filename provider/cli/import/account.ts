/**
 * Reads an account through the sdk, area by area, into the objects a program can manage: each with
 * the resource kind (a spec's name), the record in the shape that spec's hooks return, the id to
 * adopt, a label to name it by, and its parent (the object whose id it references). What the
 * program cannot manage is left out with a note saying why.
 */
import type { ComputeClient } from "../../../sdk/client";
import type { DomainRecord } from "../../../sdk/resources/domains";
import type { ApiObject, Values } from "../../engine/spec";
import { domainRecordSpec } from "../../resources/domain-record";
import { importedInstanceRecord } from "../../resources/instance";
import { programInputs } from "../../engine/import-inputs";
import { canonicalIp } from "../../../sdk/core/net";
import { mapBounded } from "../../../sdk/core/pagination";

/** One object to write as a resource. */
export interface FoundObject {
  /** The resource kind: a key of `RESOURCE_SPECS`. */
  kind: string;
  /** The record, shaped as the kind's hooks return it (so the spec's wire paths apply). */
  record: ApiObject;
  /** What `adoptId` says. */
  id: string;
  /** What the names are derived from (a label, a domain name, an address). */
  label: string;
  /** The object whose id an input references (`vpcId`), written as a reference to it. */
  parent?: { input: string; object: FoundObject };
  /** Shown beside the resource: what a literal id stands for. */
  comment?: string;
  /** Inputs written as they are, instead of those derived from the record (a record set's records). */
  written?: Values;
  /** What the record does not carry and a program gives (an instance's firewall, which the API never answers). */
  given?: Values;
  /**
   * Another object's id at a path of the inputs (an instance's `firewallId`, an interface's
   * `subnetId`), written as a reference to its resource when that is in the program. Unlike
   * `parent`, it does not make this object a child: a label filter keeps it on its own label.
   */
  references?: ReadonlyArray<{ path: readonly (string | number)[]; object: FoundObject }>;
}

/** How the account is turned into resources. */
export interface ReadOptions {
  /** Each domain's records as one `DomainRecordSet` instead of one `DomainRecord` each. */
  recordSets: boolean;
}

export interface AreaContents {
  objects: FoundObject[];
  /** Objects left out, and why. */
  notes: string[];
}

/** A part of the account, as `--only` names it. */
export interface Area {
  name: string;
  /** The heading of its part of index.ts. */
  title: string;
  /** The resource kinds it writes (`test/checks/kind-lists.test.ts`: every kind is some area's, or in `NOT_IMPORTED`). */
  kinds: readonly string[];
  /** `earlier`: what the areas before it put in the program (after the label filter), for references to them. */
  read(client: ComputeClient, options: ReadOptions, earlier: readonly FoundObject[]): Promise<AreaContents>;
}

/** Reads at a time (`mapBounded`): a large account is read without a burst the API would rate-limit. */
const CONCURRENCY = 4;

/** An object known by its record's id; `parent` and the rest as `more` says. */
function found(kind: string, record: ApiObject & { id: number }, label: string, more: Partial<FoundObject> = {}): FoundObject {
  return { kind, record, id: String(record.id), label, ...more };
}

/** An object known by its address (an IPv6 range, an address's reverse name): its id is the address in canonical form. */
function foundAt(kind: string, address: string, record: ApiObject, label: string, more: Partial<FoundObject> = {}): FoundObject {
  const id = canonicalIp(address) ?? address;
  return { kind, record: { ...record, id }, id, label, ...more };
}

/** An object whose `input` references `object` (`vpcId`: its VPC). */
const childOf = (object: FoundObject, input: string): Pick<FoundObject, "parent"> => ({ parent: { input, object } });

/** A public IPv4 address's platform reverse name starts with the address in dashes (`203-0-113-7.ip…`): not the user's. */
const isPlatformRdns = (address: string, rdns: string) => rdns.toLowerCase().startsWith(`${address.replace(/\./g, "-")}.`);

/**
 * A domain's records as one `DomainRecordSet`: the set's record as its hooks return it, and its
 * records written as a `DomainRecord` of each would be (only what differs from the defaults), so
 * both spellings of a zone come from the one derivation.
 */
function recordSet(domain: FoundObject, zone: string, records: readonly DomainRecord[]): FoundObject {
  const given = { domainId: Number(domain.id) };
  const written = records.map((record) => {
    const { domainId: _parent, ...fields } = programInputs(domainRecordSpec, { ...record, domain: zone }, given);
    return fields;
  });
  return {
    kind: "DomainRecordSet",
    record: { id: Number(domain.id), domain: zone, records: [...records] },
    id: domain.id,
    label: "records",
    ...childOf(domain, "domainId"),
    comment: `${records.length} record(s) of ${zone}`,
    written: { records: written },
  };
}

/** The object of `kind` with `id` among what the earlier areas found, for a reference to it; else a stand-in whose id is written as it is. */
function objectOf(earlier: readonly FoundObject[], kind: string, id: number, label: string): FoundObject {
  return earlier.find((o) => o.kind === kind && o.id === String(id)) ?? { kind, record: { id }, id: String(id), label };
}

/**
 * Instances deployed from an image, each with its profile's interfaces (their addresses named),
 * its tags and the firewall it is behind (`firewallId`, a reference to the firewall's resource
 * when the program has it). Its root password is not written: the API never reads it back, and an
 * adopted instance goes without one (`Instance`'s `rootPass`). Its firewall stays a
 * `FirewallDevice` of the firewall's too, which changes it in place.
 */
async function readInstances(client: ComputeClient, _options: ReadOptions, earlier: readonly FoundObject[]): Promise<AreaContents> {
  const api = client.computes.instances;
  const notes: string[] = [];
  const all = await api.listAll();
  const deployed = all.filter((c) => {
    if (c.image) return true;
    notes.push(`instance ${c.label} (${c.id}): it was not deployed from an image, and Instance deploys one`);
    return false;
  });
  if (deployed.length === 0) return { objects: [], notes };
  // The API names no instance's firewall: the firewalls' devices do.
  const firewalls = (await client.networking.firewalls.listAll()).filter((f) => f.status !== "deleted");
  const devices = await mapBounded(firewalls, CONCURRENCY, (f) => client.networking.firewalls.devices.listAll(f.id));
  const behind = new Map<number, (typeof firewalls)[number][]>();
  firewalls.forEach((firewall, i) => {
    for (const { entity } of devices[i]!)
      if (entity.type === "compute") behind.set(entity.id, [...(behind.get(entity.id) ?? []), firewall]);
  });
  const configs = await mapBounded(deployed, CONCURRENCY, (c) => api.configs.listAll(c.id));
  const objects = deployed.map((compute, i) => {
    const record = importedInstanceRecord(compute, configs[i]![0]);
    const references: Array<{ path: readonly (string | number)[]; object: FoundObject }> = [];
    (record.interfaces ?? []).forEach((iface, n) => {
      if (typeof iface.subnet_id === "number") {
        references.push({ path: ["interfaces", n, "subnetId"], object: objectOf(earlier, "VpcSubnet", iface.subnet_id, "subnet") });
      }
    });
    // `firewallId` takes one firewall; an instance behind several keeps them as devices only.
    const [firewall, ...more] = behind.get(compute.id) ?? [];
    const given: Values = {};
    let comment: string | undefined;
    if (firewall && more.length === 0) {
      given.firewallId = firewall.id;
      references.push({ path: ["firewallId"], object: objectOf(earlier, "Firewall", firewall.id, firewall.label) });
      comment = `behind firewall ${firewall.label} (firewallId applies at creation; a FirewallDevice changes it in place)`;
    }
    return found("Instance", record, compute.label, { given, references, comment });
  });
  return { objects, notes };
}

export const AREAS: readonly Area[] = [
  {
    name: "vpcs",
    title: "VPCs and their subnets",
    kinds: ["Vpc", "VpcSubnet"],
    read: async (client) => {
      const objects: FoundObject[] = [];
      for (const vpc of await client.vpcs.listAll()) {
        const parent = found("Vpc", vpc, vpc.label);
        // The VPC record lists its subnets: no request per VPC.
        objects.push(parent, ...vpc.subnets.map((subnet) => found("VpcSubnet", subnet, subnet.label, childOf(parent, "vpcId"))));
      }
      return { objects, notes: [] };
    },
  },
  {
    name: "firewalls",
    title: "Firewalls, their rules and devices",
    kinds: ["Firewall", "FirewallDevice"],
    read: async (client) => {
      const api = client.networking.firewalls;
      const firewalls = (await api.listAll()).filter((f) => f.status !== "deleted");
      const devices = await mapBounded(firewalls, CONCURRENCY, (f) => api.devices.listAll(f.id));
      const objects: FoundObject[] = [];
      const notes: string[] = [];
      firewalls.forEach((firewall, i) => {
        const parent = found("Firewall", firewall, firewall.label);
        objects.push(parent);
        for (const device of devices[i]!) {
          const { id, type, label } = device.entity;
          if (type !== "compute" && type !== "nodebalancer") {
            notes.push(
              `firewall ${firewall.label}: device ${device.id} (${type} ${id}): FirewallDevice manages computes and nodebalancers only`,
            );
            continue;
          }
          objects.push(
            found("FirewallDevice", device, label ?? `${type}-${id}`, {
              ...childOf(parent, "firewallId"),
              comment: `${type} ${label ?? id}`,
            }),
          );
        }
      });
      return { objects, notes };
    },
  },
  {
    name: "instances",
    title: "Compute instances",
    kinds: ["Instance"],
    read: readInstances,
  },
  {
    name: "ipv6",
    title: "IPv6 ranges",
    kinds: ["Ipv6Range"],
    read: async (client) => {
      const objects: FoundObject[] = [];
      const notes: string[] = [];
      for (const range of await client.networking.ipv6.ranges.listAll()) {
        if (range.route_target === null) {
          notes.push(`IPv6 range ${range.range}/${range.prefix}: it is routed to no instance`);
          continue;
        }
        // The spec's record: the list's route target, the prefix length under its input's wire name.
        const record = { ...range, prefix_length: range.prefix };
        objects.push(foundAt("Ipv6Range", range.range, record, `range-${range.range}`, { comment: `${range.range}/${range.prefix}` }));
      }
      return { objects, notes };
    },
  },
  {
    name: "rdns",
    title: "Reverse DNS",
    kinds: ["ReverseDns"],
    read: async (client) => {
      const objects: FoundObject[] = [];
      for (const ip of await client.networking.ips.listAll()) {
        if (ip.rdns === null || !ip.public || isPlatformRdns(ip.address, ip.rdns)) continue;
        objects.push(foundAt("ReverseDns", ip.address, ip, ip.rdns));
      }
      return { objects, notes: [] };
    },
  },
  {
    name: "domains",
    title: "Domains and their records",
    kinds: ["Domain", "DomainRecord", "DomainRecordSet"],
    read: async (client, options) => {
      const domains = await client.domains.listAll();
      const records = await mapBounded(domains, CONCURRENCY, (d) => client.domains.records.listAll(d.id));
      const objects: FoundObject[] = [];
      domains.forEach((domain, i) => {
        const parent = found("Domain", domain, domain.domain);
        objects.push(parent);
        if (options.recordSets) {
          if (records[i]!.length > 0) objects.push(recordSet(parent, domain.domain, records[i]!));
          return;
        }
        for (const record of records[i]!) {
          // The record with its zone's name, as the DomainRecord hooks return it: names and targets normalize against it.
          const withZone = { ...record, domain: domain.domain };
          const label = `${record.type}-${record.name === "" ? "apex" : record.name}`;
          objects.push(found("DomainRecord", withZone, label, childOf(parent, "domainId")));
        }
      });
      return { objects, notes: [] };
    },
  },
  {
    name: "databases",
    title: "Managed databases",
    kinds: ["MysqlDatabase", "PostgresqlDatabase"],
    read: async (client) => {
      // The per-engine lists carry `ssl_connection` and the replication fields; the all-engines list does not.
      const [mysql, postgresql] = await Promise.all([client.databases.mysql.listAll(), client.databases.postgresql.listAll()]);
      const objects: FoundObject[] = [
        ...mysql.map((db) => found("MysqlDatabase", db, db.label)),
        ...postgresql.map((db) => found("PostgresqlDatabase", db, db.label)),
      ];
      return { objects, notes: [] };
    },
  },
  {
    name: "images",
    title: "Private images",
    kinds: ["Image"],
    read: async (client) => {
      const objects: FoundObject[] = [];
      const notes: string[] = [];
      const images = await client.images.listAll();
      const publicCount = images.filter((i) => i.is_public).length;
      if (publicCount > 0) notes.push(`${publicCount} public image(s): the platform's distributions, not the account's`);
      for (const image of images) {
        if (image.is_public) continue;
        if (image.type !== "manual") {
          notes.push(`image ${image.id} (${image.label}): ${image.type} images are made by the platform and expire`);
          continue;
        }
        objects.push({ kind: "Image", record: image, id: image.id, label: image.label });
      }
      return { objects, notes };
    },
  },
];

export const AREA_NAMES = AREAS.map((a) => a.name);

/** The kinds no area writes, and why: each is written as part of another kind's resource. */
export const NOT_IMPORTED: Readonly<Record<string, string>> = {
  FirewallRule: "a firewall's rules are imported with it, as its inbound and outbound inputs",
  DatabaseAllowListEntry: "a database's allow list is imported with it, as its allowList input",
};
