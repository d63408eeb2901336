/**
 * Images (spec "Image", "Images", "Image status"; api-facts P2-10, P6-2, P7): private images
 * captured from a disk or uploaded, and the public distribution images. Image ids contain a slash
 * (`private/12`, `public/ubuntu22.04`); the endpoint path sends it encoded as one segment.
 *
 * Uploads are two steps: `createUpload` (POST /images/upload) answers the new image, still
 * `pending_upload`, with a pre-signed `upload_to` URL; `uploadFile` then streams a gzip-compressed
 * raw disk image there with HTTP PUT, in constant memory, hashing it and reporting progress as it
 * goes. The image becomes `available` once the platform has processed the data — `waitForStatus`.
 * The statuses, limits, reason texts and request schemas are in `sdk/rules/images.ts`, re-exported here.
 */
import { createHash } from "node:crypto";
import { open, stat } from "node:fs/promises";
import { z } from "zod";
import { STAMPS_UPDATED_NULLABLE, Timestamp } from "../core/schema";
import type { CallOptions, HttpClient } from "../core/http";
import { endpoints, verbs } from "../core/endpoint";
import { resource } from "../core/resource";
import { waitForRecord, type RecordWaitOptions } from "../core/waiters";
import { IMAGE_UPLOAD_CONTENT_TYPE, ImageCreateRequest, ImageUpdateRequest, ImageUploadRequest, type ImageStatus } from "../rules/images";
export * from "../rules/images";

/**
 * Files are read 1 MiB at a time: few syscalls, a small fixed amount of memory, and chunks larger
 * than a socket's buffer, so the socket has taken a chunk before the next one is pulled.
 */
const READ_CHUNK_BYTES = 1024 * 1024;

/** An image as the API returns it (tolerant: unknown keys and statuses pass). */
export const Image = z.looseObject({
  id: z.string(),
  label: z.string(),
  description: z.string().nullable(),
  ...STAMPS_UPDATED_NULLABLE,
  /** Minimum size to deploy, in MB (0 until an upload has been processed). */
  size: z.number().int(),
  /** The creating user; the provider's name for public images; null for automatic images. */
  created_by: z.string().nullable(),
  /** `manual`, or `automatic` (made from a deleted instance; these expire). */
  type: z.string(),
  is_public: z.boolean(),
  deprecated: z.boolean(),
  vendor: z.string().nullable(),
  expiry: Timestamp.nullable(),
  eol: Timestamp.nullable(),
  /** `creating`, `pending_upload`, `available` (see `IMAGE_STATUSES`). */
  status: z.string(),
  capabilities: z.array(z.string()),
});
export type Image = z.infer<typeof Image>;

/** The answer of `POST /images/upload`: the image (already created, `pending_upload`) and where to PUT the data. */
export const ImageUploadResponse = z.looseObject({
  image: Image,
  upload_to: z.string().min(1),
});
export type ImageUploadResponse = z.infer<typeof ImageUploadResponse>;

/** Progress of an upload, reported as the data streams out. */
export interface UploadProgress {
  sentBytes: number;
  totalBytes: number;
  elapsedMs: number;
}

/** Options of `uploadFile`: progress reporting and an abort signal. */
export interface UploadFileOptions extends CallOptions {
  /** Called for every chunk handed to the connection; throttle in the callback if needed. */
  onProgress?: (progress: UploadProgress) => void;
}

/** What an upload sent: the byte count and the SHA-256 of exactly those bytes. */
export interface UploadResult {
  bytes: number;
  /** Hex SHA-256 of the file's content, computed while streaming (of the last attempt). */
  sha256: string;
  durationMs: number;
}

/** Options of `waitForStatus`. */
export interface ImageWaitOptions extends RecordWaitOptions<Image> {
  /** Default: no deadline of its own (bound it with `signal`). */
  timeoutMs?: number;
  /** Delay between polls; default 3 000 ms. */
  intervalMs?: number;
}

/**
 * The predicates of "wait until the image reaches `target`": done at the target; failed when the
 * image is gone (an upload that received no data within 24 hours is canceled and deleted) or
 * reads `deleted`. `undefined` stands for a 404.
 */
export function imageStatusWaiter(imageId: string, target: ImageStatus = "available") {
  return {
    done: (image: Image | undefined) => image?.status === target,
    failed: (image: Image | undefined): string | undefined => {
      if (image === undefined)
        return `image ${imageId} no longer exists (an upload that receives no data within 24 hours is canceled and the image deleted)`;
      if (image.status === "deleted" && target !== "deleted") return `image ${imageId} was deleted`;
      return undefined;
    },
  };
}

/**
 * Streams a file to a pre-signed upload URL with HTTP PUT (`Content-Type: application/octet-stream`,
 * `Content-Length` from the file) through the client's connection pool and retry policy, in
 * constant memory: the file is read 1 MiB at a time into two reused buffers (no garbage per chunk,
 * so memory does not grow with the file until a garbage collection), and each chunk is hashed and
 * counted on its way to the socket. A retry re-reads the file from the start. Throws `ApiError`
 * for a refusal (a body that is not gzip, say) and fails if the file changed size meanwhile.
 */
