/**
 * The image recordings (`image*.json`, the image 404) replayed: uploads, captures, private images
 * pending and available, a public image without credentials, the list (private images first); and
 * the list's items each with their recorded keys, in order.
 */
import { gzipSync } from "node:zlib";
import { request } from "undici";
import { UPLOAD_PROCESSING_MS } from "../../../../emulator/services/images/store";
import { ok, type TestEmulator } from "../../helpers";
import { replayModule } from "../../replay";
import { load } from "../../../support/fixtures";

const enc = encodeURIComponent;
const uploadBody = { label: "shape-upload", region: "us-iad", description: "An image that does stuff." };

/** A private image that went through an upload to `available`. */
async function uploadedImage(emu: TestEmulator): Promise<string> {
  const { image, upload_to } = await ok(emu.post("/images/upload", uploadBody));
  const body = gzipSync(Buffer.alloc(4096));
  const response = await request(upload_to, { method: "PUT", body, headers: { "content-type": "application/octet-stream" } });
  expect(response.statusCode).toBe(200);
  await response.body.dump();
  emu.control.setClock({ advanceMs: UPLOAD_PROCESSING_MS });
  return image.id;
}

export const imageReplays = replayModule({
  name: "images",
  replays: (emu) => {
    const diskOf = () => emu.control.seedCompute({ label: "shape-compute", region: "us-iad" }).disks![0]!.id;
    const pending = async () => (await ok(emu.post("/images/upload", uploadBody))).image.id;
    return {
      "image.create.json": (f) => emu.post("/images", { ...f.request, disk_id: diskOf() }),
      "image.upload.json": (f) => emu.post("/images/upload", f.request),
      "image.upload.no_cloud_init.json": (f) => emu.post("/images/upload", f.request),
      "image.get.private.pending_upload.json": async () => emu.get(`/images/${enc(await pending())}`),
      "image.get.private.json": async () => emu.get(`/images/${enc(await uploadedImage(emu))}`),
      "image.get.public.json": () => emu.get(`/images/${enc("public/ubuntu22.04")}`, { token: null }),
      // The recording lists private images before the public ones: have one of each.
      "image.list.json": async () => (await uploadedImage(emu), emu.get("/images", { query: { page: 1 } })),
      "image.delete.json": async () => emu.del(`/images/${enc(await pending())}`),
      "error.404.image.json": () => emu.get("/images/does-not-exist"),
    };
  },
  details: (emu) => ({
    "images: the list's private and public items each have their recorded keys, in order": async () => {
      await uploadedImage(emu);
      const recorded = load("image.list.json").response.data as Array<Record<string, unknown>>;
      const listed = (await ok(emu.get("/images"))).data as Array<Record<string, unknown>>;
      const keysOf = (items: Array<Record<string, unknown>>, isPublic: boolean) =>
        Object.keys(items.find((i) => i.is_public === isPublic)!);
      expect(keysOf(listed, false)).toEqual(keysOf(recorded, false));
      expect(keysOf(listed, true)).toEqual(keysOf(recorded, true));
    },
  }),
});
