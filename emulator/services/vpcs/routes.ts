/**
 * `/vpcs*` and `/networking/vpcs/ips` (spec "VPCs"). Reads list no scope (`-`: any valid token),
 * the IP lists need `ips:read_only`, writes `vpc:read_write`. Restricted users need `add_vpc` to
 * create and a read_write grant on the VPC to change it or its subnets.
 */
import { filterableFields } from "../../../sdk/core/schema";
import { Subnet, VPC_ENDPOINTS, Vpc } from "../../../sdk/resources/vpcs";
import { grantCreator } from "../../core/auth";
import { found, throwIfAny } from "../../core/errors";
import { globalGrant, objectGrant, route } from "../../core/route-table";
import type { RouteContext, RouteSpec } from "../../core/routes";
import { findSubnet, findVpc, visibleVpcs } from "./store";
import { renderSubnet, renderVpc } from "./render";
import { createSubnet, createVpc, deleteSubnet, deleteVpc, updateSubnet, updateVpc } from "./operations";
import { checkSubnetCreate, checkSubnetDelete, checkSubnetUpdate, checkVpcCreate, checkVpcDelete, checkVpcUpdate } from "./rules";
import { VPC_IP_FILTERABLE, vpcIpRecords } from "./vpc-ips";

export const VPC_FILTERABLE = filterableFields(Vpc);
export const SUBNET_FILTERABLE = filterableFields(Subnet);

const vpcGrant = objectGrant("vpc", "vpcId", findVpc);
const vpcIps = { filterable: VPC_IP_FILTERABLE };

const vpcOf = (ctx: RouteContext) => ctx.lookup("vpcId", findVpc);
const subnetOf = (ctx: RouteContext) => {
  const vpc = vpcOf(ctx);
  return { vpc, subnet: found(findSubnet(vpc, ctx.intParam("vpcSubnetId"))) };
};

export const vpcRoutes: RouteSpec[] = [
  route(VPC_ENDPOINTS.list, { filterable: VPC_FILTERABLE }, (ctx) =>
    visibleVpcs(ctx.account, ctx.user).map((v) => renderVpc(ctx.account, v)),
  ),
  route(VPC_ENDPOINTS.create, { grant: globalGrant("add_vpc") }, (ctx) => {
    const input = ctx.body();
    throwIfAny(checkVpcCreate(ctx.account, input));
    const vpc = createVpc(ctx.actor, input);
    grantCreator(ctx.user, "vpc", vpc.id);
    return renderVpc(ctx.account, vpc);
  }),
  route(VPC_ENDPOINTS.ips.listAccount, vpcIps, (ctx) => vpcIpRecords(ctx.account, ctx.user)),
  route(VPC_ENDPOINTS.ips.listAccountViaNetworking, vpcIps, (ctx) => vpcIpRecords(ctx.account, ctx.user)),
  route(VPC_ENDPOINTS.get, { grant: vpcGrant.read_only }, (ctx) => renderVpc(ctx.account, vpcOf(ctx))),
  route(VPC_ENDPOINTS.update, { grant: vpcGrant.read_write }, (ctx) => {
    const vpc = vpcOf(ctx);
    const input = ctx.body();
    throwIfAny(checkVpcUpdate(ctx.account, vpc, input));
    return renderVpc(ctx.account, updateVpc(ctx.actor, vpc, input));
  }),
  route(VPC_ENDPOINTS.delete, { grant: vpcGrant.read_write }, (ctx) => {
    const vpc = vpcOf(ctx);
    throwIfAny(checkVpcDelete(ctx.account, vpc));
    deleteVpc(ctx.actor, vpc);
  }),
  route(VPC_ENDPOINTS.ips.list, { ...vpcIps, grant: vpcGrant.read_only }, (ctx) => vpcIpRecords(ctx.account, ctx.user, vpcOf(ctx).id)),
  route(VPC_ENDPOINTS.subnets.list, { filterable: SUBNET_FILTERABLE, grant: vpcGrant.read_only }, (ctx) =>
    vpcOf(ctx).subnets.map((s) => renderSubnet(ctx.account, s)),
  ),
  route(VPC_ENDPOINTS.subnets.create, { grant: vpcGrant.read_write }, (ctx) => {
    const vpc = vpcOf(ctx);
    const input = ctx.body();
    throwIfAny(checkSubnetCreate(vpc, input));
    return renderSubnet(ctx.account, createSubnet(ctx.actor, vpc, input));
  }),
  route(VPC_ENDPOINTS.subnets.get, { grant: vpcGrant.read_only }, (ctx) => renderSubnet(ctx.account, subnetOf(ctx).subnet)),
  route(VPC_ENDPOINTS.subnets.update, { grant: vpcGrant.read_write }, (ctx) => {
    const { vpc, subnet } = subnetOf(ctx);
    const input = ctx.body();
    throwIfAny(checkSubnetUpdate(vpc, subnet, input));
    return renderSubnet(ctx.account, updateSubnet(ctx.actor, vpc, subnet, input));
  }),
  route(VPC_ENDPOINTS.subnets.delete, { grant: vpcGrant.read_write }, (ctx) => {
    const { vpc, subnet } = subnetOf(ctx);
    throwIfAny(checkSubnetDelete(ctx.account, subnet));
    deleteSubnet(ctx.actor, vpc, subnet);
  }),
];
