/**
 * Images: the statuses, the upload's limits and content type, the reason texts (the client UI's
 * wording, MGR-V `images.schema.ts`, where the API's own is not recorded) and the request schemas,
 * shared by the sdk's validation, the emulator's checks and the provider's `check` (re-exported by
 * `images.ts`; api-facts P2-10, P6-2, P7).
 */
import { z } from "zod";
import { requiredInt, requiredString } from "../core/schema";

/**
 * Reason texts of the image rules (the client UI's wording, MGR-V `images.schema.ts`, where the
 * API's own is not recorded), shared with the emulator and the tests.
 */
export const IMAGE_REASONS = {
  labelRequired: "Label is required.",
  labelLength: "Label must be between 1 and 50 characters.",
  labelChars: "Image labels cannot contain special characters.",
  descriptionLength: "Description must be between 1 and 65000 characters.",
  regionRequired: "Region is required.",
  regionInvalid: "Region is not valid",
  diskRequired: "Disk is required.",
  diskNotFound: "Disk not found.",
  cloudInit: "cloud_init must be a boolean",
} as const;

/** Reason texts of the upload URL (object storage in front of the platform; emulator wording). */
export const IMAGE_UPLOAD_REASONS = {
  notGzip: "The image must be a gzip-compressed raw disk image (.img.gz)",
  tooLarge: "An image upload may be at most 5 GB compressed",
  empty: "The upload contained no data",
  contentType: "Content-Type must be application/octet-stream",
  notPending: "This image is not waiting for an upload",
  inProgress: "An upload to this image is already in progress",
  signature: "The request signature does not match",
  expired: "Request has expired",
} as const;

/** Statuses of an image (spec "Image status"; MGR-T adds `deleted`). Only `available` images deploy. */
export const IMAGE_STATUSES = ["creating", "pending_upload", "available", "deleted"] as const;
/** An image's status: `creating`, `pending_upload` or `available`. */
export type ImageStatus = (typeof IMAGE_STATUSES)[number];

/** The only capability of the 4.174 era (api-facts P2-10): set by `cloud_init: true`. */
export const CLOUD_INIT_CAPABILITY = "cloud-init";

/** Uploads larger than this (compressed) are refused (spec "Limits": upload <= 5 GB compressed). */
export const MAX_IMAGE_UPLOAD_BYTES = 5 * 1024 ** 3;

/** The content type the upload URL expects (spec "Upload protocol"). */
export const IMAGE_UPLOAD_CONTENT_TYPE = "application/octet-stream";

/** An image label: 1–50 characters, letters, digits, whitespace and `, . ? - _ '` (MGR-V). */
export const ImageLabel = requiredString("label", IMAGE_REASONS.labelRequired)
  .min(1, IMAGE_REASONS.labelLength)
  .max(50, IMAGE_REASONS.labelLength)
  .regex(/^[a-zA-Z0-9,.?\-_\s']+$/, IMAGE_REASONS.labelChars);

/** An image description: 1–65000 characters (spec "Limits"). */
export const ImageDescription = z.string().min(1, IMAGE_REASONS.descriptionLength).max(65000, IMAGE_REASONS.descriptionLength);

/** What both ways of making an image take besides its source: a description and the cloud-init capability. */
const imageExtras = { description: ImageDescription.optional(), cloud_init: z.boolean({ error: IMAGE_REASONS.cloudInit }).optional() };

/** `POST /images`: capture a disk. The label defaults to the disk's. */
export const ImageCreateRequest = z.strictObject({
  disk_id: requiredInt("disk_id", IMAGE_REASONS.diskRequired),
  label: ImageLabel.optional(),
  ...imageExtras,
});
export type ImageCreateRequest = z.infer<typeof ImageCreateRequest>;

/** `POST /images/upload`: a new image waiting for its data. */
export const ImageUploadRequest = z.strictObject({
  label: ImageLabel,
  region: requiredString("region", IMAGE_REASONS.regionRequired).min(1, IMAGE_REASONS.regionRequired),
  ...imageExtras,
});
export type ImageUploadRequest = z.infer<typeof ImageUploadRequest>;

/** `PUT /images/{imageId}`: label and description; `description: null` clears it. Private images only. */
export const ImageUpdateRequest = z.strictObject({
  label: ImageLabel.optional(),
  description: ImageDescription.nullable().optional(),
});
export type ImageUpdateRequest = z.infer<typeof ImageUpdateRequest>;
