/**
 * The dynamic provider host's service on this package's own unary gRPC (`provider/host/transport.ts`),
 * tested on the real host of the pinned `@pulumi/pulumi`, started through the launcher, against the
 * same host served by grpc-js (Pulumi's host alone), called over HTTP/2 as the engine calls it:
 *
 * - the host's and grpc-js's code this relies on is exactly the pinned one (a change fails here);
 * - through the launcher the host is served by our transport, and Configure, Check, Diff, Create,
 *   Read, Update and Delete round-trip;
 * - every failure is answered as grpc-js answers it, byte for byte where it carries bytes: a
 *   create's init error with its `grpc-status-details-bin` (the object's id and properties, which
 *   the engine keeps in state), an Error without a code (UNKNOWN), an error with its own code and
 *   details, the host's UNIMPLEMENTED methods;
 * - an unknown path, and the streaming List, are UNIMPLEMENTED;
 * - a reshaped service definition leaves grpc-js serving, and the run is told once.
 */
import * as fs from "node:fs";
import * as http2 from "node:http2";
import * as path from "node:path";
import { HOST_PINNED } from "../../../provider/host/entry";
import { transportUnusable } from "../../../provider/host/transport";
import { grpcJsFailure } from "../../../provider/serve/grpc";
import {
  HOST,
  HostProcess,
  LAUNCHER,
  PULUMI,
  ROOT,
  Struct,
  expectPinned,
  fakeEngine,
  grpc,
  hostSource,
  hostVersion,
  proto,
  services,
  sha,
} from "./real-host";

jest.setTimeout(60_000);

const GRPC_JS = path.dirname(require.resolve("@grpc/grpc-js/package.json", { paths: [PULUMI] }));
/* eslint-disable @typescript-eslint/no-require-imports -- grpc-js's own server code, and the host's status message */
const serverCall = require(path.join(GRPC_JS, "build/src/server-call.js")) as {
  serverErrorToStatus(e: object, t?: unknown): { code: number; details: unknown; metadata: unknown };
};
const statusProto = require(path.join(PULUMI, "proto/status_pb")) as { Status: { deserializeBinary(b: Uint8Array): Request } };
/* eslint-enable @typescript-eslint/no-require-imports */
const grpcJsFile = (file: string) => fs.readFileSync(path.join(GRPC_JS, "build/src", file), "utf8");
/** The text of `function name(` … its closing brace at the start of a line, in `source`. */
function functionText(source: string, head: string): string {
  const start = source.indexOf(head);
  const end = source.indexOf("\n}\n", start);
  return start < 0 || end < 0 ? "(missing)" : source.slice(start, end);
}

/** What the transport relies on: how the host adds and binds its service and uses a call, how grpc-js answers a handler's error. */
function reliedOn(): Record<string, string> {
  const source = hostSource();
  const definition = services.ResourceProviderService as unknown as Record<string, { requestStream: boolean; responseStream: boolean }>;
  return {
    version: hostVersion(),
    // main: a Server, addService of the wrapped implementation, bindAsync("127.0.0.1:0", …, cb), the port printed.
    serve: sha(functionText(source, "async function main(args) {")),
    // What the host's methods read of a call: its request only (List emits its error).
    callMembers: [...new Set(source.match(/\bcall\.[A-Za-z]+/g))].sort().join(","),
    streaming: Object.entries(definition)
      .filter(([, entry]) => entry.requestStream || entry.responseStream)
      .map(([name]) => name)
      .join(","),
    grpcJs: (JSON.parse(fs.readFileSync(path.join(GRPC_JS, "package.json"), "utf8")) as { version: string }).version,
    serverErrorToStatus: sha(functionText(grpcJsFile("server-call.js"), "function serverErrorToStatus(error, overrideTrailers) {")),
    toHttp2Headers: sha(/ {4}toHttp2Headers\(\) \{[\s\S]*?\n {4}\}\n/.exec(grpcJsFile("metadata.js"))?.[0] ?? "(missing)"),
    bufToString: sha(/const bufToString = [\s\S]*?\n\};\n/.exec(grpcJsFile("metadata.js"))?.[0] ?? "(missing)"),
    handleUnary: sha(functionText(grpcJsFile("server.js"), "async function handleUnary(call, handler) {")),
  };
}

