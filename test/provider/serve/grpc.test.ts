/**
 * The plugin's own gRPC (`provider/serve/grpc.ts`) against grpc-js, a gRPC implementation of its
 * own: a unary call and its answer, a failure with its status details, a method the server lacks,
 * a request it cannot read; and the client the engine's `Log` goes through, against a grpc-js server.
 */
import * as grpc from "@grpc/grpc-js";
import { frame, GRPC_STATUS, percentEncoded, serveUnary, unaryClient, unframe, type UnaryMethod } from "../../../provider/serve/grpc";

const bytes = (text: string) => new Uint8Array(Buffer.from(text));
const text = (data: Uint8Array) => Buffer.from(data).toString();

/** A message that is its text. */
const message = (value: string) => ({ serializeBinary: () => bytes(value) });

const echo: UnaryMethod = {
  decode: (data) => text(data),
  handle: ({ request }, callback) => {
    if (request === "fail")
      callback({ code: GRPC_STATUS.UNKNOWN, details: "it failed; at 100% – see below", statusDetails: bytes("details") });
    else setImmediate(() => callback(null, message(`echo: ${String(request)}`)));
  },
};

let served: Awaited<ReturnType<typeof serveUnary>>;
let client: grpc.Client;

beforeAll(async () => {
  served = await serveUnary(new Map([["/test.Echo/Say", echo]]));
  client = new grpc.Client(`127.0.0.1:${served.port}`, grpc.credentials.createInsecure());
});

afterAll(() => {
  client?.close();
  served?.server.forceShutdown();
});

/** A unary call by grpc-js's client, raw bytes each way. */
function call(path: string, request: Buffer): Promise<string> {
  return new Promise((resolve, reject) =>
    client.makeUnaryRequest(
      path,
      (value: Buffer) => value,
      (value: Buffer) => value.toString(),
      request,
      (error: grpc.ServiceError | null, response?: string) => (error ? reject(error) : resolve(response!)),
    ),
  );
}

test("a message is framed as gRPC frames it, and a frame that is compressed or short is refused", () => {
  const framed = frame(bytes("hello"));
  expect([...framed.subarray(0, 5)]).toEqual([0, 0, 0, 0, 5]);
  expect(text(unframe(framed))).toBe("hello");
  expect(() => unframe(Buffer.from([1, 0, 0, 0, 0]))).toThrow("compressed gRPC messages are not accepted");
  expect(() => unframe(Buffer.from([0, 0, 0, 0, 9, 1]))).toThrow("the gRPC message says 9 bytes; the body has 1");
});

test("a status message keeps printable ASCII and percent-encodes the rest, as the protocol says", () => {
  expect(percentEncoded("a; b,c 100% é\n")).toBe("a; b,c 100%25 %C3%A9%0A");
});

test("a call is answered, several at once each with its own answer", async () => {
  const answers = await Promise.all(["one", "two", "three"].map((word) => call("/test.Echo/Say", Buffer.from(word))));
  expect(answers).toEqual(["echo: one", "echo: two", "echo: three"]);
});

test("a failure reaches the caller with its code, its message and its status details", async () => {
  const error = (await call("/test.Echo/Say", Buffer.from("fail")).catch((e: unknown) => e)) as grpc.ServiceError;
  expect({ code: error.code, details: error.details }).toEqual({ code: grpc.status.UNKNOWN, details: "it failed; at 100% – see below" });
  expect(error.metadata.get("grpc-status-details-bin").map(String)).toEqual(["details"]);
});

test("a method the server lacks is UNIMPLEMENTED; a request it cannot read is INTERNAL", async () => {
  const missing = (await call("/test.Echo/Shout", Buffer.from("x")).catch((e: unknown) => e)) as grpc.ServiceError;
  expect({ code: missing.code, details: missing.details }).toEqual({
    code: grpc.status.UNIMPLEMENTED,
    details: "pulumi-resource-compute has no method /test.Echo/Shout",
  });
  const unreadable: UnaryMethod = {
    decode: () => {
      throw new Error("not a message");
    },
    handle: () => undefined,
  };
  const other = await serveUnary(new Map([["/test.Echo/Say", unreadable]]));
  const otherClient = new grpc.Client(`127.0.0.1:${other.port}`, grpc.credentials.createInsecure());
  try {
    const error = await new Promise<grpc.ServiceError>((resolve) =>
      otherClient.makeUnaryRequest(
        "/test.Echo/Say",
        (v: Buffer) => v,
        String,
        Buffer.from("x"),
        (e) => resolve(e!),
      ),
    );
    expect({ code: error.code, details: error.details }).toEqual({
      code: grpc.status.INTERNAL,
      details: "cannot read the request of /test.Echo/Say: not a message",
    });
  } finally {
    otherClient.close();
    other.server.forceShutdown();
  }
});

test("the client (the engine's Log) calls a grpc-js server: OK, and a refusal with its status", async () => {
  const server = new grpc.Server();
  const seen: string[] = [];
  server.addService(
    {
      log: {
        path: "/test.Engine/Log",
        requestStream: false,
        responseStream: false,
        requestDeserialize: (value: Buffer) => value.toString(),
        requestSerialize: (value: string) => Buffer.from(value),
        responseSerialize: (value: string) => Buffer.from(value),
        responseDeserialize: (value: Buffer) => value.toString(),
      },
    },
    {
      log: (call: grpc.ServerUnaryCall<string, string>, callback: grpc.sendUnaryData<string>) => {
        seen.push(call.request);
        if (call.request === "refuse") callback({ code: grpc.status.PERMISSION_DENIED, details: "not you; not now" });
        else callback(null, "");
      },
    },
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  try {
    const send = unaryClient(`127.0.0.1:${port}`);
    const result = (line: string) => new Promise<Error | null>((resolve) => send("/test.Engine/Log", bytes(line), resolve));
    expect(await result("a line")).toBeNull();
    expect((await result("refuse"))?.message).toBe(`/test.Engine/Log: status ${grpc.status.PERMISSION_DENIED} not you; not now`);
    expect(seen).toEqual(["a line", "refuse"]);
  } finally {
    server.forceShutdown();
  }
  // Nothing listens any more: the call reports its failure instead of hanging.
  const send = unaryClient(`127.0.0.1:${port}`);
  const late = await new Promise<Error | null>((resolve) => send("/test.Engine/Log", bytes("late"), resolve));
  expect(late?.message).toMatch(/ECONNREFUSED/);
});
