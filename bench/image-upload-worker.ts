/**
 * The child process of the image-upload benchmark: it uploads one file along one code path and
 * prints one `BENCH-RESULT {json}` line with its own memory and timing, so the parent measures
 * this process alone (the emulator, which decompresses the data, runs in the parent).
 *
 *   node --expose-gc image-upload-worker.js <provider|sdk|raw> <apiUrl> <token> <file>
 *
 * - `provider`: the Image resource's provider methods, as the Pulumi engine calls them in the
 *   provider process: `check` (which hashes the file), then `create` (upload, then wait for
 *   `available`).
 * - `sdk`: `client.images.uploadFile`, the helper the provider uses.
 * - `raw`: a bare undici PUT of a file stream, the baseline for throughput.
 *
 * RSS is sampled every 5 ms from just before the work starts (after a forced GC) to its end.
 */
import { createReadStream, statSync } from "node:fs";
import { request } from "undici";
import { ComputeClient } from "../sdk/client";
import { IMAGE_UPLOAD_CONTENT_TYPE } from "../sdk/resources/images";

export type WorkerMode = "provider" | "sdk" | "raw";

export interface WorkerResult {
  mode: WorkerMode;
  /** RSS right before the work started. */
  baselineRss: number;
  /** Highest sampled RSS during the work. */
  peakRss: number;
  /** `process.resourceUsage().maxRSS` at the end, in bytes (the process's lifetime peak). */
  maxRss: number;
  bytes: number;
  /** Time spent sending the file. */
  uploadMs: number;
  /** Time of the whole operation (provider: check + upload + waiting for `available`). */
  totalMs: number;
}

export const RESULT_PREFIX = "BENCH-RESULT ";

class RssSampler {
  peak = 0;
  private readonly timer: NodeJS.Timeout;
  constructor(intervalMs: number) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }
  sample(): void {
    this.peak = Math.max(this.peak, process.memoryUsage.rss());
  }
  stop(): number {
    clearInterval(this.timer);
    this.sample();
    return this.peak;
  }
}

async function uploadTarget(client: ComputeClient): Promise<string> {
  const { upload_to } = await client.images.createUpload({ label: "bench-upload", region: "us-iad" });
  return upload_to;
}

/** Runs one mode; `measure` brackets the part whose memory counts. */
async function run(mode: WorkerMode, apiUrl: string, token: string, file: string): Promise<WorkerResult> {
  const bytes = statSync(file).size;
  const client = new ComputeClient({ baseUrl: apiUrl, token });
  let uploadMs = 0;
  const gc = (globalThis as { gc?: () => void }).gc;
  const measure = async (work: () => Promise<void>) => {
    gc?.();
    const baselineRss = process.memoryUsage.rss();
    const sampler = new RssSampler(5);
    const started = performance.now();
    await work();
    const totalMs = performance.now() - started;
    return { baselineRss, peakRss: sampler.stop(), totalMs };
  };

  let measured;
  if (mode === "raw") {
    const url = await uploadTarget(client);
    measured = await measure(async () => {
      const started = performance.now();
      const response = await request(url, {
        method: "PUT",
        body: createReadStream(file, { highWaterMark: 1024 * 1024 }),
        headers: { "content-type": IMAGE_UPLOAD_CONTENT_TYPE, "content-length": String(bytes) },
      });
      await response.body.dump();
      if (response.statusCode !== 200) throw new Error(`raw PUT answered ${response.statusCode}`);
      uploadMs = performance.now() - started;
    });
  } else if (mode === "sdk") {
    const url = await uploadTarget(client);
    measured = await measure(async () => {
      uploadMs = (await client.images.uploadFile(url, file)).durationMs;
    });
  } else {
    process.env.COMPUTE_TOKEN = token;
    process.env.COMPUTE_API_URL = apiUrl;
    // Loaded the way the provider process loads it (the registry), before the baseline is taken.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only now, after the environment above is set
    const { provider } = require("../provider/registry") as typeof import("../provider/registry");
    const images = provider("Image");
    // The provider reports progress on stdout; keep it off the result line, and read the upload time from it.
    const lines: string[] = [];
    console.log = (line: string) => {
      lines.push(String(line));
      process.stderr.write(`${line}\n`);
    };
    measured = await measure(async () => {
      const checked = await images.check!({}, { filePath: file, region: "us-iad", label: "bench-provider" });
      if (checked.failures?.length) throw new Error(`check failed: ${JSON.stringify(checked.failures)}`);
      const created = await images.create(checked.inputs);
      if (created.outs.status !== "available") throw new Error(`image ended ${String(created.outs.status)}`);
    });
    const done = lines.map((l) => / upload complete, .* in ([0-9.]+) s /.exec(l)).find(Boolean);
    uploadMs = done ? Number(done[1]) * 1000 : Number.NaN;
  }
  await client.close();
  return { mode, bytes, uploadMs, maxRss: process.resourceUsage().maxRSS * 1024, ...measured };
}

if (require.main === module) {
  const [mode, apiUrl, token, file] = process.argv.slice(2);
  if (!["provider", "sdk", "raw"].includes(mode ?? "") || !apiUrl || !token || !file) {
    console.error("usage: image-upload-worker.js <provider|sdk|raw> <apiUrl> <token> <file>");
    process.exit(64);
  }
  run(mode as WorkerMode, apiUrl, token, file).then(
    (result) => {
      process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
