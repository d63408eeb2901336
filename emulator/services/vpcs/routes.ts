/**
 * `/vpcs*` and `/networking/vpcs/ips` (spec "VPCs"). Reads list no scope (`-`: any valid token),
 * the IP lists need `ips:read_only`, writes `vpc:read_write`. Restricted users need `add_vpc` to
 * create and a read_write grant on the VPC to change it or its subnets.
 */
import {
  Subnet,
  SubnetCreateRequest,
  SubnetUpdateRequest,
  Vpc,
  VpcCreateRequest,
  VpcIp,
  VpcUpdateRequest,
} from "../../../sdk/resources/vpcs";
import { grantCreator } from "../../core/auth";
import { found, throwIfAny } from "../../core/errors";
import { globalGrant, objectGrant, routeTable } from "../../core/route-table";
import type { RouteContext, RouteSpec } from "../../core/routes";
import { findSubnet, findVpc, visibleVpcs } from "./store";
import { renderSubnet, renderVpc } from "./render";
import { createSubnet, createVpc, deleteSubnet, deleteVpc, updateSubnet, updateVpc } from "./operations";
import { checkSubnetCreate, checkSubnetDelete, checkSubnetUpdate, checkVpcCreate, checkVpcDelete, checkVpcUpdate } from "./rules";
import { VPC_IP_FILTERABLE, vpcIpRecords } from "./vpc-ips";

export const VPC_FILTERABLE = ["id", "label", "description", "region", "created", "updated"] as const;
export const SUBNET_FILTERABLE = ["id", "label", "ipv4", "created", "updated"] as const;

const VPC = "/vpcs/{vpcId}";
const SUBNETS = `${VPC}/subnets`;
const SUBNET = `${SUBNETS}/{vpcSubnetId}`;

const api = routeTable("vpcs", { read: [], write: ["vpc:read_write"], ips: ["ips:read_only"] });
const vpcGrant = objectGrant("vpc", "vpcId", findVpc);
const vpcIps = { item: VpcIp, filterable: VPC_IP_FILTERABLE };

const vpcOf = (ctx: RouteContext) => ctx.lookup("vpcId", findVpc);
const subnetOf = (ctx: RouteContext) => {
  const vpc = vpcOf(ctx);
  return { vpc, subnet: found(findSubnet(vpc, ctx.intParam("vpcSubnetId"))) };
};

export const vpcRoutes: RouteSpec[] = [
  api.read.list("/vpcs", "VPC collection", { item: Vpc, filterable: VPC_FILTERABLE }, (ctx) =>
    visibleVpcs(ctx.account, ctx.user).map((v) => renderVpc(ctx.account, v)),
  ),
  api.write.post("/vpcs", "Create a VPC with optional subnets", { grant: globalGrant("add_vpc"), response: Vpc }, (ctx) => {
    const input = ctx.body(VpcCreateRequest);
    throwIfAny(checkVpcCreate(ctx.account, input));
    const vpc = createVpc(ctx.actor, input);
    grantCreator(ctx.user, "vpc", vpc.id);
    return renderVpc(ctx.account, vpc);
  }),
  api.ips.list("/vpcs/ips", "VPC IP records of the account", vpcIps, (ctx) => vpcIpRecords(ctx.account, ctx.user)),
  api.ips.list("/networking/vpcs/ips", "VPC IP records of the account (networking path)", vpcIps, (ctx) =>
    vpcIpRecords(ctx.account, ctx.user),
  ),
  api.read.get(VPC, "One VPC", { grant: vpcGrant.read_only, response: Vpc }, (ctx) => renderVpc(ctx.account, vpcOf(ctx))),
  api.write.put(VPC, "Update a VPC's label or description", { grant: vpcGrant.read_write, response: Vpc }, (ctx) => {
    const vpc = vpcOf(ctx);
    const input = ctx.body(VpcUpdateRequest);
    throwIfAny(checkVpcUpdate(ctx.account, vpc, input));
    return renderVpc(ctx.account, updateVpc(ctx.actor, vpc, input));
  }),
  api.write.delete(VPC, "Delete a VPC and all its subnets (all or nothing)", { grant: vpcGrant.read_write }, (ctx) => {
    const vpc = vpcOf(ctx);
    throwIfAny(checkVpcDelete(ctx.account, vpc));
    deleteVpc(ctx.actor, vpc);
  }),
  api.ips.list(`${VPC}/ips`, "VPC IP records of one VPC", { ...vpcIps, grant: vpcGrant.read_only }, (ctx) =>
    vpcIpRecords(ctx.account, ctx.user, vpcOf(ctx).id),
  ),
  api.read.list(SUBNETS, "Subnet collection of a VPC", { item: Subnet, filterable: SUBNET_FILTERABLE, grant: vpcGrant.read_only }, (ctx) =>
    vpcOf(ctx).subnets.map((s) => renderSubnet(ctx.account, s)),
  ),
  api.write.post(SUBNETS, "Create a subnet", { grant: vpcGrant.read_write, response: Subnet }, (ctx) => {
    const vpc = vpcOf(ctx);
    const input = ctx.body(SubnetCreateRequest);
    throwIfAny(checkSubnetCreate(vpc, input));
    return renderSubnet(ctx.account, createSubnet(ctx.actor, vpc, input));
  }),
  api.read.get(SUBNET, "One subnet", { grant: vpcGrant.read_only, response: Subnet }, (ctx) =>
    renderSubnet(ctx.account, subnetOf(ctx).subnet),
  ),
  api.write.put(SUBNET, "Update a subnet's label", { grant: vpcGrant.read_write, response: Subnet }, (ctx) => {
    const { vpc, subnet } = subnetOf(ctx);
    const input = ctx.body(SubnetUpdateRequest);
    throwIfAny(checkSubnetUpdate(vpc, subnet, input));
    return renderSubnet(ctx.account, updateSubnet(ctx.actor, vpc, subnet, input));
  }),
  api.write.delete(SUBNET, "Delete a subnet without assigned interfaces", { grant: vpcGrant.read_write }, (ctx) => {
    const { vpc, subnet } = subnetOf(ctx);
    throwIfAny(checkSubnetDelete(ctx.account, subnet));
    deleteSubnet(ctx.actor, vpc, subnet);
  }),
];
