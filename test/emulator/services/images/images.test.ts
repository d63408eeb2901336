/**
 * The images service over real HTTP: public and private images, capture from a seeded disk,
 * the streamed upload to the emulator's own upload URL (gzip only, size from the uncompressed
 * data), the status machines on the clock (including the 24-hour expiry of an upload that got no
 * data), update and delete for private images only, events, and persistence of pending work.
 * Rules are asserted on status, field and reason; texts come from the sdk.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { gzipSync } from "node:zlib";
import { Readable } from "node:stream";
import { request } from "undici";
import { Collection } from "../../../../sdk/core/schema";
import { IMAGE_REASONS, IMAGE_UPLOAD_REASONS, Image, ImageUploadResponse, MAX_IMAGE_UPLOAD_BYTES } from "../../../../sdk/resources/images";
import { REASONS } from "../../../../emulator";
import { CAPTURE_DURATION_MS, UPLOAD_PROCESSING_MS, UPLOAD_WINDOW_MS } from "../../../../emulator/services/images/store";
import { UploadRefusal, inspectGzip } from "../../../../emulator/services/images/upload";
import { DEFAULT_DISK } from "../../../../emulator/services/computes/seed";
import { expectError, startTestEmulator, type ApiResponse, type TestEmulator } from "../../helpers";
import { load } from "../../../support/fixtures";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

const MIB = 1024 * 1024;
const PUBLIC_COUNT = 39; // the recorded listing's public images

const advance = (ms: number) => emu.control.setClock({ advanceMs: ms });
const enc = (id: string) => encodeURIComponent(id);

/** A seeded instance with one disk; returns the disk id. */
function seedDisk(label = "Ubuntu 22.04 LTS Disk", size = 25088): number {
  const compute = emu.control.seedCompute({ label: "web-1", region: "us-iad", disks: [{ label, size }] });
  return compute.disks![0]!.id;
}

async function createUpload(body: Record<string, unknown> = { label: "uploaded", region: "us-iad" }) {
  const r = await emu.post("/images/upload", body);
  expect(r.status).toBe(200);
  return ImageUploadResponse.parse(r.body);
}

async function put(
  url: string,
  body: Buffer | Readable | string,
  headers: Record<string, string> = { "content-type": "application/octet-stream" },
) {
  const response = await request(url, { method: "PUT", body, headers });
  const text = await response.body.text();
  return {
    status: response.statusCode,
    headers: response.headers as Record<string, string>,
    body: text ? JSON.parse(text) : undefined,
    text,
  } as ApiResponse;
}

async function events(action?: string) {
  const all = (await emu.get("/account/events")).body.data as Array<{
    action: string;
    status: string;
    entity: any;
    secondary_entity: any;
    percent_complete: number | null;
  }>;
  return action ? all.filter((e) => e.action === action) : all;
}

