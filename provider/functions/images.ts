/** Read-only image data: public distribution images and the account's private images. */
import type { Image } from "../../sdk/resources/images";
import { camelizeDeep } from "../engine/values";
import type { Camelized } from "../engine/values";
import { type FunctionOptions, outputForm, withClient } from "./client";
import { filterGiven } from "./lookup";

/** An image as the data functions return it (camelCase of the API record). */
export type ImageResult = Camelized<Image>;

/** Filters of `getImages`; all of them together. */
export interface GetImagesArgs {
  /** `true`: public distribution images only; `false`: the account's private images only. Default: both. */
  isPublic?: boolean;
  /** Only this distribution vendor (`Ubuntu`, `Debian`, …). */
  vendor?: string;
  /** A regular expression the label must match, such as `^Ubuntu 22\\.04`. */
  labelPattern?: string;
  /** `false` leaves out deprecated images. Default: included. */
  deprecated?: boolean;
  /** Only images with this status (`available`, `creating`, `pending_upload`). */
  status?: string;
  /** Only the most recently created of the matching images (a list of at most one). */
  latest?: boolean;
}

/**
 * Images matching the filters, in the API's order (private first), or just the newest with
 * `latest`. Visibility, vendor, deprecation and status are filtered by the API (`X-Filter`); the
 * label pattern here.
 *
 * ```ts
 * const [ubuntu] = await compute.getImages({ isPublic: true, vendor: "Ubuntu", labelPattern: "LTS$", latest: true });
 * ```
 *
 * @example
 * ```ts
 * export const myImages = compute.getImagesOutput({ isPublic: false }).apply((is) => is.map((i) => i.id));
 * ```
 */
export async function getImages(args: GetImagesArgs = {}, options: FunctionOptions = {}): Promise<ImageResult[]> {
  const pattern = compilePattern(args.labelPattern); // refused before any request
  return withClient("getImages", options, async (client) => {
    const deprecated = args.deprecated === false ? false : undefined;
    const filter = filterGiven({ is_public: args.isPublic, vendor: args.vendor, deprecated, status: args.status });
    let images = await client.images.listAll(filter);
    if (pattern) images = images.filter((i) => pattern.test(i.label));
    if (args.latest) images = newest(images);
    return images.map((i) => camelizeDeep(i) as ImageResult);
  });
}

/**
 * One image by id: `public/ubuntu22.04` or `private/12`.
 *
 * @example
 * ```ts
 * export const ubuntuSize = compute.getImageOutput({ id: "public/ubuntu22.04" }).size;
 * ```
 */
export function getImage(args: { id: string }, options: FunctionOptions = {}): Promise<ImageResult> {
  return withClient("getImage", options, async (client) => camelizeDeep(await client.images.get(args.id)) as ImageResult);
}

function compilePattern(pattern: string | undefined): RegExp | undefined {
  if (pattern === undefined) return undefined;
  try {
    return new RegExp(pattern);
  } catch (error) {
    throw new Error(`getImages: labelPattern ${JSON.stringify(pattern)} is not a regular expression: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** The most recently created image (ties: the later id), as a list of at most one. */
function newest(images: Image[]): Image[] {
  const sorted = [...images].sort((a, b) =>
    a.created === b.created ? b.id.localeCompare(a.id, undefined, { numeric: true }) : a.created < b.created ? 1 : -1,
  );
  return sorted.slice(0, 1);
}

/** `getImages` taking Inputs and answering an Output. */
export const getImagesOutput = outputForm(getImages);
/** `getImage` taking Inputs and answering an Output. */
export const getImageOutput = outputForm(getImage);
