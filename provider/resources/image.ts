/**
 * `compute:Image`: a private image from exactly one source — a disk to capture (`diskId`) or a
 * gzip-compressed raw disk image to upload (`filePath` + `region`). The label and description
 * change in place; the source, the region and `cloudInit` cannot change, so they replace.
 *
 * The uploaded file is tracked by content: `check` derives `fileHash` (SHA-256) and `diff`
 * compares it, so new content replaces the image while a moved or touched file with the same
 * content does not. The hash is cached with the file's size and modification time in the
 * recorded inputs, so an unchanged file is not read again on every preview.
 *
 * Creating waits, in `settle`, for the image to be `available`: for an upload that is streaming
 * the file to the pre-signed URL (constant memory, progress lines), then the platform's processing.
 */
import { open, realpath, stat } from "node:fs/promises";
import * as nodePath from "node:path";
import {
  CLOUD_INIT_CAPABILITY,
  IMAGE_REASONS,
  ImageCreateRequest,
  ImageDescription,
  ImageLabel,
  ImageUploadRequest,
  MAX_IMAGE_UPLOAD_BYTES,
  hashFile,
  type Image,
  type ImageUpdateRequest,
} from "../../sdk/resources/images";
import { z } from "zod";
import { explain } from "../engine/engine";
import type { ProviderContext } from "../engine/context";
import { resourceSpec, type Failure, type Values } from "../engine/spec";
import { formatBytes, uploadText, waitReporter } from "../engine/status";
import { isUnknown } from "../engine/values";
import { MINUTE, idField, optionalId, regionOnOffer, text, timestamps } from "./common";

/** Between two polls of the image's status. */
const POLL_INTERVAL_MS = 2_000;
/** Upload progress is reported at every tenth of the file. */
const PROGRESS_STEPS = 10;
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

const SOURCE_REASONS = {
  none: "an Image needs one source: diskId (capture a disk) or filePath and region (upload a file)",
  both: "give either diskId (capture a disk) or filePath and region (upload a file), not both",
  regionWithoutFile: "region belongs to an upload: give filePath as well, or drop region",
  fileWithoutRegion: "region is required with filePath (the region the file is uploaded to)",
  fileHashIsComputed: "fileHash is computed from the file at filePath; do not set it",
} as const;

const fields = ImageCreateRequest.shape;

/**
 * The image as the provider records it: the API's record, with the upload URL a create answers
 * (handed to `settle`, never recorded) and the SHA-256 of the data `settle` uploaded.
 */
type ImageWithUpload = Image & { upload_to?: string; file_hash?: string };

/** A capture's body or an upload's: the engine sends `disk_id` or `region`, whichever source the program gave. */
type ImageCreate = ImageCreateRequest | ImageUploadRequest;

