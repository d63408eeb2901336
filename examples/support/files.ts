/** Files the examples generate: a small deterministic gzip disk image to upload. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { writeGzipImage } from "./gzip-image";

/**
 * A deterministic 8 MiB gzip "disk image", generated once per machine and then reused: the same
 * content every run, so the Image resource never sees a change it did not get.
 */
export async function exampleImageFile(name = "golden"): Promise<string> {
  const dir = path.join(os.tmpdir(), "pulumi-compute-examples");
  const file = path.join(dir, `${name}.img.gz`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dir, { recursive: true });
    const partial = `${file}.${process.pid}.tmp`;
    await writeGzipImage(partial, { compressedBytes: 8 * 1024 * 1024, seed: 7 });
    fs.renameSync(partial, file); // atomic: a concurrent run never reads half a file
  }
  return file;
}
