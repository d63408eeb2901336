/**
 * `/networking/firewalls*` (spec "Networking: firewalls"). Reads need `firewall:read_only`, writes
 * `firewall:read_write`. A restricted user sees and changes only firewalls it has a grant on (its
 * own creations get read_write), and needs read_write grants on every device entity it assigns.
 */
import { Firewall, FirewallCreateRequest, FirewallUpdateRequest } from "../../../sdk/resources/firewalls";
import { FirewallDevice, FirewallDeviceCreateRequest, FirewallRules, FirewallRulesUpdateRequest } from "../../../sdk/resources/firewalls";
import { grantCreator } from "../../core/auth";
import { found, throwIfAny } from "../../core/errors";
import { objectGrant, routeTable } from "../../core/route-table";
import type { RouteContext, RouteSpec } from "../../core/routes";
import { type EntityRef, type StoredFirewall, createDeviceRefs, findDevice, findFirewall, visibleFirewalls } from "./store";
import { renderDevice, renderFirewall, renderRules } from "./render";
import { addDevice, createFirewall, deleteFirewall, removeDevice, replaceRules, updateFirewall } from "./operations";
import {
  assignedComputes, checkActiveConflicts, checkDeviceAdd, checkEnable, checkEntitiesExist, checkLabel, checkMigrations, requireEntityGrants,
} from "./rules";

export const FIREWALL_FILTERABLE = ["id", "label", "status", "tags", "created", "updated"] as const;
export const FIREWALL_DEVICE_FILTERABLE = ["id", "created", "updated", "entity.id", "entity.type", "entity.label"] as const;

const FIREWALL = "/networking/firewalls/{firewallId}";
const DEVICES = `${FIREWALL}/devices`;
const DEVICE = `${DEVICES}/{deviceId}`;

const api = routeTable("firewalls", { read: ["firewall:read_only"], write: ["firewall:read_write"] });
const { read_only: readGrant, read_write: writeGrant } = objectGrant("firewall", "firewallId", findFirewall);

const deviceList = { item: FirewallDevice, filterable: FIREWALL_DEVICE_FILTERABLE };
const deviceAdd = { grant: writeGrant, response: FirewallDevice };

const firewallOf = (ctx: RouteContext) => ctx.lookup("firewallId", findFirewall);
const deviceOf = (ctx: RouteContext) => {
  const firewall = firewallOf(ctx);
  return { firewall, device: found(findDevice(firewall, ctx.intParam("deviceId"))) };
};

/** Changes to a firewall are refused while an instance it is assigned to is migrating. */
const notMigrating = (ctx: RouteContext, firewall: StoredFirewall) => throwIfAny(checkMigrations(ctx.account, assignedComputes(firewall)));

export const firewallRoutes: RouteSpec[] = [
  api.read.list("/networking/firewalls", "Firewalls the caller can access", { item: Firewall, filterable: FIREWALL_FILTERABLE }, (ctx) =>
    visibleFirewalls(ctx.account, ctx.user).map(renderFirewall),
  ),
  api.write.post("/networking/firewalls", "Create a firewall with its rules and optional devices", { response: Firewall }, (ctx) => {
    const input = ctx.body(FirewallCreateRequest);
    const refs = createDeviceRefs(input.devices);
    throwIfAny(checkEntitiesExist(ctx.account, refs));
    requireEntityGrants(ctx.user, refs);
    throwIfAny([
      ...checkLabel(ctx.account, input.label),
      ...checkMigrations(ctx.account, refs.filter((r) => r.type === "compute").map((r) => r.id)),
      ...checkActiveConflicts(ctx.account, refs),
    ]);
    const firewall = createFirewall(ctx.actor, input, refs);
    grantCreator(ctx.user, "firewall", firewall.id);
    return renderFirewall(firewall);
  }),
  api.read.get(FIREWALL, "One firewall (without devices)", { grant: readGrant, response: Firewall }, (ctx) =>
    renderFirewall(firewallOf(ctx)),
  ),
  api.write.put(FIREWALL, "Update a firewall's label, status or tags", { grant: writeGrant, response: Firewall }, (ctx) => {
    const firewall = firewallOf(ctx);
    const input = ctx.body(FirewallUpdateRequest);
    throwIfAny([
      ...checkLabel(ctx.account, input.label, firewall),
      ...checkMigrations(ctx.account, assignedComputes(firewall)),
      ...(input.status === "enabled" ? checkEnable(ctx.account, firewall) : []),
    ]);
    return renderFirewall(updateFirewall(ctx.actor, firewall, input));
  }),
  api.write.delete(FIREWALL, "Delete a firewall; its rules leave every assigned service", { grant: writeGrant }, (ctx) => {
    const firewall = firewallOf(ctx);
    notMigrating(ctx, firewall);
    deleteFirewall(ctx.actor, firewall);
  }),
  api.read.list(DEVICES, "Devices of a firewall", { grant: readGrant, ...deviceList }, (ctx) =>
    firewallOf(ctx).devices.map((d) => renderDevice(ctx.account, d)),
  ),
  api.write.post(DEVICES, "Assign a firewall to a compute instance or nodebalancer", deviceAdd, (ctx) => {
    const firewall = firewallOf(ctx);
    const input = ctx.body(FirewallDeviceCreateRequest);
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
  api.read.get(DEVICE, "One device of a firewall", { grant: readGrant, response: FirewallDevice }, (ctx) =>
    renderDevice(ctx.account, deviceOf(ctx).device),
  ),
  api.write.delete(DEVICE, "Remove a firewall from one service", { grant: writeGrant }, (ctx) => {
    const { firewall, device } = deviceOf(ctx);
    notMigrating(ctx, firewall);
    removeDevice(ctx.actor, firewall, device);
  }),
  api.read.get(`${FIREWALL}/rules`, "Both rulesets and policies of a firewall", { grant: readGrant, response: FirewallRules }, (ctx) =>
    renderRules(firewallOf(ctx).rules),
  ),
  api.write.put(`${FIREWALL}/rules`, "Replace both rulesets of a firewall", { grant: writeGrant, response: FirewallRules }, (ctx) => {
    const firewall = firewallOf(ctx);
    const input = ctx.body(FirewallRulesUpdateRequest);
    notMigrating(ctx, firewall);
    return renderRules(replaceRules(ctx.actor, firewall, input));
  }),
];