test("the host's and grpc-js's code the transport relies on is the pinned one", () => {
  expectPinned(
    reliedOn(),
    {
      version: HOST_PINNED,
      serve: "d9988de1a5f32514",
      callMembers: "call.emit,call.request",
      streaming: "list",
      grpcJs: "1.14.7",
      serverErrorToStatus: "123124080d2cf52a",
      toHttp2Headers: "1cd1f501fd72b6dc",
      bufToString: "184ba140b5fabf61",
      handleUnary: "f1aed30be6c75740",
    },
    "Pulumi's dynamic provider host or its @grpc/grpc-js is not the one provider/host/transport.ts was written against.\n" +
      "Re-read the host's main (how it adds and binds its service), what its methods read of a call, which methods stream, and\n" +
      "grpc-js's serverErrorToStatus, handleUnary and Metadata.toHttp2Headers; check transport.ts and grpcJsFailure (serve/grpc.ts) against them,",
  );
});

/** One call over HTTP/2, as the engine makes it: the response's headers, its message and its trailers, raw. */
async function rawCall(
  port: number,
  method: string,
  request: { serializeBinary(): Uint8Array },
): Promise<{ headers: http2.IncomingHttpHeaders; trailers: http2.IncomingHttpHeaders; body: Buffer }> {
  const session = http2.connect(`http://127.0.0.1:${port}`);
  try {
    return await new Promise((resolve, reject) => {
      const stream = session.request({
        ":method": "POST",
        ":path": `/pulumirpc.ResourceProvider/${method}`,
        "content-type": "application/grpc",
        te: "trailers",
      });
      let headers: http2.IncomingHttpHeaders = {};
      let trailers: http2.IncomingHttpHeaders = {};
      const chunks: Buffer[] = [];
      stream.on("response", (h) => (headers = h));
      stream.on("trailers", (t) => (trailers = t));
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => resolve({ headers, trailers, body: Buffer.concat(chunks) }));
      stream.on("error", reject);
      const message = request.serializeBinary();
      const framed = Buffer.alloc(5 + message.length);
      framed.writeUInt32BE(message.length, 1);
      framed.set(message, 5);
      stream.end(framed);
    });
  } finally {
    session.close();
  }
}

/** A call's status as the engine reads it: code, message (percent-decoded) and status details, from trailers or a trailers-only answer. */
async function status(port: number, method: string, request: { serializeBinary(): Uint8Array }) {
  const { headers, trailers } = await rawCall(port, method, request);
  const all = { ...headers, ...trailers };
  return {
    code: Number(all["grpc-status"]),
    message: decodeURIComponent(String(all["grpc-message"] ?? "")),
    details: all["grpc-status-details-bin"],
  };
}

/** A dynamic provider whose methods fail as its inputs say. */
const PROVIDER =
  "exports.handler=()=>({" +
  "check:async(olds,news)=>{if(news.mode==='coded')throw Object.assign(new Error('coded'),{code:9,details:'not now; 100% é'});" +
  "if(news.mode==='plain')throw new Error('refused: é at 100%');return {inputs:{...news,checked:true}}}," +
  "diff:async(id,olds,news)=>({changes:olds.size!==news.size,replaces:[]})," +
  "create:async(inputs)=>{if(inputs.mode==='init'){const e=new Error('created, not ready: booting 100% é');" +
  "e.id='42';e.properties={size:3,nested:{tags:['a','é']}};e.reasons=['booting'];throw e}" +
  "if(inputs.mode==='plain')throw new Error('refused');return {id:'7',outs:{...inputs,made:true}}}," +
  "read:async(id,props)=>({id,props:{...props,read:true}})," +
  "update:async(id,olds,news)=>({outs:{...news,updated:true}})," +
  "delete:async()=>{}})";
