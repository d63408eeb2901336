/**
 * `compute:FirewallDevice`: one assignment of a firewall to a compute instance or nodebalancer.
 * Every input replaces: a device cannot be changed, only removed and added again. Use it for
 * firewalls whose `Firewall` resource does not list `devices` (a `Firewall` with `devices` is
 * authoritative and would remove devices it does not list).
 */
import * as pulumi from "@pulumi/pulumi";
import { FirewallDeviceCreateRequest, type FirewallDevice as DeviceRecord } from "../../sdk/resources/firewalls";
import { type Camelized, TYPE_MODULE, dynamicProps, resourceOptions } from "../engine/resource";
import type { ApiObject, ResourceSpec } from "../engine/spec";
import { providerFor } from "../shim";
import { MINUTE, apiId, idReference, normalizeId } from "./common";

/** The device record with its entity's id and type at the top, where the inputs read them. */
function deviceObject(device: DeviceRecord): ApiObject {
  return { ...device, entity_id: device.entity.id, entity_type: device.entity.type };
}

const sameEntity = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  normalizeId(a.entityId) === normalizeId(b.entityId) && a.entityType === b.entityType;

export const firewallDeviceSpec = {
  name: "FirewallDevice",
  noun: "firewall device",
  description: "Assigns a firewall to one compute instance or nodebalancer.",
  inputs: {
    firewallId: { schema: idReference("firewallId"), required: true, replaceOnChange: true, normalize: normalizeId, description: "Id of the firewall. Changing it replaces the device." },
    entityId: { schema: idReference("entityId"), required: true, replaceOnChange: true, normalize: normalizeId, description: "Id of the compute instance or nodebalancer." },
    entityType: { schema: FirewallDeviceCreateRequest.shape.type, required: true, replaceOnChange: true, description: "`compute` or `nodebalancer`." },
  },
  outputs: {
    entity: { description: "The assigned entity: id, type, label and API url." },
    created: { description: "When the device was created (UTC)." },
    updated: { description: "When the device was last updated (UTC)." },
  },
  timeouts: { create: 5 * MINUTE, update: 5 * MINUTE, delete: 5 * MINUTE },
  // Moving the same entity to another firewall: the old device goes first, or two active
  // firewalls would cover one service and the API would refuse the new one.
  deleteFirst: (olds, news) => sameEntity(olds, news),
  hooks: {
    create: async (ctx, inputs, signal) =>
      deviceObject(
        await ctx.client().networking.firewalls.devices.create(
          apiId(inputs.firewallId as string),
          { id: apiId(inputs.entityId as string), type: inputs.entityType as "compute" | "nodebalancer" },
          { signal },
        ),
      ),
    read: async (ctx, id, state, signal) =>
      deviceObject(await ctx.client().networking.firewalls.devices.get(apiId(state.firewallId as string), apiId(id), { signal })),
    // Every input replaces, so an update only ever re-reads (the engine's retry of a failed create).
    update: async (ctx, id, olds, _news, _changed, signal) =>
      deviceObject(await ctx.client().networking.firewalls.devices.get(apiId(olds.firewallId as string), apiId(id), { signal })),
    delete: async (ctx, id, state, signal) => {
      await ctx.client().networking.firewalls.devices.delete(apiId(state.firewallId as string), apiId(id), { signal });
    },
    find: async (ctx, inputs, signal) => {
      const devices = await ctx.client().networking.firewalls.devices.listAll(apiId(inputs.firewallId as string), { signal });
      const found = devices.find((d) => d.entity.id === normalizeId(inputs.entityId) && d.entity.type === inputs.entityType);
      return found && deviceObject(found);
    },
    // The device record does not name its firewall; keep the id (a number) so reads can find it.
    extraOutputs: (_object, inputs) => ({ firewallId: normalizeId(inputs.firewallId) }),
  },
} satisfies ResourceSpec;

/** Constructor arguments, documented per input (generated from the spec: `provider/args.generated.ts`). */
export type FirewallDeviceArgs = import("../args.generated").FirewallDeviceArgs;

/**
 * Assigns a firewall to a compute instance or nodebalancer.
 *
 * ```ts
 * new compute.FirewallDevice("web-1", { firewallId: fw.id, entityId: 12345, entityType: "compute" });
 * ```
 */
export class FirewallDevice extends pulumi.dynamic.Resource {
  /** Id of the firewall (a number). */
  declare readonly firewallId: pulumi.Output<number>;
  /** Id of the entity. */
  declare readonly entityId: pulumi.Output<number>;
  /** `compute` or `nodebalancer`. */
  declare readonly entityType: pulumi.Output<string>;
  /** The entity as the API describes it. */
  declare readonly entity: pulumi.Output<Camelized<DeviceRecord["entity"]>>;
  /** Creation time (UTC). */
  declare readonly created: pulumi.Output<string>;
  /** Last update time (UTC). */
  declare readonly updated: pulumi.Output<string | null>;

  constructor(name: string, args: FirewallDeviceArgs, opts?: pulumi.CustomResourceOptions) {
    super(providerFor(firewallDeviceSpec.name), name, dynamicProps(firewallDeviceSpec, args), resourceOptions(firewallDeviceSpec, opts), TYPE_MODULE, firewallDeviceSpec.name);
  }
}
