/**
 * `compute:VpcSubnet`: an IPv4 range inside a VPC. The label changes in place; the range and the
 * VPC cannot change, so they replace. The instances with an interface in the subnet (the API's
 * `computes`) are not an output: they change with the instances' lives (`getVpcIps` lists them).
 */
import { parseIpv4Cidr, ipv4RangesOverlap } from "../../sdk/core/net";
import { SubnetCreateRequest, type Subnet, type SubnetUpdateRequest } from "../../sdk/resources/vpcs";
import { resourceSpec } from "../engine/spec";
import { MINUTE, apiId, byParent, givenParentId, parentIdField, timestamps } from "./common";

const fields = SubnetCreateRequest.shape;

function rangesOverlap(a: unknown, b: unknown): boolean {
  const x = typeof a === "string" ? parseIpv4Cidr(a) : undefined;
  const y = typeof b === "string" ? parseIpv4Cidr(b) : undefined;
  return !!x && !!y && ipv4RangesOverlap(x, y);
}

export const vpcSubnetSpec = resourceSpec<Subnet, SubnetCreateRequest, SubnetUpdateRequest>()({
  name: "VpcSubnet",
  noun: "subnet",
  description: "A VPC subnet: an IPv4 range (RFC 1918, canonical CIDR, /1–/29) inside a VPC.",
  example: 'const subnet = new compute.VpcSubnet("web", { vpcId: vpc.id, label: "web", ipv4: "10.0.1.0/24" });',
  inputs: {
    vpcId: parentIdField("vpcId", "VPC", "replaces the subnet"),
    label: { schema: fields.label, required: true, description: "1–64 ASCII letters, digits and single dashes; unique within the VPC." },
    ipv4: {
      schema: fields.ipv4,
      required: true,
      replaceOnChange: true,
      description:
        "IPv4 range in canonical CIDR form inside RFC 1918 space, not overlapping 192.168.128.0/17 or another subnet of the VPC. Changing it replaces the subnet.",
    },
  },
  outputs: {
    ...timestamps("subnet", { updatedNullable: true }),
  },
  // The subnet record does not name its VPC; keep the id (as a number) so reads can find it.
  computed: { vpcId: givenParentId("vpcId") },
  timeouts: { create: 5 * MINUTE, update: 5 * MINUTE, delete: 10 * MINUTE },
  endpoints: {
    read: ["vpcs.subnets.list", "vpcs.subnets.get"],
    write: ["vpcs.subnets.create", "vpcs.subnets.update", "vpcs.subnets.delete"],
  },
  uniqueInputs: ["label"],
  // The API refuses overlapping subnets, so a replacement whose range overlaps the old one can
  // only be created once the old subnet is gone.
  deleteFirst: (olds, news) => rangesOverlap(olds.ipv4, news.ipv4),
  // Labels are unique among the subnets of a VPC.
  naturalKey: {
    describe: (inputs) => `label ${JSON.stringify(inputs.label)} in VPC ${String(inputs.vpcId)}`,
    exclusive: true,
    inputs: ["vpcId", "label"],
    find: async ({ ctx, inputs, signal }) =>
      (await ctx.client().vpcs.subnets.listAll(apiId(inputs.vpcId), { signal })).filter((s) => s.label === inputs.label),
  },
  hooks: {
    create: ({ ctx, body, inputs, signal }) => ctx.client().vpcs.subnets.create(apiId(inputs.vpcId), body, { signal }),
    read: ({ ctx, id, state, signal }) => ctx.client().vpcs.subnets.get(apiId(state.vpcId), apiId(id), { signal }),
    update: ({ ctx, id, body, olds, signal }) => ctx.client().vpcs.subnets.update(apiId(olds.vpcId), apiId(id), body, { signal }),
    delete: ({ ctx, id, state, signal }) => ctx.client().vpcs.subnets.delete(apiId(state.vpcId), apiId(id), { signal }),
  },
  // A refresh reads a VPC's subnets with one listing.
  listing: byParent("vpcId", (ctx, vpcId, signal) => ctx.client().vpcs.subnets.listAll(vpcId, { signal })),
});
