/** Read-only firewall data: the account's firewalls, optionally with their devices. */
import type { Firewall, FirewallDevice } from "../../sdk/resources/firewalls";
import { mapBounded } from "../../sdk/core/pagination";
import { camelizeDeep } from "../engine/values";
import type { Camelized } from "../engine/values";
import { type FunctionOptions, withClient } from "./client";

/** A firewall as `getFirewalls` returns it; `devices` only when asked for. */
export type FirewallResult = Camelized<Firewall> & { devices?: Camelized<FirewallDevice>[] };

/** Filters of `getFirewalls`. */
export interface GetFirewallsArgs {
  /** Only the firewall with this label. */
  label?: string;
  /** Only firewalls with this status (`enabled`, `disabled`). */
  status?: string;
  /** Only firewalls carrying this tag. */
  tag?: string;
  /** Also list each firewall's devices (one more request per firewall). */
  includeDevices?: boolean;
}

/** The firewalls the caller can access, camelCase, in the API's order. */
export function getFirewalls(args: GetFirewallsArgs = {}, options: FunctionOptions = {}): Promise<FirewallResult[]> {
  return withClient("getFirewalls", options, async (client) => {
    const filter: Record<string, unknown> = {};
    if (args.label !== undefined) filter.label = args.label;
    if (args.status !== undefined) filter.status = args.status;
    const firewalls = (await client.networking.firewalls.listAll(Object.keys(filter).length ? { filter } : {})).filter(
      (f) => args.tag === undefined || f.tags.includes(args.tag),
    );
    return mapBounded(firewalls, 4, async (firewall) => {
      const result = camelizeDeep(firewall) as FirewallResult;
      if (args.includeDevices)
        result.devices = (await client.networking.firewalls.devices.listAll(firewall.id)).map(
          (d) => camelizeDeep(d) as Camelized<FirewallDevice>,
        );
      return result;
    });
  });
}
