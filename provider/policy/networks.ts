/**
 * Sources and ports as the API reads them, for the exposure policies. A source admits everyone
 * when it contains a whole network the settings name (`0.0.0.0/0`, `::/0` by default), in any
 * spelling the API accepts: `::/0`, `0:0:0:0:0:0:0:0/0`, `0000::/0`, `1.2.3.4/0`. The sdk's
 * parsers (networks, port ranges) are the ones the API's rules are checked with.
 */
import { ipNetworkWithin, parseIpNetwork, type IpNetwork } from "../../sdk/core/net";
import { PORTLESS_PROTOCOLS, portRanges } from "../../sdk/resources/firewalls";
import type { Setting } from "./define";

/** The networks that stand for "everyone" unless the settings say otherwise. */
export const EVERYONE = ["0.0.0.0/0", "::/0"];

/** The `everyone` setting of the exposure policies; `what` is what they check (`a source`, `an entry`). */
export const everyoneSetting = (what: string): Setting => ({
  schema: { type: "array", items: { type: "string" } },
  default: EVERYONE,
  description: `Networks that stand for everyone: ${what} that contains one of them, in any spelling, admits everyone.`,
});

/** The networks of the settings, parsed; a setting that is not a network fails the policy's start, naming it. */
export function networksOf(cidrs: readonly string[], setting: string): IpNetwork[] {
  return cidrs.map((cidr) => {
    const network = parseIpNetwork(cidr);
    if (!network) throw new Error(`${setting}: ${JSON.stringify(cidr)} is not an IPv4 or IPv6 network`);
    return network;
  });
}

/** Whether `source` (an address or network as the program wrote it) admits every address of one of `networks`. */
export function admitsAll(source: string, networks: readonly IpNetwork[]): boolean {
  const parsed = parseIpNetwork(source);
  return parsed !== undefined && networks.some((network) => ipNetworkWithin(network, parsed));
}

/** The ports a rule covers: `all` when it gives none or its protocol has none, else the ranges of its `ports` text. */
export function portsOf(protocol: unknown, ports: unknown): "all" | Array<[number, number]> {
  if (typeof protocol === "string" && PORTLESS_PROTOCOLS.includes(protocol.toUpperCase())) return "all";
  if (ports === undefined || ports === null || ports === "") return "all";
  return portRanges(String(ports));
}

/** The ports of `watched` that `covered` includes. */
export function coveredPorts(covered: "all" | Array<[number, number]>, watched: readonly number[]): number[] {
  return watched.filter((port) => covered === "all" || covered.some(([from, to]) => port >= from && port <= to));
}
