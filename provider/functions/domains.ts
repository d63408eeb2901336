/** Read-only DNS data: domains, their records, and a domain's rendered zone file. */
import type { Domain, DomainRecord, RecordType } from "../../sdk/resources/domains";
import { apiId } from "../resources/common";
import { camelizeDeep } from "../engine/values";
import type { Camelized } from "../engine/values";
import { type FunctionOptions, outputForm, withClient } from "./client";
import { filterGiven, hasGiven, idArgument, oneChild, orMissing, refuseUnlessOneWay } from "./lookup";

/** A domain (DNS zone), with camelCase keys. */
export type DomainResult = Camelized<Domain>;
/** A record of a domain, with camelCase keys. */
export type DomainRecordResult = Camelized<DomainRecord>;

/**
 * Arguments of `getDomainRecord`: its domain, and the record's `id`, or its `name` (relative to
 * the domain, `""` for the domain itself) and `type` together.
 */
export type GetDomainRecordArgs = { domainId: string | number } & (
  { id: string | number; name?: undefined; type?: undefined } | { name: string; type: RecordType; id?: undefined }
);

/** Filters of `getDomainRecords`. */
export interface GetDomainRecordsArgs {
  domainId: string | number;
  /** Only records of this name (relative to the domain, `""` for the domain itself). */
  name?: string;
  /** Only records of this type (`A`, `MX`, …). */
  type?: RecordType;
}

const recordOf = (domainId: number) => ({ one: `record of domain ${domainId}`, many: `records of domain ${domainId}` });

/** The rendered zone of a domain. */
export interface DomainZoneFileResult {
  domainId: number;
  /** The lines of the last rendered zone (RFC 1035 master-file text); empty until the platform first renders it. */
  zoneFile: string[];
}

/**
 * One domain, by `id` or by name (`domain`, matched without regard to letter case). Exactly one of the two.
 *
 * @example
 * ```ts
 * // A zone another stack owns (made here, so the example runs on its own); found once it exists.
 * const owned = new compute.Domain("zone", { domain: "example.com", type: "master", soaEmail: "admin@example.com" });
 * const zone = compute.getDomainOutput({ domain: owned.domain });
 * new compute.DomainRecord("www", { domainId: zone.id, type: "A", name: "www", target: "203.0.113.10" });
 * ```
 */
export function getDomain(args: { id?: string | number; domain?: string }, options: FunctionOptions = {}): Promise<DomainResult> {
  if ((args.id === undefined) === (args.domain === undefined)) throw new Error("getDomain needs exactly one of id and domain");
  return withClient("getDomain", options, async (client) => {
    if (args.id !== undefined) return camelizeDeep(await client.domains.get(apiId(args.id))) as DomainResult;
    const name = args.domain!.toLowerCase().replace(/\.$/, "");
    const matches = await client.domains.listAll({ filter: { domain: name } });
    const domain = matches.find((d) => d.domain.toLowerCase() === name);
    if (!domain) throw new Error(`no domain named ${JSON.stringify(args.domain)} in this account`);
    return camelizeDeep(domain) as DomainResult;
  });
}

/**
 * Every domain of the account, optionally only those of one type, group or tag.
 *
 * @example
 * ```ts
 * export const zones = compute.getDomainsOutput({ tag: "prod" }).apply((ds) => ds.map((d) => d.domain));
 * ```
 */
export function getDomains(
  args: { type?: "master" | "slave"; group?: string; tag?: string } = {},
  options: FunctionOptions = {},
): Promise<DomainResult[]> {
  return withClient("getDomains", options, async (client) => {
    const domains = await client.domains.listAll();
    return domains
      .filter((d) => hasGiven(d, { type: args.type, group: args.group }))
      .filter((d) => args.tag === undefined || (d.tags ?? []).includes(args.tag))
      .map((d) => camelizeDeep(d) as DomainResult);
  });
}

