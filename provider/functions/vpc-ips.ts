/** Read-only VPC address data. */
import type { VpcIp } from "../../sdk/resources/vpcs";
import { apiId } from "../resources/common";
import { camelizeDeep } from "../engine/values";
import type { Camelized } from "../engine/values";
import { type FunctionOptions, outputForm, withClient } from "./client";

/** The address of one VPC interface, with camelCase keys. */
export type VpcIpResult = Camelized<VpcIp>;

/**
 * The addresses of VPC interfaces: of one VPC when `vpcId` is given, else of the whole account.
 * An instance with several VPC configuration profiles is listed once per profile.
 *
 * @example
 * ```ts
 * const vpc = new compute.Vpc("app", { label: "app-net", region: "us-iad" });
 * export const vpcAddresses = compute.getVpcIpsOutput({ vpcId: vpc.id }).apply((ips) => ips.map((ip) => ip.address));
 * ```
 */
export function getVpcIps(args: { vpcId?: string | number } = {}, options: FunctionOptions = {}): Promise<VpcIpResult[]> {
  return withClient("getVpcIps", options, async (client) => {
    const ips = args.vpcId !== undefined ? await client.vpcs.ips.listAll(apiId(args.vpcId)) : await client.vpcs.ips.listAccount().all();
    return ips.map((ip) => camelizeDeep(ip) as VpcIpResult);
  });
}

/** `getVpcIps` taking Inputs and answering an Output. */
export const getVpcIpsOutput = outputForm(getVpcIps);
