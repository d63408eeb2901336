/**
 * What the image endpoints do to the state, with their events (api-facts P6-2): captures and
 * uploads start the status machine by writing its pending transition on the record.
 */
import { randomBytes } from "node:crypto";
import { CLOUD_INIT_CAPABILITY } from "../../../sdk/resources/images";
import type { ImageCreateRequest, ImageUpdateRequest, ImageUploadRequest } from "../../../sdk/resources/images";
import type { Actor, EmulatorRuntime } from "../../core/runtime";
import { type AccountState, removeStored } from "../../core/state";
import { computeUrl, type StoredCompute, type StoredDisk } from "../computes/store";
import { eventEntity, recordEvent } from "../events/operations";
import { findEvent } from "../events/store";
import {
  CAPTURE_DURATION_MS,
  UPLOAD_PREFIX,
  UPLOAD_PROCESSING_MS,
  UPLOAD_WINDOW_MS,
  IMAGES,
  IMAGE_ID,
  type StoredImage,
  imageNumber,
  imageUrl,
} from "./store";

const MIB = 1024 * 1024;

const imageEntity = (image: StoredImage) => eventEntity("image", image.id, image.label, imageUrl(image.id));
const computeEntity = (compute: StoredCompute) => eventEntity("compute", compute.id, compute.label, computeUrl(compute.id));

function newImage(actor: Actor, fields: Pick<StoredImage, "label" | "description" | "size" | "status" | "capabilities">): StoredImage {
  const now = actor.runtime.clock.timestamp();
  return {
    id: `private/${actor.runtime.nextId(IMAGE_ID)}`,
    ...fields,
    created: now,
    updated: now,
    created_by: actor.username,
    type: "manual",
    expiry: null,
    transition: null,
    upload: null,
    event_id: null,
  };
}

const capabilitiesFor = (cloudInit: boolean | undefined) => (cloudInit ? [CLOUD_INIT_CAPABILITY] : []);

/** Captures a disk: `creating` now, `available` after `CAPTURE_DURATION_MS`; event `disk_imagize` started → finished. */
export function captureImage(actor: Actor, placed: { compute: StoredCompute; disk: StoredDisk }, input: ImageCreateRequest): StoredImage {
  const image = newImage(actor, {
    label: input.label ?? placed.disk.label,
    description: input.description ?? "",
    size: placed.disk.size,
    status: "creating",
    capabilities: capabilitiesFor(input.cloud_init),
  });
  image.transition = { to: "available", at: actor.runtime.clock.nowMs() + CAPTURE_DURATION_MS };
  const event = recordEvent(actor, {
    action: "disk_imagize",
    entity: computeEntity(placed.compute),
    secondaryEntity: imageEntity(image),
    status: "started",
  });
  image.event_id = event.id;
  IMAGES.of(actor.account).push(image);
  return image;
}

/**
 * Creates an image waiting for its data, and its pre-signed upload URL on `origin` (the
 * emulator's own address: the URL stands for the platform's object storage). Event
 * `image_upload` scheduled; the image is deleted if no data arrives within `UPLOAD_WINDOW_MS`.
 */
export function createUploadImage(actor: Actor, input: ImageUploadRequest, origin: string): { image: StoredImage; uploadTo: string } {
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
  const event = recordEvent(actor, {
    action: "image_upload",
    entity: imageEntity(image),
    status: "scheduled",
  });
  image.event_id = event.id;
  IMAGES.of(actor.account).push(image);
  return { image, uploadTo: uploadUrl(origin, image) };
}

export function uploadUrl(origin: string, image: StoredImage): string {
  const { signature, expires } = image.upload!;
  return `${origin}${UPLOAD_PREFIX}/${imageNumber(image.id)}?Signature=${signature}&Expires=${expires}`;
}

/**
 * The data has arrived: the size is recorded (MB of uncompressed data, rounded up), the 24-hour
 * deletion is replaced by `available` after `UPLOAD_PROCESSING_MS`, and the URL stops working.
 */
export function receiveUpload(runtime: EmulatorRuntime, account: AccountState, image: StoredImage, uncompressedBytes: number): void {
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
export function updateImage(actor: Actor, image: StoredImage, input: ImageUpdateRequest): StoredImage {
  if (input.label !== undefined) image.label = input.label;
  if (input.description !== undefined) image.description = input.description ?? "";
  image.updated = actor.runtime.clock.timestamp();
  recordEvent(actor, { action: "image_update", entity: imageEntity(image) });
  return image;
}

/** Deletes a private image (irreversible); event `image_delete`. A pending upload URL stops working. */
export function deleteImage(actor: Actor, image: StoredImage): void {
  removeStored(IMAGES, actor.account, image);
  recordEvent(actor, { action: "image_delete", entity: imageEntity(image) });
}
