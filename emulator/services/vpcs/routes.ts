/**
 * `/vpcs*` and `/networking/vpcs/ips` (spec "VPCs"). Reads list no scope (`-`: any valid token),
 * the IP lists need `ips:read_only`, writes `vpc:read_write`. Restricted users need `add_vpc` to
 * create and a read_write grant on the VPC to change it or its subnets.
 */
import { Collection, Empty } from "../../../sdk/core/schema";
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
import type { GrantRequirement, RouteContext, RouteSpec } from "../../core/routes";
import type { GrantPermission } from "../../core/state";
import { findSubnet, findVpc, visibleVpcs } from "./store";
import { renderSubnet, renderVpc } from "./render";
import { createSubnet, createVpc, deleteSubnet, deleteVpc, updateSubnet, updateVpc } from "./operations";
import { checkSubnetCreate, checkSubnetDelete, checkSubnetUpdate, checkVpcCreate, checkVpcDelete, checkVpcUpdate } from "./rules";
import { VPC_IP_FILTERABLE, vpcIpRecords } from "./vpc-ips";

export const VPC_FILTERABLE = ["id", "label", "description", "region", "created", "updated"] as const;
export const SUBNET_FILTERABLE = ["id", "label", "ipv4", "created", "updated"] as const;

const READ = { service: "vpcs", auth: "token", scopes: [] } as const;
const WRITE = { service: "vpcs", auth: "token", scopes: ["vpc:read_write"] } as const;
const IPS = { service: "vpcs", auth: "token", scopes: ["ips:read_only"], filterable: VPC_IP_FILTERABLE, response: Collection(VpcIp) } as const;

function vpcGrant(level: GrantPermission): GrantRequirement {
  return { kind: "object", object: "vpc", param: "vpcId", level, exists: (account, id) => findVpc(account, id) !== undefined };
}

const vpcOf = (ctx: RouteContext) => found(findVpc(ctx.account, ctx.intParam("vpcId")));
const subnetOf = (ctx: RouteContext) => {
  const vpc = vpcOf(ctx);
  return { vpc, subnet: found(findSubnet(vpc, ctx.intParam("vpcSubnetId"))) };
};

export const vpcRoutes: RouteSpec[] = [
  {
    ...READ,
    method: "GET",
    path: "/vpcs",
    summary: "VPC collection",
    filterable: VPC_FILTERABLE,
    response: Collection(Vpc),
    handler: (ctx) => ctx.collection(visibleVpcs(ctx.account, ctx.user).map((v) => renderVpc(ctx.account, v))),
  },
  {
    ...WRITE,
    method: "POST",
    path: "/vpcs",
    summary: "Create a VPC with optional subnets",
    grant: { kind: "global", grant: "add_vpc" },
    response: Vpc,
    handler: (ctx) => {
      const input = ctx.body(VpcCreateRequest);
      throwIfAny(checkVpcCreate(ctx.account, input));
      const vpc = createVpc(ctx.actor, input);
      grantCreator(ctx.user, "vpc", vpc.id);
      return renderVpc(ctx.account, vpc);
    },
  },
  { ...IPS, method: "GET", path: "/vpcs/ips", summary: "VPC IP records of the account", handler: (ctx) => ctx.collection(vpcIpRecords(ctx.account, ctx.user)) },
  {
    ...IPS,
    method: "GET",
    path: "/networking/vpcs/ips",
    summary: "VPC IP records of the account (networking path)",
    handler: (ctx) => ctx.collection(vpcIpRecords(ctx.account, ctx.user)),
  },
  {
    ...READ,
    method: "GET",
    path: "/vpcs/{vpcId}",
    summary: "One VPC",
    grant: vpcGrant("read_only"),
    response: Vpc,
    handler: (ctx) => renderVpc(ctx.account, vpcOf(ctx)),
  },
  {
    ...WRITE,
    method: "PUT",
    path: "/vpcs/{vpcId}",
    summary: "Update a VPC's label or description",
    grant: vpcGrant("read_write"),
    response: Vpc,
    handler: (ctx) => {
      const vpc = vpcOf(ctx);
      const input = ctx.body(VpcUpdateRequest);
      throwIfAny(checkVpcUpdate(ctx.account, vpc, input));
      return renderVpc(ctx.account, updateVpc(ctx.actor, vpc, input));
    },
  },
  {
    ...WRITE,
    method: "DELETE",
    path: "/vpcs/{vpcId}",
    summary: "Delete a VPC and all its subnets (all or nothing)",
    grant: vpcGrant("read_write"),
    response: Empty,
    handler: (ctx) => {
      const vpc = vpcOf(ctx);
      throwIfAny(checkVpcDelete(ctx.account, vpc));
      deleteVpc(ctx.actor, vpc);
      return {};
    },
  },
  {
    ...IPS,
    method: "GET",
    path: "/vpcs/{vpcId}/ips",
    summary: "VPC IP records of one VPC",
    grant: vpcGrant("read_only"),
    handler: (ctx) => ctx.collection(vpcIpRecords(ctx.account, ctx.user, vpcOf(ctx).id)),
  },
  {
    ...READ,
    method: "GET",
    path: "/vpcs/{vpcId}/subnets",
    summary: "Subnet collection of a VPC",
    grant: vpcGrant("read_only"),
    filterable: SUBNET_FILTERABLE,
    response: Collection(Subnet),
    handler: (ctx) => ctx.collection(vpcOf(ctx).subnets.map((s) => renderSubnet(ctx.account, s))),
  },
  {
    ...WRITE,
    method: "POST",
    path: "/vpcs/{vpcId}/subnets",
    summary: "Create a subnet",
    grant: vpcGrant("read_write"),
    response: Subnet,
    handler: (ctx) => {
      const vpc = vpcOf(ctx);
      const input = ctx.body(SubnetCreateRequest);
      throwIfAny(checkSubnetCreate(vpc, input));
      return renderSubnet(ctx.account, createSubnet(ctx.actor, vpc, input));
    },
  },
  {
    ...READ,
    method: "GET",
    path: "/vpcs/{vpcId}/subnets/{vpcSubnetId}",
    summary: "One subnet",
    grant: vpcGrant("read_only"),
    response: Subnet,
    handler: (ctx) => renderSubnet(ctx.account, subnetOf(ctx).subnet),
  },
  {
    ...WRITE,
    method: "PUT",
    path: "/vpcs/{vpcId}/subnets/{vpcSubnetId}",
    summary: "Update a subnet's label",
    grant: vpcGrant("read_write"),
    response: Subnet,
    handler: (ctx) => {
      const { vpc, subnet } = subnetOf(ctx);
      const input = ctx.body(SubnetUpdateRequest);
      throwIfAny(checkSubnetUpdate(vpc, subnet, input));
      return renderSubnet(ctx.account, updateSubnet(ctx.actor, vpc, subnet, input));
    },
  },
  {
    ...WRITE,
    method: "DELETE",
    path: "/vpcs/{vpcId}/subnets/{vpcSubnetId}",
    summary: "Delete a subnet without assigned interfaces",
    grant: vpcGrant("read_write"),
    response: Empty,
    handler: (ctx) => {
      const { vpc, subnet } = subnetOf(ctx);
      throwIfAny(checkSubnetDelete(ctx.account, subnet));
      deleteSubnet(ctx.actor, vpc, subnet);
      return {};
    },
  },
];
