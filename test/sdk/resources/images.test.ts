/**
 * `Images`: every endpoint's method and path on recorded exchanges (MockAgent), request
 * validation with the API's texts, the status waiter on the recorded upload sequence, and the
 * streamed upload against a real loopback server: PUT with `application/octet-stream` and the
 * file's length, no token, the SHA-256 of exactly the bytes sent, progress, a retry that re-reads
 * the file, and errors that never show the URL's signature.
 */
import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { ClientValidationError, WaitError } from "../../../sdk/core/errors";
import { ComputeClient } from "../../../sdk/client";
import { IMAGE_REASONS, type UploadProgress } from "../../../sdk/resources/images";
import { JSON_HEADERS, TOKEN, harness, loadFixture, serveFixture } from "../helpers";

const sent = (h: ReturnType<typeof harness>) => h.calls().map((c) => `${c.method} ${c.path}`);

describe("Images (recorded exchanges)", () => {
  test("list / get (slash encoded) / create / createUpload / update / delete", async () => {
    const h = harness();
    serveFixture(h, "image.list.json");
    serveFixture(h, "image.get.public.json");
    const created = serveFixture(h, "image.create.json");
    const uploaded = serveFixture(h, "image.upload.json");
    h.pool
      .intercept({ path: "/v4/images/private%2F23851696", method: "PUT" })
      .reply(200, loadFixture("image.get.private.json").response as object, JSON_HEADERS);
    serveFixture(h, "image.delete.json");

    const all = await h.client.images.listAll();
    expect(all).toHaveLength(42);
    await expect(h.client.images.get("public/ubuntu22.04")).resolves.toMatchObject({ id: "public/ubuntu22.04", is_public: true });
    await expect(h.client.images.create(created.request as never)).resolves.toMatchObject({
      status: "creating",
      capabilities: ["cloud-init"],
    });
    const upload = await h.client.images.createUpload(uploaded.request as never);
    expect(upload).toMatchObject({ image: { status: "pending_upload", size: 0 }, upload_to: expect.stringContaining("Signature=") });
    await expect(h.client.images.update("private/23851696", { label: "renamed", description: null })).resolves.toMatchObject({
      id: "private/23851696",
    });
    await expect(h.client.images.delete("private/23851696")).resolves.toBeUndefined();
    expect(sent(h)).toEqual([
      "GET /v4/images",
      "GET /v4/images/public%2Fubuntu22.04",
      "POST /v4/images",
      "POST /v4/images/upload",
      "PUT /v4/images/private%2F23851696",
      "DELETE /v4/images/private%2F23851696",
    ]);
    expect(JSON.parse(h.calls()[2]!.body as string)).toEqual(created.request);
    expect(JSON.parse(h.calls()[4]!.body as string)).toEqual({ label: "renamed", description: null });
  });

  test.each([
    [
      "a capture without disk_id",
      (c: ComputeClient) => c.images.create({} as never),
      { field: "disk_id", reason: IMAGE_REASONS.diskRequired },
    ],
    [
      "an upload without label",
      (c: ComputeClient) => c.images.createUpload({ region: "us-iad" } as never),
      { field: "label", reason: IMAGE_REASONS.labelRequired },
    ],
    [
      "an upload without region",
      (c: ComputeClient) => c.images.createUpload({ label: "x" } as never),
      { field: "region", reason: IMAGE_REASONS.regionRequired },
    ],
    [
      "a label with special characters",
      (c: ComputeClient) => c.images.update("private/1", { label: "a/b" }),
      { field: "label", reason: IMAGE_REASONS.labelChars },
    ],
  ])("refuses %s before sending anything", async (_what, call, entry) => {
    const h = harness();
    const error = await call(h.client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientValidationError);
    expect((error as ClientValidationError).errors).toEqual([entry]);
    expect(h.calls()).toEqual([]);
  });

  test("waitForStatus polls the recorded upload (pending_upload → available) and reports progress", async () => {
    const h = harness();
    serveFixture(h, "image.get.private.pending_upload.json");
    serveFixture(h, "image.get.private.json");
    let clock = 0;
    const seen: Array<[string | undefined, number]> = [];
    const image = await h.client.images.waitForStatus("private/23851696", "available", {
      intervalMs: 1000,
      sleep: async (ms) => void (clock += ms),
      now: () => clock,
      progress: (i, elapsed) => seen.push([i?.status, elapsed]),
    });
    expect(image).toMatchObject({ status: "available", size: 1 });
    expect(seen).toEqual([
      ["pending_upload", 0],
      ["available", 1000],
    ]);
  });

  test("waitForStatus fails fast when the image disappears (a canceled upload)", async () => {
    const h = harness();
    serveFixture(h, "image.get.private.pending_upload.json");
    h.pool
      .intercept({ path: "/v4/images/private%2F23851696", method: "GET" })
      .reply(404, loadFixture("error.404.image.json").response as object, JSON_HEADERS);
    const error = await h.client.images
      .waitForStatus("private/23851696", "available", { intervalMs: 10, sleep: async () => undefined })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitError);
    expect(error).toMatchObject({ kind: "failed", message: expect.stringContaining("no longer exists") });
  });
});