export async function uploadImageFile(
  http: HttpClient,
  uploadTo: string,
  filePath: string,
  options: UploadFileOptions = {},
): Promise<UploadResult> {
  const totalBytes = (await stat(filePath)).size;
  const started = Date.now();
  let hash = createHash("sha256");
  let sentBytes = 0;
  const onChunk = (chunk: Buffer) => {
    hash.update(chunk);
    sentBytes += chunk.length;
    options.onProgress?.({ sentBytes, totalBytes, elapsedMs: Date.now() - started });
  };
  await http.sendStream({
    method: "PUT",
    url: uploadTo,
    contentType: IMAGE_UPLOAD_CONTENT_TYPE,
    contentLength: totalBytes,
    signal: options.signal,
    open: () => {
      hash = createHash("sha256");
      sentBytes = 0;
      return meteredChunks(filePath, onChunk, options.signal);
    },
  });
  if (sentBytes !== totalBytes) {
    throw new Error(`${filePath} changed while it was uploaded: sent ${sentBytes} bytes, expected ${totalBytes}`);
  }
  return { bytes: sentBytes, sha256: hash.digest("hex"), durationMs: Date.now() - started };
}

async function* meteredChunks(filePath: string, onChunk: (chunk: Buffer) => void, signal?: AbortSignal): AsyncGenerator<Buffer> {
  for await (const chunk of readFileChunks(filePath, { buffers: 2, signal })) {
    onChunk(chunk);
    yield chunk;
  }
}

/**
 * Reads a file in chunks into a fixed set of reused buffers. Streams allocate a fresh buffer per
 * chunk, and that garbage (outside the JS heap) piles up to tens of MB before a collection runs;
 * reusing buffers keeps memory flat. A yielded chunk stays valid until `buffers - 1` further
 * chunks have been read, so a consumer must be done with it by then.
 */
export async function* readFileChunks(filePath: string, options: { buffers?: number; signal?: AbortSignal } = {}): AsyncGenerator<Buffer> {
  const pool = Array.from({ length: Math.max(1, options.buffers ?? 1) }, () => Buffer.allocUnsafe(READ_CHUNK_BYTES));
  const handle = await open(filePath, "r");
  try {
    for (let index = 0, position = 0; ; index++) {
      options.signal?.throwIfAborted();
      const buffer = pool[index % pool.length]!;
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) return;
      position += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/** The SHA-256 of a file, read in reused chunks (constant memory): the same hash `uploadImageFile` reports. */
export async function hashFile(filePath: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of readFileChunks(filePath, { signal })) hash.update(chunk);
  return hash.digest("hex");
}

const WRITE = verbs({ service: "images", auth: "token", scopes: ["images:read_write"] });
const PUBLIC = { service: "images", auth: "none" } as const;

/**
 * The `/images` endpoints (spec "Images"). Listing and viewing need no token (public images only,
 * then). The spec lists `images:read_only` for the list, but every recording advertises
 * `X-Accepted-OAuth-Scopes: *` there (api-facts P5-1), so it declares none.
 */
export const IMAGE_ENDPOINTS = endpoints("images", {
  list: {
    ...verbs({ ...PUBLIC, scopes: [] }).list,
    path: "/images",
    summary: "Public images, and with a token the account's private images",
    response: Image,
  },
  create: {
    ...verbs({ service: "images", auth: "token", scopes: ["images:read_write", "computes:read_only"] }).post,
    path: "/images",
    summary: "Capture a disk as a private image (creating, then available)",
    body: ImageCreateRequest,
    response: Image,
  },
  createUpload: {
    ...WRITE.post,
    path: "/images/upload",
    summary: "Create a private image waiting for its data, and the URL to PUT the data to",
    body: ImageUploadRequest,
    response: ImageUploadResponse,
  },
  get: {
    ...verbs({ ...PUBLIC, scopes: ["images:read_only"] }).get,
    path: "/images/{imageId}",
    summary: "One image; public images need no credentials",
    response: Image,
  },
  update: {
    ...WRITE.put,
    path: "/images/{imageId}",
    summary: "Update a private image's label or description (public images: 403)",
    body: ImageUpdateRequest,
    response: Image,
  },
  delete: { ...WRITE.delete, path: "/images/{imageId}", summary: "Delete a private image, irreversibly (public images: 403)" },
});

/** `/images`: private and public images. Creates are never retried after an ambiguous failure. */
export class Images extends resource(IMAGE_ENDPOINTS) {
  /** Streams a `.img.gz` file to an `upload_to` URL (see `uploadImageFile`). */
  uploadFile(uploadTo: string, filePath: string, options: UploadFileOptions = {}): Promise<UploadResult> {
    return uploadImageFile(this.http, uploadTo, filePath, options);
  }

  /**
   * Polls the image until it reads `target` (default `available`) and resolves that record.
   * Fails fast with `WaitError` when the image disappears (a canceled upload).
   */
  waitForStatus(imageId: string, target: ImageStatus = "available", options: ImageWaitOptions = {}): Promise<Image> {
    const wait = { ...imageStatusWaiter(imageId, target), intervalMs: 3_000, timeoutMs: Number.POSITIVE_INFINITY };
    return waitForRecord((call) => this.get(imageId, call), { ...wait, what: `image ${imageId} to become ${target}` }, options);
  }
}
