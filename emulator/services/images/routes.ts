/**
 * `/images*` (spec "Images"). Listing and viewing need no credentials (public images only, then;
 * with a token the account's private images as well); writes need `images:read_write`, and a
 * capture also `computes:read_only`. Image ids contain a slash: `/images/private%2F12` (one
 * encoded segment, as the sdk sends it) and `/images/private/12` name the same image.
 * The upload URL itself is served outside `/v4` (`upload.ts`).
 */
import { IMAGE_ENDPOINTS } from "../../../sdk/resources/images";
import { found, throwIfAny } from "../../core/errors";
import { aliasOf, route } from "../../core/route-table";
import type { RouteAlias, RouteContext, RouteSpec } from "../../core/routes";
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

/** The image id of either path form: `{imageId}` (encoded slash) or `{imageKind}/{imageNumber}`. */
function imageIdOf(ctx: RouteContext): string {
  const params = ctx.request.params as Record<string, string | undefined>;
  return params["imageId"] ?? `${params["imageKind"]}/${params["imageNumber"]}`;
}

/** The origin the client reached us on: upload URLs point back at this emulator. */
function originOf(ctx: RouteContext): string {
  return `${ctx.request.protocol}://${ctx.request.headers.host ?? "127.0.0.1"}`;
}

/** An image id with its slash unencoded: `/images/private/12` names the image `private/12` too. */
const SLASHED: RouteAlias = { path: "/images/{imageKind}/{imageNumber}", note: " (id with an unencoded slash)" };

/** One image's routes (`/images/private%2F12`, one encoded segment, as the sdk sends it). */
const oneImage: RouteSpec[] = [
  route(IMAGE_ENDPOINTS.get, (ctx) => found(findVisibleImage(ctx.principal?.account, imageIdOf(ctx))).image),
  route(IMAGE_ENDPOINTS.update, (ctx) => {
    const image = changeableImage(ctx.account, imageIdOf(ctx));
    const input = ctx.body();
    return renderImage(updateImage(ctx.actor, image, input));
  }),
  route(IMAGE_ENDPOINTS.delete, (ctx) => {
    deleteImage(ctx.actor, changeableImage(ctx.account, imageIdOf(ctx)));
  }),
];

export const imageRoutes: RouteSpec[] = [
  route(IMAGE_ENDPOINTS.list, { filterable: IMAGE_FILTERABLE }, (ctx) => visibleImages(ctx.principal?.account)),
  route(IMAGE_ENDPOINTS.create, (ctx) => {
    const input = ctx.body();
    throwIfAny(checkCapture(ctx.account, input));
    return renderImage(captureImage(ctx.actor, findDisk(ctx.account, input.disk_id)!, input));
  }),
  route(IMAGE_ENDPOINTS.createUpload, (ctx) => {
    const input = ctx.body();
    throwIfAny(checkUpload(input));
    const { image, uploadTo } = createUploadImage(ctx.actor, input, originOf(ctx));
    return { upload_to: uploadTo, image: renderImage(image) };
  }),
  ...oneImage,
  ...oneImage.map((spec) => aliasOf(spec, SLASHED)),
];
