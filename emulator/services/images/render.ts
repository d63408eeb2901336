/** Images on the wire: key order as in `fixtures/image.get.private.json`; public images come from the catalog. */
import type { Image } from "../../../sdk/resources/images";
import type { AccountState } from "../../core/state";
import { findPublicImage, publicImages } from "./catalog";
import { IMAGES, type StoredImage, findPrivateImage } from "./store";

export function renderImage(image: StoredImage): Image {
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

/** What a caller sees: the account's private images first (as recorded), then the public ones. */
export function visibleImages(account: AccountState | undefined): Image[] {
  const own = account ? IMAGES.of(account).map(renderImage) : [];
  return [...own, ...publicImages()];
}

/** A private image of the caller's account or a public image; undefined otherwise. */
export function findVisibleImage(account: AccountState | undefined, id: string): { image: Image; record?: StoredImage } | undefined {
  const record = account ? findPrivateImage(account, id) : undefined;
  if (record) return { image: renderImage(record), record };
  const image = findPublicImage(id);
  return image ? { image } : undefined;
}
