/** Read-only instance data: compute instances the stack does not own, by id or label, or filtered. */
import type { Compute } from "../../sdk/resources/computes";
import { camelizeDeep } from "../engine/values";
import type { Camelized } from "../engine/values";
import { type FunctionOptions, outputForm, withClient } from "./client";
import { filterGiven, idArgument, noMatch, onlyMatch, orMissing, refuseUnlessOneWay, type ByIdOrLabel, type TagFilter } from "./lookup";

/** An instance as the data functions return it (camelCase of the API record). */
export type InstanceResult = Camelized<Compute>;

/** Arguments of `getInstance`: its `id`, or its `label` (unique among the account's instances). */
export type GetInstanceArgs = ByIdOrLabel;

/** Filters of `getInstances`; all of them together. */
export interface GetInstancesArgs extends TagFilter {
  /** Only the instance with this label. */
  label?: string;
  /** Only those of this region. */
  region?: string;
}

const INSTANCE = { one: "instance", many: "instances" };

/**
 * One instance the stack does not own, by `id` or by `label`: its addresses, status, type and specs.
 *
 * @example
 * ```ts
 * // An instance another stack owns (made here, so the example runs on its own); found once it exists.
 * const owned = new compute.Instance("shared", {
 *   label: "shared-web",
 *   region: "us-iad",
 *   type: "g6-nanode-1",
 *   image: "public/debian12",
 *   rootPass: "an-example-root-password",
 * });
 * export const sharedAddress = compute.getInstanceOutput({ label: owned.label }).apply((i) => i.ipv4[0]);
 * ```
 */
export async function getInstance(args: GetInstanceArgs, options: FunctionOptions = {}): Promise<InstanceResult> {
  refuseUnlessOneWay("getInstance", args, [["id"], ["label"]]);
  const id = args.id === undefined ? undefined : idArgument("getInstance", "id", args.id);
  return withClient("getInstance", options, async (client) => {
    if (id !== undefined) {
      return camelizeDeep(
        await orMissing(() => client.computes.instances.get(id), noMatch("getInstance", INSTANCE, `id ${id}`)),
      ) as InstanceResult;
    }
    const label = args.label!;
    const matches = (await client.computes.instances.listAll({ filter: { label } })).filter((c) => c.label === label);
    return camelizeDeep(onlyMatch("getInstance", INSTANCE, `label ${JSON.stringify(label)}`, matches)) as InstanceResult;
  });
}

/**
 * The account's instances, optionally only the one with a label, those of a region, or those with a tag.
 *
 * @example
 * ```ts
 * export const instanceLabels = compute.getInstancesOutput({ region: "us-iad" }).apply((is) => is.map((i) => i.label));
 * ```
 */
export function getInstances(args: GetInstancesArgs = {}, options: FunctionOptions = {}): Promise<InstanceResult[]> {
  return withClient("getInstances", options, async (client) => {
    const filter = filterGiven({ label: args.label, region: args.region, tags: args.tag });
    return (await client.computes.instances.listAll(filter)).map((c) => camelizeDeep(c) as InstanceResult);
  });
}

/** `getInstance` taking Inputs and answering an Output: `getInstanceOutput({ label: "web-1" })`. */
export const getInstanceOutput = outputForm(getInstance);
/** `getInstances` taking Inputs and answering an Output. */
export const getInstancesOutput = outputForm(getInstances);
