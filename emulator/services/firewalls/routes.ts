/**
 * `/networking/firewalls*` (spec "Networking: firewalls"). Reads need `firewall:read_only`, writes
 * `firewall:read_write`. A restricted user sees and changes only firewalls it has a grant on (its
 * own creations get read_write), and needs read_write grants on every device entity it assigns.
 */
import { filterableFields } from "../../../sdk/core/schema";
import { FIREWALL_ENDPOINTS, FirewallDevice } from "../../../sdk/resources/firewalls";
import { grantCreator } from "../../core/auth";
import { found, throwIfAny } from "../../core/errors";
import { objectGrant, route } from "../../core/route-table";
import type { RouteContext, RouteSpec } from "../../core/routes";
import { type EntityRef, type StoredFirewall, createDeviceRefs, findDevice, findFirewall, visibleFirewalls } from "./store";
import { renderDevice, renderFirewall, renderRuleSet } from "./render";
import { addDevice, createFirewall, deleteFirewall, removeDevice, replaceRules, updateFirewall } from "./operations";
import {
  assignedComputes,
  checkActiveConflicts,
  checkDeviceAdd,
  checkEnable,
  checkEntitiesExist,
  checkLabel,
  checkMigrations,
  requireEntityGrants,
} from "./rules";

export const FIREWALL_FILTERABLE = ["id", "label", "status", "tags", "created", "updated"] as const;
export const FIREWALL_DEVICE_FILTERABLE = filterableFields(FirewallDevice);

const { read_only: readGrant, read_write: writeGrant } = objectGrant("firewall", "firewallId", findFirewall);
const reading = { grant: readGrant };
const writing = { grant: writeGrant };

const firewallOf = (ctx: RouteContext) => ctx.lookup("firewallId", findFirewall);
const deviceOf = (ctx: RouteContext) => {
  const firewall = firewallOf(ctx);
  return { firewall, device: found(findDevice(firewall, ctx.intParam("deviceId"))) };
};

/** Changes to a firewall are refused while an instance it is assigned to is migrating. */
const notMigrating = (ctx: RouteContext, firewall: StoredFirewall) => throwIfAny(checkMigrations(ctx.account, assignedComputes(firewall)));

export const firewallRoutes: RouteSpec[] = [
  route(FIREWALL_ENDPOINTS.list, { filterable: FIREWALL_FILTERABLE }, (ctx) => visibleFirewalls(ctx.account, ctx.user).map(renderFirewall)),
  route(FIREWALL_ENDPOINTS.create, (ctx) => {
    const input = ctx.body();
    const refs = createDeviceRefs(input.devices);
    throwIfAny(checkEntitiesExist(ctx.account, refs));
    requireEntityGrants(ctx.user, refs);
    throwIfAny([
      ...checkLabel(ctx.account, input.label),
      ...checkMigrations(
        ctx.account,
        refs.filter((r) => r.type === "compute").map((r) => r.id),
      ),
      ...checkActiveConflicts(ctx.account, refs),
    ]);
    const firewall = createFirewall(ctx.actor, input, refs);
    grantCreator(ctx.user, "firewall", firewall.id);
    return renderFirewall(firewall);
  }),
  route(FIREWALL_ENDPOINTS.get, reading, (ctx) => renderFirewall(firewallOf(ctx))),
  route(FIREWALL_ENDPOINTS.update, writing, (ctx) => {
    const firewall = firewallOf(ctx);
    const input = ctx.body();
    throwIfAny([
      ...checkLabel(ctx.account, input.label, firewall),
      ...checkMigrations(ctx.account, assignedComputes(firewall)),
      ...(input.status === "enabled" ? checkEnable(ctx.account, firewall) : []),
    ]);
    return renderFirewall(updateFirewall(ctx.actor, firewall, input));
  }),
  route(FIREWALL_ENDPOINTS.delete, writing, (ctx) => {
    const firewall = firewallOf(ctx);
    notMigrating(ctx, firewall);
    deleteFirewall(ctx.actor, firewall);
  }),
  route(FIREWALL_ENDPOINTS.devices.list, { ...reading, filterable: FIREWALL_DEVICE_FILTERABLE }, (ctx) =>
    firewallOf(ctx).devices.map((d) => renderDevice(ctx.account, d)),
  ),
  route(FIREWALL_ENDPOINTS.devices.create, writing, (ctx) => {
    const firewall = firewallOf(ctx);
    const input = ctx.body();
    const ref: EntityRef = { type: input.type, id: input.id, field: "id" };
    throwIfAny(checkEntitiesExist(ctx.account, [ref]));
    requireEntityGrants(ctx.user, [ref]);
    throwIfAny([
      ...checkDeviceAdd(firewall, ref),
      ...checkMigrations(ctx.account, [...assignedComputes(firewall), ...(ref.type === "compute" ? [ref.id] : [])]),
      // A disabled firewall may join a service that has an active one (spec: "may have additional disabled ones").
      ...(firewall.status === "enabled" ? checkActiveConflicts(ctx.account, [ref], firewall) : []),
    ]);
    return renderDevice(ctx.account, addDevice(ctx.actor, firewall, ref));
  }),
  route(FIREWALL_ENDPOINTS.devices.get, reading, (ctx) => renderDevice(ctx.account, deviceOf(ctx).device)),
  route(FIREWALL_ENDPOINTS.devices.delete, writing, (ctx) => {
    const { firewall, device } = deviceOf(ctx);
    notMigrating(ctx, firewall);
    removeDevice(ctx.actor, firewall, device);
  }),
  route(FIREWALL_ENDPOINTS.rules.get, reading, (ctx) => renderRuleSet(firewallOf(ctx))),
  route(FIREWALL_ENDPOINTS.rules.update, writing, (ctx) => {
    const firewall = firewallOf(ctx);
    const input = ctx.body();
    notMigrating(ctx, firewall);
    replaceRules(ctx.actor, firewall, input);
    return renderRuleSet(firewall);
  }),
];
