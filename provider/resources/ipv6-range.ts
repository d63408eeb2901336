/**
 * `compute:Ipv6Range`: an IPv6 block (/56 or /64) routed to one compute instance, named either by
 * the instance (`computeId`) or by its SLAAC address (`routeTarget`) — exactly one of the two.
 * A new target moves the same block in place (`POST /networking/ips/assign`, as the API moves
 * ranges between instances), so the range's address, and the AAAA records and firewall rules that
 * use it, are kept. A new prefix length replaces it; since an account may hold one range per
 * region and one per SLAAC address, the old range is then deleted before its replacement.
 *
 * The API spreads a range over three answers: create returns only `{range: "<addr>/<len>",
 * route_target}`, the list carries `route_target`, the view `is_bgp` and `computes`. A read
 * combines the view and the list, and resolves the route target's instance through the IP view,
 * so a range re-assigned behind Pulumi's back shows up as drift of `computeId` / `routeTarget`.
 * Whom the range is shared with (the view's `is_bgp` and `computes`) changes with IP sharing, another
 * resource's life, so it is not an output (`getIpv6Ranges` lists ranges).
 */
import { Ipv6RangeCreateRequest, rangeTargetProblem, splitRange, type Ipv6RangeView } from "../../sdk/resources/ips";
import { canonicalIpv6 } from "../../sdk/core/net";
import type { ComputeClient } from "../../sdk/client";
import { resourceSpec, type Failure, type Values } from "../engine/spec";
import { MINUTE, apiId, idField } from "./common";

const fields = Ipv6RangeCreateRequest.shape;

/** A SLAAC address compared in its canonical spelling (`2001:DB8::1` equals `2001:db8::1`). */
const normalizeAddress = (value: unknown): unknown => (typeof value === "string" ? (canonicalIpv6(value) ?? value) : value);

/**
 * A range as the provider records it: the create answer's address and length (all a create
 * returns), completed by a read with the view, the list's route target and that target's instance.
 */
type RoutedRange = Partial<Pick<Ipv6RangeView, "region">> & {
  id: string;
  range: string;
  prefix_length: number;
  route_target: string | null;
  compute_id?: number | null;
};

/** The range's full record: the view, the list's route target, and the instance that target belongs to. */
async function readRange(client: ComputeClient, range: string, signal: AbortSignal): Promise<RoutedRange> {
  const view = await client.networking.ipv6.ranges.get(range, { signal });
  const listed = (await client.networking.ipv6.ranges.listAll({ signal })).find(
    (r) => canonicalIpv6(r.range) === canonicalIpv6(view.range),
  );
  const routeTarget = listed?.route_target ?? null;
  const owner = routeTarget ? await client.networking.ips.get(routeTarget, { signal }).catch(() => undefined) : undefined;
  return {
    id: canonicalIpv6(view.range) ?? view.range,
    range: view.range,
    prefix_length: view.prefix,
    region: view.region,
    route_target: routeTarget,
    compute_id: owner?.compute_id ?? null,
  };
}

/** The SLAAC address a new range would be routed to, for the lookup after an ambiguous create. */
async function wantedTarget(client: ComputeClient, inputs: Values, signal: AbortSignal): Promise<string | undefined> {
  if (typeof inputs.routeTarget === "string") return canonicalIpv6(inputs.routeTarget);
  const computeId = apiId(inputs.computeId);
  const addresses = await client.networking.ips.listAll({ signal });
  return addresses.find((a) => a.compute_id === computeId && a.type === "ipv6")?.address;
}

/** The instance a range should be routed to: `computeId`, or the owner of the `routeTarget` SLAAC address. */
async function targetInstance(client: ComputeClient, inputs: Values, signal: AbortSignal): Promise<number> {
  if (inputs.computeId !== undefined && inputs.computeId !== null) return apiId(inputs.computeId);
  const address = String(inputs.routeTarget);
  const owner = (await client.networking.ips.get(address, { signal })).compute_id;
  if (owner === null)
    throw new Error(`routeTarget ${address} belongs to no compute instance; give the SLAAC address of an instance, or its computeId`);
  return owner;
}

/** The both/neither rule, naming both inputs (the API names both fields too). */
function validate(inputs: Values): Failure[] {
  const reason = rangeTargetProblem(
    inputs.computeId !== undefined && inputs.computeId !== null,
    inputs.routeTarget !== undefined && inputs.routeTarget !== null,
  );
  return reason
    ? [
        { property: "computeId", reason },
        { property: "routeTarget", reason },
      ]
    : [];
}

