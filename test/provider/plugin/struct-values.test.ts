/**
 * The plugin's reading of a request's Structs (`requestReader`, `valuesOf`): the very values, keys in
 * the same order, that google-protobuf's own decoding and `toJavaScript` give, for every kind of
 * value and every request that carries property maps; what google-protobuf refuses is refused. And
 * its writing of a response's Structs (`plainStructs`): the very bytes of google-protobuf's
 * `fromJavaScript` and `serializeBinary`.
 */
import { Struct, Value } from "google-protobuf/google/protobuf/struct_pb";
import * as jspb from "google-protobuf";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { plainStructs, plainValuesOf, requestReader, valuesOf, type Values } from "../../../provider/plugin/struct-values";

const read = requestReader({ Reader: jspb.BinaryReader, Struct });
const struct = (values: Values) => Struct.fromJavaScript(values as Record<string, never>);

/** The values as the plugin reads them, and as google-protobuf reads them, of each Struct a request carries. */
function bothWays<M extends jspb.Message>(
  type: { new (): M; deserializeBinary(bytes: Uint8Array): M } & Parameters<typeof read>[0],
  message: M,
  structs: (m: M) => Array<Struct | undefined>,
) {
  const bytes = message.serializeBinary();
  return {
    ours: structs(read(type as never, bytes) as M).map(valuesOf),
    theirs: structs(type.deserializeBinary(bytes)).map((s) => s?.toJavaScript() ?? {}),
  };
}

const EVERY_KIND: Values = {
  zeta: "last by name, first on the wire",
  string: "a record's name, 'quoted', ünïcödé ✓",
  empty: "",
  number: 300,
  negative: -1.5,
  big: 2 ** 53 + 2,
  zero: 0,
  yes: true,
  no: false,
  nothing: null,
  list: ["a", 1, true, null, { nested: ["deep", { deeper: 2 }] }, []],
  object: { b: 2, a: { c: [1, 2, 3] }, "10": "a numeric key", "2": "another" },
  emptyObject: {},
  secret: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "p4ss" },
  unknown: "04da6b54-80e4-46f7-96ec-b56ff0331ba9",
};

test("every kind of value reads as google-protobuf reads it, keys in its order", () => {
  const { ours, theirs } = bothWays(
    proto.CheckRequest,
    new proto.CheckRequest()
      .setUrn("urn:x")
      .setOlds(struct(EVERY_KIND))
      .setNews(struct({ b: 1, a: 2 })),
    (m) => [m.getOlds(), m.getNews()],
  );
  expect(ours).toEqual(theirs);
  expect(ours.map((values) => JSON.stringify(values))).toEqual(theirs.map((values) => JSON.stringify(values)));
  expect(Object.keys(ours[1]!)).toEqual(["a", "b"]);
});

test("every request with property maps: each map read, an absent one empty, the rest of the message as generated code reads it", () => {
  const olds = struct({ label: "net", region: "us-iad", tags: ["b", "a"] });
  const news = struct({ label: "net-2", region: "us-iad" });
  const diff = bothWays(proto.DiffRequest, new proto.DiffRequest().setId("7").setOlds(olds).setNews(news).setOldInputs(news), (m) => [
    m.getOlds(),
    m.getNews(),
    m.getOldInputs(),
  ]);
  expect(diff.ours).toEqual(diff.theirs);
  const create = bothWays(proto.CreateRequest, new proto.CreateRequest().setProperties(news).setTimeout(60).setPreview(true), (m) => [
    m.getProperties(),
  ]);
  expect(create.ours).toEqual(create.theirs);
  const readRequest = bothWays(proto.ReadRequest, new proto.ReadRequest().setId("7").setProperties(olds), (m) => [
    m.getProperties(),
    m.getInputs(),
  ]);
  expect(readRequest.ours).toEqual([olds.toJavaScript(), {}]);
  expect(readRequest.ours).toEqual(readRequest.theirs);
  const update = bothWays(proto.UpdateRequest, new proto.UpdateRequest().setOlds(olds).setNews(news), (m) => [m.getOlds(), m.getNews()]);
  expect(update.ours).toEqual(update.theirs);
  const remove = bothWays(proto.DeleteRequest, new proto.DeleteRequest().setId("7").setProperties(olds), (m) => [m.getProperties()]);
  expect(remove.ours).toEqual(remove.theirs);
  const configure = bothWays(proto.ConfigureRequest, new proto.ConfigureRequest().setArgs(news).setAcceptsecrets(true), (m) => [
    m.getArgs(),
  ]);
  expect(configure.ours).toEqual(configure.theirs);

  const back = read(
    proto.CreateRequest,
    new proto.CreateRequest().setUrn("urn:y").setType("t").setTimeout(60).setPreview(true).serializeBinary(),
  );
  expect({ urn: back.getUrn(), type: back.getType(), timeout: back.getTimeout(), preview: back.getPreview() }).toEqual({
    urn: "urn:y",
    type: "t",
    timeout: 60,
    preview: true,
  });
});