describe("public images", () => {
  test("are listed and viewed without credentials, in the recorded shape", async () => {
    const list = await emu.get("/images", { token: null });
    expect(list.status).toBe(200);
    const page = Collection(Image).parse(list.body);
    expect(page.results).toBe(PUBLIC_COUNT);
    expect(page.data.every((i) => i.is_public && i.id.startsWith("public/") && i.created_by === "compute")).toBe(true);
    const one = await emu.get(`/images/${enc("public/ubuntu22.04")}`, { token: null });
    expect(one.status).toBe(200);
    expect(Object.keys(one.body)).toEqual([
      "id",
      "label",
      "deprecated",
      "size",
      "created",
      "updated",
      "description",
      "created_by",
      "type",
      "is_public",
      "vendor",
      "expiry",
      "eol",
      "status",
      "capabilities",
    ]);
    expect(one.body).toMatchObject({
      label: "Ubuntu 22.04 LTS",
      vendor: "Ubuntu",
      deprecated: false,
      status: "available",
      capabilities: ["cloud-init"],
    });
    expect((await emu.get("/images/public/ubuntu18.04", { token: null })).body).toMatchObject({
      deprecated: true,
      eol: expect.any(String),
    });
  });

  test("a public image cannot be edited or deleted: 403 Unauthorized, in both path forms", async () => {
    for (const p of [`/images/${enc("public/debian12")}`, "/images/public/debian12"]) {
      expectError(await emu.put(p, { label: "mine now" }), 403, REASONS.unauthorized);
      expectError(await emu.del(p), 403, REASONS.unauthorized);
    }
    expect((await emu.get("/images/public/debian12")).body.label).toBe("Debian 12");
    expect(await events()).toEqual([]);
  });

  test("an unknown image is 404 Not found (the recorded body)", async () => {
    for (const p of ["/images/does-not-exist", `/images/${enc("private/1")}`, "/images/private/1"]) {
      const r = await emu.get(p);
      expect([p, r.status, r.body]).toEqual([p, 404, { errors: [{ reason: "Not found" }] }]);
    }
  });

  test("scopes: the list asks for none (it advertises *), a view needs images:read_only", async () => {
    const other = emu.control.createToken({ scopes: ["vpc:read_only"] });
    const list = await emu.get("/images", { token: other.token });
    expect([list.status, list.headers["x-accepted-oauth-scopes"]]).toEqual([200, "*"]);
    expectError(await emu.get("/images/public/debian12", { token: other.token }), 401, REASONS.oauthScope);
  });

  test("a bad X-Filter on the list answers the recorded error", async () => {
    const recorded = load("error.400.bad_filter.json");
    const r = await emu.get("/images", { headers: { "X-Filter": '{"foo": "bar"}' } });
    expect([r.status, r.body]).toEqual([recorded.status, recorded.response]);
  });

  test("X-Filter picks by vendor, deprecation and visibility; unknown fields are refused", async () => {
    const ubuntu = await emu.get("/images", {
      token: null,
      headers: { "X-Filter": JSON.stringify({ vendor: "Ubuntu", deprecated: false }) },
    });
    expect(ubuntu.body.data.map((i: Image) => i.id)).toEqual([
      "public/ubuntu20.04",
      "public/ubuntu22.04",
      "public/ubuntu23.04",
      "public/ubuntu23.10",
    ]);
    await createUpload();
    const privateOnly = await emu.get("/images", { headers: { "X-Filter": JSON.stringify({ is_public: false }) } });
    expect(privateOnly.body.results).toBe(1);
    expectError(
      await emu.get("/images", { headers: { "X-Filter": JSON.stringify({ region: "us-iad" }) } }),
      400,
      REASONS.cannotFilterOn("region"),
      "X-Filter",
    );
  });
});

describe("capture from a disk", () => {
  test("starts creating with the disk's label and size, becomes available on the clock, with disk_imagize started → finished", async () => {
    const diskId = seedDisk("Ubuntu 22.04 LTS Disk", 25088);
    const r = await emu.post("/images", { disk_id: diskId, cloud_init: true });
    expect(r.status).toBe(200);
    const image = Image.parse(r.body);
    expect(Object.keys(r.body)).toEqual([
      "id",
      "label",
      "description",
      "created",
      "updated",
      "size",
      "created_by",
      "type",
      "is_public",
      "deprecated",
      "vendor",
      "expiry",
      "eol",
      "status",
      "capabilities",
    ]);
    expect(image).toMatchObject({
      label: "Ubuntu 22.04 LTS Disk",
      description: "",
      size: 25088,
      status: "creating",
      type: "manual",
      is_public: false,
      created_by: "emulator-user",
      capabilities: ["cloud-init"],
    });
    expect(image.id).toMatch(/^private\/\d+$/);
    expect(await events("disk_imagize")).toEqual([
      expect.objectContaining({
        status: "started",
        entity: expect.objectContaining({ type: "compute" }),
        secondary_entity: expect.objectContaining({ id: image.id, type: "image" }),
      }),
    ]);

    await advance(CAPTURE_DURATION_MS - 1000);
    expect((await emu.get(`/images/${enc(image.id)}`)).body.status).toBe("creating");
    await advance(1000);
    const done = await emu.get(`/images/${enc(image.id)}`);
    expect(done.body).toMatchObject({ status: "available", size: 25088 });
    expect((await emu.get(`/images/${image.id}`)).body).toEqual(done.body); // unencoded slash: same image
    expect(await events("disk_imagize")).toEqual([expect.objectContaining({ status: "finished", percent_complete: 100 })]);
  });

  test("an instance seeded without disks has the default boot disk", async () => {
    const compute = emu.control.seedCompute({ label: "plain", region: "us-iad" });
    expect(compute.disks).toEqual([expect.objectContaining({ label: DEFAULT_DISK.label, size: DEFAULT_DISK.size })]);
    const r = await emu.post("/images", { disk_id: compute.disks![0]!.id, label: "golden", description: "base image" });
    expect(r.body).toMatchObject({ label: "golden", description: "base image", capabilities: [] });
  });

  test.each([
    ["no disk_id", {}, IMAGE_REASONS.diskRequired, "disk_id"],
    ["a label with special characters", { label: "bad/label!" }, IMAGE_REASONS.labelChars, "label"],
    ["a 51-character label", { label: "a".repeat(51) }, IMAGE_REASONS.labelLength, "label"],
    ["an empty description", { description: "" }, IMAGE_REASONS.descriptionLength, "description"],
    ["a 65001-character description", { description: "d".repeat(65001) }, IMAGE_REASONS.descriptionLength, "description"],
    ["a cloud_init that is not a boolean", { cloud_init: "yes" }, IMAGE_REASONS.cloudInit, "cloud_init"],
  ])("refuses %s", async (_what, extra, reason, field) => {
    const diskId = seedDisk();
    const body = { disk_id: diskId, ...extra };
    if (field === "disk_id") delete (body as Record<string, unknown>).disk_id;
    expectError(await emu.post("/images", body), 400, reason, field);
  });

  test("refuses a disk that is not one of the account's instances", async () => {
    const other = emu.control.createAccount({ id: "other" });
    const compute = emu.control.seedCompute({ account: "other", label: "theirs", region: "us-iad" });
    expectError(await emu.post("/images", { disk_id: compute.disks![0]!.id }), 400, IMAGE_REASONS.diskNotFound, "disk_id");
    expectError(await emu.post("/images", { disk_id: 1 }), 400, IMAGE_REASONS.diskNotFound, "disk_id");
    expect((await emu.post("/images", { disk_id: compute.disks![0]!.id }, { token: other.token })).status).toBe(200);
  });

  test("needs images:read_write and computes:read_only", async () => {
    const diskId = seedDisk();
    const imagesOnly = emu.control.createToken({ scopes: ["images:read_write"] });
    const both = emu.control.createToken({ scopes: ["images:read_write", "computes:read_only"] });
    expectError(await emu.post("/images", { disk_id: diskId }, { token: imagesOnly.token }), 401, REASONS.oauthScope);
    expect((await emu.post("/images", { disk_id: diskId }, { token: both.token })).status).toBe(200);
    const r = await emu.post("/images", { disk_id: diskId }, { token: null });
    expectError(r, 401, REASONS.invalidToken);
  });
});

