/**
 * `/compute/instances*` and `/compute/types*`. Reads need `computes:read_only`, writes
 * `computes:read_write` (the spec's scope names); restricted users need `add_computes` to create
 * and a grant per instance. The types catalogue needs no token.
 */
import { filterableFields } from "../../../sdk/core/schema";
import { grantCreator } from "../../core/auth";
import { ApiFailure, entry, found, throwIfAny } from "../../core/errors";
import { globalGrant, objectGrant, route } from "../../core/route-table";
import type { RouteContext, RouteSpec } from "../../core/routes";
import { COMPUTE_TYPES, findComputeType } from "./catalog";
import { COMPUTE_ENDPOINTS, COMPUTE_REASONS, Compute, ComputeType, Config } from "../../../sdk/resources/computes";
import {
  addInterface,
  bootCompute,
  bootConfig,
  createCompute,
  createConfig,
  deleteCompute,
  deleteConfig,
  orderInterfaces,
  rebootCompute,
  rebuildCompute,
  removeInterface,
  resizeCompute,
  shutdownCompute,
  updateCompute,
  updateConfig,
  updateInterface,
} from "./operations";
import { renderCompute, renderComputeIps, renderConfig, renderInterface } from "./render";
import { checkComputeCreate, checkComputeUpdate, checkImage, checkNotBusy, checkResize, checkType } from "./rules";
import { findCompute, findConfig, statusOf, visibleComputes } from "./store";

export const COMPUTE_FILTERABLE = filterableFields(Compute);
export const CONFIG_FILTERABLE = filterableFields(Config);
export const TYPE_FILTERABLE = filterableFields(ComputeType);

const computeGrant = objectGrant("compute", "computeId", findCompute);
const computeOf = (ctx: RouteContext) => ctx.lookup("computeId", findCompute);
const configOf = (ctx: RouteContext) => {
  const compute = computeOf(ctx);
  return { compute, config: found(findConfig(compute, ctx.intParam("configId"))) };
};
const interfaceOf = (ctx: RouteContext) => {
  const { compute, config } = configOf(ctx);
  return { compute, config, iface: found(config.interfaces.find((i) => i.id === ctx.intParam("interfaceId"))) };
};
/** The instance a boot or reboot acts on (not busy) and the profile it boots, or 400. */
const bootTarget = (ctx: RouteContext, configId: number | null | undefined) => {
  const compute = computeOf(ctx);
  throwIfAny(checkNotBusy(compute));
  const config = bootConfig(compute, configId);
  if (!config) throw new ApiFailure(400, [entry(COMPUTE_REASONS.noConfig, configId != null ? "config_id" : undefined)]);
  return { compute, config };
};