export const ipv6RangeSpec = resourceSpec<RoutedRange, Ipv6RangeCreateRequest>()({
  name: "Ipv6Range",
  noun: "IPv6 range",
  description:
    "An IPv6 range (/56 or /64) routed to one compute instance's SLAAC address. A new target moves the same range in place (its address, and the records and rules that use it, are kept).",
  adoptIdForm: { example: '"2600:3c00:e000:100::"', what: "the range's first address, without the prefix length" },
  example: [
    'const range = new compute.Ipv6Range("v6", { prefixLength: 64, computeId: web1 });',
    "export const block = pulumi.interpolate`${range.range}/${range.prefixLength}`;",
  ].join("\n"),
  inputs: {
    prefixLength: {
      schema: fields.prefix_length,
      required: true,
      replaceOnChange: true,
      description: "56 or 64. Changing it replaces the range.",
    },
    computeId: {
      ...idField("computeId"),
      // The create's body carries it; a change moves the block (`update`).
      send: "create",
      recomputedBy: ["routeTarget"],
      description:
        "Id of the instance to route the range to (exactly one of `computeId` / `routeTarget`). Changing it moves the same range to that instance.",
    },
    routeTarget: {
      schema: fields.route_target.unwrap(),
      send: "create",
      normalize: normalizeAddress,
      recomputedBy: ["computeId"],
      description:
        "SLAAC address (no prefix length) to route the range to (exactly one of `computeId` / `routeTarget`). Changing it moves the same range to that address's instance.",
    },
  },
  outputs: {
    range: { description: "The range's first address, without the prefix length (also the resource id)." },
    region: { description: "Region of the range (that of its instance)." },
  },
  timeouts: { create: 5 * MINUTE, update: 5 * MINUTE, delete: 5 * MINUTE },
  endpoints: {
    read: ["networking.ipv6.ranges.list", "networking.ipv6.ranges.get", "networking.ips.list", "networking.ips.get"],
    write: ["networking.ipv6.ranges.create", "networking.ips.assign", "networking.ipv6.ranges.delete"],
  },
  // One range per region per account and one per SLAAC address: a replacement (a new prefix length) cannot coexist with the old range.
  deleteFirst: () => true,
  validate,
  // One range per SLAAC address: the range routed to the wanted target is the one.
  naturalKey: {
    describe: (inputs) =>
      inputs.routeTarget !== undefined
        ? `route target ${inputs.routeTarget}`
        : `the SLAAC address of compute instance ${String(inputs.computeId)}`,
    exclusive: true,
    find: async ({ ctx, inputs, signal }) => {
      const client = ctx.client();
      const target = await wantedTarget(client, inputs, signal);
      if (!target) return [];
      const found = (await client.networking.ipv6.ranges.listAll({ signal })).filter(
        (r) => r.route_target !== null && canonicalIpv6(r.route_target) === target,
      );
      return Promise.all(found.map((r) => readRange(client, r.range, signal)));
    },
  },
  hooks: {
    create: async ({ ctx, body, signal }) => {
      const created = await ctx.client().networking.ipv6.ranges.create(body, { signal });
      const split = splitRange(created.range);
      if (!split) throw new Error(`the API answered an IPv6 range create with an unreadable range ${JSON.stringify(created.range)}`);
      // The create answer is thin; `settle` reads the whole record (and a failed read keeps the range in state).
      return { id: split.range, range: split.range, prefix_length: split.prefix, route_target: created.route_target };
    },
    settle: ({ ctx, record, signal }) => readRange(ctx.client(), record.id, signal),
    read: ({ ctx, id, signal }) => readRange(ctx.client(), id, signal),
    update: async ({ ctx, id, news, signal }) => {
      const client = ctx.client();
      const current = await readRange(client, id, signal);
      const target = await targetInstance(client, news, signal);
      // Already there (a move whose answer was lost, or another spelling of the same target): nothing to send.
      if (current.compute_id !== target) {
        const address = `${current.range}/${current.prefix_length}`;
        await client.networking.ips.assign({ region: current.region, assignments: [{ address, compute_id: target }] }, { signal });
      }
      return readRange(client, id, signal);
    },
    delete: ({ ctx, id, signal }) => ctx.client().networking.ipv6.ranges.delete(id, { signal }),
  },
});