describe("uploadFile (streamed PUT to the upload URL)", () => {
  let folder: string;
  let file: string;
  let content: Buffer;
  let server: http.Server;
  let base: string;
  /** What each request received: method, headers, byte count and hash of the body. */
  let received: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; bytes: number; sha256: string }>;
  /** Status to answer, per request (then 200). */
  let answers: number[];

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "sdk-upload-"));
    file = path.join(folder, "disk.img.gz");
    content = randomBytes(3 * 1024 * 1024 + 123); // several read chunks, not a multiple of the chunk size
    fs.writeFileSync(file, content);
    server = http.createServer((req, res) => {
      const hash = createHash("sha256");
      let bytes = 0;
      req.on("data", (chunk: Buffer) => {
        hash.update(chunk);
        bytes += chunk.length;
      });
      req.on("end", () => {
        received.push({ method: req.method!, url: req.url!, headers: req.headers, bytes, sha256: hash.digest("hex") });
        const status = answers.shift() ?? 200;
        res.writeHead(status, { "content-type": "application/json" });
        res.end(
          status === 200
            ? ""
            : JSON.stringify({
                errors: [{ reason: status === 503 ? "Slow down" : "The image must be a gzip-compressed raw disk image (.img.gz)" }],
              }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(folder, { recursive: true, force: true });
  });
  beforeEach(() => {
    received = [];
    answers = [];
  });

  const client = () => new ComputeClient({ baseUrl: "http://api.invalid/v4", token: TOKEN, sleep: async () => undefined });
  const url = () => `${base}/__uploads/23851700?Signature=s3cr3t-signature&Expires=1708192110`;

  test("sends the file as application/octet-stream with its length, no token, and returns its SHA-256", async () => {
    const c = client();
    const progress: UploadProgress[] = [];
    const result = await c.images.uploadFile(url(), file, { onProgress: (p) => progress.push(p) });
    await c.close();
    const expected = createHash("sha256").update(content).digest("hex");
    expect(result).toMatchObject({ bytes: content.length, sha256: expected });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      method: "PUT",
      url: "/__uploads/23851700?Signature=s3cr3t-signature&Expires=1708192110",
      bytes: content.length,
      sha256: expected,
    });
    expect(received[0]!.headers["content-type"]).toBe("application/octet-stream");
    expect(received[0]!.headers["content-length"]).toBe(String(content.length));
    expect(received[0]!.headers["transfer-encoding"]).toBeUndefined();
    expect(received[0]!.headers.authorization).toBeUndefined(); // the token never goes to object storage
    expect(progress.length).toBeGreaterThanOrEqual(4);
    expect(progress.map((p) => p.sentBytes)).toEqual([...progress.map((p) => p.sentBytes)].sort((a, b) => a - b));
    expect(progress.at(-1)).toMatchObject({ sentBytes: content.length, totalBytes: content.length });
  });

  test("a 503 is retried by re-reading the file from the start", async () => {
    answers = [503];
    const c = client();
    const result = await c.images.uploadFile(url(), file);
    await c.close();
    expect(received.map((r) => r.bytes)).toEqual([content.length, content.length]);
    expect(received[1]!.sha256).toBe(result.sha256);
  });

  test("a refusal is an ApiError that names the upload URL without its signature", async () => {
    answers = [400];
    const c = client();
    const error = (await c.images.uploadFile(url(), file).catch((e: unknown) => e)) as Error & { status: number; path: string };
    await c.close();
    expect(error).toMatchObject({ name: "BadRequestError", status: 400, path: `${base}/__uploads/23851700` });
    expect(error.message).toContain("gzip");
    expect(error.message).not.toContain("s3cr3t");
  });

  test("a missing file fails before anything is sent", async () => {
    const c = client();
    await expect(c.images.uploadFile(url(), path.join(folder, "nope.img.gz"))).rejects.toMatchObject({ code: "ENOENT" });
    await c.close();
    expect(received).toEqual([]);
  });
});
