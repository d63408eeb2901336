/**
 * Generates a large gzip-compressed "raw disk image" quickly and deterministically, for the upload
 * benchmark and the end-to-end test.
 *
 * A real disk image is mostly repeated structure with incompressible regions (compressed files,
 * random data). Deflating incompressible data is the slow part of gzip (about 30 MB/s here), so
 * the file is built as a series of gzip members — RFC 1952 allows any number, and every gunzip
 * reads them as one stream — alternating pseudo-random blocks stored without compression (level
 * 0: as fast as copying) and a block of a repeated 512-byte "sector" pattern compressed once and
 * reused. The pseudo-random bytes are an AES-CTR keystream keyed by the seed, so the same seed
 * always gives the same file; another seed, other content. About 1.5 s for 256 MB.
 */
import { createCipheriv, createHash } from "node:crypto";
import { open } from "node:fs/promises";
import { gzipSync } from "node:zlib";

const MIB = 1024 * 1024;
/** Uncompressed size of each pseudo-random block and each pattern block. */
const BLOCK_BYTES = 4 * MIB;

export interface GzipImageOptions {
  /** Target size of the file (compressed), bytes; the result is within one block above it. Default 256 MiB. */
  compressedBytes?: number;
  /** Content seed; default 1. */
  seed?: number;
  /** Pattern blocks per pseudo-random block (the uncompressed data is larger by this ratio). Default 0.25. */
  patternRatio?: number;
}

export interface GzipImage {
  file: string;
  /** Size of the file. */
  bytes: number;
  /** Size of the data it decompresses to. */
  uncompressedBytes: number;
  /** Hex SHA-256 of the file. */
  sha256: string;
}

/** A 512-byte "sector" repeated over a block: compresses to a few kilobytes. */
function patternMember(seed: number): Buffer {
  const sector = Buffer.alloc(512);
  for (let i = 0; i < sector.length; i++) sector[i] = (i * 7 + seed * 13) & 0xff;
  const block = Buffer.alloc(BLOCK_BYTES);
  for (let offset = 0; offset < block.length; offset += sector.length) sector.copy(block, offset);
  return gzipSync(block, { level: 6 });
}

/** Writes the image to `file` (replacing it) and describes what was written. */
export async function writeGzipImage(file: string, options: GzipImageOptions = {}): Promise<GzipImage> {
  const target = options.compressedBytes ?? 256 * MIB;
  const seed = options.seed ?? 1;
  const ratio = options.patternRatio ?? 0.25;
  const key = createHash("sha256").update(`pulumi-compute gzip image ${seed}`).digest();
  const keystream = createCipheriv("aes-256-ctr", key, Buffer.alloc(16));
  const zeros = Buffer.alloc(BLOCK_BYTES);
  const pattern = patternMember(seed);
  const hash = createHash("sha256");
  const handle = await open(file, "w");
  let bytes = 0;
  let uncompressedBytes = 0;
  const write = async (member: Buffer) => {
    hash.update(member);
    bytes += member.length;
    await handle.write(member);
  };
  try {
    let owed = 0;
    while (bytes < target) {
      // A final block only as large as needed, so the file ends close to the target.
      const size = Math.min(BLOCK_BYTES, Math.max(1024, target - bytes));
      await write(gzipSync(keystream.update(zeros.subarray(0, size)), { level: 0 }));
      uncompressedBytes += size;
      for (owed += ratio; owed >= 1; owed--) {
        await write(pattern);
        uncompressedBytes += BLOCK_BYTES;
      }
    }
  } finally {
    await handle.close();
  }
  return { file, bytes, uncompressedBytes, sha256: hash.digest("hex") };
}
