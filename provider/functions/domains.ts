/** Read-only DNS data: domains, and a domain's rendered zone file. */
import type { Domain } from "../../sdk/resources/domains";
import { apiId } from "../resources/common";
import { camelizeDeep } from "../engine/values";
import type { Camelized } from "../engine/values";
import { type FunctionOptions, withClient } from "./client";

/** A domain (DNS zone), with camelCase keys. */
export type DomainResult = Camelized<Domain>;

/** The rendered zone of a domain. */
export interface DomainZoneFileResult {
  domainId: number;
  /** The lines of the last rendered zone (RFC 1035 master-file text); empty until the platform first renders it. */
  zoneFile: string[];
}

/** One domain, by `id` or by name (`domain`, matched without regard to letter case). Exactly one of the two. */
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

/** Every domain of the account, optionally only those of one type, group or tag. */
export function getDomains(
  args: { type?: "master" | "slave"; group?: string; tag?: string } = {},
  options: FunctionOptions = {},
): Promise<DomainResult[]> {
  return withClient("getDomains", options, async (client) => {
    const domains = await client.domains.listAll();
    return domains
      .filter((d) => (args.type === undefined || d.type === args.type) && (args.group === undefined || d.group === args.group))
      .filter((d) => args.tag === undefined || (d.tags ?? []).includes(args.tag))
      .map((d) => camelizeDeep(d) as DomainResult);
  });
}

/** The lines of a domain's last rendered zone file. */
export function getDomainZoneFile(args: { domainId: string | number }, options: FunctionOptions = {}): Promise<DomainZoneFileResult> {
  return withClient("getDomainZoneFile", options, async (client) => {
    const domainId = apiId(args.domainId);
    const { zone_file } = await client.domains.zoneFile(domainId);
    return { domainId, zoneFile: zone_file };
  });
}
