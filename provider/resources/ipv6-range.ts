/**
 * `compute:Ipv6Range`: an IPv6 block (/56 or /64) routed to one compute instance, named either by
 * the instance (`computeId`) or by its SLAAC address (`routeTarget`) — exactly one of the two.
 * Nothing changes in place, so every input replaces; and since an account may hold one range per
 * region and one per SLAAC address, the old range is always deleted before its replacement.
 *
 * The API spreads a range over three answers: create returns only `{range: "<addr>/<len>",
 * route_target}`, the list carries `route_target`, the view `is_bgp` and `computes`. A read
 * combines the view and the list, and resolves the route target's instance through the IP view,
 * so a range re-assigned behind Pulumi's back shows up as drift of `computeId` / `routeTarget`.
 */
import * as pulumi from "@pulumi/pulumi";
import { Ipv6RangeCreateRequest, rangeTargetProblem, splitRange, type Ipv6RangeView } from "../../sdk/resources/ips";
import { canonicalIpv6 } from "../../sdk/core/net";
import type { ComputeClient } from "../../sdk/client";
import { TYPE_MODULE, dynamicProps, resourceOptions } from "../engine/resource";
import type { ApiObject, Failure, Inputs, ResourceSpec } from "../engine/spec";
import { providerFor } from "../shim";
import { MINUTE, apiId, idReference, normalizeId } from "./common";

const fields = Ipv6RangeCreateRequest.shape;

/** A SLAAC address compared in its canonical spelling (`2001:DB8::1` equals `2001:db8::1`). */
const normalizeAddress = (value: unknown): unknown => (typeof value === "string" ? canonicalIpv6(value) ?? value : value);

/** The range's full record: the view, the list's route target, and the instance that target belongs to. */
async function readRange(client: ComputeClient, range: string, signal: AbortSignal): Promise<ApiObject> {
  const view: Ipv6RangeView = await client.networking.ipv6.ranges.get(range, { signal });
  const listed = (await client.networking.ipv6.ranges.listAll({ signal })).find((r) => canonicalIpv6(r.range) === canonicalIpv6(view.range));
  const routeTarget = listed?.route_target ?? null;
  const owner = routeTarget ? await client.networking.ips.get(routeTarget, { signal }).catch(() => undefined) : undefined;
  return {
    id: canonicalIpv6(view.range) ?? view.range,
    range: view.range,
    prefix_length: view.prefix,
    region: view.region,
    is_bgp: view.is_bgp,
    computes: view.computes,
    route_target: routeTarget,
    compute_id: owner?.compute_id ?? null,
  };
}

/** The SLAAC address a new range would be routed to, for the lookup after an ambiguous create. */
async function wantedTarget(client: ComputeClient, inputs: Inputs, signal: AbortSignal): Promise<string | undefined> {
  if (inputs.routeTarget !== undefined) return canonicalIpv6(inputs.routeTarget as string);
  const computeId = apiId(inputs.computeId as string);
  const addresses = await client.networking.ips.listAll({ signal });
  return addresses.find((a) => a.compute_id === computeId && a.type === "ipv6")?.address;
}

/** The both/neither rule, naming both inputs (the API names both fields too). */
function validate(inputs: Inputs): Failure[] {
  const reason = rangeTargetProblem(inputs.computeId !== undefined && inputs.computeId !== null, inputs.routeTarget !== undefined && inputs.routeTarget !== null);
  return reason ? [{ property: "computeId", reason }, { property: "routeTarget", reason }] : [];
}

