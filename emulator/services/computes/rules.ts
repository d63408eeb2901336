/** The compute rules that need state, returning every `{field, reason}` found (texts: `COMPUTE_REASONS`). */
import type { ErrorEntry } from "../../../sdk/core/schema";
import { entry } from "../../core/errors";
import type { AccountState } from "../../core/state";
import { FIREWALLS } from "../firewalls/store";
import { findPublicImage } from "../images/catalog";
import { findPrivateImage } from "../images/store";
import { findRegion, regionHasCapability } from "../regions/catalog";
import { COMPUTE_CAPABILITY, findComputeType } from "./catalog";
import { COMPUTE_REASONS, type ComputeCreateRequest, type ComputeUpdateRequest } from "../../../sdk/resources/computes";
import { COMPUTES, type StoredCompute, statusOf } from "./store";

function checkLabelFree(account: AccountState, label: string | undefined, self?: StoredCompute): ErrorEntry[] {
  if (label === undefined) return [];
  const taken = COMPUTES.of(account).some((c) => c !== self && c.label.toLowerCase() === label.toLowerCase());
  return taken ? [entry(COMPUTE_REASONS.labelUnique, "label")] : [];
}

/** An image a create or rebuild may deploy: a public one, or an available private image of the account. */
export function checkImage(account: AccountState, image: string | null | undefined): ErrorEntry[] {
  if (!image) return [];
  if (findPublicImage(image)) return [];
  const own = findPrivateImage(account, image);
  return own && own.status === "available" ? [] : [entry(COMPUTE_REASONS.imageInvalid, "image")];
}

export function checkType(type: string): ErrorEntry[] {
  return findComputeType(type) ? [] : [entry(COMPUTE_REASONS.typeInvalid, "type")];
}

export function checkComputeCreate(account: AccountState, input: ComputeCreateRequest): ErrorEntry[] {
  const errors: ErrorEntry[] = [];
  const region = findRegion(input.region);
  if (!region) errors.push(entry(COMPUTE_REASONS.regionInvalid, "region"));
  else if (!regionHasCapability(region, COMPUTE_CAPABILITY)) errors.push(entry(COMPUTE_REASONS.regionNoComputes, "region"));
  errors.push(...checkType(input.type), ...checkImage(account, input.image), ...checkLabelFree(account, input.label));
  if (input.image && !input.root_pass) errors.push(entry(COMPUTE_REASONS.rootPassRequired, "root_pass"));
  if (input.firewall_id != null && !FIREWALLS.of(account).some((f) => f.id === input.firewall_id)) {
    errors.push(entry(COMPUTE_REASONS.firewallInvalid, "firewall_id"));
  }
  return errors;
}

export function checkComputeUpdate(account: AccountState, compute: StoredCompute, input: ComputeUpdateRequest): ErrorEntry[] {
  return checkLabelFree(account, input.label, compute);
}

/** An action while another is under way (any status but running or offline) is refused: `Compute busy.` */
export function checkNotBusy(compute: StoredCompute): ErrorEntry[] {
  const status = statusOf(compute);
  return status === "running" || status === "offline" ? [] : [entry(COMPUTE_REASONS.busy)];
}

export function checkResize(compute: StoredCompute, type: string): ErrorEntry[] {
  const busy = checkNotBusy(compute);
  if (busy.length > 0) return busy;
  const errors = checkType(type);
  if (errors.length === 0 && (compute.type ?? "") === type) errors.push(entry(COMPUTE_REASONS.sameType, "type"));
  return errors;
}
