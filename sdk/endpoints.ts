/**
 * Every endpoint the sdk declares, in one list: what the coverage table's sdk column, the fixture
 * test and the emulator's route table read. Each area declares its own (`VPC_ENDPOINTS` in
 * `resources/vpcs.ts`); this file only gathers them.
 */
import { endpointsOf, matchEndpointPath, type AnyEndpoint } from "./core/endpoint";
import { COMPUTE_ENDPOINTS } from "./resources/computes";
import { DATABASE_ENDPOINTS } from "./resources/databases";
import { DOMAIN_ENDPOINTS } from "./resources/domains";
import { EVENT_ENDPOINTS } from "./resources/events";
import { FIREWALL_ENDPOINTS } from "./resources/firewalls";
import { IMAGE_ENDPOINTS } from "./resources/images";
import { IP_ENDPOINTS, IPV6_ENDPOINTS } from "./resources/ips";
import { REGION_ENDPOINTS } from "./resources/regions";
import { TICKET_ENDPOINTS } from "./resources/support";
import { VLAN_ENDPOINTS } from "./resources/vlans";
import { VPC_ENDPOINTS } from "./resources/vpcs";

/** Every declared endpoint, area by area in the order of the spec's tables. Names and method + path pairs are unique. */
export const ENDPOINTS: readonly AnyEndpoint[] = Object.freeze(
  checkUnique(
    [
      VPC_ENDPOINTS,
      DATABASE_ENDPOINTS,
      FIREWALL_ENDPOINTS,
      IP_ENDPOINTS,
      IPV6_ENDPOINTS,
      VLAN_ENDPOINTS,
      TICKET_ENDPOINTS,
      REGION_ENDPOINTS,
      DOMAIN_ENDPOINTS,
      IMAGE_ENDPOINTS,
      EVENT_ENDPOINTS,
      COMPUTE_ENDPOINTS,
    ].flatMap(endpointsOf),
  ),
);

function checkUnique(endpoints: AnyEndpoint[]): AnyEndpoint[] {
  const seen = new Set<string>();
  for (const e of endpoints) {
    for (const key of [e.name, `${e.method} ${e.path.replace(/\{[^}]*\}/g, "{}")}`]) {
      if (seen.has(key)) throw new Error(`endpoint declared twice: ${key}`);
      seen.add(key);
    }
  }
  return endpoints;
}

/** An endpoint found for a concrete request, with its decoded path parameters. */
export interface EndpointMatch {
  endpoint: AnyEndpoint;
  params: Record<string, string>;
}

/**
 * The endpoint a concrete request goes to (`GET /domains/12/records/7?page=2`), or `undefined`.
 * A literal segment wins over a parameter, as in the API's router: `/vpcs/ips` is the account's
 * VPC IP list, not the VPC with id `ips`.
 */
export function findEndpoint(
  method: string,
  concretePath: string,
  endpoints: readonly AnyEndpoint[] = ENDPOINTS,
): EndpointMatch | undefined {
  let best: EndpointMatch | undefined;
  for (const endpoint of endpoints) {
    if (endpoint.method !== method.toUpperCase()) continue;
    const params = matchEndpointPath(endpoint, concretePath);
    if (params && (!best || endpoint.params.length < best.endpoint.params.length)) best = { endpoint, params };
  }
  return best;
}