const URN = "urn:pulumi:dev::p::pulumi-nodejs:dynamic:Resource::x";

type Request = Record<string, (...a: unknown[]) => unknown> & { serializeBinary(): Uint8Array };
const props = (values: object) => Struct.fromJavaScript({ ...values, __provider: PROVIDER });
/** A request of the protocol with its fields set (`{ Urn: … }` calls `setUrn`). */
function request(name: string, fields: Record<string, unknown> = {}): Request {
  const r = new proto[name]!() as Request;
  for (const [field, value] of Object.entries(fields)) r[`set${field}`]!(value);
  return r;
}
const checkRequest = (values: object) => request("CheckRequest", { Urn: URN, Olds: Struct.fromJavaScript({}), News: props(values) });
const createRequest = (values: object) => request("CreateRequest", { Urn: URN, Properties: props(values) });
const changeRequest = (name: string) => request(name, { Id: "7", Urn: URN, Olds: props({ size: 1 }), News: props({ size: 2 }) });

/** Which server answered: grpc-js says `application/grpc+proto`, ours `application/grpc`. */
async function servedBy(port: number): Promise<string> {
  const { headers } = await rawCall(port, "GetPluginInfo", request("ConfigureRequest"));
  return String(headers["content-type"]);
}

describe("the launcher's host on our transport, against grpc-js serving the same host", () => {
  let engine: Awaited<ReturnType<typeof fakeEngine>>;
  let ours: HostProcess;
  let grpcJs: HostProcess;

  beforeAll(async () => {
    engine = await fakeEngine();
    ours = await HostProcess.start([LAUNCHER], engine.address);
    grpcJs = await HostProcess.start([process.execPath, HOST], engine.address);
    for (const host of [ours, grpcJs]) {
      const configure = request("ConfigureRequest", { Args: Struct.fromJavaScript({}) });
      await host.call("configure", configure);
    }
  });
  afterAll(() => {
    ours?.stop();
    grpcJs?.stop();
    engine?.stop();
  });

  test("the launcher's host is served by our transport, Pulumi's host alone by grpc-js", async () => {
    expect(await servedBy(ours.port)).toBe("application/grpc");
    expect(await servedBy(grpcJs.port)).toBe("application/grpc+proto");
  });

  test("Check, Diff, Create, Read, Update and Delete round-trip through a grpc-js client, as grpc-js serves them", async () => {
    const calls = async (host: HostProcess) => {
      const js = (s: unknown) => (s as { toJavaScript(): Record<string, unknown> }).toJavaScript();
      const checked = await host.call("check", checkRequest({ size: 1 }));
      const diff = await host.call("diff", changeRequest("DiffRequest"));
      const created = await host.call("create", createRequest({ size: 1 }));
      const read = await host.call("read", request("ReadRequest", { Id: "7", Urn: URN, Properties: props({ size: 1 }) }));
      const updated = await host.call("update", changeRequest("UpdateRequest"));
      const deleted = await host.call("delete", request("DeleteRequest", { Id: "7", Urn: URN, Properties: props({ size: 2 }) }));
      return {
        check: js(checked.getInputs!()),
        diff: diff.getChanges!(),
        create: [created.getId!(), js(created.getProperties!())],
        read: [read.getId!(), js(read.getProperties!())],
        update: js(updated.getProperties!()),
        delete: (deleted as unknown as { serializeBinary(): Uint8Array }).serializeBinary().length,
      };
    };
    const answered = await calls(ours);
    expect(answered).toMatchObject({
      check: { size: 1, checked: true },
      diff: 2, // DIFF_SOME
      create: ["7", { size: 1, made: true }],
      read: ["7", { size: 1, read: true }],
      update: { size: 2, updated: true },
      delete: 0,
    });
    expect(answered).toEqual(await calls(grpcJs));
  });

  test("a create's init error carries its status details byte for byte as grpc-js sends them", async () => {
    const failed = await status(ours.port, "Create", createRequest({ mode: "init" }));
    expect(failed.code).toBe(grpc.status.UNKNOWN);
    expect(failed.message).toBe("created, not ready: booting 100% é");
    expect(failed.details).toEqual(expect.any(String));
    expect(failed).toEqual(await status(grpcJs.port, "Create", createRequest({ mode: "init" })));
    // The engine reads the object from them: its id and properties, which it keeps in state.
    const [any] = statusProto.Status.deserializeBinary(Buffer.from(failed.details as string, "base64")).getDetailsList!() as Request[];
    const init = (proto.ErrorResourceInitFailed as unknown as { deserializeBinary(b: unknown): Request }).deserializeBinary(
      any!.getValue!(),
    );
    expect([init.getId!(), (init.getProperties!() as { toJavaScript(): object }).toJavaScript()]).toEqual([
      "42",
      { size: 3, nested: { tags: ["a", "é"] } },
    ]);
    // Through grpc-js's client, as another gRPC implementation reads it.
    const error = (await ours
      .call("create", createRequest({ mode: "init" }))
      .catch((e: unknown) => e)) as import("@grpc/grpc-js").ServiceError;
    expect(error.metadata.get("grpc-status-details-bin")).toEqual([Buffer.from(failed.details as string, "base64")]);
  });

  test("an Error without a code is UNKNOWN with its message; an error's own code keeps its details; as grpc-js answers them", async () => {
    const plain = await status(ours.port, "Check", checkRequest({ mode: "plain" }));
    expect(plain).toEqual({ code: grpc.status.UNKNOWN, message: "refused: é at 100%", details: undefined });
    expect(plain).toEqual(await status(grpcJs.port, "Check", checkRequest({ mode: "plain" })));
    const coded = await status(ours.port, "Check", checkRequest({ mode: "coded" }));
    expect(coded).toEqual({ code: 9, message: "not now; 100% é", details: undefined });
    expect(coded).toEqual(await status(grpcJs.port, "Check", checkRequest({ mode: "coded" })));
    // A create without an id: no status details, as grpc-js sends none.
    const refused = await status(ours.port, "Create", createRequest({ mode: "plain" }));
    expect(refused).toEqual({ code: grpc.status.UNKNOWN, message: "refused", details: undefined });
    expect(refused).toEqual(await status(grpcJs.port, "Create", createRequest({ mode: "plain" })));
    // The host's own refusals ({code, details}).
    const checkConfig = request("CheckRequest");
    expect(await status(ours.port, "CheckConfig", checkConfig)).toEqual({
      code: grpc.status.UNIMPLEMENTED,
      message: "CheckConfig is not implemented by the dynamic provider",
      details: undefined,
    });
    expect(await status(grpcJs.port, "CheckConfig", checkConfig)).toEqual(await status(ours.port, "CheckConfig", checkConfig));
  });

  test("an unknown path and the streaming List are UNIMPLEMENTED", async () => {
    const unknown = await status(ours.port, "NoSuchMethod", request("ConfigureRequest"));
    expect(unknown.code).toBe(grpc.status.UNIMPLEMENTED);
    expect(unknown.message).toMatch(/has no method \/pulumirpc\.ResourceProvider\/NoSuchMethod/);
    expect((await status(ours.port, "List", request("ConfigureRequest"))).code).toBe(grpc.status.UNIMPLEMENTED);
    expect((await status(grpcJs.port, "List", request("ConfigureRequest"))).code).toBe(grpc.status.UNIMPLEMENTED);
  });

  test("the pinned host's service says nothing about the transport", () => {
    expect(engine.logs.filter((l) => String(l.message).includes("gRPC"))).toEqual([]);
  });
});

