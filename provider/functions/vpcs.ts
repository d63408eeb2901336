/** Read-only VPC data: a VPC's subnets, which the `Vpc` resource does not carry as an output. */
import type { Subnet } from "../../sdk/resources/vpcs";
import { apiId } from "../resources/common";
import { camelizeDeep } from "../engine/values";
import type { Camelized } from "../engine/values";
import { type FunctionOptions, withClient } from "./client";

/** A subnet as `getVpcSubnets` returns it, with camelCase keys. */
export type VpcSubnetResult = Camelized<Subnet>;

/**
 * The subnets of one VPC as the API lists them now, those of `VpcSubnet` resources and any others
 * (a `Vpc` has no `subnets` output: it would change with every subnet, so a refresh would show it).
 */
export function getVpcSubnets(args: { vpcId: string | number }, options: FunctionOptions = {}): Promise<VpcSubnetResult[]> {
  return withClient("getVpcSubnets", options, async (client) =>
    (await client.vpcs.subnets.listAll(apiId(args.vpcId))).map((subnet) => camelizeDeep(subnet) as VpcSubnetResult),
  );
}
