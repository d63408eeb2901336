/**
 * VPCs, their subnets and the VPC IP address records (spec "VPC", "VPC Subnet", api-facts P2-1):
 * the records, the endpoint table and the classes. The request schemas, with the API's own rules
 * and reason texts, are in `sdk/rules/vpcs.ts`, re-exported here.
 */
import { z } from "zod";
import { FILTERABLE_STAMPS, filterable } from "../core/schema";
import type { ListOptions, Paginator } from "../core/pagination";
import { crud, endpoints, verbs } from "../core/endpoint";
import { resource } from "../core/resource";
import { SubnetCreateRequest, SubnetUpdateRequest, VpcCreateRequest, VpcUpdateRequest } from "../rules/vpcs";
export * from "../rules/vpcs";

/** A compute instance assigned to a subnet through configuration profile interfaces. */
export const SubnetCompute = z.looseObject({
  id: z.number().int(),
  interfaces: z.array(z.looseObject({ id: z.number().int(), active: z.boolean() })),
});

/** A VPC subnet as the API returns it; `filterable`: what `X-Filter` may name in a listing. */
export const Subnet = z.looseObject({
  id: filterable(z.number().int()),
  label: filterable(z.string()),
  ipv4: filterable(z.string()),
  /** Not in the spec; every recording carries `"ipv6": null`. */
  ipv6: z.unknown().optional(),
  computes: z.array(SubnetCompute),
  ...FILTERABLE_STAMPS,
});
export type Subnet = z.infer<typeof Subnet>;

/** A VPC as the API returns it, with its subnets; `filterable`: what `X-Filter` may name in a listing. */
export const Vpc = z.looseObject({
  id: filterable(z.number().int()),
  label: filterable(z.string()),
  description: filterable(z.string()),
  region: filterable(z.string()),
  subnets: z.array(Subnet),
  ...FILTERABLE_STAMPS,
});
export type Vpc = z.infer<typeof Vpc>;

/** One address of a VPC interface; an instance with several VPC profiles is listed once per profile. */
export const VpcIp = z.looseObject({
  active: z.boolean(),
  address: z.string().nullable(),
  address_range: z.string().nullable(),
  config_id: z.number().int(),
  gateway: z.string().nullable(),
  interface_id: z.number().int(),
  compute_id: z.number().int(),
  nat_1_1: z.string().nullable(),
  prefix: z.number().int(),
  region: z.string(),
  subnet_id: z.number().int(),
  subnet_mask: z.string(),
  vpc_id: z.number().int(),
});
export type VpcIp = z.infer<typeof VpcIp>;

const READ = verbs({ service: "vpcs", auth: "token", scopes: [] });
const WRITE = verbs({ service: "vpcs", auth: "token", scopes: ["vpc:read_write"] });
const IPS = { ...verbs({ service: "vpcs", auth: "token", scopes: ["ips:read_only"] }).list, response: VpcIp };

/** The `/vpcs` endpoints (spec "VPCs"): reads list no scope, the IP lists need `ips:read_only`, writes `vpc:read_write`. */
export const VPC_ENDPOINTS = endpoints("vpcs", {
  ...crud(READ, WRITE, "/vpcs", "vpcId", Vpc, {
    /** Iterates the account's VPCs. */
    list: "VPC collection",
    /** The body is validated against `VpcCreateRequest` before anything is sent; never retried after an ambiguous failure. */
    create: ["Create a VPC with optional subnets", VpcCreateRequest],
    get: "One VPC",
    update: ["Update a VPC's label or description", VpcUpdateRequest],
    delete: "Delete a VPC and all its subnets (all or nothing)",
  }),
  /** `/vpcs/{vpcId}/subnets`. */
  subnets: crud(READ, WRITE, "/vpcs/{vpcId}/subnets", "vpcSubnetId", Subnet, {
    list: "Subnet collection of a VPC",
    /** Never retried after an ambiguous failure. */
    create: ["Create a subnet", SubnetCreateRequest],
    get: "One subnet",
    /** The label only; `ipv4` is fixed. */
    update: ["Update a subnet's label", SubnetUpdateRequest],
    delete: "Delete a subnet without assigned interfaces",
  }),
  ips: {
    list: { ...IPS, path: "/vpcs/{vpcId}/ips", summary: "VPC IP records of one VPC" },
    listAccount: { ...IPS, path: "/vpcs/ips", summary: "VPC IP records of the account" },
    listAccountViaNetworking: {
      ...IPS,
      name: "vpcs.ips.listAccount#networking",
      path: "/networking/vpcs/ips",
      summary: "VPC IP records of the account (networking path)",
    },
  },
});

/** Options of `VpcIps.listAccount`. */
export interface VpcIpListOptions extends ListOptions {
  /** Which of the two equivalent account-wide paths to use: `/vpcs/ips` (default) or `/networking/vpcs/ips`. */
  via?: "vpcs" | "networking";
}

/** VPC IP address records, per VPC or for the whole account. */
export class VpcIps extends resource(VPC_ENDPOINTS.ips, { own: ["listAccount"] }) {
  /** Iterates the IP records of every VPC of the account; both paths exist on the real API. */
  listAccount(options: VpcIpListOptions = {}): Paginator<VpcIp> {
    const { via = "vpcs", ...rest } = options;
    return this.http.paginate(via === "networking" ? this.endpoints.listAccountViaNetworking : this.endpoints.listAccount, {}, rest);
  }
}

/**
 * `/vpcs`: VPCs, with their subnets (`vpcs.subnets`) and VPC IP records (`vpcs.ips`).
 * Create is a POST without an idempotency key: it is never retried after an ambiguous failure.
 */
export class Vpcs extends resource(VPC_ENDPOINTS, { sub: { ips: VpcIps } }) {}