export const imageSpec = resourceSpec<ImageWithUpload, ImageCreate, ImageUpdateRequest>()({
  name: "Image",
  noun: "image",
  description: "A private image: a captured disk, or an uploaded gzip-compressed raw disk image.",
  example: [
    "// A disk of one of the account's instances, from the stack's config (`compute-emulator --demo-environment` prints it).",
    'const examples = new pulumi.Config("compute-examples");',
    'const golden = new compute.Image("golden", { diskId: examples.requireNumber("diskId"), label: "golden", cloudInit: true });',
    'const custom = new compute.Image("custom", { filePath: "build/disk.img.gz", region: "us-iad", label: "custom" });',
  ].join("\n"),
  inputs: {
    diskId: {
      ...idField("diskId"),
      replaceOnChange: true,
      description: "Capture this disk (of one of the account's instances). Changing it replaces the image.",
    },
    filePath: {
      schema: z.string().min(1, "filePath must name a file"),
      send: "never",
      description:
        "Upload this gzip-compressed raw disk image (`.img.gz`, at most 5 GB); relative paths start at the project directory. New content replaces the image; moving the file does not.",
    },
    region: {
      schema: ImageUploadRequest.shape.region,
      replaceOnChange: true,
      description: "Region the file is uploaded to (the image is usable in every region). Changing it replaces the image.",
    },
    fileHash: {
      schema: z.string().regex(/^[0-9a-f]{64}$/, "fileHash must be a hex SHA-256"),
      replaceOnChange: true,
      derived: true,
      description: "Computed: the SHA-256 of the file at filePath. A new value replaces the image.",
    },
    label: {
      schema: ImageLabel,
      description:
        "1–50 characters: letters, digits, spaces and , . ? - _ '. Required for uploads; a capture defaults to the disk's label.",
    },
    // Removing the description resets it: the API clears it with null.
    description: {
      schema: ImageDescription,
      default: "",
      toWire: (value) => (value === "" ? null : value),
      description: "1–65000 characters.",
    },
    cloudInit: {
      schema: fields.cloud_init.unwrap(),
      default: false,
      replaceOnChange: true,
      description: "The image supports cloud-init (capability `cloud-init`). Changing it replaces the image.",
    },
  },
  outputs: {
    status: { description: "`available` once created (creating and pending_upload are waited out)." },
    size: { description: "Minimum size to deploy, in MB (uploads: the uncompressed data)." },
    capabilities: { description: "Capabilities, such as `cloud-init`." },
    type: { description: "`manual`." },
    isPublic: { description: "Always false: this is a private image." },
    deprecated: { description: "Always false for private images." },
    vendor: { description: "The vendor of a public image.", nullWhen: "Null for private images, such as this one." },
    createdBy: {
      description: "The user who created the image.",
      nullWhen: "Null for images the platform made (automatic images); every recorded capture and upload names the user.",
    },
    expiry: { description: "When the image expires.", nullWhen: "Null for manual images: only automatic images expire." },
    eol: { description: "End of life of a public image's distribution.", nullWhen: "Null for private images, such as this one." },
    ...timestamps("image", { updatedNullable: true }),
    fileSize: { description: "Size in bytes of the file at filePath when its hash was computed." },
    fileModified: {
      description: "Modification time of the file at filePath when its hash was computed; with fileSize, the key of the cached hash.",
    },
  },
  // The other source's fields are never recorded: known undefined in the program, at preview too.
  unrecorded: (args) => (args.filePath === undefined ? ["filePath", "fileHash", "fileSize", "fileModified"] : ["diskId"]),
  // What the image record does not carry: the source and the file's stamp (from the inputs), the
  // uploaded content's hash, cloudInit from the capabilities.
  computed: {
    diskId: (_image, given) => optionalId(given.diskId),
    filePath: (_image, given) => text(given.filePath),
    region: (_image, given) => text(given.region),
    fileHash: (image, given) => image.file_hash ?? text(given.fileHash),
    fileSize: (_image, given) => (typeof given.fileSize === "number" ? given.fileSize : undefined),
    fileModified: (_image, given) => text(given.fileModified),
    cloudInit: (image) => image.capabilities.includes(CLOUD_INIT_CAPABILITY),
  },
  timeouts: { create: 30 * MINUTE, update: 10 * MINUTE, delete: 5 * MINUTE },
  endpoints: {
    read: ["regions.list", "images.list", "images.get"],
    write: ["images.create", "images.createUpload", "images.update", "images.delete"],
  },
  validate: (inputs, olds) => validateSource(inputs, olds),
  // An upload's region must be one of the API's (any region takes images).
  checkShared: regionOnOffer(),
  // Labels repeat, so the key is the label within the create's own window: an image with it that
  // was not there when the create began is the one it made (a capture without a label takes the
  // disk's, so then any new private image counts). An upload's image is not adopted but replaced:
  // without the upload URL only the lost answer carried, it could never receive its data.
  naturalKey: {
    describe: (inputs) =>
      inputs.label === undefined ? `the label of disk ${String(inputs.diskId)}` : `label ${JSON.stringify(inputs.label)}`,
    exclusive: false,
    find: async ({ ctx, inputs, signal }) => {
      const filter = inputs.label === undefined ? { is_public: false } : { is_public: false, label: inputs.label };
      const images = await ctx.client().images.listAll({ filter, signal });
      return images.filter((i) => inputs.label === undefined || i.label === inputs.label);
    },
    adoptable: (image) => image.status !== "pending_upload",
  },
  hooks: {
    derive: (olds, news) => deriveFileHash(olds, news),
    create: async ({ ctx, body, signal }) => {
      if ("disk_id" in body) return ctx.client().images.create(body, { signal });
      const { image, upload_to } = await ctx.client().images.createUpload(body, { signal });
      // The pre-signed URL rides along to `settle`, which uploads; it is never recorded in state.
      return { ...image, upload_to };
    },
    settle: async ({ ctx, record, inputs, signal }) => {
      const id = record.id;
      const uploadedHash = record.status === "pending_upload" ? await uploadData(ctx, record, inputs, signal) : undefined;
      const image = await ctx.client().images.waitForStatus(id, "available", {
        signal,
        intervalMs: POLL_INTERVAL_MS,
        progress: statusReporter(ctx, id, inputs.label),
        sleep: ctx.time.sleep,
        now: ctx.time.now,
      });
      return uploadedHash === undefined ? image : { ...image, file_hash: uploadedHash };
    },
    read: ({ ctx, id, signal }) => ctx.client().images.get(id, { signal }),
    // Only the file moved (same content): nothing to tell the API.
    update: ({ ctx, id, body, signal }) =>
      Object.keys(body).length === 0 ? ctx.client().images.get(id, { signal }) : ctx.client().images.update(id, body, { signal }),
    delete: ({ ctx, id, signal }) => ctx.client().images.delete(id, { signal }),
  },
});