export const ipv6RangeSpec = {
  name: "Ipv6Range",
  noun: "IPv6 range",
  description: "An IPv6 range (/56 or /64) routed to one compute instance's SLAAC address.",
  inputs: {
    prefixLength: { schema: fields.prefix_length, required: true, replaceOnChange: true, description: "56 or 64. Changing it replaces the range." },
    computeId: {
      schema: idReference("computeId"),
      replaceOnChange: true,
      normalize: normalizeId,
      description: "Id of the instance to route the range to (exactly one of `computeId` / `routeTarget`). Changing it replaces the range.",
    },
    routeTarget: {
      schema: fields.route_target.unwrap(),
      replaceOnChange: true,
      normalize: normalizeAddress,
      description: "SLAAC address (no prefix length) to route the range to (exactly one of `computeId` / `routeTarget`). Changing it replaces the range.",
    },
  },
  outputs: {
    range: { description: "The range's first address, without the prefix length (also the resource id)." },
    region: { description: "Region of the range (that of its instance)." },
    isBgp: { description: "True while the range is shared with other instances (IP sharing)." },
    computes: { description: "Ids of the instances the range is routed to or shared with." },
  },
  timeouts: { create: 5 * MINUTE, update: 5 * MINUTE, delete: 5 * MINUTE },
  // One range per region per account and one per SLAAC address: a replacement cannot coexist with the old range.
  deleteFirst: () => true,
  validate,
  hooks: {
    create: async (ctx, inputs, signal) => {
      const created = await ctx.client().networking.ipv6.ranges.create(
        {
          prefix_length: inputs.prefixLength as 56 | 64,
          ...(inputs.computeId !== undefined ? { compute_id: apiId(inputs.computeId as string) } : {}),
          ...(inputs.routeTarget !== undefined ? { route_target: inputs.routeTarget as string } : {}),
        },
        { signal },
      );
      const split = splitRange(created.range);
      if (!split) throw new Error(`the API answered an IPv6 range create with an unreadable range ${JSON.stringify(created.range)}`);
      // The create answer is thin; `settle` reads the whole record (and a failed read keeps the range in state).
      return { id: split.range, range: split.range, prefix_length: split.prefix, route_target: created.route_target };
    },
    settle: (ctx, object, _inputs, signal) => readRange(ctx.client(), String(object.id), signal),
    read: (ctx, id, _state, signal) => readRange(ctx.client(), id, signal),
    // Every input replaces, so an update only ever re-reads (the engine's retry of a failed create).
    update: (ctx, id, _olds, _news, _changed, signal) => readRange(ctx.client(), id, signal),
    delete: (ctx, id, _state, signal) => ctx.client().networking.ipv6.ranges.delete(id, { signal }),
    // One range per SLAAC address: the range routed to the wanted target with the wanted length is the one.
    find: async (ctx, inputs, signal) => {
      const client = ctx.client();
      const target = await wantedTarget(client, inputs, signal);
      if (!target) return undefined;
      const found = (await client.networking.ipv6.ranges.listAll({ signal })).find(
        (r) => r.route_target !== null && canonicalIpv6(r.route_target) === target && r.prefix === inputs.prefixLength,
      );
      return found ? readRange(client, found.range, signal) : undefined;
    },
  },
} satisfies ResourceSpec;

/** Constructor arguments, documented per input (generated from the spec: `provider/args.generated.ts`). */
export type Ipv6RangeArgs = import("../args.generated").Ipv6RangeArgs;

/**
 * An IPv6 range routed to a compute instance.
 *
 * ```ts
 * const range = new compute.Ipv6Range("v6", { prefixLength: 64, computeId: 12345 });
 * export const block = pulumi.interpolate`${range.range}/${range.prefixLength}`;
 * ```
 */
export class Ipv6Range extends pulumi.dynamic.Resource {
  /** 56 or 64. */
  declare readonly prefixLength: pulumi.Output<number>;
  /** The instance the range is routed to (the owner of `routeTarget`). */
  declare readonly computeId: pulumi.Output<number | null>;
  /** The SLAAC address the range is routed to. */
  declare readonly routeTarget: pulumi.Output<string | null>;
  /** The range's first address, without the prefix length. */
  declare readonly range: pulumi.Output<string>;
  /** Region of the range. */
  declare readonly region: pulumi.Output<string>;
  /** True while the range is shared (IP sharing). */
  declare readonly isBgp: pulumi.Output<boolean>;
  /** Instances the range is routed to or shared with. */
  declare readonly computes: pulumi.Output<number[]>;

  constructor(name: string, args: Ipv6RangeArgs, opts?: pulumi.CustomResourceOptions) {
    super(providerFor(ipv6RangeSpec.name), name, dynamicProps(ipv6RangeSpec, args), resourceOptions(ipv6RangeSpec, opts), TYPE_MODULE, ipv6RangeSpec.name);
  }
}
