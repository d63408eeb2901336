/**
 * Private images of an account as stored, with the status machine of the spec's "Image status"
 * table kept as data on each record:
 *
 *   capture (POST /images)            creating ──(CAPTURE_DURATION_MS)──▶ available
 *   upload  (POST /images/upload)     pending_upload ──(data PUT, then UPLOAD_PROCESSING_MS)──▶ available
 *                                     pending_upload ──(UPLOAD_WINDOW_MS without data)──▶ deleted
 *
 * A pending change is `transition: {to, at}` on the record, written by `operations.ts`; the clock
 * applies it (`machine.ts`) at exactly `at`, so a persisted state file keeps every pending
 * transition across a restart. Public images are a fixed catalog (`catalog.ts`).
 */
import type { ImageStatus } from "../../../sdk/resources/images";
import type { EmulatorRuntime } from "../../core/runtime";
import { type AccountState, accountSlice, idCounter } from "../../core/state";
import { COMPUTES, type StoredCompute, type StoredDisk } from "../computes/store";

/** How long a capture stays `creating` (emulated time). */
export const CAPTURE_DURATION_MS = 2 * 60_000;
/** How long uploaded data is processed before the image is `available` (emulated time). */
export const UPLOAD_PROCESSING_MS = 60_000;
/** The data must arrive within 24 hours, after which the image is deleted (spec "Image status"). */
export const UPLOAD_WINDOW_MS = 24 * 60 * 60_000;
/** Where the emulator serves upload URLs (outside `/v4`: it stands for the object storage). */
export const UPLOAD_PREFIX = "/__uploads";

/** A status change waiting on the clock: at `at` (epoch ms), the image becomes `to`. */
export interface ImageTransition {
  to: "available" | "deleted";
  at: number;
}

export interface StoredImage {
  /** `private/<number>`. */
  id: string;
  label: string;
  description: string;
  created: string;
  updated: string;
  /** MB; the disk's size for a capture, the uncompressed data's for an upload (0 until received). */
  size: number;
  created_by: string | null;
  type: "manual" | "automatic";
  status: Exclude<ImageStatus, "deleted">;
  capabilities: string[];
  expiry: string | null;
  transition: ImageTransition | null;
  /** Upload images waiting for data: the pre-signed URL's signature and expiry (epoch seconds). */
  upload: { signature: string; expires: number } | null;
  /** The event this image's job updates as it progresses (`disk_imagize` or `image_upload`). */
  event_id: number | null;
}

/** `accounts[id].images`: the account's private images, captured or uploaded. */
export const IMAGES = accountSlice("images", (): StoredImage[] => []);
export const IMAGE_ID = idCounter("image", 23_852_000);

export const imageNumber = (id: string): number => Number(id.slice("private/".length));
export const imageUrl = (id: string) => `/v4/images/${id}`;
export function findPrivateImage(account: AccountState, id: string): StoredImage | undefined {
  return IMAGES.of(account).find((i) => i.id === id);
}

/** The image an upload URL points at, with its account (the URL carries no token). */
export function findUploadTarget(runtime: EmulatorRuntime, number: number): { account: AccountState; image: StoredImage } | undefined {
  const id = `private/${number}`;
  for (const account of Object.values(runtime.state.accounts)) {
    const image = findPrivateImage(account, id);
    if (image) return { account, image };
  }
  return undefined;
}

/** The disk with this id among the account's instances, and its instance. */
export function findDisk(account: AccountState, diskId: number): { compute: StoredCompute; disk: StoredDisk } | undefined {
  for (const compute of COMPUTES.of(account)) {
    const disk = (compute.disks ?? []).find((d) => d.id === diskId);
    if (disk) return { compute, disk };
  }
  return undefined;
}
