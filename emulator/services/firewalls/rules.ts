/**
 * The firewall rules that need state (spec "Errors", "Firewall status", "Authentication"). Field
 * rules (label form, rule grammar, address and rule counts, one nodebalancer on create) are
 * enforced by the sdk schemas before these run. Each check returns every problem it finds, as
 * the API reports several at once; every refusal is a 400 (api-facts P7-1: the API uses no 409).
 */
import type { ErrorEntry } from "../../../sdk/core/schema";
import { FIREWALL_LIMITS, FIREWALL_REASONS, type FirewallDeviceType } from "../../../sdk/resources/firewalls";
import type { AccountState, UserRecord } from "../../core/state";
import { objectPermission } from "../../core/auth";
import { entry, forbidden } from "../../core/errors";
import { findCompute } from "../computes/store";
import { type EntityRef, FIREWALLS, type StoredFirewall, entityLabel } from "./store";

/** Labels are unique among the account's firewalls. */
export function checkLabel(account: AccountState, label: string | undefined, self?: StoredFirewall): ErrorEntry[] {
  if (label === undefined) return [];
  return FIREWALLS.of(account).some((f) => f !== self && f.label === label) ? [entry(FIREWALL_REASONS.labelUnique, "label")] : [];
}

/** Every named entity must exist in the account: `Invalid Compute ID <n>` otherwise. */
export function checkEntitiesExist(account: AccountState, refs: EntityRef[]): ErrorEntry[] {
  return refs
    .filter((r) => entityLabel(account, r.type, r.id) === undefined)
    .map((r) => entry(FIREWALL_REASONS.invalidEntity(r.type, r.id), r.field));
}

/** A restricted caller needs read_write grants on every entity it assigns (403 `Unauthorized`). */
export function requireEntityGrants(user: UserRecord, refs: EntityRef[]): void {
  for (const ref of refs) if (objectPermission(user, ref.type, ref.id) !== "read_write") throw forbidden();
}

/** Whether an enabled firewall other than `self` is assigned to the entity. */
function activeElsewhere(account: AccountState, type: FirewallDeviceType, id: number, self?: StoredFirewall): boolean {
  return FIREWALLS.of(account).some(
    (f) => f !== self && f.status === "enabled" && f.devices.some((d) => d.entity_type === type && d.entity_id === id),
  );
}

/** One active firewall per service: entities already covered by another enabled firewall. */
export function checkActiveConflicts(account: AccountState, refs: EntityRef[], self?: StoredFirewall): ErrorEntry[] {
  return refs
    .filter((r) => activeElsewhere(account, r.type, r.id, self))
    .map((r) => entry(FIREWALL_REASONS.activeFirewall(r.type, r.id), r.field));
}

/** Enabling a firewall: none of its services may have another active firewall. */
export function checkEnable(account: AccountState, firewall: StoredFirewall): ErrorEntry[] {
  if (firewall.status === "enabled") return [];
  const refs = firewall.devices.map((d) => ({ type: d.entity_type, id: d.entity_id, field: "status" }));
  return checkActiveConflicts(account, refs, firewall);
}

/** Device add: not twice on one firewall, at most one nodebalancer per firewall (spec "Limits"). */
export function checkDeviceAdd(firewall: StoredFirewall, ref: EntityRef): ErrorEntry[] {
  const errors: ErrorEntry[] = [];
  if (firewall.devices.some((d) => d.entity_type === ref.type && d.entity_id === ref.id)) {
    errors.push(entry(FIREWALL_REASONS.deviceExists(ref.type, ref.id), ref.field));
  } else if (
    ref.type === "nodebalancer" &&
    firewall.devices.filter((d) => d.entity_type === "nodebalancer").length >= FIREWALL_LIMITS.nodebalancers
  ) {
    errors.push(entry(FIREWALL_REASONS.nodebalancersTooMany, ref.field));
  }
  return errors;
}

/**
 * Firewall create, update, delete, device create/delete and rules update are refused while an
 * assigned compute instance (or one being assigned) has a live migration in progress.
 */
export function checkMigrations(account: AccountState, computeIds: Iterable<number>): ErrorEntry[] {
  const errors: ErrorEntry[] = [];
  for (const id of new Set(computeIds)) if (findCompute(account, id)?.migrating) errors.push(entry(FIREWALL_REASONS.migrating(id)));
  return errors;
}

/** The compute instances a firewall is assigned to. */
export function assignedComputes(firewall: StoredFirewall): number[] {
  return firewall.devices.filter((d) => d.entity_type === "compute").map((d) => d.entity_id);
}