describe("fails closed", () => {
  const definition = services.ResourceProviderService as unknown as Record<string, Record<string, unknown>>;
  const server = { bindAsync() {} };
  const without = (name: string, member: string) => {
    const { [member]: _gone, ...rest } = definition[name]!;
    return { ...definition, [name]: rest };
  };

  test("the pinned definition is served; one without a member, with another streaming method, or a server without bindAsync is not", () => {
    expect(transportUnusable(definition, server)).toBeUndefined();
    for (const member of ["path", "requestStream", "responseStream", "requestDeserialize", "responseSerialize"])
      expect(transportUnusable(without("check", member), server)).toBe(`the provider service's definition of check has no ${member}`);
    expect(transportUnusable({ ...definition, read: { ...definition.read, responseStream: true } }, server)).toBe(
      "the provider service's read is a streaming method",
    );
    expect(transportUnusable(definition, {})).toBe("gRPC's Server has no bindAsync");
    expect(transportUnusable({}, server)).toBe("the provider service's definition has no methods");
  });

  test("grpcJsFailure reads errors as grpc-js's serverErrorToStatus does", () => {
    const metadata = new grpc.Metadata();
    metadata.add("grpc-status-details-bin", Buffer.from([0, 1, 2, 250]));
    const errors: Array<[object, unknown?]> = [
      [new Error("plain")],
      [Object.assign(new Error("coded"), { code: 5, details: "its details" })],
      [Object.assign(new Error("string code"), { code: "ECONNRESET" })],
      [{ code: 12, details: "unimplemented" }],
      [{ code: 3 }],
      [{ code: 2.5, message: "not an integer" }],
      [{ code: 2, message: undefined, metadata }],
      [{ code: 2, message: "with trailer" }, metadata],
      [{}],
    ];
    for (const [error, trailer] of errors) {
      const status = serverCall.serverErrorToStatus(error, trailer);
      const expected = { code: status.code, details: encodeURI(status.details as string) };
      const failure = grpcJsFailure(error, trailer);
      expect({ code: failure.code, details: encodeURI(failure.details) }).toEqual(expected);
      const headers = (status.metadata as { toHttp2Headers(): object } | null)?.toHttp2Headers();
      expect(failure.metadata).toEqual(headers);
    }
    // Not an object: grpc-js throws and never answers; the call is UNKNOWN with its text.
    expect(grpcJsFailure("thrown text")).toEqual({ code: grpc.status.UNKNOWN, details: "thrown text" });
  });

  test("a reshaped definition leaves grpc-js serving, and the run is told once", async () => {
    // The definition's check without its requestStream, which grpc-js reads as false (unary): the host works, our transport steps aside.
    const reshape = path.join(ROOT, "node_modules/.cache/transport-test-reshape.js");
    fs.mkdirSync(path.dirname(reshape), { recursive: true });
    fs.writeFileSync(
      reshape,
      `delete require(${JSON.stringify(path.join(PULUMI, "proto/provider_grpc_pb"))}).ResourceProviderService.check.requestStream;\n`,
    );
    const engine = await fakeEngine();
    const preload = path.join(ROOT, "dist/provider/host/preload.js");
    const host = await HostProcess.start([process.execPath, "-r", reshape, "-r", preload, HOST], engine.address);
    try {
      expect(await servedBy(host.port)).toBe("application/grpc+proto");
      const urn = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/compute:Vpc::app";
      for (let i = 0; i < 2; i++) {
        const checked = await host.call(
          "check",
          request("CheckRequest", { Urn: urn, Olds: Struct.fromJavaScript({}), News: props({ size: 1 }) }),
        );
        expect((checked.getInputs!() as { toJavaScript(): object }).toJavaScript()).toMatchObject({ size: 1, checked: true });
      }
      for (let i = 0; i < 100 && engine.logs.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      const warnings = engine.logs.filter((l) => String(l.message).startsWith("pulumi-compute:"));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ urn, severity: 2 });
      expect(String(warnings[0]!.message).replace(/\s+/g, " ")).toContain(
        "lean gRPC serving: the provider service's definition of check has no requestStream.",
      );
    } finally {
      host.stop();
      engine.stop();
      fs.rmSync(reshape, { force: true });
    }
  });
});