describe("upload", () => {
  test("creates a pending_upload image and an upload URL served by the emulator itself", async () => {
    const { image, upload_to } = await createUpload({
      label: "my-upload",
      region: "us-iad",
      description: "An image that does stuff.",
      cloud_init: true,
    });
    expect(image).toMatchObject({
      status: "pending_upload",
      size: 0,
      type: "manual",
      is_public: false,
      vendor: null,
      expiry: null,
      eol: null,
      capabilities: ["cloud-init"],
    });
    const url = new URL(upload_to);
    expect(url.origin).toBe(new URL(emu.url).origin);
    expect(url.pathname).toBe(`/__uploads/${image.id.split("/")[1]}`);
    expect(url.searchParams.get("Signature")).toMatch(/^[0-9a-f]{48}$/);
    expect(Number(url.searchParams.get("Expires")) * 1000).toBeGreaterThan(Date.now());
    expect(await events("image_upload")).toEqual([
      expect.objectContaining({ status: "scheduled", entity: expect.objectContaining({ id: image.id, type: "image" }) }),
    ]);
  });

  test("the PUT takes a gzip image, records the uncompressed size in MB, and the image is available after processing", async () => {
    const { image, upload_to } = await createUpload();
    // Two gzip members (a valid .gz) of 3.5 MiB uncompressed in all: size rounds up to 4 MB.
    const data = Buffer.concat([gzipSync(Buffer.alloc(3 * MIB, 1)), gzipSync(Buffer.alloc(MIB / 2, 2))]);
    const r = await put(upload_to, data);
    expect([r.status, r.text]).toEqual([200, ""]);
    const processing = (await emu.get(`/images/${enc(image.id)}`)).body;
    expect(processing).toMatchObject({ status: "pending_upload", size: 4 });
    expect(await events("image_upload")).toEqual([expect.objectContaining({ status: "started" })]);
    await advance(UPLOAD_PROCESSING_MS);
    expect((await emu.get(`/images/${enc(image.id)}`)).body).toMatchObject({ status: "available", size: 4 });
    expect(await events("image_upload")).toEqual([expect.objectContaining({ status: "finished", percent_complete: 100 })]);
    // The URL is spent: a second PUT is refused, and the image stays as it is.
    expectError(await put(upload_to, data), 400, IMAGE_UPLOAD_REASONS.notPending);
    // The 24-hour deletion was called off by the data.
    await advance(UPLOAD_WINDOW_MS);
    expect((await emu.get(`/images/${enc(image.id)}`)).status).toBe(200);
  });

  test("refuses data that is not gzip; the image keeps waiting and a good upload still works", async () => {
    const { image, upload_to } = await createUpload();
    expectError(await put(upload_to, Buffer.from("this is a raw disk image, not gzip")), 400, IMAGE_UPLOAD_REASONS.notGzip);
    expect((await emu.get(`/images/${enc(image.id)}`)).body).toMatchObject({ status: "pending_upload", size: 0 });
    expect((await put(upload_to, gzipSync(Buffer.alloc(1024)))).status).toBe(200);
  });

  test("refuses gzip that does not decompress (truncated, corrupt) and an empty body", async () => {
    const { upload_to } = await createUpload();
    const good = gzipSync(Buffer.alloc(2 * MIB, 7));
    expectError(await put(upload_to, good.subarray(0, good.length - 20)), 400, IMAGE_UPLOAD_REASONS.notGzip);
    const corrupt = Buffer.from(good);
    corrupt.writeUInt32LE(0xdeadbeef, corrupt.length - 8); // wrong CRC-32 in the trailer
    expectError(await put(upload_to, corrupt), 400, IMAGE_UPLOAD_REASONS.notGzip);
    expectError(await put(upload_to, Buffer.from([0x1f])), 400, IMAGE_UPLOAD_REASONS.notGzip);
    expectError(await put(upload_to, Buffer.alloc(0)), 400, IMAGE_UPLOAD_REASONS.empty);
  });

  test("refuses another content type, a wrong signature and an unknown image", async () => {
    const { upload_to } = await createUpload();
    const data = gzipSync(Buffer.alloc(10));
    expectError(await put(upload_to, data, { "content-type": "application/gzip" }), 400, IMAGE_UPLOAD_REASONS.contentType);
    const forged = new URL(upload_to);
    forged.searchParams.set("Signature", "0".repeat(48));
    expectError(await put(forged.href, data), 403, IMAGE_UPLOAD_REASONS.signature);
    const unknown = new URL(upload_to);
    unknown.pathname = "/__uploads/1";
    expectError(await put(unknown.href, data), 404, REASONS.notFound);
    expect((await request(upload_to, { method: "GET" })).statusCode).toBe(405);
  });

  test("refuses a declared length over 5 GB before reading any of it", async () => {
    const { image, upload_to } = await createUpload();
    const url = new URL(upload_to);
    // A raw request that announces 5 GB + 1 byte and sends almost nothing: the answer comes at once.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          method: "PUT",
          headers: { "content-type": "application/octet-stream", "content-length": String(MAX_IMAGE_UPLOAD_BYTES + 1) },
        },
        (res) => {
          let body = "";
          res.on("data", (c) => (body += c));
          res.on("end", () => resolve({ status: res.statusCode!, body }));
        },
      );
      req.on("error", reject);
      req.write(Buffer.from([0x1f, 0x8b]));
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ errors: [{ reason: IMAGE_UPLOAD_REASONS.tooLarge }] });
    expect((await emu.get(`/images/${enc(image.id)}`)).body.status).toBe("pending_upload");
  });

  test("counts compressed bytes while streaming and stops at the limit (no declared length needed)", async () => {
    const data = gzipSync(Buffer.alloc(MIB, 3));
    await expect(inspectGzip(Readable.from([data.subarray(0, 100), data.subarray(100)]), 100)).rejects.toEqual(
      new UploadRefusal(400, IMAGE_UPLOAD_REASONS.tooLarge),
    );
    await expect(inspectGzip(Readable.from([data.subarray(0, 1), data.subarray(1)]), data.length)).resolves.toBe(MIB);
  });

  test.each([
    ["no label", { region: "us-iad" }, IMAGE_REASONS.labelRequired, "label"],
    ["no region", { label: "x" }, IMAGE_REASONS.regionRequired, "region"],
    ["an unknown region", { label: "x", region: "xx-nowhere" }, IMAGE_REASONS.regionInvalid, "region"],
    ["an unknown field", { label: "x", region: "us-iad", disk_id: 1 }, "Unknown field: disk_id", undefined],
  ])("POST /images/upload refuses %s", async (_what, body, reason, field) => {
    expectError(await emu.post("/images/upload", body), 400, reason, field);
  });

  test("an upload that receives no data is deleted 24 hours later on the clock", async () => {
    const { image, upload_to } = await createUpload();
    await advance(UPLOAD_WINDOW_MS - 1000);
    expect((await emu.get(`/images/${enc(image.id)}`)).body.status).toBe("pending_upload");
    await advance(1000);
    expect((await emu.get(`/images/${enc(image.id)}`)).status).toBe(404);
    const [event] = await events("image_upload");
    expect(event).toMatchObject({ status: "failed", entity: expect.objectContaining({ id: image.id }) });
    expect((await put(upload_to, gzipSync(Buffer.alloc(10)))).status).toBe(404);
  });
});

