/**
 * `compute:Vpc`: a private network in a region. Subnets are their own resource (`VpcSubnet`), and
 * not an output here: the API's `subnets` changes whenever a subnet is made or removed, so it is
 * another resource's state (`getVpcSubnets` lists them).
 * The label and description change in place; the region cannot change, so it replaces.
 */
import { VPC_CAPABILITY, VpcCreateRequest, type Vpc, type VpcUpdateRequest } from "../../sdk/resources/vpcs";
import { resourceSpec } from "../engine/spec";
import { MINUTE, apiId, regionOnOffer, timestamps, uniqueLabel } from "./common";

const fields = VpcCreateRequest.shape;

export const vpcSpec = resourceSpec<Vpc, VpcCreateRequest, VpcUpdateRequest>()({
  name: "Vpc",
  noun: "VPC",
  description: "A VPC: a private virtual network in one region, holding subnets.",
  example: 'const vpc = new compute.Vpc("app", { label: "app-net", region: "us-iad" });',
  inputs: {
    label: {
      schema: fields.label,
      required: true,
      description: "1–64 ASCII letters, digits and single dashes; unique among the account's VPCs.",
    },
    region: {
      schema: fields.region,
      required: true,
      replaceOnChange: true,
      description: 'Region id, such as `us-iad` (one offering VPCs: `getRegions({ capability: "VPCs" })`). Changing it replaces the VPC.',
    },
    description: { schema: fields.description.unwrap(), default: "", description: "Up to 255 characters." },
  },
  outputs: {
    ...timestamps("VPC", { updatedNullable: true }),
  },
  timeouts: { create: 5 * MINUTE, update: 5 * MINUTE, delete: 10 * MINUTE },
  endpoints: { read: ["regions.list", "vpcs.list", "vpcs.get"], write: ["vpcs.create", "vpcs.update", "vpcs.delete"] },
  uniqueInputs: ["label"],
  checkShared: regionOnOffer(VPC_CAPABILITY),
  // Labels are unique among the account's VPCs.
  naturalKey: uniqueLabel((ctx, filter, signal) => ctx.client().vpcs.listAll({ filter, signal })),
  hooks: {
    create: ({ ctx, body, signal }) => ctx.client().vpcs.create(body, { signal }),
    read: ({ ctx, id, signal }) => ctx.client().vpcs.get(apiId(id), { signal }),
    update: ({ ctx, id, body, signal }) => ctx.client().vpcs.update(apiId(id), body, { signal }),
    delete: ({ ctx, id, signal }) => ctx.client().vpcs.delete(apiId(id), { signal }),
  },
});
