/**
 * Private images of an account: stored records, their wire rendering (key order as in
 * `fixtures/image.get.private.json`), the mutations with their events (api-facts P6-2), and the
 * status machine of the spec's "Image status" table, kept as data on each record:
 *
 *   capture (POST /images)            creating ──(CAPTURE_DURATION_MS)──▶ available
 *   upload  (POST /images/upload)     pending_upload ──(data PUT, then UPLOAD_PROCESSING_MS)──▶ available
 *                                     pending_upload ──(UPLOAD_WINDOW_MS without data)──▶ deleted
 *
 * A pending change is `transition: {to, at}` on the record; `imageTransitions` hands it to the
 * clock, which applies it lazily (before each request and on its timer) at exactly `at`, so a
 * persisted state file keeps every pending transition across a restart.
 */
import { randomBytes } from "node:crypto";
import type { Image, ImageStatus } from "../../../sdk/resources/images";
import { CLOUD_INIT_CAPABILITY } from "../../../sdk/resources/images";
import type { DueSource } from "../../core/clock";
import type { EmulatorRuntime } from "../../core/runtime";
import type { AccountState, UserRecord } from "../../core/state";
import { eventEntity, findEvent, recordEvent } from "../events/models";
import type { ComputeRecord } from "../computes/models";
import type { DiskRecord } from "./disks";
import { findPublicImage, publicImages } from "./catalog";

/** How long a capture stays `creating` (emulated time). */
export const CAPTURE_DURATION_MS = 2 * 60_000;
/** How long uploaded data is processed before the image is `available` (emulated time). */
export const UPLOAD_PROCESSING_MS = 60_000;
/** The data must arrive within 24 hours, after which the image is deleted (spec "Image status"). */
export const UPLOAD_WINDOW_MS = 24 * 60 * 60_000;
/** Where the emulator serves upload URLs (outside `/v4`: it stands for the object storage). */
export const UPLOAD_PREFIX = "/__uploads";

const MIB = 1024 * 1024;

/** A status change waiting on the clock: at `at` (epoch ms), the image becomes `to`. */
export interface ImageTransition {
  to: "available" | "deleted";
  at: number;
}

