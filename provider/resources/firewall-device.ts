/**
 * `compute:FirewallDevice`: one assignment of a firewall to a compute instance or nodebalancer.
 * Every input replaces: a device cannot be changed, only removed and added again. Use it for
 * firewalls whose `Firewall` resource does not list `devices` (a `Firewall` with `devices` is
 * authoritative and would remove devices it does not list).
 */
import { FirewallDeviceCreateRequest, type FirewallDevice } from "../../sdk/resources/firewalls";
import type { ProviderContext } from "../engine/context";
import { resourceSpec } from "../engine/spec";
import { MINUTE, apiId, byParent, givenParentId, idField, normalizeId, parentIdField, timestamps } from "./common";

const devicesApi = (ctx: ProviderContext) => ctx.client().networking.firewalls.devices;

const sameEntity = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  normalizeId(a.entityId) === normalizeId(b.entityId) && a.entityType === b.entityType;

export const firewallDeviceSpec = resourceSpec<FirewallDevice, FirewallDeviceCreateRequest>()({
  name: "FirewallDevice",
  noun: "firewall device",
  description: "Assigns a firewall to one compute instance or nodebalancer.",
  example: [
    "// A firewall whose devices are not its own list (no `devices`), and an instance of the account.",
    'const edge = new compute.Firewall("edge", { label: "edge-fw", inboundPolicy: "DROP", outboundPolicy: "ACCEPT" });',
    'const web1 = compute.getIpsOutput({ address: "198.51.100.10" }).apply((ips) => ips[0]!.computeId!);',
    'new compute.FirewallDevice("web-1", { firewallId: edge.id, entityId: web1, entityType: "compute" });',
  ].join("\n"),
  inputs: {
    firewallId: parentIdField("firewallId", "firewall", "replaces the device"),
    entityId: {
      ...idField("entityId"),
      wire: "id",
      required: true,
      replaceOnChange: true,
      description: "Id of the compute instance or nodebalancer.",
    },
    entityType: {
      schema: FirewallDeviceCreateRequest.shape.type,
      wire: "type",
      required: true,
      replaceOnChange: true,
      description: "`compute` or `nodebalancer`.",
    },
  },
  outputs: {
    entity: {
      description: "The assigned entity: id, type, label and API url.",
      nullWhen: "`label` may be null (the spec allows it; every recording names the entity).",
    },
    ...timestamps("device", { updatedNullable: true }),
  },
  computed: {
    // The device record does not name its firewall; keep the id (a number) so reads can find it.
    firewallId: givenParentId("firewallId"),
    entityId: (device) => device.entity.id,
    entityType: (device) => device.entity.type,
  },
  timeouts: { create: 5 * MINUTE, update: 5 * MINUTE, delete: 5 * MINUTE },
  endpoints: {
    read: ["networking.firewalls.devices.list", "networking.firewalls.devices.get"],
    write: ["networking.firewalls.devices.create", "networking.firewalls.devices.delete"],
  },
  // Moving the same entity to another firewall: the old device goes first, or two active
  // firewalls would cover one service and the API would refuse the new one.
  deleteFirst: (olds, news) => sameEntity(olds, news),
  // An entity is assigned to a firewall at most once.
  naturalKey: {
    describe: (inputs) => `${String(inputs.entityType)} ${String(inputs.entityId)} on firewall ${String(inputs.firewallId)}`,
    exclusive: true,
    inputs: ["firewallId", "entityType", "entityId"],
    atCheck: "on create",
    find: async ({ ctx, inputs, signal }) =>
      (await devicesApi(ctx).listAll(apiId(inputs.firewallId), { signal })).filter(
        (d) => d.entity.id === normalizeId(inputs.entityId) && d.entity.type === inputs.entityType,
      ),
  },
  hooks: {
    create: ({ ctx, body, inputs, signal }) => devicesApi(ctx).create(apiId(inputs.firewallId), body, { signal }),
    read: ({ ctx, id, state, signal }) => devicesApi(ctx).get(apiId(state.firewallId), apiId(id), { signal }),
    delete: ({ ctx, id, state, signal }) => devicesApi(ctx).delete(apiId(state.firewallId), apiId(id), { signal }),
  },
  // A refresh reads a firewall's devices with one listing.
  listing: byParent("firewallId", (ctx, firewallId, signal) => devicesApi(ctx).listAll(firewallId, { signal })),
});
