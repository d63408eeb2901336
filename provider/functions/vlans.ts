/** Read-only VLAN data. */
import type { Vlan } from "../../sdk/resources/vlans";
import { camelizeDeep } from "../engine/values";
import type { Camelized } from "../engine/values";
import { type FunctionOptions, outputForm, withClient } from "./client";
import { hasGiven } from "./lookup";

/** A VLAN of the account, with camelCase keys. */
export type VlanResult = Camelized<Vlan>;

/**
 * The account's VLANs (label, region, attached instances), optionally of one region or label.
 *
 * @example
 * ```ts
 * export const vlans = compute.getVlansOutput({ region: "us-iad" }).apply((vs) => vs.map((v) => v.label));
 * ```
 */
export function getVlans(args: { region?: string; label?: string } = {}, options: FunctionOptions = {}): Promise<VlanResult[]> {
  return withClient("getVlans", options, async (client) =>
    (await client.networking.vlans.listAll())
      .filter((v) => hasGiven(v, { region: args.region, label: args.label }))
      .map((v) => camelizeDeep(v) as VlanResult),
  );
}

/** `getVlans` taking Inputs and answering an Output. */
export const getVlansOutput = outputForm(getVlans);