/**
 * Exactly one source; an upload needs a region and a label; `fileHash` is never the program's. An
 * image that exists already — adopted (`adoptId`), or checked before (`olds`) — needs no source:
 * the source only matters to a creation, and the API does not say what an image was made from
 * (`pulumi-compute import` writes none).
 */
function validateSource(inputs: Values, olds: Values): Failure[] {
  const hasDisk = inputs.diskId !== undefined && inputs.diskId !== null;
  const hasFile = inputs.filePath !== undefined && inputs.filePath !== null;
  const hasRegion = inputs.region !== undefined && inputs.region !== null;
  const failures: Failure[] = [];
  if (inputs.fileHash !== undefined) failures.push({ property: "fileHash", reason: SOURCE_REASONS.fileHashIsComputed });
  if (hasDisk && (hasFile || hasRegion)) failures.push({ property: "diskId", reason: SOURCE_REASONS.both });
  else if (!hasDisk && !hasFile && !hasRegion) {
    const exists = inputs.adoptId !== undefined || Object.keys(olds).length > 0;
    if (!exists) failures.push({ property: "", reason: SOURCE_REASONS.none });
  } else if (hasRegion && !hasFile) failures.push({ property: "filePath", reason: SOURCE_REASONS.regionWithoutFile });
  else if (hasFile && !hasRegion) failures.push({ property: "region", reason: SOURCE_REASONS.fileWithoutRegion });
  else if (hasFile && inputs.label === undefined) failures.push({ property: "label", reason: IMAGE_REASONS.labelRequired });
  return failures;
}

/** Hashes computed in this process, by file identity and version: a preview and the update that follows read a file once. */
const hashMemo = new Map<string, string>();

/**
 * `derive`: the file's SHA-256 with the size and modification time it was computed at. The hash
 * recorded by the previous check is reused while those match; otherwise the file is read again
 * (streamed). A file that is missing, not gzip or over 5 GB is refused here, at preview.
 */
