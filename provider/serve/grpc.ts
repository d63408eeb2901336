/**
 * The gRPC the provider processes speak (the serving layer's, shared by both doors), first the plugin's: unary calls over Node's own HTTP/2, as the gRPC protocol frames them
 * (https://github.com/grpc/grpc/blob/master/doc/PROTOCOL-HTTP2.md), served (`serveUnary`) and sent
 * (`unaryCall`, the engine's `Log`). The dynamic provider host's service is served on it too
 * (`host/transport.ts`): its handlers answer in grpc-js's form, which `grpcJsFailure` reads as
 * grpc-js's server does.
 *
 * Why not `@grpc/grpc-js`: the engine starts the plugin for every `preview`, `up`, `refresh` and
 * `destroy`, and every resource's Check, Diff, Create, Read and Delete is a call. Loading grpc-js
 * (65 modules, its client stack included) was a quarter of the plugin's start, and its server
 * builds a chain of interceptors, a metadata object and a call tracker for every call. Every call
 * of Pulumi's ResourceProvider protocol is unary and uncompressed, which needs none of it. The
 * messages are still `@pulumi/pulumi`'s own classes (`protocol.ts`); only the transport is ours.
 */
import * as http2 from "node:http2";

/** gRPC's status codes, as its specification numbers them (the ones the plugin answers). */
export const GRPC_STATUS = { OK: 0, UNKNOWN: 2, UNIMPLEMENTED: 12, INTERNAL: 13 } as const;

/**
 * A failed call: its status code, message and, as `grpc-status-details-bin`, a serialized
 * `google.rpc.Status`; or its trailers as grpc-js's `Metadata` gives them (`metadata`, which
 * carries the dynamic host's status details).
 */
export interface GrpcFailure {
  code: number;
  details: string;
  statusDetails?: Uint8Array;
  metadata?: http2.OutgoingHttpHeaders;
}

/** A message as the generated classes of `@pulumi/pulumi` give it: it serializes itself. */
export interface Message {
  serializeBinary(): Uint8Array;
}

/** One unary method: how its request is read, and its handler in grpc-js's form (`host/transport.ts` adapts the host's own). */
export interface UnaryMethod {
  decode(bytes: Uint8Array): unknown;
  handle(call: { request: unknown }, callback: (error: GrpcFailure | null, response?: Message | null) => void): unknown;
}

const GRPC_CONTENT_TYPE = "application/grpc";

/** Length-prefixed, as gRPC frames a message: a compression flag (0: none) and the length in 4 bytes, big-endian. */
export function frame(message: Uint8Array): Buffer {
  const framed = Buffer.allocUnsafe(5 + message.length);
  framed[0] = 0;
  framed.writeUInt32BE(message.length, 1);
  framed.set(message, 5);
  return framed;
}

/** The one message of a unary call's body; throws on a compressed or truncated one. */
export function unframe(body: Buffer): Uint8Array {
  if (body.length < 5) throw new Error(`a gRPC message needs a 5-byte prefix; the body has ${body.length} bytes`);
  if (body[0] !== 0) throw new Error("compressed gRPC messages are not accepted");
  const length = body.readUInt32BE(1);
  if (body.length !== 5 + length) throw new Error(`the gRPC message says ${length} bytes; the body has ${body.length - 5}`);
  return body.subarray(5);
}

/**
 * A status message as the protocol carries it: every byte of its UTF-8 outside printable ASCII, and
 * `%`, percent-encoded (grpc-js's client decodes with `decodeURI`, which keeps `%3B` as it is).
 */