describe("update and delete", () => {
  test("label and description change in place (null clears the description); event image_update", async () => {
    const { image } = await createUpload({ label: "before", region: "us-iad", description: "old" });
    const r = await emu.put(`/images/${enc(image.id)}`, { label: "after", description: "new text" });
    expect(r.status).toBe(200);
    expect(Image.parse(r.body)).toMatchObject({ id: image.id, label: "after", description: "new text" });
    expect((await emu.put(`/images/${image.id}`, { description: null })).body.description).toBe("");
    expect(await events("image_update")).toHaveLength(2);
    expectError(await emu.put(`/images/${enc(image.id)}`, { label: "no!" }), 400, IMAGE_REASONS.labelChars, "label");
    expectError(await emu.put(`/images/${enc(image.id)}`, { size: 3 }), 400, "Unknown field: size");
  });

  test("delete removes a private image for good; event image_delete; unknown ids are 404", async () => {
    const { image } = await createUpload();
    expect(await emu.del(`/images/${image.id}`)).toMatchObject({ status: 200, body: {} });
    expect((await emu.get(`/images/${enc(image.id)}`)).status).toBe(404);
    expectError(await emu.del(`/images/${enc(image.id)}`), 404, REASONS.notFound);
    expect(await events("image_delete")).toEqual([
      expect.objectContaining({ status: "notification", entity: expect.objectContaining({ id: image.id }) }),
    ]);
  });

  test("private images belong to their account: others, and anonymous callers, see only public ones", async () => {
    const { image } = await createUpload();
    const other = emu.control.createAccount({ id: "b" });
    expect((await emu.get(`/images/${enc(image.id)}`, { token: other.token })).status).toBe(404);
    expect((await emu.get(`/images/${enc(image.id)}`, { token: null })).status).toBe(404);
    expect((await emu.get("/images", { token: other.token })).body.results).toBe(PUBLIC_COUNT);
    expect((await emu.get("/images")).body.results).toBe(PUBLIC_COUNT + 1);
    expect((await emu.get("/images")).body.data[0].id).toBe(image.id); // private first, as recorded
    expectError(await emu.del(`/images/${enc(image.id)}`, { token: other.token }), 404, REASONS.notFound);
  });

  test("writes need images:read_write", async () => {
    const { image } = await createUpload();
    const readOnly = emu.control.createToken({ scopes: ["images:read_only"] });
    expect((await emu.get(`/images/${enc(image.id)}`, { token: readOnly.token })).status).toBe(200);
    expectError(await emu.put(`/images/${enc(image.id)}`, { label: "x" }, { token: readOnly.token }), 401, REASONS.oauthScope);
    expectError(await emu.post("/images/upload", { label: "x", region: "us-iad" }, { token: readOnly.token }), 401, REASONS.oauthScope);
  });
});

describe("persistence", () => {
  test("pending transitions are data: they survive a restart and run on the restored clock", async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "emulator-images-"));
    const stateFile = path.join(folder, "state.json");
    try {
      const first = await startTestEmulator({ stateFile });
      const upload = ImageUploadResponse.parse((await first.post("/images/upload", { label: "waiting", region: "us-iad" })).body);
      const compute = first.control.seedCompute({ label: "c", region: "us-iad" });
      const captured = Image.parse((await first.post("/images", { disk_id: compute.disks![0]!.id })).body);
      await first.close();

      const second = await startTestEmulator({ stateFile });
      try {
        second.control.setClock({ advanceMs: CAPTURE_DURATION_MS });
        expect((await second.get(`/images/${enc(captured.id)}`)).body.status).toBe("available");
        expect((await second.get(`/images/${enc(upload.image.id)}`)).body.status).toBe("pending_upload");
        second.control.setClock({ advanceMs: UPLOAD_WINDOW_MS });
        expect((await second.get(`/images/${enc(upload.image.id)}`)).status).toBe(404);
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
