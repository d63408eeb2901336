/**
 * Image upload: memory and throughput of streaming a 256 MB gzip image to the upload URL.
 *
 * A generated 256 MB `.img.gz` is uploaded to an in-process emulator three times, each from a
 * fresh child process: through the Image provider (check, upload, wait — the provider process's
 * code path), through the sdk's `uploadFile`, and as a bare undici PUT of a file stream. Each
 * child samples its own RSS. Target: the provider process's peak RSS grows by less than 64 MB
 * (the upload streams; it never holds the file). The throughputs are printed side by side, from
 * the same run, so their ratio compares like with like.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import type { BenchResult, Benchmark, Metric } from "./benchmark";
import { writeGzipImage } from "../examples/support/gzip-image";
import { RESULT_PREFIX, type WorkerMode, type WorkerResult } from "./image-upload-worker";

const MIB = 1024 * 1024;
const FILE_BYTES = 256 * MIB;
/** The provider process may grow by less than this while uploading. */
const MEMORY_LIMIT_BYTES = 64 * MIB;

const mb = (bytes: number) => `${(bytes / MIB).toFixed(1)} MB`;
const rate = (bytes: number, ms: number) => `${(bytes / MIB / (ms / 1000)).toFixed(1)} MB/s`;

function runWorker(mode: WorkerMode, apiUrl: string, token: string, file: string): Promise<WorkerResult> {
  const worker = path.join(__dirname, "image-upload-worker.js");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--expose-gc", worker, mode, apiUrl, token, file], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const line = stdout.split("\n").find((l) => l.startsWith(RESULT_PREFIX));
      if (code !== 0 || !line) return reject(new Error(`${mode} worker exited ${code}:\n${stderr.slice(-2000)}`));
      resolve(JSON.parse(line.slice(RESULT_PREFIX.length)) as WorkerResult);
    });
  });
}

async function run(): Promise<BenchResult> {
  const folder = mkdtempSync(path.join(tmpdir(), "bench-image-upload-"));
  // Fast status transitions: processing takes a minute of emulated time, 0.1 s here.
  const emulator = await startEmulator({ port: 0, timeScale: 600 });
  try {
    const image = await writeGzipImage(path.join(folder, "disk.img.gz"), { compressedBytes: FILE_BYTES });
    const results = {} as Record<WorkerMode, WorkerResult>;
    for (const mode of ["raw", "sdk", "provider"] as const) results[mode] = await runWorker(mode, emulator.url, emulator.token, image.file);

    const growth = (r: WorkerResult) => r.peakRss - r.baselineRss;
    const metrics: Metric[] = [
      {
        label: "provider process, peak RSS growth (check + upload + wait)",
        value: `${mb(growth(results.provider))} (limit ${mb(MEMORY_LIMIT_BYTES)})`,
      },
      {
        label: "provider process, RSS before → peak (lifetime maxRSS)",
        value: `${mb(results.provider.baselineRss)} → ${mb(results.provider.peakRss)} (${mb(results.provider.maxRss)})`,
      },
      { label: "sdk uploadFile, peak RSS growth", value: mb(growth(results.sdk)) },
      { label: "raw undici PUT, peak RSS growth", value: mb(growth(results.raw)) },
      { label: "raw undici PUT, throughput", value: rate(results.raw.bytes, results.raw.uploadMs) },
      { label: "sdk uploadFile (hash + progress), throughput", value: rate(results.sdk.bytes, results.sdk.uploadMs) },
      {
        label: "provider upload, throughput",
        value: Number.isFinite(results.provider.uploadMs) ? rate(results.provider.bytes, results.provider.uploadMs) : "n/a",
      },
      { label: "sdk / raw throughput", value: (results.raw.uploadMs / results.sdk.uploadMs).toFixed(2) },
      { label: "provider create, total (check hashes the file, upload, wait)", value: `${(results.provider.totalMs / 1000).toFixed(1)} s` },
    ];
    const failures =
      growth(results.provider) >= MEMORY_LIMIT_BYTES
        ? [`the provider process grew by ${mb(growth(results.provider))} while uploading (limit: less than ${mb(MEMORY_LIMIT_BYTES)})`]
        : [];
    return {
      summary: `${mb(image.bytes)} gzip image (${mb(image.uncompressedBytes)} uncompressed), uploaded to the emulator on loopback`,
      metrics,
      failures,
    };
  } finally {
    await emulator.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

export const benchmark: Benchmark = {
  name: "image-upload",
  description: "Streaming a 256 MB gzip image: provider process peak memory growth (< 64 MB) and throughput next to a raw undici PUT",
  run,
};
