/**
 * `/images*` (spec "Images"). Listing and viewing need no credentials (public images only, then;
 * with a token the account's private images as well); writes need `images:read_write`, and a
 * capture also `computes:read_only`. Image ids contain a slash: `/images/private%2F12` (one
 * encoded segment, as the sdk sends it) and `/images/private/12` name the same image.
 * The upload URL itself is served outside `/v4` (`upload.ts`).
 */
import { Collection, Empty } from "../../../sdk/core/schema";
import { Image, ImageCreateRequest, ImageUpdateRequest, ImageUploadRequest, ImageUploadResponse } from "../../../sdk/resources/images";
import { found, throwIfAny } from "../../core/errors";
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

const READ = { service: "images", auth: "none", scopes: ["images:read_only"] } as const;
/** The list advertised `X-Accepted-OAuth-Scopes: *` in every recording (api-facts P5-1): no specific scope. */
const LIST = { service: "images", auth: "none", scopes: [] } as const;
const WRITE = { service: "images", auth: "token", scopes: ["images:read_write"] } as const;

/** The image id of either path form: `{imageId}` (encoded slash) or `{imageKind}/{imageNumber}`. */
function imageIdOf(ctx: RouteContext): string {
  const params = ctx.request.params as Record<string, string | undefined>;
  return params["imageId"] ?? `${params["imageKind"]}/${params["imageNumber"]}`;
}

/** The origin the client reached us on: upload URLs point back at this emulator. */
function originOf(ctx: RouteContext): string {
  return `${ctx.request.protocol}://${ctx.request.headers.host ?? "127.0.0.1"}`;
}

const view: Omit<RouteSpec, "path"> = {
  ...READ,
  method: "GET",
  summary: "One image; public images need no credentials",
  response: Image,
  handler: (ctx) => found(findVisibleImage(ctx.principal?.account, imageIdOf(ctx))).image,
};

const update: Omit<RouteSpec, "path"> = {
  ...WRITE,
  method: "PUT",
  summary: "Update a private image's label or description (public images: 403)",
  response: Image,
  handler: (ctx) => {
    const image = changeableImage(ctx.account, imageIdOf(ctx));
    const input = ctx.body(ImageUpdateRequest);
    return renderImage(updateImage(ctx.actor, image, input));
  },
};

const remove: Omit<RouteSpec, "path"> = {
  ...WRITE,
  method: "DELETE",
  summary: "Delete a private image, irreversibly (public images: 403)",
  response: Empty,
  handler: (ctx) => {
    deleteImage(ctx.actor, changeableImage(ctx.account, imageIdOf(ctx)));
    return {};
  },
};

/** The unencoded form `/images/private/12`: same handlers, summaries say so. */
const unencoded = (route: Omit<RouteSpec, "path">): RouteSpec => ({
  ...route,
  path: "/images/{imageKind}/{imageNumber}",
  summary: `${route.summary} (id with an unencoded slash)`,
});

export const imageRoutes: RouteSpec[] = [
  {
    ...LIST,
    method: "GET",
    path: "/images",
    summary: "Public images, and with a token the account's private images",
    filterable: IMAGE_FILTERABLE,
    response: Collection(Image),
    handler: (ctx) => ctx.collection(visibleImages(ctx.principal?.account)),
  },
  {
    ...WRITE,
    scopes: ["images:read_write", "computes:read_only"],
    method: "POST",
    path: "/images",
    summary: "Capture a disk as a private image (creating, then available)",
    response: Image,
    handler: (ctx) => {
      const input = ctx.body(ImageCreateRequest);
      throwIfAny(checkCapture(ctx.account, input));
      return renderImage(captureImage(ctx.actor, findDisk(ctx.account, input.disk_id)!, input));
    },
  },
  {
    ...WRITE,
    method: "POST",
    path: "/images/upload",
    summary: "Create a private image waiting for its data, and the URL to PUT the data to",
    response: ImageUploadResponse,
    handler: (ctx) => {
      const input = ctx.body(ImageUploadRequest);
      throwIfAny(checkUpload(input));
      const { image, uploadTo } = createUploadImage(ctx.actor, input, originOf(ctx));
      return { upload_to: uploadTo, image: renderImage(image) };
    },
  },
  { ...view, path: "/images/{imageId}" },
  { ...update, path: "/images/{imageId}" },
  { ...remove, path: "/images/{imageId}" },
  unencoded(view),
  unencoded(update),
  unencoded(remove),
];
