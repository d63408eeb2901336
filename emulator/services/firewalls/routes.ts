/**
 * `/networking/firewalls*` (spec "Networking: firewalls"). Reads need `firewall:read_only`, writes
 * `firewall:read_write`. A restricted user sees and changes only firewalls it has a grant on (its
 * own creations get read_write), and needs read_write grants on every device entity it assigns.
 */
import { Collection, Empty } from "../../../sdk/core/schema";
import {
  Firewall,
  FirewallCreateRequest,
  FirewallDevice,
  FirewallDeviceCreateRequest,
  FirewallRules,
  FirewallRulesUpdateRequest,
  FirewallUpdateRequest,
} from "../../../sdk/resources/firewalls";
import { grantCreator } from "../../core/auth";
import { found, throwIfAny } from "../../core/errors";
import type { GrantRequirement, RouteContext, RouteSpec } from "../../core/routes";
import type { GrantPermission } from "../../core/state";
import { type EntityRef, createDeviceRefs, findDevice, findFirewall, visibleFirewalls } from "./store";
import { renderDevice, renderFirewall, renderRules } from "./render";
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
export const FIREWALL_DEVICE_FILTERABLE = ["id", "created", "updated", "entity.id", "entity.type", "entity.label"] as const;

const READ = { service: "firewalls", auth: "token", scopes: ["firewall:read_only"] } as const;
const WRITE = { service: "firewalls", auth: "token", scopes: ["firewall:read_write"] } as const;

function firewallGrant(level: GrantPermission): GrantRequirement {
  return { kind: "object", object: "firewall", param: "firewallId", level, exists: (account, id) => findFirewall(account, id) !== undefined };
}

const firewallOf = (ctx: RouteContext) => found(findFirewall(ctx.account, ctx.intParam("firewallId")));
const deviceOf = (ctx: RouteContext) => {
  const firewall = firewallOf(ctx);
  return { firewall, device: found(findDevice(firewall, ctx.intParam("deviceId"))) };
};

export const firewallRoutes: RouteSpec[] = [
  {
    ...READ,
    method: "GET",
    path: "/networking/firewalls",
    summary: "Firewalls the caller can access",
    filterable: FIREWALL_FILTERABLE,
    response: Collection(Firewall),
    handler: (ctx) => ctx.collection(visibleFirewalls(ctx.account, ctx.user).map(renderFirewall)),
  },
  {
    ...WRITE,
    method: "POST",
    path: "/networking/firewalls",
    summary: "Create a firewall with its rules and optional devices",
    response: Firewall,
    handler: (ctx) => {
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
    },
  },
  {
    ...READ,
    method: "GET",
    path: "/networking/firewalls/{firewallId}",
    summary: "One firewall (without devices)",
    grant: firewallGrant("read_only"),
    response: Firewall,
    handler: (ctx) => renderFirewall(firewallOf(ctx)),
  },
  {
    ...WRITE,
    method: "PUT",
    path: "/networking/firewalls/{firewallId}",
    summary: "Update a firewall's label, status or tags",
    grant: firewallGrant("read_write"),
    response: Firewall,
    handler: (ctx) => {
      const firewall = firewallOf(ctx);
      const input = ctx.body(FirewallUpdateRequest);
      throwIfAny([
        ...checkLabel(ctx.account, input.label, firewall),
        ...checkMigrations(ctx.account, assignedComputes(firewall)),
        ...(input.status === "enabled" ? checkEnable(ctx.account, firewall) : []),
      ]);
      return renderFirewall(updateFirewall(ctx.actor, firewall, input));
    },
  },
  {
    ...WRITE,
    method: "DELETE",
    path: "/networking/firewalls/{firewallId}",
    summary: "Delete a firewall; its rules leave every assigned service",
    grant: firewallGrant("read_write"),
    response: Empty,
    handler: (ctx) => {
      const firewall = firewallOf(ctx);
      throwIfAny(checkMigrations(ctx.account, assignedComputes(firewall)));
      deleteFirewall(ctx.actor, firewall);
      return {};
    },
  },
  {
    ...READ,
    method: "GET",
    path: "/networking/firewalls/{firewallId}/devices",
    summary: "Devices of a firewall",
    grant: firewallGrant("read_only"),
    filterable: FIREWALL_DEVICE_FILTERABLE,
    response: Collection(FirewallDevice),
    handler: (ctx) => ctx.collection(firewallOf(ctx).devices.map((d) => renderDevice(ctx.account, d))),
  },
  {
    ...WRITE,
    method: "POST",
    path: "/networking/firewalls/{firewallId}/devices",
    summary: "Assign a firewall to a compute instance or nodebalancer",
    grant: firewallGrant("read_write"),
    response: FirewallDevice,
    handler: (ctx) => {
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
    },
  },
  {
    ...READ,
    method: "GET",
    path: "/networking/firewalls/{firewallId}/devices/{deviceId}",
    summary: "One device of a firewall",
    grant: firewallGrant("read_only"),
    response: FirewallDevice,
    handler: (ctx) => renderDevice(ctx.account, deviceOf(ctx).device),
  },
  {
    ...WRITE,
    method: "DELETE",
    path: "/networking/firewalls/{firewallId}/devices/{deviceId}",
    summary: "Remove a firewall from one service",
    grant: firewallGrant("read_write"),
    response: Empty,
    handler: (ctx) => {
      const { firewall, device } = deviceOf(ctx);
      throwIfAny(checkMigrations(ctx.account, assignedComputes(firewall)));
      removeDevice(ctx.actor, firewall, device);
      return {};
    },
  },
  {
    ...READ,
    method: "GET",
    path: "/networking/firewalls/{firewallId}/rules",
    summary: "Both rulesets and policies of a firewall",
    grant: firewallGrant("read_only"),
    response: FirewallRules,
    handler: (ctx) => renderRules(firewallOf(ctx).rules),
  },
  {
    ...WRITE,
    method: "PUT",
    path: "/networking/firewalls/{firewallId}/rules",
    summary: "Replace both rulesets of a firewall",
    grant: firewallGrant("read_write"),
    response: FirewallRules,
    handler: (ctx) => {
      const firewall = firewallOf(ctx);
      const input = ctx.body(FirewallRulesUpdateRequest);
      throwIfAny(checkMigrations(ctx.account, assignedComputes(firewall)));
      return renderRules(replaceRules(ctx.actor, firewall, input));
    },
  },
];