async function deriveFileHash(olds: Values, news: Values): Promise<{ inputs?: Values; failures?: Failure[] }> {
  const filePath = news.filePath;
  if (typeof filePath !== "string" || isUnknown(filePath)) return {};
  const file = nodePath.resolve(filePath);
  const fail = (reason: string) => ({ failures: [{ property: "filePath", reason }] });
  let info;
  try {
    info = await stat(file);
  } catch (error) {
    return fail(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (!info.isFile()) return fail(`${file} is not a file`);
  if (info.size > MAX_IMAGE_UPLOAD_BYTES) return fail(`${file} is ${info.size} bytes; an image upload may be at most 5 GB compressed`);
  if (!(await startsWithGzipMagic(file)))
    return fail(`${file} is not gzip-compressed; upload a raw disk image compressed with gzip (.img.gz)`);
  const stamp = { fileSize: info.size, fileModified: info.mtime.toISOString() };
  const cached =
    olds.filePath === filePath &&
    olds.fileSize === stamp.fileSize &&
    olds.fileModified === stamp.fileModified &&
    typeof olds.fileHash === "string";
  if (cached) return { inputs: { ...stamp, fileHash: olds.fileHash } };
  const key = [await realpath(file), info.ino, info.size, info.mtimeMs].join("\0");
  let fileHash = hashMemo.get(key);
  if (fileHash === undefined) {
    fileHash = await hashFile(file);
    hashMemo.set(key, fileHash);
  }
  return { inputs: { ...stamp, fileHash } };
}

async function startsWithGzipMagic(file: string): Promise<boolean> {
  const handle = await open(file, "r");
  try {
    const head = Buffer.alloc(GZIP_MAGIC.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return bytesRead === head.length && head.equals(GZIP_MAGIC);
  } finally {
    await handle.close();
  }
}

/**
 * Streams the file to the image's upload URL, reporting progress; resolves the SHA-256 of what
 * was sent. If the connection fails after the data may have arrived, the image itself says
 * whether it did (its size is set once the data is in).
 */
async function uploadData(
  ctx: ProviderContext,
  image: ImageWithUpload,
  inputs: { filePath?: string; fileHash?: string },
  signal: AbortSignal,
): Promise<string | undefined> {
  const id = image.id;
  const uploadTo = image.upload_to;
  if (uploadTo === undefined) {
    throw new Error(
      `image ${id} is still waiting for its data (pending_upload), but its upload URL is known only to the run that created it ` +
        "(that upload was interrupted). The API deletes such an image 24 hours after its creation; to upload now, replace it: `pulumi up --replace <urn>`",
    );
  }
  const client = ctx.client();
  const file = nodePath.resolve(inputs.filePath ?? "");
  let reported = 0;
  ctx.status(`uploading ${file}`, `image ${id}`);
  try {
    const result = await client.images.uploadFile(uploadTo, file, {
      signal,
      onProgress: ({ sentBytes, totalBytes }) => {
        const step = totalBytes === 0 ? PROGRESS_STEPS : Math.floor((sentBytes / totalBytes) * PROGRESS_STEPS);
        if (step <= reported) return;
        reported = step;
        ctx.status(uploadText(sentBytes, totalBytes), `image ${id}`);
      },
    });
    const seconds = Math.max(result.durationMs, 1) / 1000;
    ctx.status(
      `upload complete, ${formatBytes(result.bytes)} in ${seconds.toFixed(1)} s (${(result.bytes / 1048576 / seconds).toFixed(1)} MB/s); processing`,
      `image ${id}`,
    );
    if (inputs.fileHash !== undefined && inputs.fileHash !== result.sha256) {
      ctx.progress(`image ${id}: ${file} changed after it was checked; the content actually uploaded is recorded`);
    }
    return result.sha256;
  } catch (error) {
    if (signal.aborted) throw error;
    const now = await client.images.get(id, { signal }).catch(() => undefined);
    if (now && (now.size > 0 || now.status !== "pending_upload")) return inputs.fileHash;
    throw explain(imageSpec, "upload", error);
  }
}

/** Reports the image's status on its row while waiting: on every change, every 30 s of sameness, and when available. */
function statusReporter(ctx: ProviderContext, id: string, label: unknown) {
  const what = typeof label === "string" ? `image ${id} (${label})` : `image ${id}`;
  const report = waitReporter(
    { what, until: "available" },
    (status) => status === "available",
    (text, about) => ctx.status(text, about),
  );
  return (image: Image | undefined, elapsedMs: number) => report(image?.status ?? "gone", elapsedMs);
}