test("a value of no kind is refused, as google-protobuf refuses it", () => {
  const odd = new Struct();
  odd.getFieldsMap().set("hollow", new Value());
  const bytes = new proto.CheckRequest().setNews(odd).serializeBinary();
  expect(() => proto.CheckRequest.deserializeBinary(bytes).getNews()!.toJavaScript()).toThrow("Unexpected struct type");
  expect(() => read(proto.CheckRequest, bytes)).toThrow("Unexpected struct type");
});

const plain = plainStructs({ Writer: jspb.BinaryWriter, Struct, Value });
const asStruct = (values: Values) => values as Record<string, never>;

test("every response with property maps is written as google-protobuf writes it, byte for byte", () => {
  const news = { label: "net-2", region: "us-iad", "10": 1, "2": [null, {}] };
  const responses = (make: (values: Values) => Struct) => [
    new proto.CheckResponse().setInputs(make(EVERY_KIND)),
    new proto.CheckResponse().setInputs(make({})),
    new proto.ReadResponse().setId("7").setProperties(make(EVERY_KIND)).setInputs(make(news)),
    new proto.CreateResponse().setId("7").setProperties(make(news)),
    new proto.UpdateResponse().setProperties(make(EVERY_KIND)),
    new proto.InvokeResponse().setReturn(make({ list: [[], [[1]], { a: null }] })),
    new proto.DiffResponse().setDiffsList(["a"]).setReplacesList(["b"]),
  ];
  const ours = responses((values) => plain.struct(asStruct(values))).map((m) => Buffer.from(plain.write(m)).toString("hex"));
  const theirs = responses(struct).map((m) => Buffer.from(m.serializeBinary()).toString("hex"));
  expect(ours).toEqual(theirs);
  // Read back by google-protobuf: the same values.
  const read = proto.ReadResponse.deserializeBinary(plain.write(responses((values) => plain.struct(asStruct(values)))[2]!));
  expect([read.getProperties()!.toJavaScript(), read.getInputs()!.toJavaScript()]).toEqual([EVERY_KIND, news]);
});

test("a plain Struct read as a message is the Struct google-protobuf builds, and writes as it does after", () => {
  const ours = plain.struct(asStruct(EVERY_KIND));
  const response = new proto.CheckResponse().setInputs(ours);
  expect(ours.toJavaScript()).toEqual(struct(EVERY_KIND).toJavaScript());
  ours.getFieldsMap().set("added", Value.fromJavaScript("after"));
  const theirs = new proto.CheckResponse().setInputs(struct({ ...EVERY_KIND, added: "after" }));
  expect(Buffer.from(plain.write(response))).toEqual(Buffer.from(theirs.serializeBinary()));
  expect(Buffer.from(response.serializeBinary())).toEqual(Buffer.from(theirs.serializeBinary()));
});

test("a value google-protobuf cannot write is refused, as it refuses it", () => {
  for (const odd of [{ hollow: undefined }, { list: [1, undefined] }, { fn: () => 1 }, { deep: { big: BigInt(1) } }]) {
    expect(() => struct(odd)).toThrow("Unexpected struct type");
    expect(() => plain.write(new proto.CheckResponse().setInputs(plain.struct(asStruct(odd))))).toThrow("Unexpected struct type");
  }
});

test("a resource's property map read by the plugin has its top-level secret wrappers taken off, as the Go and Python mocks send Check's answer back", () => {
  const wrapped = struct({ label: "app-1", rootPass: EVERY_KIND.secret, nested: { secret: EVERY_KIND.secret } });
  const request = read(
    proto.CreateRequest as never,
    new proto.CreateRequest().setProperties(wrapped).serializeBinary(),
  ) as proto.CreateRequest;
  expect(plainValuesOf(request.getProperties())).toEqual({ label: "app-1", nested: { secret: EVERY_KIND.secret }, rootPass: "p4ss" });
  expect(valuesOf(request.getProperties()).rootPass).toEqual(EVERY_KIND.secret);
});
