/**
 * The upload URL (`PUT /__uploads/<image number>?Signature=…&Expires=…`), served by the emulator
 * itself where the platform hands out a pre-signed object-storage URL (api-facts "POST
 * /images/upload response"). It sits outside `/v4`: no token, no JSON body parser.
 *
 * The body is read as a stream and never held in memory: every chunk is counted (more than 5 GB
 * compressed is refused), the first bytes must be the gzip magic, and the data goes through a
 * streaming gunzip whose output is only counted — that count, in MB, becomes the image's `size`.
 * Data that is not gzip, or does not decompress (a corrupt or truncated stream), is refused with
 * 400 and the image stays `pending_upload`, so the client may try again within the 24 hours.
 */
import { createGunzip, type Gunzip } from "node:zlib";
import type { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { IMAGE_UPLOAD_CONTENT_TYPE, IMAGE_UPLOAD_REASONS, MAX_IMAGE_UPLOAD_BYTES } from "../../../sdk/resources/images";
import type { EmulatorRuntime } from "../../core/runtime";
import { REASONS, errorBody } from "../../core/errors";
import { applyFaultBefore, pickFault } from "../../core/fault-responder";
import { UPLOAD_PREFIX, findUploadTarget } from "./store";
import { receiveUpload } from "./operations";

const GZIP_MAGIC = [0x1f, 0x8b] as const;

/** A refusal of the upload: status and reason (the envelope is the API's). */
export class UploadRefusal extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** Images receiving data right now, per emulator (a second concurrent PUT is refused). */
const receiving = new WeakMap<EmulatorRuntime, Set<string>>();

function receivingSet(runtime: EmulatorRuntime): Set<string> {
  let set = receiving.get(runtime);
  if (!set) receiving.set(runtime, (set = new Set()));
  return set;
}

/** Registers the upload route (and 405 for other methods) in its own scope, with a pass-through body parser. */
export function registerImageUploads(app: FastifyInstance, runtime: EmulatorRuntime): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // The body is the image: hand the raw stream to the handler instead of reading it into memory.
    scope.addContentTypeParser("*", (_request, payload, done) => done(null, payload));
    const url = `${UPLOAD_PREFIX}/:imageNumber`;
    scope.put(url, (request, reply) => receive(runtime, request, reply));
    scope.route({
      method: ["GET", "POST", "DELETE", "PATCH"],
      url,
      handler: async (_request, reply) =>
        reply
          .code(405)
          .header("Allow", "PUT")
          .send(errorBody([{ reason: REASONS.methodNotAllowed }])),
    });
  });
}

async function receive(runtime: EmulatorRuntime, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const fault = pickFault(runtime, request);
  if (fault && (await applyFaultBefore(runtime, fault, request, reply))) return reply;
  const body = (request.body as Readable | undefined) ?? request.raw;
  const busy = receivingSet(runtime);
  let claimed: string | undefined;
  try {
    const { image } = authorize(runtime, request);
    checkHeaders(request);
    if (busy.has(image.id)) throw new UploadRefusal(400, IMAGE_UPLOAD_REASONS.inProgress);
    busy.add((claimed = image.id));
    const uncompressed = await inspectGzip(body, MAX_IMAGE_UPLOAD_BYTES);
    // The image may have been deleted (or its window closed) while the data was streaming.
    const target = authorize(runtime, request);
    receiveUpload(runtime, target.account, target.image, uncompressed);
    runtime.persist();
    return reply.code(200).send();
  } catch (error) {
    if (!(error instanceof UploadRefusal)) throw error;
    // Whatever was not read of the body is not wanted: close the connection after answering.
    if (!body.readableEnded) reply.header("connection", "close");
    return reply.code(error.status).send(errorBody([{ reason: error.reason }]));
  } finally {
    if (claimed !== undefined) busy.delete(claimed);
  }
}

/** The image the URL points at, checked like a pre-signed URL: known image, matching signature, not expired, waiting for data. */
function authorize(runtime: EmulatorRuntime, request: FastifyRequest) {
  const number = Number((request.params as { imageNumber: string }).imageNumber);
  const query = request.query as Record<string, string | undefined>;
  const target = Number.isSafeInteger(number) ? findUploadTarget(runtime, number) : undefined;
  if (!target) throw new UploadRefusal(404, REASONS.notFound);
  const upload = target.image.upload;
  if (!upload) throw new UploadRefusal(400, IMAGE_UPLOAD_REASONS.notPending);
  if (query["Signature"] !== upload.signature) throw new UploadRefusal(403, IMAGE_UPLOAD_REASONS.signature);
  if (Number(query["Expires"]) !== upload.expires) throw new UploadRefusal(403, IMAGE_UPLOAD_REASONS.signature);
  if (runtime.clock.nowMs() > upload.expires * 1000) throw new UploadRefusal(403, IMAGE_UPLOAD_REASONS.expired);
  return target;
}

