/**
 * `compute:Vpc`: a private network in a region. Subnets are their own resource (`VpcSubnet`).
 * The label and description change in place; the region cannot change, so it replaces.
 */
import * as pulumi from "@pulumi/pulumi";
import { VpcCreateRequest, type Subnet, type Vpc as VpcRecord } from "../../sdk/resources/vpcs";
import { type Camelized, TYPE_MODULE, dynamicProps, resourceOptions } from "../engine/resource";
import type { ResourceSpec } from "../engine/spec";
import { providerFor } from "../shim";
import { apiId, MINUTE } from "./common";

const fields = VpcCreateRequest.shape;

export const vpcSpec = {
  name: "Vpc",
  noun: "VPC",
  description: "A VPC: a private virtual network in one region, holding subnets.",
  inputs: {
    label: { schema: fields.label, required: true, description: "1–64 ASCII letters, digits and single dashes; unique among the account's VPCs." },
    region: { schema: fields.region, required: true, replaceOnChange: true, description: "Region id, such as `us-east`. Changing it replaces the VPC." },
    description: { schema: fields.description.unwrap(), default: "", description: "Up to 255 characters." },
  },
  outputs: {
    subnets: { description: "The VPC's subnets as the API lists them (managed separately, through `VpcSubnet`)." },
    created: { description: "When the VPC was created (UTC)." },
    updated: { description: "When the VPC was last updated (UTC)." },
  },
  timeouts: { create: 5 * MINUTE, update: 5 * MINUTE, delete: 10 * MINUTE },
  uniqueInputs: ["label"],
  hooks: {
    create: (ctx, inputs, signal) =>
      ctx.client().vpcs.create(
        { label: inputs.label as string, region: inputs.region as string, description: inputs.description as string | undefined },
        { signal },
      ),
    read: (ctx, id, _state, signal) => ctx.client().vpcs.get(apiId(id), { signal }),
    update: (ctx, id, _olds, news, changed, signal) => {
      const body: Record<string, string> = {};
      for (const key of changed) body[key] = (news[key] ?? "") as string;
      return ctx.client().vpcs.update(apiId(id), body, { signal });
    },
    delete: (ctx, id, _state, signal) => ctx.client().vpcs.delete(apiId(id), { signal }),
    // Labels are unique per account, so a VPC created by an ambiguous request is found by its label.
    find: async (ctx, inputs, signal) => {
      const matches = await ctx.client().vpcs.listAll({ filter: { label: inputs.label as string }, signal });
      return matches.find((v) => v.label === inputs.label && v.region === inputs.region);
    },
  },
} satisfies ResourceSpec;

/** Constructor arguments, documented per input (generated from the spec: `provider/args.generated.ts`). */
export type VpcArgs = import("../args.generated").VpcArgs;

/**
 * A VPC: a private virtual network in one region.
 *
 * ```ts
 * const vpc = new compute.Vpc("app", { label: "app-net", region: "us-east" });
 * ```
 */
export class Vpc extends pulumi.dynamic.Resource {
  /** The VPC's label. */
  declare readonly label: pulumi.Output<string>;
  /** Region id. */
  declare readonly region: pulumi.Output<string>;
  /** Description (`""` when none). */
  declare readonly description: pulumi.Output<string>;
  /** Subnets as the API lists them. */
  declare readonly subnets: pulumi.Output<Camelized<Subnet>[]>;
  /** Creation time (UTC). */
  declare readonly created: pulumi.Output<string>;
  /** Last update time (UTC). */
  declare readonly updated: pulumi.Output<string | null>;
  declare readonly adoptId: pulumi.Output<string | number | undefined>;

  constructor(name: string, args: VpcArgs, opts?: pulumi.CustomResourceOptions) {
    super(providerFor(vpcSpec.name), name, dynamicProps(vpcSpec, args), resourceOptions(vpcSpec, opts), TYPE_MODULE, vpcSpec.name);
  }
}

export type { VpcRecord };
