/**
 * The Image provider's methods called directly against the emulator over HTTP: the source rules
 * and file checks at preview, the content hash (and its cache: an unchanged file is not read
 * again), diff by content, an upload and a capture waited out to `available`, in-place label and
 * description changes, drift, deletion, a refused upload that keeps the image in state, upload
 * retries, and the `timeouts` input.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { gzipSync } from "node:zlib";
import { IMAGE_REASONS } from "../../../sdk/resources/images";
import { provider } from "../../../provider/registry";
import { useProviderHarness } from "../harness";

jest.setTimeout(60_000);

const harness = useProviderHarness();
const images = provider("Image");
const PROVIDER = { __provider: "shim" };
let folder: string;

beforeAll(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "provider-image-"));
});

afterEach(() => log.mockRestore());

afterAll(() => {
  fs.rmSync(folder, { recursive: true, force: true });
});

/** Progress lines the provider printed (the engine shows the provider's stdout). */
let lines: string[];
let log: jest.SpyInstance;
beforeEach(() => {
  lines = [];
  log = jest.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
  // Captures take 2 minutes and processing 1 minute of emulated time: a fraction of a second here.
  harness.emulator.control.setClock({ scale: 240 });
});

/** Writes a small gzip image (deterministic content per seed) and returns its path and hash. */
function writeImage(name: string, seed: number, bytes = 256 * 1024): { file: string; sha256: string } {
  const raw = Buffer.alloc(bytes);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 31 + seed * 7) & 0xff;
  const file = path.join(folder, name);
  const data = gzipSync(raw);
  fs.writeFileSync(file, data);
  return { file, sha256: createHash("sha256").update(data).digest("hex") };
}

async function checked(inputs: Record<string, unknown>, olds: Record<string, unknown> = {}) {
  return images.check!({ ...PROVIDER, ...olds }, { ...PROVIDER, ...inputs });
}

describe("check", () => {
  test.each([
    [
      "no source",
      { label: "x" },
      [{ property: "", reason: "an Image needs one source: diskId (capture a disk) or filePath and region (upload a file)" }],
    ],
    [
      "two sources",
      { diskId: 5, filePath: "/x.img.gz", region: "us-iad", label: "x" },
      [{ property: "diskId", reason: "give either diskId (capture a disk) or filePath and region (upload a file), not both" }],
    ],
    [
      "a file without region",
      { filePath: "/x.img.gz", label: "x" },
      [{ property: "region", reason: "region is required with filePath (the region the file is uploaded to)" }],
    ],
    [
      "a region without file",
      { region: "us-iad", label: "x" },
      [{ property: "filePath", reason: "region belongs to an upload: give filePath as well, or drop region" }],
    ],
    ["an upload without label", { filePath: "/x.img.gz", region: "us-iad" }, [{ property: "label", reason: IMAGE_REASONS.labelRequired }]],
    [
      "a fileHash of its own",
      { diskId: 5, fileHash: "0".repeat(64) },
      [{ property: "fileHash", reason: "fileHash is computed from the file at filePath; do not set it" }],
    ],
    ["a label the API refuses", { diskId: 5, label: "no/slashes" }, [{ property: "label", reason: IMAGE_REASONS.labelChars }]],
  ])("refuses %s, naming the input", async (_what, inputs, failures) => {
    expect((await checked(inputs)).failures).toEqual(failures);
    expect(harness.emulator.control.listRequests()).toEqual([]);
  });

  test("accepts an image that exists without a source: adopted, or checked before (adoptId since removed)", async () => {
    expect((await checked({ label: "x", adoptId: "private/5" })).failures).toBeUndefined();
    expect((await checked({ label: "x" }, { label: "x", adoptId: "private/5" })).failures).toBeUndefined();
  });

  test("refuses a missing file and a file that is not gzip, at preview", async () => {
    const missing = path.join(folder, "missing.img.gz");
    expect((await checked({ filePath: missing, region: "us-iad", label: "x" })).failures).toEqual([
      { property: "filePath", reason: `cannot read ${missing}: ENOENT` },
    ]);
    const raw = path.join(folder, "raw.img");
    fs.writeFileSync(raw, Buffer.alloc(1024));
    expect((await checked({ filePath: raw, region: "us-iad", label: "x" })).failures).toEqual([
      { property: "filePath", reason: `${raw} is not gzip-compressed; upload a raw disk image compressed with gzip (.img.gz)` },
    ]);
  });

  test("adds the file's hash, size and modification time; previews' unknown paths are left alone", async () => {
    const { file, sha256 } = writeImage("a.img.gz", 1);
    const result = await checked({ filePath: file, region: "us-iad", label: "a" });
    expect(result.failures).toBeUndefined();
    expect(result.inputs).toMatchObject({
      __provider: "shim",
      filePath: file,
      fileHash: sha256,
      fileSize: fs.statSync(file).size,
      fileModified: fs.statSync(file).mtime.toISOString(),
    });
    const unknown = await checked({ filePath: "04da6b54-80e4-46f7-96ec-b56ff0331ba9", region: "us-iad", label: "a" });
    expect(unknown.inputs!.fileHash).toBeUndefined();
  });

  test("an unchanged size and modification time reuse the recorded hash without reading the file", async () => {
    const { file, sha256 } = writeImage("cached.img.gz", 2);
    const first = (await checked({ filePath: file, region: "us-iad", label: "c" })).inputs!;
    // Other content of the same size, with the old modification time put back: only a re-read
    // could notice, so an unchanged hash proves the file was not read again.
    const stamp = fs.statSync(file);
    const other = Buffer.from(fs.readFileSync(file));
    other[other.length - 1] ^= 0xff;
    fs.writeFileSync(file, other);
    fs.utimesSync(file, stamp.atime, stamp.mtime);
    const again = (await checked({ filePath: file, region: "us-iad", label: "c" }, first)).inputs!;
    expect(again.fileHash).toBe(sha256);
    // A new modification time makes it read the file, and the new content shows.
    fs.utimesSync(file, stamp.atime, new Date(stamp.mtimeMs + 5000));
    const touched = (await checked({ filePath: file, region: "us-iad", label: "c" }, first)).inputs!;
    expect(touched.fileHash).toBe(createHash("sha256").update(other).digest("hex"));
  });
});

