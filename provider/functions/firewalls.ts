/** Read-only firewall data: the account's firewalls, optionally with their devices, and one firewall the stack does not own. */
import type { Firewall, FirewallDevice } from "../../sdk/resources/firewalls";
import { mapBounded } from "../../sdk/core/pagination";
import { camelizeDeep } from "../engine/values";
import type { Camelized } from "../engine/values";
import { type FunctionOptions, outputForm, withClient } from "./client";
import { filterGiven, idArgument, noMatch, onlyMatch, orMissing, refuseUnlessOneWay, type ByIdOrLabel, type TagFilter } from "./lookup";

/** A device of a firewall (the instance or NodeBalancer it protects), with camelCase keys. */
export type FirewallDeviceResult = Camelized<FirewallDevice>;
/** A firewall as `getFirewalls` returns it; `devices` only when asked for. */
export type FirewallResult = Camelized<Firewall> & { devices?: FirewallDeviceResult[] };
/** A firewall as `getFirewall` returns it: its rules and its devices. */
export type FirewallWithDevicesResult = FirewallResult & { devices: FirewallDeviceResult[] };

/** Arguments of `getFirewall`: its `id`, or its `label` (unique among the account's firewalls). */
export type GetFirewallArgs = ByIdOrLabel;

const FIREWALL = { one: "firewall", many: "firewalls" };

/** Filters of `getFirewalls`. */
export interface GetFirewallsArgs extends TagFilter {
  /** Only the firewall with this label. */
  label?: string;
  /** Only firewalls with this status (`enabled`, `disabled`). */
  status?: string;
  /** Also list each firewall's devices (one more request per firewall). */
  includeDevices?: boolean;
}

/**
 * The firewalls the caller can access, camelCase, in the API's order.
 *
 * @example
 * ```ts
 * export const firewallLabels = compute.getFirewallsOutput().apply((fws) => fws.map((fw) => fw.label));
 * ```
 */
export function getFirewalls(args: GetFirewallsArgs = {}, options: FunctionOptions = {}): Promise<FirewallResult[]> {
  return withClient("getFirewalls", options, async (client) => {
    const filter = filterGiven({ label: args.label, status: args.status });
    const firewalls = (await client.networking.firewalls.listAll(filter)).filter(
      (f) => args.tag === undefined || f.tags.includes(args.tag),
    );
    return mapBounded(firewalls, 4, async (firewall) => {
      const result = camelizeDeep(firewall) as FirewallResult;
      if (args.includeDevices)
        result.devices = (await client.networking.firewalls.devices.listAll(firewall.id)).map(
          (d) => camelizeDeep(d) as FirewallDeviceResult,
        );
      return result;
    });
  });
}

/**
 * One firewall the stack does not own, by `id` or by `label`, with its rules and its devices.
 *
 * @example
 * ```ts
 * // A firewall another stack owns (made here, so the example runs on its own); found once it exists.
 * const owned = new compute.Firewall("edge", { label: "edge-fw", inboundPolicy: "DROP", outboundPolicy: "ACCEPT" });
 * const edge = compute.getFirewallOutput({ label: owned.label });
 * const web1 = compute.getIpsOutput({ address: "198.51.100.10" }).apply((ips) => ips[0]!.computeId!); // an instance of the account
 * new compute.FirewallDevice("web-1", { firewallId: edge.id, entityId: web1, entityType: "compute" });
 * ```
 */
export async function getFirewall(args: GetFirewallArgs, options: FunctionOptions = {}): Promise<FirewallWithDevicesResult> {
  refuseUnlessOneWay("getFirewall", args, [["id"], ["label"]]);
  const id = args.id === undefined ? undefined : idArgument("getFirewall", "id", args.id);
  return withClient("getFirewall", options, async (client) => {
    const firewalls = client.networking.firewalls;
    let firewall: Firewall;
    if (id !== undefined) firewall = await orMissing(() => firewalls.get(id), noMatch("getFirewall", FIREWALL, `id ${id}`));
    else {
      const label = args.label!;
      const matches = (await firewalls.listAll({ filter: { label } })).filter((f) => f.label === label);
      firewall = onlyMatch("getFirewall", FIREWALL, `label ${JSON.stringify(label)}`, matches);
    }
    const devices = await firewalls.devices.listAll(firewall.id);
    return { ...(camelizeDeep(firewall) as FirewallResult), devices: devices.map((d) => camelizeDeep(d) as FirewallDeviceResult) };
  });
}

/** `getFirewalls` taking Inputs and answering an Output. */
export const getFirewallsOutput = outputForm(getFirewalls);
/** `getFirewall` taking Inputs and answering an Output. */
export const getFirewallOutput = outputForm(getFirewall);
