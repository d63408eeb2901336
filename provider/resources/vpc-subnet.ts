/**
 * `compute:VpcSubnet`: an IPv4 range inside a VPC. The label changes in place; the range and the
 * VPC cannot change, so they replace.
 */
import * as pulumi from "@pulumi/pulumi";
import { parseIpv4Cidr, ipv4RangesOverlap } from "../../sdk/core/net";
import { SubnetCreateRequest, type Subnet } from "../../sdk/resources/vpcs";
import { type Camelized, TYPE_MODULE, dynamicProps, resourceOptions } from "../engine/resource";
import type { ResourceSpec } from "../engine/spec";
import { providerFor } from "../shim";
import { MINUTE, apiId, idReference, normalizeId } from "./common";

const fields = SubnetCreateRequest.shape;

function rangesOverlap(a: unknown, b: unknown): boolean {
  const x = typeof a === "string" ? parseIpv4Cidr(a) : undefined;
  const y = typeof b === "string" ? parseIpv4Cidr(b) : undefined;
  return !!x && !!y && ipv4RangesOverlap(x, y);
}

export const vpcSubnetSpec = {
  name: "VpcSubnet",
  noun: "subnet",
  description: "A VPC subnet: an IPv4 range (RFC 1918, canonical CIDR, /1–/29) inside a VPC.",
  inputs: {
    vpcId: { schema: idReference("vpcId"), required: true, replaceOnChange: true, normalize: normalizeId, description: "Id of the VPC. Changing it replaces the subnet." },
    label: { schema: fields.label, required: true, description: "1–64 ASCII letters, digits and single dashes; unique within the VPC." },
    ipv4: { schema: fields.ipv4, required: true, replaceOnChange: true, description: "IPv4 range in canonical CIDR form inside RFC 1918 space, not overlapping 192.168.128.0/17 or another subnet of the VPC. Changing it replaces the subnet." },
  },
  outputs: {
    computes: { description: "Compute instances with a VPC interface in this subnet, and those interfaces." },
    created: { description: "When the subnet was created (UTC)." },
    updated: { description: "When the subnet was last updated (UTC)." },
  },
  timeouts: { create: 5 * MINUTE, update: 5 * MINUTE, delete: 10 * MINUTE },
  uniqueInputs: ["label"],
  // The API refuses overlapping subnets, so a replacement whose range overlaps the old one can
  // only be created once the old subnet is gone.
  deleteFirst: (olds, news) => rangesOverlap(olds.ipv4, news.ipv4),
  hooks: {
    create: (ctx, inputs, signal) =>
      ctx.client().vpcs.subnets.create(apiId(inputs.vpcId as string), { label: inputs.label as string, ipv4: inputs.ipv4 as string }, { signal }),
    read: (ctx, id, state, signal) => ctx.client().vpcs.subnets.get(apiId(state.vpcId as string), apiId(id), { signal }),
    update: (ctx, id, olds, news, _changed, signal) =>
      ctx.client().vpcs.subnets.update(apiId(olds.vpcId as string), apiId(id), { label: news.label as string }, { signal }),
    delete: (ctx, id, state, signal) => ctx.client().vpcs.subnets.delete(apiId(state.vpcId as string), apiId(id), { signal }),
    find: async (ctx, inputs, signal) => {
      const subnets = await ctx.client().vpcs.subnets.listAll(apiId(inputs.vpcId as string), { signal });
      return subnets.find((s) => s.label === inputs.label && s.ipv4 === inputs.ipv4);
    },
    // The subnet record does not name its VPC; keep the id (as a number) so reads can find it.
    extraOutputs: (_object, inputs) => ({ vpcId: normalizeId(inputs.vpcId) }),
  },
} satisfies ResourceSpec;

/** Constructor arguments, documented per input (generated from the spec: `provider/args.generated.ts`). */
export type VpcSubnetArgs = import("../args.generated").VpcSubnetArgs;

/**
 * A subnet of a VPC.
 *
 * ```ts
 * const subnet = new compute.VpcSubnet("web", { vpcId: vpc.id, label: "web", ipv4: "10.0.1.0/24" });
 * ```
 */
export class VpcSubnet extends pulumi.dynamic.Resource {
  /** Id of the VPC (a number). */
  declare readonly vpcId: pulumi.Output<number>;
  /** The subnet's label. */
  declare readonly label: pulumi.Output<string>;
  /** IPv4 range in CIDR form. */
  declare readonly ipv4: pulumi.Output<string>;
  /** Compute instances attached to the subnet through VPC interfaces. */
  declare readonly computes: pulumi.Output<Camelized<Subnet["computes"]>>;
  /** Creation time (UTC). */
  declare readonly created: pulumi.Output<string>;
  /** Last update time (UTC). */
  declare readonly updated: pulumi.Output<string | null>;

  constructor(name: string, args: VpcSubnetArgs, opts?: pulumi.CustomResourceOptions) {
    super(providerFor(vpcSubnetSpec.name), name, dynamicProps(vpcSubnetSpec, args), resourceOptions(vpcSubnetSpec, opts), TYPE_MODULE, vpcSubnetSpec.name);
  }
}
