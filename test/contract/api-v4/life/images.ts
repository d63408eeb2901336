/** Images: uploaded through the client's upload flow, captured from a seeded disk, read, updated, deleted. */
import { gzipSync } from "node:zlib";
import { v4, type Image } from "../client";
import type { LifeContext } from "./context";
import * as S from "../shapes";

const { createImage, deleteImage, getImage, getImages, updateImage, uploadImage } = v4;

export async function imagesLife(ctx: LifeContext): Promise<void> {
  const upload = ctx.check(
    "image upload",
    await uploadImage({ label: "api-v4-upload", region: ctx.region, description: "uploaded by @linode/api-v4", cloud_init: true }),
    S.UPLOAD,
  );
  ctx.check("image upload.image", upload.image, S.IMAGE);
  expect(upload.image.status).toBe("pending_upload");
  // The client stops at the upload URL; Cloud Manager then PUTs the gzipped disk there itself.
  const put = await fetch(upload.upload_to, {
    method: "PUT",
    headers: { "Content-Type": "application/octet-stream" },
    body: gzipSync(Buffer.alloc(3 * 1024 * 1024, 1)),
  });
  expect(put.status).toBe(200);
  const available = (image: Image) => image.status === "available";
  const uploaded = ctx.check("image uploaded", await ctx.until("upload available", () => getImage(upload.image.id), available), S.IMAGE);
  expect(uploaded.size).toBe(3);

  const disk = ctx.computes.a.disks?.[0];
  if (!disk) throw new Error("the seeded instance has no disk to capture");
  const captured = ctx.check(
    "image captured",
    await createImage({ disk_id: disk.id, label: "api-v4-capture", description: "captured" }),
    S.IMAGE,
  );
  ctx.check("image capture available", await ctx.until("capture available", () => getImage(captured.id), available), S.IMAGE);

  expect(
    ctx.check("image updated", await updateImage(uploaded.id, { label: "api-v4-upload-2", description: "renamed" }), S.IMAGE).label,
  ).toBe("api-v4-upload-2");
  await ctx.laterField("tags (PUT /images/{imageId})", "image tags are a later feature (emulator README, fields newer than the spec)", () =>
    updateImage(uploaded.id, { tags: ["contract"] }),
  );
  const listed = ctx.checkPage("images", await getImages({ page_size: 500 }), S.IMAGE);
  expect(listed.map((i) => i.id)).toEqual(expect.arrayContaining([uploaded.id, captured.id]));
  // A public image read by the id the client knows (`linode/…`), renamed on the wire.
  const publicImage = listed.find((i) => i.is_public)!;
  expect(publicImage.id.startsWith("linode/")).toBe(true);
  ctx.check("public image", await getImage(publicImage.id), S.IMAGE);

  await deleteImage(uploaded.id);
  await deleteImage(captured.id);
  expect((await getImages({ page_size: 500 })).data.map((i) => i.id)).not.toContain(uploaded.id);
}