export interface ImageRecord {
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

export const imageNumber = (id: string): number => Number(id.slice("private/".length));
export const imageUrl = (id: string) => `/v4/images/${id}`;
const imageEntity = (image: ImageRecord) => eventEntity("image", image.id, image.label, imageUrl(image.id));
const computeEntity = (compute: ComputeRecord) => eventEntity("compute", compute.id, compute.label, `/v4/compute/instances/${compute.id}`);

/** Everything an operation needs to act on an account as a user. */
export interface Actor {
  runtime: EmulatorRuntime;
  account: AccountState;
  user: UserRecord;
}

/** The account's images (state files written before images existed have none). */
export function accountImages(account: AccountState): ImageRecord[] {
  account.images ??= [];
  return account.images;
}

export function renderImage(image: ImageRecord): Image {
  return {
    id: image.id,
    label: image.label,
    description: image.description,
    created: image.created,
    updated: image.updated,
    size: image.size,
    created_by: image.created_by,
    type: image.type,
    is_public: false,
    deprecated: false,
    vendor: null,
    expiry: image.expiry,
    eol: null,
    status: image.status,
    capabilities: [...image.capabilities],
  };
}

export function findPrivateImage(account: AccountState, id: string): ImageRecord | undefined {
  return accountImages(account).find((i) => i.id === id);
}

/** What a caller sees: the account's private images first (as recorded), then the public ones. */
export function visibleImages(account: AccountState | undefined): Image[] {
  const own = account ? accountImages(account).map(renderImage) : [];
  return [...own, ...publicImages()];
}

/** A private image of the caller's account or a public image; undefined otherwise. */
export function findVisibleImage(account: AccountState | undefined, id: string): { image: Image; record?: ImageRecord } | undefined {
  const record = account ? findPrivateImage(account, id) : undefined;
  if (record) return { image: renderImage(record), record };
  const image = findPublicImage(id);
  return image ? { image } : undefined;
}

/** The disk with this id among the account's instances, and its instance. */
export function findDisk(account: AccountState, diskId: number): { compute: ComputeRecord; disk: DiskRecord } | undefined {
  for (const compute of account.computes) {
    const disk = (compute.disks ?? []).find((d) => d.id === diskId);
    if (disk) return { compute, disk };
  }
  return undefined;
}

function newImage(actor: Actor, fields: Pick<ImageRecord, "label" | "description" | "size" | "status" | "capabilities">): ImageRecord {
  const now = actor.runtime.clock.timestamp();
  return {
    id: `private/${actor.runtime.nextId("image")}`,
    ...fields,
    created: now,
    updated: now,
    created_by: actor.user.username,
    type: "manual",
    expiry: null,
    transition: null,
    upload: null,
    event_id: null,
  };
}

const capabilitiesFor = (cloudInit: boolean | undefined) => (cloudInit ? [CLOUD_INIT_CAPABILITY] : []);

/** Captures a disk: `creating` now, `available` after `CAPTURE_DURATION_MS`; event `disk_imagize` started → finished. */
export function captureImage(
  actor: Actor,
  placed: { compute: ComputeRecord; disk: DiskRecord },
  input: { label?: string | undefined; description?: string | undefined; cloud_init?: boolean | undefined },
): ImageRecord {
  const image = newImage(actor, {
    label: input.label ?? placed.disk.label,
    description: input.description ?? "",
    size: placed.disk.size,
    status: "creating",
    capabilities: capabilitiesFor(input.cloud_init),
  });
  image.transition = { to: "available", at: actor.runtime.clock.nowMs() + CAPTURE_DURATION_MS };
  const event = recordEvent(actor.runtime, actor.account, {
    action: "disk_imagize",
    username: actor.user.username,
    entity: computeEntity(placed.compute),
    secondaryEntity: imageEntity(image),
    status: "started",
  });
  image.event_id = event.id;
  accountImages(actor.account).push(image);
  return image;
}

/**
 * Creates an image waiting for its data, and its pre-signed upload URL on `origin` (the
 * emulator's own address: the URL stands for the platform's object storage). Event
 * `image_upload` scheduled; the image is deleted if no data arrives within `UPLOAD_WINDOW_MS`.
 */
export function createUploadImage(
  actor: Actor,
  input: { label: string; region: string; description?: string | undefined; cloud_init?: boolean | undefined },
  origin: string,
): { image: ImageRecord; uploadTo: string } {
  const image = newImage(actor, {
    label: input.label,
    description: input.description ?? "",
    size: 0,
    status: "pending_upload",
    capabilities: capabilitiesFor(input.cloud_init),
  });
  const deadline = actor.runtime.clock.nowMs() + UPLOAD_WINDOW_MS;
  image.transition = { to: "deleted", at: deadline };
  image.upload = { signature: randomBytes(24).toString("hex"), expires: Math.floor(deadline / 1000) };
  const event = recordEvent(actor.runtime, actor.account, {
    action: "image_upload",
    username: actor.user.username,
    entity: imageEntity(image),
    status: "scheduled",
  });
  image.event_id = event.id;
  accountImages(actor.account).push(image);
  return { image, uploadTo: uploadUrl(origin, image) };
}

export function uploadUrl(origin: string, image: ImageRecord): string {
  const { signature, expires } = image.upload!;
  return `${origin}${UPLOAD_PREFIX}/${imageNumber(image.id)}?Signature=${signature}&Expires=${expires}`;
}

/** The image an upload URL points at, with its account (the URL carries no token). */
export function findUploadTarget(runtime: EmulatorRuntime, number: number): { account: AccountState; image: ImageRecord } | undefined {
  const id = `private/${number}`;
  for (const account of Object.values(runtime.state.accounts)) {
    const image = findPrivateImage(account, id);
    if (image) return { account, image };
  }
  return undefined;
}

/**
 * The data has arrived: the size is recorded (MB of uncompressed data, rounded up), the 24-hour
 * deletion is replaced by `available` after `UPLOAD_PROCESSING_MS`, and the URL stops working.
 */
export function receiveUpload(runtime: EmulatorRuntime, account: AccountState, image: ImageRecord, uncompressedBytes: number): void {
  image.size = Math.max(1, Math.ceil(uncompressedBytes / MIB));
  image.updated = runtime.clock.timestamp();
  image.upload = null;
  image.transition = { to: "available", at: runtime.clock.nowMs() + UPLOAD_PROCESSING_MS };
  const event = image.event_id === null ? undefined : findEvent(account, image.event_id);
  if (event) {
    event.status = "started";
    event.percent_complete = 50;
  }
}

/** Label and description change; `updated` moves; event `image_update`. */
export function updateImage(actor: Actor, image: ImageRecord, input: { label?: string | undefined; description?: string | null | undefined }): ImageRecord {
  if (input.label !== undefined) image.label = input.label;
  if (input.description !== undefined) image.description = input.description ?? "";
  image.updated = actor.runtime.clock.timestamp();
  recordEvent(actor.runtime, actor.account, { action: "image_update", username: actor.user.username, entity: imageEntity(image) });
  return image;
}

/** Deletes a private image (irreversible); event `image_delete`. A pending upload URL stops working. */
export function deleteImage(actor: Actor, image: ImageRecord): void {
  actor.account.images = accountImages(actor.account).filter((i) => i !== image);
  recordEvent(actor.runtime, actor.account, { action: "image_delete", username: actor.user.username, entity: imageEntity(image) });
}

/** Finishes (or fails) the job event of an image: status, 100 %, duration since it started. */
function endJob(account: AccountState, image: ImageRecord, status: "finished" | "failed", atMs: number, message?: string): void {
  const event = image.event_id === null ? undefined : findEvent(account, image.event_id);
  if (!event) return;
  event.status = status;
  event.percent_complete = status === "finished" ? 100 : event.percent_complete;
  event.duration = Math.max(0, Math.round((atMs - Date.parse(`${event.created}Z`)) / 1000));
  if (message !== undefined) event.message = message;
}

/** Applies one due transition (the clock's now is its `at`). */
function applyTransition(runtime: EmulatorRuntime, account: AccountState, image: ImageRecord, transition: ImageTransition): void {
  image.transition = null;
  if (transition.to === "available") {
    image.status = "available";
    image.updated = runtime.clock.timestamp();
    endJob(account, image, "finished", transition.at);
    return;
  }
  // No data within the upload window: the upload is canceled and the image deleted.
  account.images = accountImages(account).filter((i) => i !== image);
  endJob(account, image, "failed", transition.at, "No image data was uploaded within 24 hours; the image was deleted.");
}

function pending(runtime: EmulatorRuntime): Array<{ account: AccountState; image: ImageRecord; transition: ImageTransition }> {
  const out: Array<{ account: AccountState; image: ImageRecord; transition: ImageTransition }> = [];
  for (const account of Object.values(runtime.state.accounts)) {
    for (const image of account.images ?? []) if (image.transition) out.push({ account, image, transition: image.transition });
  }
  return out;
}

/** The image status machines as clock work: every pending `{to, at}` of every account. */
export function imageTransitions(runtime: EmulatorRuntime): DueSource {
  return {
    nextDueMs: () => {
      let next: number | undefined;
      for (const { transition } of pending(runtime)) if (next === undefined || transition.at < next) next = transition.at;
      return next;
    },
    runDue: (dueMs) => {
      for (const { account, image, transition } of pending(runtime)) {
        if (transition.at <= dueMs) applyTransition(runtime, account, image, transition);
      }
    },
  };
}
