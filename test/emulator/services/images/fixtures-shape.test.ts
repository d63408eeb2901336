/**
 * Replays the call behind every recorded image fixture (`image*.json`, the image 404) against the
 * emulator and compares the answers' shapes with the recordings: the same keys, recursively
 * through nested objects and the first item of arrays; the recorded error body must match
 * exactly. (Same comparison as `fixtures-shape.test.ts`, which covers the foundation's areas.)
 */
import * as fs from "node:fs";
import { gzipSync } from "node:zlib";
import { request } from "undici";
import { UPLOAD_PROCESSING_MS } from "../../../../emulator/services/images/store";
import { startTestEmulator, type ApiResponse, type TestEmulator } from "../../helpers";
import { FIXTURES, type Fixture, expectMatchesRecording, load } from "../../../support/fixtures";


let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

async function ok(r: Promise<ApiResponse>): Promise<any> {
  const response = await r;
  expect(response.status).toBe(200);
  return response.body;
}

const enc = encodeURIComponent;
const uploadBody = { label: "shape-upload", region: "us-iad", description: "An image that does stuff." };

/** A private image that went through an upload to `available`. */
async function uploadedImage(): Promise<string> {
  const { image, upload_to } = await ok(emu.post("/images/upload", uploadBody));
  const response = await request(upload_to, { method: "PUT", body: gzipSync(Buffer.alloc(4096)), headers: { "content-type": "application/octet-stream" } });
  expect(response.statusCode).toBe(200);
  await response.body.dump();
  emu.control.setClock({ advanceMs: UPLOAD_PROCESSING_MS });
  return image.id;
}

function diskOf(): number {
  const compute = emu.control.seedCompute({ label: "shape-compute", region: "us-iad" });
  return compute.disks![0]!.id;
}

const REPLAYS: Record<string, (f: Fixture) => Promise<ApiResponse>> = {
  "image.create.json": (f) => emu.post("/images", { ...f.request, disk_id: diskOf() }),
  "image.upload.json": (f) => emu.post("/images/upload", f.request),
  "image.upload.no_cloud_init.json": (f) => emu.post("/images/upload", f.request),
  "image.get.private.pending_upload.json": async () => emu.get(`/images/${enc((await ok(emu.post("/images/upload", uploadBody))).image.id)}`),
  "image.get.private.json": async () => emu.get(`/images/${enc(await uploadedImage())}`),
  "image.get.public.json": () => emu.get(`/images/${enc("public/ubuntu22.04")}`, { token: null }),
  // The recording lists private images before the public ones: have one of each.
  "image.list.json": async () => (await uploadedImage(), emu.get("/images", { query: { page: 1 } })),
  "image.delete.json": async () => emu.del(`/images/${enc((await ok(emu.post("/images/upload", uploadBody))).image.id)}`),
  "error.404.image.json": () => emu.get("/images/does-not-exist"),
};

test("every image fixture has a replay", () => {
  const inArea = fs.readdirSync(FIXTURES).filter((name) => /^image\./.test(name));
  expect(inArea).toHaveLength(8);
  expect(inArea.filter((name) => !(name in REPLAYS))).toEqual([]);
});

test.each(Object.keys(REPLAYS))("%s", async (name) => {
  const fixture = load(name);
  expectMatchesRecording(await REPLAYS[name]!(fixture), fixture);
});

test("the list's private and public items each have their recorded keys, in order", async () => {
  await uploadedImage();
  const recorded = load("image.list.json").response.data as Array<Record<string, unknown>>;
  const listed = (await ok(emu.get("/images"))).data as Array<Record<string, unknown>>;
  const keysOf = (items: Array<Record<string, unknown>>, isPublic: boolean) => Object.keys(items.find((i) => i.is_public === isPublic)!);
  expect(keysOf(listed, false)).toEqual(keysOf(recorded, false));
  expect(keysOf(listed, true)).toEqual(keysOf(recorded, true));
});