describe("diff", () => {
  const olds = {
    __provider: "shim",
    filePath: "/a.img.gz",
    region: "us-iad",
    label: "a",
    description: "",
    cloudInit: false,
    fileHash: "a".repeat(64),
  };

  test("same content: no change; a moved file: an in-place change; new content: a replacement", async () => {
    expect(await images.diff!("private/1", olds, { ...olds })).toMatchObject({ changes: false, replaces: [], deleteBeforeReplace: false });
    expect(await images.diff!("private/1", olds, { ...olds, filePath: "/moved/a.img.gz" })).toMatchObject({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    expect(await images.diff!("private/1", olds, { ...olds, fileHash: "b".repeat(64) })).toMatchObject({
      changes: true,
      replaces: ["fileHash"],
      deleteBeforeReplace: false,
    });
    expect(await images.diff!("private/1", olds, { ...olds, label: "renamed", description: "now described" })).toMatchObject({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    expect((await images.diff!("private/1", olds, { ...olds, cloudInit: true })).replaces).toMatchObject(["cloudInit"]);
    expect((await images.diff!("private/1", olds, { ...olds, region: "us-ord" })).replaces).toMatchObject(["region"]);
  });
});

describe("create, update, read, delete", () => {
  test("an upload streams the file, waits for available and records the content hash", async () => {
    const { file, sha256 } = writeImage("up.img.gz", 3, 3 * 1024 * 1024);
    const inputs = (await checked({ filePath: file, region: "us-iad", label: "uploaded", description: "from a file", cloudInit: true }))
      .inputs!;
    const created = await images.create(inputs);
    expect(created.id).toMatch(/^private\/\d+$/);
    expect(created.outs).toMatchObject({
      status: "available",
      size: 3, // MB of uncompressed data
      label: "uploaded",
      description: "from a file",
      cloudInit: true,
      capabilities: ["cloud-init"],
      filePath: file,
      region: "us-iad",
      fileHash: sha256,
      fileSize: fs.statSync(file).size,
    });
    expect(JSON.stringify(created.outs)).not.toContain("Signature"); // the pre-signed URL is never recorded
    expect(await harness.client.images.get(created.id)).toMatchObject({ status: "available", size: 3 });
    const kb = Math.ceil(fs.statSync(file).size / 1024);
    expect(lines).toContain(`image ${created.id}: uploaded ${kb} KB of ${kb} KB (100%)`);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^image ${created.id}: upload complete, ${kb} KB in [0-9.]+ s`)));
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^image ${created.id} \\(uploaded\\): available after \\d+s; done waiting$`)),
    );
  });

  test("a capture waits out creating; label and description change in place; drift is read back; delete removes it", async () => {
    const compute = harness.emulator.control.seedCompute({
      label: "web",
      region: "us-iad",
      disks: [{ label: "Debian 12 Disk", size: 4096 }],
    });
    const diskId = compute.disks![0]!.id;
    const inputs = (await checked({ diskId: String(diskId) })).inputs!;
    const created = await images.create(inputs);
    expect(created.outs).toMatchObject({
      status: "available",
      label: "Debian 12 Disk",
      size: 4096,
      diskId,
      cloudInit: false,
      description: "",
    });

    const updated = await images.update!(created.id, created.outs, { ...inputs, label: "golden", description: "base" });
    expect(updated.outs).toMatchObject({ label: "golden", description: "base", diskId, status: "available" });
    const cleared = await images.update!(created.id, updated.outs!, { ...inputs, label: "golden" });
    expect(cleared.outs).toMatchObject({ description: "" });
    expect(await harness.client.images.get(created.id)).toMatchObject({ label: "golden", description: "" });

    await harness.client.images.update(created.id, { label: "renamed-by-hand" });
    const read = await images.read!(created.id, cleared.outs);
    expect(read.props).toMatchObject({ label: "renamed-by-hand", diskId });
    expect(await images.diff!(created.id, read.props!, { ...inputs, label: "golden" })).toMatchObject({ changes: true, replaces: [] });

    await images.delete!(created.id, read.props!);
    expect(await images.read!(created.id, read.props)).toEqual({});
    await expect(images.delete!(created.id, read.props!)).resolves.toBeUndefined();
  });

  test("a refused upload keeps the image in state with the error; the next run says how to recover", async () => {
    const { file } = writeImage("refused.img.gz", 4);
    harness.emulator.control.addFault({ pathPattern: "/__uploads/*", kind: "500" });
    const inputs = (await checked({ filePath: file, region: "us-iad", label: "refused" })).inputs!;
    const error = (await images.create(inputs).catch((e: unknown) => e)) as Error & { id?: string; properties?: Record<string, unknown> };
    expect(error.message).toMatch(
      /^image private\/\d+ was created but did not become ready: the API refused the image upload: Internal Server Error/,
    );
    expect(error.message).not.toContain("Signature");
    expect(error.id).toMatch(/^private\//);
    expect(error.properties).toMatchObject({ status: "pending_upload", label: "refused", __provider: "shim" });
    harness.emulator.control.clearFaults();
    // Pulumi retries an object with init errors by updating it: the upload URL is gone by then.
    await expect(images.update!(error.id!, error.properties!, inputs)).rejects.toThrow(
      /its upload URL is known only to the run that created it/,
    );
  });

  test("a 503 from the upload URL is retried, re-reading the file", async () => {
    const { file, sha256 } = writeImage("retried.img.gz", 5);
    harness.emulator.control.addFault({ pathPattern: "/__uploads/*", kind: "503", count: 1 });
    const created = await images.create((await checked({ filePath: file, region: "us-iad", label: "retried" })).inputs!);
    expect(created.outs).toMatchObject({ status: "available", fileHash: sha256 });
    expect(harness.emulator.control.listFaults()[0]).toMatchObject({ fired: 1 });
  });

  test("timeouts.create bounds the wait; the image stays in state", async () => {
    harness.emulator.control.setClock({ scale: 1 }); // a capture now takes 2 real minutes
    const compute = harness.emulator.control.seedCompute({ label: "slow", region: "us-iad" });
    const inputs = (await checked({ diskId: compute.disks![0]!.id, label: "slow", timeouts: { create: "1s" } })).inputs!;
    const error = (await images.create(inputs).catch((e: unknown) => e)) as Error & { id?: string };
    expect(error.message).toMatch(
      /^image private\/\d+ was created but did not become ready: image create did not finish within 1s \(raise timeouts\.create to wait longer\)/,
    );
    expect((await harness.client.images.get(error.id!)).status).toBe("creating");
  });
});
