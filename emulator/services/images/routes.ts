/**
 * `/images*` (spec "Images"). Listing and viewing need no credentials (public images only, then;
 * with a token the account's private images as well); writes need `images:read_write`, and a
 * capture also `computes:read_only`. Image ids contain a slash: `/images/private%2F12` (one
 * encoded segment, as the sdk sends it) and `/images/private/12` name the same image.
 * The upload URL itself is served outside `/v4` (`upload.ts`).
 */
import { Image, ImageCreateRequest, ImageUpdateRequest, ImageUploadRequest, ImageUploadResponse } from "../../../sdk/resources/images";
import { found, throwIfAny } from "../../core/errors";
import { routeTable } from "../../core/route-table";
import type { RouteContext, RouteSpec } from "../../core/routes";
import { findDisk } from "./store";
import { findVisibleImage, renderImage, visibleImages } from "./render";
import { captureImage, createUploadImage, deleteImage, updateImage } from "./operations";
import { changeableImage, checkCapture, checkUpload } from "./rules";

export const IMAGE_FILTERABLE = [
  "id",
  "label",
  "description",
  "is_public",
  "deprecated",
  "vendor",
  "size",
  "status",
  "type",
  "created",
  "created_by",
  "eol",
  "expiry",
] as const;

const api = routeTable("images", {
  // The list advertised `X-Accepted-OAuth-Scopes: *` in every recording (api-facts P5-1): no specific scope.
  list: { auth: "none", scopes: [] },
  read: { auth: "none", scopes: ["images:read_only"] },
  write: ["images:read_write"],
  capture: ["images:read_write", "computes:read_only"],
});

/** The image id of either path form: `{imageId}` (encoded slash) or `{imageKind}/{imageNumber}`. */
function imageIdOf(ctx: RouteContext): string {
  const params = ctx.request.params as Record<string, string | undefined>;
  return params["imageId"] ?? `${params["imageKind"]}/${params["imageNumber"]}`;
}

/** The origin the client reached us on: upload URLs point back at this emulator. */
function originOf(ctx: RouteContext): string {
  return `${ctx.request.protocol}://${ctx.request.headers.host ?? "127.0.0.1"}`;
}

const imageList = { item: Image, filterable: IMAGE_FILTERABLE };
const upload = { response: ImageUploadResponse };

/** One image's routes, for one form of its path. */
const oneImage = (path: string, note: string): RouteSpec[] => [
  api.read.get(path, `One image; public images need no credentials${note}`, { response: Image }, (ctx) =>
    found(findVisibleImage(ctx.principal?.account, imageIdOf(ctx))).image,
  ),
  api.write.put(path, `Update a private image's label or description (public images: 403)${note}`, { response: Image }, (ctx) => {
    const image = changeableImage(ctx.account, imageIdOf(ctx));
    const input = ctx.body(ImageUpdateRequest);
    return renderImage(updateImage(ctx.actor, image, input));
  }),
  api.write.delete(path, `Delete a private image, irreversibly (public images: 403)${note}`, {}, (ctx) => {
    deleteImage(ctx.actor, changeableImage(ctx.account, imageIdOf(ctx)));
  }),
];

export const imageRoutes: RouteSpec[] = [
  api.list.list("/images", "Public images, and with a token the account's private images", imageList, (ctx) =>
    visibleImages(ctx.principal?.account),
  ),
  api.capture.post("/images", "Capture a disk as a private image (creating, then available)", { response: Image }, (ctx) => {
    const input = ctx.body(ImageCreateRequest);
    throwIfAny(checkCapture(ctx.account, input));
    return renderImage(captureImage(ctx.actor, findDisk(ctx.account, input.disk_id)!, input));
  }),
  api.write.post("/images/upload", "Create a private image waiting for its data, and the URL to PUT the data to", upload, (ctx) => {
    const input = ctx.body(ImageUploadRequest);
    throwIfAny(checkUpload(input));
    const { image, uploadTo } = createUploadImage(ctx.actor, input, originOf(ctx));
    return { upload_to: uploadTo, image: renderImage(image) };
  }),
  // `/images/private%2F12` (one encoded segment, as the sdk sends it) and `/images/private/12`.
  ...oneImage("/images/{imageId}", ""),
  ...oneImage("/images/{imageKind}/{imageNumber}", " (id with an unencoded slash)"),
];
