/**
 * Image rules that need state: the disk to capture must be one of the account's, the upload
 * region must exist, and only private images may be changed (a public image answers 403
 * `Unauthorized`, api-facts P7-1). Per-field rules live in the sdk's request schemas.
 */
import { IMAGE_REASONS } from "../../../sdk/resources/images";
import type { ErrorEntry } from "../../../sdk/core/schema";
import type { AccountState } from "../../core/state";
import { forbidden, notFound } from "../../core/errors";
import { findRegion } from "../regions/catalog";
import { findPublicImage } from "./catalog";
import { type StoredImage, findDisk, findPrivateImage } from "./store";

/** `POST /images`: the disk must belong to one of the account's instances (400 otherwise, as for other body references). */
export function checkCapture(account: AccountState, input: { disk_id: number }): ErrorEntry[] {
  return findDisk(account, input.disk_id) ? [] : [{ field: "disk_id", reason: IMAGE_REASONS.diskNotFound }];
}

/** `POST /images/upload`: the region must exist. */
export function checkUpload(input: { region: string }): ErrorEntry[] {
  return findRegion(input.region) ? [] : [{ field: "region", reason: IMAGE_REASONS.regionInvalid }];
}

/** The private image a PUT or DELETE may change: a public one is 403, anything else unknown 404. */
export function changeableImage(account: AccountState, id: string): StoredImage {
  const image = findPrivateImage(account, id);
  if (image) return image;
  if (findPublicImage(id)) throw forbidden();
  throw notFound();
}