export function percentEncoded(message: string): string {
  let out = "";
  for (const byte of Buffer.from(message, "utf8")) {
    out +=
      byte >= 0x20 && byte <= 0x7e && byte !== 0x25 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** A status message as sent: its percent-encoded bytes decoded (left as they are where they are not UTF-8). */
function percentDecoded(message: string): string {
  try {
    return decodeURIComponent(message);
  } catch {
    return message;
  }
}

/** A status as trailers carry it (a failure's metadata after the status, as grpc-js's server merges them). */
function statusHeaders(failure: GrpcFailure): http2.OutgoingHttpHeaders {
  const headers: http2.OutgoingHttpHeaders = { "grpc-status": String(failure.code), "grpc-message": percentEncoded(failure.details) };
  if (failure.statusDetails) headers["grpc-status-details-bin"] = Buffer.from(failure.statusDetails).toString("base64");
  return failure.metadata ? { ...headers, ...failure.metadata } : headers;
}

/**
 * A handler's error in grpc-js's form as grpc-js's server answers it (`serverErrorToStatus` of
 * `@grpc/grpc-js/build/src/server-call.js`, pinned by `test/provider/host/transport.test.ts`): an
 * integer `code` is kept, and then a string `details` is the message; otherwise UNKNOWN; the
 * message is the error's `message` (an Error's, or an object's that has one, whatever its type),
 * else "Unknown Error". The trailers are the callback's third argument, else the error's
 * `metadata`, written as its own `toHttp2Headers` writes them (binary values in base64). An error
 * that is not an object (a thrown string) is UNKNOWN with its text: grpc-js throws there and the
 * call is never answered.
 */
export function grpcJsFailure(error: unknown, trailer?: unknown): GrpcFailure {
  if (typeof error !== "object" || error === null) return { code: GRPC_STATUS.UNKNOWN, details: String(error) };
  const e = error as { code?: unknown; details?: unknown; message?: unknown; metadata?: unknown };
  let code: number = GRPC_STATUS.UNKNOWN;
  let details: unknown = "message" in e ? e.message : "Unknown Error";
  if (typeof e.code === "number" && Number.isInteger(e.code)) {
    code = e.code;
    if (typeof e.details === "string") details = e.details;
  }
  const metadata = (trailer ?? e.metadata) as { toHttp2Headers?: () => http2.OutgoingHttpHeaders } | null | undefined;
  // grpc-js writes the message with `encodeURI(details)`: a message that is not a string is its text.
  const failure: GrpcFailure = { code, details: String(details) };
  if (typeof metadata?.toHttp2Headers === "function") failure.metadata = metadata.toHttp2Headers();
  return failure;
}

const bodyOf = (stream: http2.ServerHttp2Stream): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    stream.once("error", reject);
  });

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Answers one call: decodes its request, runs its handler, writes the response (or the failure) and the status. */
async function answer(stream: http2.ServerHttp2Stream, method: UnaryMethod | undefined, path: string, server: string): Promise<void> {
  const fail = (failure: GrpcFailure) => {
    // Trailers-only: the status travels in the response's one headers frame.
    if (!stream.destroyed && !stream.headersSent)
      stream.respond({ ":status": 200, "content-type": GRPC_CONTENT_TYPE, ...statusHeaders(failure) }, { endStream: true });
  };
  if (!method) {
    stream.resume();
    return fail({ code: GRPC_STATUS.UNIMPLEMENTED, details: `${server} has no method ${path}` });
  }
  let request: unknown;
  try {
    request = method.decode(unframe(await bodyOf(stream)));
  } catch (error) {
    return fail({ code: GRPC_STATUS.INTERNAL, details: `cannot read the request of ${path}: ${messageOf(error)}` });
  }
  let answered = false;
  try {
    method.handle({ request }, (error, response) => {
      // A call has one answer: a handler that calls back twice gets its first (as grpc-js's server, which ends the call then).
      if (answered) return;
      answered = true;
      if (stream.destroyed) return; // the caller gave up (cancelled, or the engine is gone)
      if (error || !response) return fail(error ?? { code: GRPC_STATUS.INTERNAL, details: `${path} answered nothing` });
      let body: Uint8Array;
      try {
        body = response.serializeBinary();
      } catch (thrown) {
        return fail({ code: GRPC_STATUS.INTERNAL, details: `cannot write the response of ${path}: ${messageOf(thrown)}` });
      }
      stream.respond({ ":status": 200, "content-type": GRPC_CONTENT_TYPE }, { waitForTrailers: true });
      stream.once("wantTrailers", () => stream.sendTrailers({ "grpc-status": String(GRPC_STATUS.OK) }));
      stream.end(frame(body));
    });
  } catch (thrown) {
    // A handler that throws before it answers: UNKNOWN, as grpc-js's server answers it.
    answered = true;
    fail({ code: GRPC_STATUS.UNKNOWN, details: `${path} failed: ${messageOf(thrown)}` });
  }
}

