/** Read-only VPC data: VPCs and subnets the stack does not own, and a VPC's subnets, which the `Vpc` resource does not carry as an output. */
import type { Subnet, Vpc } from "../../sdk/resources/vpcs";
import { apiId } from "../resources/common";
import { camelizeDeep } from "../engine/values";
import type { Camelized } from "../engine/values";
import { type FunctionOptions, outputForm, withClient } from "./client";
import { filterGiven, idArgument, noMatch, oneChild, onlyMatch, orMissing, refuseUnlessOneWay, type ByIdOrLabel } from "./lookup";

/** A VPC with its subnets, with camelCase keys. */
export type VpcResult = Camelized<Vpc>;
/** A subnet as `getVpcSubnets` returns it, with camelCase keys. */
export type VpcSubnetResult = Camelized<Subnet>;

/** Arguments of `getVpc`: its `id`, or its `label` (unique among the account's VPCs). */
export type GetVpcArgs = ByIdOrLabel;

/** Arguments of `getVpcSubnet`: its VPC, and its `id` or its `label` (unique within the VPC). */
export type GetVpcSubnetArgs = { vpcId: string | number } & ByIdOrLabel;

const VPC = { one: "VPC", many: "VPCs" };
const subnetOf = (vpcId: number) => ({ one: `subnet of VPC ${vpcId}`, many: `subnets of VPC ${vpcId}` });

/**
 * One VPC the stack does not own, with its subnets, by `id` or by `label`.
 *
 * @example
 * ```ts
 * // A VPC another stack owns (made here, so the example runs on its own); found once it exists.
 * const owned = new compute.Vpc("shared", { label: "shared-net", region: "us-iad" });
 * const shared = compute.getVpcOutput({ label: owned.label });
 * new compute.VpcSubnet("app", { vpcId: shared.id, label: "app", ipv4: "10.0.3.0/24" });
 * ```
 */
export async function getVpc(args: GetVpcArgs, options: FunctionOptions = {}): Promise<VpcResult> {
  refuseUnlessOneWay("getVpc", args, [["id"], ["label"]]);
  const id = args.id === undefined ? undefined : idArgument("getVpc", "id", args.id);
  return withClient("getVpc", options, async (client) => {
    if (id !== undefined) return camelizeDeep(await orMissing(() => client.vpcs.get(id), noMatch("getVpc", VPC, `id ${id}`))) as VpcResult;
    const label = args.label!;
    const matches = (await client.vpcs.listAll({ filter: { label } })).filter((v) => v.label === label);
    return camelizeDeep(onlyMatch("getVpc", VPC, `label ${JSON.stringify(label)}`, matches)) as VpcResult;
  });
}

/**
 * The account's VPCs with their subnets, optionally only the one with a label, or those of a region.
 *
 * @example
 * ```ts
 * export const vpcLabels = compute.getVpcsOutput({ region: "us-iad" }).apply((vs) => vs.map((v) => v.label));
 * ```
 */
export function getVpcs(args: { label?: string; region?: string } = {}, options: FunctionOptions = {}): Promise<VpcResult[]> {
  return withClient("getVpcs", options, async (client) => {
    return (await client.vpcs.listAll(filterGiven({ label: args.label, region: args.region }))).map((v) => camelizeDeep(v) as VpcResult);
  });
}

/**
 * One subnet of a VPC, by `id` or by `label`, with the instances assigned to it.
 *
 * @example
 * ```ts
 * const vpc = new compute.Vpc("app", { label: "app-net", region: "us-iad" });
 * const web = new compute.VpcSubnet("web", { vpcId: vpc.id, label: "web", ipv4: "10.0.1.0/24" });
 * // `web.vpcId`: looked up once the subnet exists.
 * export const webRange = compute.getVpcSubnetOutput({ vpcId: web.vpcId, label: "web" }).apply((s) => s.ipv4);
 * ```
 */
export async function getVpcSubnet(args: GetVpcSubnetArgs, options: FunctionOptions = {}): Promise<VpcSubnetResult> {
  refuseUnlessOneWay("getVpcSubnet", args, [["id"], ["label"]], "vpcId");
  const vpcId = idArgument("getVpcSubnet", "vpcId", args.vpcId);
  const id = args.id === undefined ? undefined : idArgument("getVpcSubnet", "id", args.id);
  const label = args.label!;
  const subnet = await oneChild("getVpcSubnet", options, {
    noun: subnetOf(vpcId),
    id,
    get: (client, subnetId) => client.vpcs.subnets.get(vpcId, subnetId),
    list: (client) => client.vpcs.subnets.listAll(vpcId, { filter: { label } }),
    match: (s) => s.label === label,
    key: `label ${JSON.stringify(label)}`,
    parentMissing: `getVpcSubnet: no VPC with id ${vpcId}`,
  });
  return camelizeDeep(subnet) as VpcSubnetResult;
}

/**
 * The subnets of one VPC as the API lists them now, those of `VpcSubnet` resources and any others
 * (a `Vpc` has no `subnets` output: it would change with every subnet, so a refresh would show it).
 *
 * @example
 * ```ts
 * const vpc = new compute.Vpc("app", { label: "app-net", region: "us-iad" });
 * const web = new compute.VpcSubnet("web", { vpcId: vpc.id, label: "web", ipv4: "10.0.1.0/24" });
 * export const subnets = compute.getVpcSubnetsOutput({ vpcId: web.vpcId }).apply((ss) => ss.map((s) => s.ipv4));
 * ```
 */
export function getVpcSubnets(args: { vpcId: string | number }, options: FunctionOptions = {}): Promise<VpcSubnetResult[]> {
  return withClient("getVpcSubnets", options, async (client) =>
    (await client.vpcs.subnets.listAll(apiId(args.vpcId))).map((subnet) => camelizeDeep(subnet) as VpcSubnetResult),
  );
}

/** `getVpc` taking Inputs and answering an Output: `getVpcOutput({ label: config.require("vpc") })`. */
export const getVpcOutput = outputForm(getVpc);
/** `getVpcs` taking Inputs and answering an Output. */
export const getVpcsOutput = outputForm(getVpcs);
/** `getVpcSubnet` taking Inputs and answering an Output: `getVpcSubnetOutput({ vpcId: vpc.id, label: "web" })`. */
export const getVpcSubnetOutput = outputForm(getVpcSubnet);
/** `getVpcSubnets` taking Inputs and answering an Output. */
export const getVpcSubnetsOutput = outputForm(getVpcSubnets);