/** `Content-Type: application/octet-stream`, and a declared length within the limit (refused before reading anything). */
function checkHeaders(request: FastifyRequest): void {
  const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== IMAGE_UPLOAD_CONTENT_TYPE) throw new UploadRefusal(400, IMAGE_UPLOAD_REASONS.contentType);
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared > MAX_IMAGE_UPLOAD_BYTES) throw new UploadRefusal(400, IMAGE_UPLOAD_REASONS.tooLarge);
}

/**
 * Reads the whole body as a stream and answers the uncompressed byte count. Refuses (with
 * `UploadRefusal`) more than `limitBytes` compressed — at once, without reading further — and
 * data that is not gzip or does not decompress; those are read to the end and discarded, so the
 * client receives the answer instead of a broken connection.
 */
export async function inspectGzip(source: Readable, limitBytes: number): Promise<number> {
  let compressed = 0;
  let uncompressed = 0;
  let head = Buffer.alloc(0);
  let refusal: UploadRefusal | undefined;
  const gunzip = createGunzip();
  let gunzipError: Error | undefined;
  gunzip.on("data", (chunk: Buffer) => {
    uncompressed += chunk.length;
  });
  gunzip.on("error", (error) => {
    gunzipError = error;
  });
  const refuse = (reason: string) => {
    refusal ??= new UploadRefusal(400, reason);
    gunzip.destroy();
  };

  const finished = await consume(source, async (chunk) => {
    compressed += chunk.length;
    if (compressed > limitBytes) return false;
    if (refusal) return true; // discard the rest
    if (head.length < GZIP_MAGIC.length) {
      head = Buffer.concat([head, chunk.subarray(0, GZIP_MAGIC.length - head.length)]);
      if (head.length >= GZIP_MAGIC.length && (head[0] !== GZIP_MAGIC[0] || head[1] !== GZIP_MAGIC[1])) {
        refuse(IMAGE_UPLOAD_REASONS.notGzip);
        return true;
      }
    }
    await writeWithBackpressure(gunzip, chunk);
    if (gunzipError) refuse(IMAGE_UPLOAD_REASONS.notGzip);
    return true;
  });
  if (!finished) {
    gunzip.destroy();
    throw new UploadRefusal(400, IMAGE_UPLOAD_REASONS.tooLarge);
  }
  if (refusal) throw refusal;
  if (compressed === 0) {
    gunzip.destroy();
    throw new UploadRefusal(400, IMAGE_UPLOAD_REASONS.empty);
  }
  if (head.length < GZIP_MAGIC.length) {
    gunzip.destroy();
    throw new UploadRefusal(400, IMAGE_UPLOAD_REASONS.notGzip);
  }
  // A truncated stream fails here ("unexpected end of file"), a bad checksum too.
  await endOf(gunzip).catch(() => {
    throw new UploadRefusal(400, IMAGE_UPLOAD_REASONS.notGzip);
  });
  return uncompressed;
}

/** Writes one chunk, waiting for `drain` when the decompressor's buffer is full (or for its error). */
function writeWithBackpressure(gunzip: Gunzip, chunk: Buffer): Promise<void> {
  if (gunzip.destroyed) return Promise.resolve();
  if (gunzip.write(chunk)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      gunzip.off("drain", done);
      gunzip.off("error", done);
      gunzip.off("close", done);
      resolve();
    };
    gunzip.on("drain", done);
    gunzip.on("error", done);
    gunzip.on("close", done);
  });
}

/** Ends the decompressor and waits until all its output was counted; rejects on its error. */
function endOf(gunzip: Gunzip): Promise<void> {
  return new Promise((resolve, reject) => {
    if (gunzip.destroyed) return reject(new Error("gunzip destroyed"));
    gunzip.once("end", () => resolve());
    gunzip.once("error", reject);
    gunzip.end();
  });
}

/**
 * Feeds the stream's chunks to `onChunk` one at a time (the stream is paused meanwhile, so memory
 * stays bounded). Resolves true at the end, false as soon as `onChunk` says stop (the stream is
 * left paused: the caller answers and closes the connection). Rejects when the client goes away.
 */
function consume(source: Readable, onChunk: (chunk: Buffer) => Promise<boolean>): Promise<boolean> {
  return new Promise((resolve, reject) => {
    let busy = false;
    let ended = false;
    let settled = false;
    const cleanup = () => {
      source.off("data", onData);
      source.off("end", onEnd);
      source.off("close", onClose);
      source.off("error", onError);
    };
    const settle = (run: () => void) => {
      if (settled) return;
      settled = true;
      cleanup();
      run();
    };
    const onData = (chunk: Buffer) => {
      busy = true;
      source.pause();
      onChunk(chunk).then(
        (more) => {
          busy = false;
          if (!more) return settle(() => resolve(false));
          if (ended) return settle(() => resolve(true));
          source.resume();
        },
        (error: unknown) => settle(() => reject(error)),
      );
    };
    const onEnd = () => {
      ended = true;
      if (!busy) settle(() => resolve(true));
    };
    const onClose = () => {
      if (!ended) settle(() => reject(new Error("the client closed the connection before the upload was complete")));
    };
    const onError = (error: Error) => settle(() => reject(error));
    source.on("data", onData);
    source.on("end", onEnd);
    source.on("close", onClose);
    source.on("error", onError);
    source.resume();
  });
}