export const computeRoutes: RouteSpec[] = [
  route(COMPUTE_ENDPOINTS.instances.list, { filterable: COMPUTE_FILTERABLE }, (ctx) =>
    visibleComputes(ctx.account, ctx.user).map(renderCompute),
  ),
  route(COMPUTE_ENDPOINTS.instances.create, { grant: globalGrant("add_computes") }, (ctx) => {
    const input = ctx.body();
    throwIfAny(checkComputeCreate(ctx.account, input));
    const compute = createCompute(ctx.actor, input);
    grantCreator(ctx.user, "compute", compute.id);
    return renderCompute(compute);
  }),
  route(COMPUTE_ENDPOINTS.instances.get, { grant: computeGrant.read_only }, (ctx) => renderCompute(computeOf(ctx))),
  route(COMPUTE_ENDPOINTS.instances.update, { grant: computeGrant.read_write }, (ctx) => {
    const compute = computeOf(ctx);
    const input = ctx.body();
    throwIfAny(checkComputeUpdate(ctx.account, compute, input));
    return renderCompute(updateCompute(ctx.actor, compute, input));
  }),
  route(COMPUTE_ENDPOINTS.instances.delete, { grant: computeGrant.read_write }, (ctx) => {
    const compute = computeOf(ctx);
    if (statusOf(compute) !== "deleting") deleteCompute(ctx.actor, compute);
  }),
  route(COMPUTE_ENDPOINTS.instances.boot, { grant: computeGrant.read_write }, (ctx) => {
    const { compute, config } = bootTarget(ctx, ctx.body().config_id);
    if (statusOf(compute) === "offline") bootCompute(ctx.actor, compute, config);
  }),
  route(COMPUTE_ENDPOINTS.instances.shutdown, { grant: computeGrant.read_write }, (ctx) => {
    const compute = computeOf(ctx);
    throwIfAny(checkNotBusy(compute));
    if (statusOf(compute) === "running") shutdownCompute(ctx.actor, compute);
  }),
  route(COMPUTE_ENDPOINTS.instances.reboot, { grant: computeGrant.read_write }, (ctx) => {
    const { compute, config } = bootTarget(ctx, ctx.body().config_id);
    if (statusOf(compute) === "running") rebootCompute(ctx.actor, compute, config);
    else bootCompute(ctx.actor, compute, config);
  }),
  route(COMPUTE_ENDPOINTS.instances.resize, { grant: computeGrant.read_write }, (ctx) => {
    const compute = computeOf(ctx);
    const input = ctx.body();
    throwIfAny(checkResize(compute, input.type));
    resizeCompute(ctx.actor, compute, input.type);
  }),
  route(COMPUTE_ENDPOINTS.instances.rebuild, { grant: computeGrant.read_write }, (ctx) => {
    const compute = computeOf(ctx);
    const input = ctx.body();
    throwIfAny([...checkNotBusy(compute), ...checkImage(ctx.account, input.image), ...(input.type ? checkType(input.type) : [])]);
    return renderCompute(rebuildCompute(ctx.actor, compute, input));
  }),
  route(COMPUTE_ENDPOINTS.instances.ips, { grant: computeGrant.read_only }, (ctx) =>
    renderComputeIps(ctx.account, ctx.user, computeOf(ctx)),
  ),
  route(COMPUTE_ENDPOINTS.instances.configs.list, { grant: computeGrant.read_only, filterable: CONFIG_FILTERABLE }, (ctx) => {
    const compute = computeOf(ctx);
    return compute.configs.map((c) => renderConfig(compute, c));
  }),
  route(COMPUTE_ENDPOINTS.instances.configs.create, { grant: computeGrant.read_write }, (ctx) => {
    const compute = computeOf(ctx);
    return renderConfig(compute, createConfig(ctx.actor, compute, ctx.body()));
  }),
  route(COMPUTE_ENDPOINTS.instances.configs.get, { grant: computeGrant.read_only }, (ctx) => {
    const { compute, config } = configOf(ctx);
    return renderConfig(compute, config);
  }),
  route(COMPUTE_ENDPOINTS.instances.configs.update, { grant: computeGrant.read_write }, (ctx) => {
    const { compute, config } = configOf(ctx);
    return renderConfig(compute, updateConfig(ctx.actor, compute, config, ctx.body()));
  }),
  route(COMPUTE_ENDPOINTS.instances.configs.delete, { grant: computeGrant.read_write }, (ctx) => {
    const { compute, config } = configOf(ctx);
    deleteConfig(ctx.actor, compute, config);
  }),
  route(COMPUTE_ENDPOINTS.instances.configs.interfaces.list, { grant: computeGrant.read_only }, (ctx) =>
    configOf(ctx).config.interfaces.map(renderInterface),
  ),
  route(COMPUTE_ENDPOINTS.instances.configs.interfaces.create, { grant: computeGrant.read_write }, (ctx) => {
    const { compute, config } = configOf(ctx);
    return renderInterface(addInterface(ctx.actor, compute, config, ctx.body()));
  }),
  route(COMPUTE_ENDPOINTS.instances.configs.interfaces.order, { grant: computeGrant.read_write }, (ctx) => {
    const { config } = configOf(ctx);
    const { ids } = ctx.body();
    const same = ids.length === config.interfaces.length && config.interfaces.every((i) => ids.includes(i.id));
    if (!same) throw new ApiFailure(400, [entry("ids must name each interface of the profile once", "ids")]);
    orderInterfaces(config, ids);
  }),
  route(COMPUTE_ENDPOINTS.instances.configs.interfaces.get, { grant: computeGrant.read_only }, (ctx) =>
    renderInterface(interfaceOf(ctx).iface),
  ),
  route(COMPUTE_ENDPOINTS.instances.configs.interfaces.update, { grant: computeGrant.read_write }, (ctx) => {
    const { compute, config, iface } = interfaceOf(ctx);
    return renderInterface(updateInterface(ctx.actor, compute, config, iface, ctx.body()));
  }),
  route(COMPUTE_ENDPOINTS.instances.configs.interfaces.delete, { grant: computeGrant.read_write }, (ctx) => {
    const { config, iface } = interfaceOf(ctx);
    if (iface.active) throw new ApiFailure(400, [entry(COMPUTE_REASONS.interfaceDeleteActive)]);
    removeInterface(ctx.actor, config, iface);
  }),
  route(COMPUTE_ENDPOINTS.types.list, { filterable: TYPE_FILTERABLE }, () => COMPUTE_TYPES),
  route(COMPUTE_ENDPOINTS.types.get, (ctx) => found(findComputeType(ctx.param("typeId")))),
];