/**
 * Serves `methods` (by path, `/pulumirpc.ResourceProvider/Check`) on a free loopback port; any
 * other path is answered UNIMPLEMENTED, as gRPC servers answer a method they lack, saying that
 * `server` (the process's name for the user) has no such method.
 */
export function serveUnary(
  methods: ReadonlyMap<string, UnaryMethod>,
  server = "pulumi-resource-compute",
): Promise<{ port: number; server: { forceShutdown(): void } }> {
  // No limit on the memory of a session: Node refuses new streams past it, and one state can be large.
  const http = http2.createServer({ maxSessionMemory: Number.MAX_SAFE_INTEGER, maxSendHeaderBlockLength: Number.MAX_SAFE_INTEGER });
  const sessions = new Set<http2.ServerHttp2Session>();
  http.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
    session.on("error", () => undefined); // a connection reset by the engine ends only its own calls
  });
  http.on("stream", (stream, headers) => {
    stream.on("error", () => undefined);
    const path = String(headers[":path"] ?? "");
    void answer(stream, methods.get(path), path, server);
  });
  return new Promise((resolve, reject) => {
    http.once("error", reject);
    http.listen(0, "127.0.0.1", () => {
      const address = http.address();
      const port = typeof address === "object" && address ? address.port : 0;
      const forceShutdown = () => {
        for (const session of sessions) session.destroy();
        http.close();
      };
      resolve({ port, server: { forceShutdown } });
    });
  });
}

/**
 * One unary call to `address` (`host:port`, as the engine gives its own): `path`, the request's
 * bytes; calls back with the failure, or null once the status says OK. The connection is opened
 * at the first call and kept; it never keeps the process alive.
 */
export function unaryClient(address: string): (path: string, request: Uint8Array, callback: (error: Error | null) => void) => void {
  let session: http2.ClientHttp2Session | undefined;
  const connected = () => {
    if (!session || session.closed || session.destroyed) {
      session = http2.connect(`http://${address}`);
      session.on("error", () => undefined); // each call reports its own failure
      session.unref();
    }
    return session;
  };
  return (path, request, callback) => {
    let done = false;
    const finish = (error: Error | null) => {
      if (!done) callback(error);
      done = true;
    };
    let stream: http2.ClientHttp2Stream;
    try {
      stream = connected().request({ ":method": "POST", ":path": path, "content-type": GRPC_CONTENT_TYPE, te: "trailers" });
    } catch (error) {
      return finish(error instanceof Error ? error : new Error(String(error)));
    }
    const statusOf = (headers: http2.IncomingHttpHeaders) => {
      const status = headers["grpc-status"];
      if (status === undefined) return;
      const message = percentDecoded(String(headers["grpc-message"] ?? ""));
      finish(Number(status) === GRPC_STATUS.OK ? null : new Error(`${path}: status ${String(status)} ${message}`));
    };
    stream.on("response", statusOf); // a trailers-only answer
    stream.on("trailers", statusOf);
    stream.on("error", (error: Error) => finish(error));
    stream.on("close", () => finish(new Error(`${path}: the call ended without a status`)));
    stream.resume();
    stream.end(frame(request));
  };
}