/**
 * One record of a domain, by `id`, or by `name` and `type` (refused when several records share them).
 *
 * @example
 * ```ts
 * const zone = new compute.Domain("zone", { domain: "example.com", type: "master", soaEmail: "admin@example.com" });
 * const www = new compute.DomainRecord("www", { domainId: zone.id, type: "A", name: "www", target: "203.0.113.10" });
 * // `www.domainId`: looked up once the record exists.
 * export const wwwTarget = compute.getDomainRecordOutput({ domainId: www.domainId, name: "www", type: "A" }).apply((r) => r.target);
 * ```
 */
export async function getDomainRecord(args: GetDomainRecordArgs, options: FunctionOptions = {}): Promise<DomainRecordResult> {
  refuseUnlessOneWay("getDomainRecord", args, [["id"], ["name", "type"]], "domainId");
  const domainId = idArgument("getDomainRecord", "domainId", args.domainId);
  const id = args.id === undefined ? undefined : idArgument("getDomainRecord", "id", args.id);
  const [name, type] = [args.name!, args.type!];
  const record = await oneChild("getDomainRecord", options, {
    noun: recordOf(domainId),
    id,
    get: (client, recordId) => client.domains.records.get(domainId, recordId),
    list: (client) => client.domains.records.listAll(domainId, { filter: { name, type } }),
    match: (r) => r.name === name && r.type === type,
    key: `name ${JSON.stringify(name)} and type ${type}`,
    parentMissing: `getDomainRecord: no domain with id ${domainId}`,
  });
  return camelizeDeep(record) as DomainRecordResult;
}

/**
 * The records of a domain, optionally only those of a name, of a type, or both.
 *
 * @example
 * ```ts
 * const zone = new compute.Domain("zone", { domain: "example.com", type: "master", soaEmail: "admin@example.com" });
 * const mail = new compute.DomainRecord("mx", { domainId: zone.id, type: "MX", name: "@", target: "mail.example.com.", priority: 10 });
 * export const mx = compute.getDomainRecordsOutput({ domainId: mail.domainId, type: "MX" });
 * ```
 */
export function getDomainRecords(args: GetDomainRecordsArgs, options: FunctionOptions = {}): Promise<DomainRecordResult[]> {
  return withClient("getDomainRecords", options, async (client) => {
    const domainId = apiId(args.domainId);
    const filter = filterGiven({ name: args.name, type: args.type });
    const records = await orMissing(
      () => client.domains.records.listAll(domainId, filter),
      `getDomainRecords: no domain with id ${domainId}`,
    );
    return records.map((r) => camelizeDeep(r) as DomainRecordResult);
  });
}

/**
 * The lines of a domain's last rendered zone file.
 *
 * @example
 * ```ts
 * const zone = new compute.Domain("zone", { domain: "example.com", type: "master", soaEmail: "admin@example.com" });
 * export const zoneFile = compute.getDomainZoneFileOutput({ domainId: zone.id }).apply((z) => z.zoneFile.join("\n"));
 * ```
 */
export function getDomainZoneFile(args: { domainId: string | number }, options: FunctionOptions = {}): Promise<DomainZoneFileResult> {
  return withClient("getDomainZoneFile", options, async (client) => {
    const domainId = apiId(args.domainId);
    const { zone_file } = await client.domains.zoneFile(domainId);
    return { domainId, zoneFile: zone_file };
  });
}

/** `getDomain` taking Inputs and answering an Output. */
export const getDomainOutput = outputForm(getDomain);
/** `getDomains` taking Inputs and answering an Output. */
export const getDomainsOutput = outputForm(getDomains);
/** `getDomainRecord` taking Inputs and answering an Output: `getDomainRecordOutput({ domainId: zone.id, name: "www", type: "A" })`. */
export const getDomainRecordOutput = outputForm(getDomainRecord);
/** `getDomainRecords` taking Inputs and answering an Output. */
export const getDomainRecordsOutput = outputForm(getDomainRecords);
/** `getDomainZoneFile` taking Inputs and answering an Output. */
export const getDomainZoneFileOutput = outputForm(getDomainZoneFile);
