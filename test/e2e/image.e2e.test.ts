/**
 * Images end to end through the real Pulumi engine against the emulator over HTTP:
 * upload a generated 256 MB gzip image → it is `available` → `up` again with the same file
 * changes nothing (and reads and sends nothing) → new content at the same path previews a
 * replacement → the original content back (a new modification time, same bytes) is no change →
 * capture from a seeded disk → `destroy` leaves no private image.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { Image } from "../../provider";
import { uploadText } from "../../provider/engine/status";
import { writeGzipImage, type GzipImage } from "../../examples/support/gzip-image";
import { createTestStack, eventRecorder, stepsByName, type TestStack } from "../support/engine";

jest.setTimeout(240_000);

const MIB = 1024 * 1024;

let emulator: RunningEmulator;
let client: ComputeClient;
let testStack: TestStack;
let folder: string;
let original: GzipImage;
let diskId: number;
let withCapture = false;

beforeAll(async () => {
  // A capture takes 2 minutes and processing 1 minute of emulated time: 2 s and 1 s here.
  emulator = await startEmulator({ port: 0, timeScale: 60 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "pc-e2e-image-"));
  original = await writeGzipImage(path.join(folder, "disk.img.gz"), { compressedBytes: 256 * MIB, seed: 1 });
  const compute = emulator.control.seedCompute({
    label: "web-1",
    region: "us-iad",
    disks: [{ label: "Ubuntu 22.04 LTS Disk", size: 25088 }],
  });
  diskId = compute.disks![0]!.id;
  testStack = await createTestStack({
    name: "image",
    apiUrl: emulator.url,
    token: emulator.token,
    program: async () => {
      const uploaded = new Image("uploaded", {
        filePath: original.file,
        region: "us-iad",
        label: "e2e-upload",
        description: "generated",
        cloudInit: true,
      });
      const outputs: Record<string, unknown> = { uploadedId: uploaded.id, uploadedHash: uploaded.fileHash };
      if (withCapture) outputs.capturedId = new Image("captured", { diskId }).id;
      return outputs;
    },
  });
});

afterAll(async () => {
  await testStack?.stack.destroy().catch(() => undefined);
  testStack?.cleanup();
  await client?.close();
  await emulator?.close();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

const uploads = () => emulator.control.listRequests().filter((r) => r.method === "POST" && r.path === "/v4/images/upload");

test("an uploaded and a captured image go through their whole life", async () => {
  // up: the 256 MB file is uploaded and waited out to `available`
  const recorder = eventRecorder();
  const up = await testStack.stack.up({ onEvent: recorder.onEvent });
  expect(up.summary.result).toBe("succeeded");
  expect(up.summary.resourceChanges).toMatchObject({ create: 2 }); // the stack and the image
  const uploadedId = String(up.outputs.uploadedId!.value);
  expect(up.outputs.uploadedHash!.value).toBe(original.sha256);
  const image = await client.images.get(uploadedId);
  expect(image).toMatchObject({
    status: "available",
    label: "e2e-upload",
    size: Math.ceil(original.uncompressedBytes / MIB),
    capabilities: ["cloud-init"],
  });
  // Upload progress is a status of the image's own row, not a line of the stack's diagnostics.
  const size = fs.statSync(original.file).size;
  const done = recorder.events.find((e) => e.diagnosticEvent?.message.includes(uploadText(size, size)));
  expect(uploadText(size, size)).toMatch(/^uploaded 256\.\d MB of 256\.\d MB \(100%\)$/);
  expect(done?.diagnosticEvent).toMatchObject({ ephemeral: true, urn: expect.stringMatching(/::uploaded$/) });
  expect(testStack.stateText()).not.toContain("Signature="); // the pre-signed URL is never recorded
  expect(testStack.stateText()).not.toContain(emulator.token);
  expect(uploads()).toHaveLength(1);

  // up again with the same file: nothing changes, nothing is sent
  emulator.control.clearRequests();
  const again = await testStack.stack.up();
  expect(again.summary.resourceChanges).toEqual({ same: 2 });
  expect(emulator.control.listRequests().filter((r) => r.method !== "GET")).toEqual([]);

  // new content at the same path: a replacement
  const originalStat = fs.statSync(original.file);
  await writeGzipImage(original.file, { compressedBytes: MIB, seed: 2 });
  const changed = await testStack.stack.preview({ onEvent: eventRecorder().onEvent });
  expect(changed.changeSummary).toMatchObject({ replace: 1, same: 1 });

  // the original bytes back, with a new modification time: the file is hashed again, and is the same
  original = await writeGzipImage(original.file, { compressedBytes: 256 * MIB, seed: 1 });
  expect(fs.statSync(original.file).mtimeMs).not.toBe(originalStat.mtimeMs);
  expect(Object.keys((await testStack.stack.preview()).changeSummary)).toEqual(["same"]);

  // capture from the seeded disk (the upload stays as it is)
  withCapture = true;
  const captureRecorder = eventRecorder();
  const captured = await testStack.stack.up({ onEvent: captureRecorder.onEvent });
  expect(captured.summary.resourceChanges).toMatchObject({ create: 1, same: 2 });
  const steps = stepsByName(captureRecorder.events);
  expect(steps.get("uploaded")!.op).toBe("same");
  const capturedId = String(captured.outputs.capturedId!.value);
  expect(await client.images.get(capturedId)).toMatchObject({ status: "available", label: "Ubuntu 22.04 LTS Disk", size: 25088 });
  expect(uploads()).toHaveLength(0);

  // destroy
  const destroyed = await testStack.stack.destroy();
  expect(destroyed.summary.resourceChanges).toMatchObject({ delete: 3 });
  expect(await client.images.listAll({ filter: { is_public: false } })).toEqual([]);
});
