/**
 * Preview support in Pulumi's dynamic provider host (`provider/host/preview.ts`), tested on the
 * real host of the pinned `@pulumi/pulumi`, started as the engine starts it (through the launcher
 * `provider/host/pulumi-resource-pulumi-nodejs`) and called over gRPC as the engine calls it:
 *
 * - the host's code this relies on is exactly the pinned one (a change fails here, loudly);
 * - Configure declares preview support only with the patch; without it, as Pulumi's host does not;
 * - a previewed update of a pulumi-compute resource answers the recorded outputs, changed inputs
 *   and the unknowns the spec declares, and never reaches the provider's `update`;
 * - a previewed create of a pulumi-compute resource answers its inputs, through the serving layer
 *   (`Served`, as the plugin's and the mocks'), and never reaches the provider's `create`;
 * - a previewed create, and a previewed update of another dynamic provider, never reach that
 *   provider: they answer the inputs, as the engine does for a host without preview support;
 * - a host that handles previews itself, or lacks a method, is left alone (fails closed);
 * - through the launcher, a provider's lines reach the engine's `Log` (a fake engine here) with the
 *   URN of the resource being served, as a row status or a kept line (`provider/host/engine-log.ts`),
 *   and the host's own state (the config `configure` keeps) is untouched by the wrapping.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { providerText } from "../../../provider/classes/shim";
import { hostUnpatchable, kindOf, previewUnpatchable } from "../../../provider/host/preview";
import { hostModules } from "../../../provider/host/modules";
import { undiffable } from "../../../provider/host/diff-response";
import { HOST_PINNED } from "../../../provider/host/entry";
import { unloggable, type EngineModules } from "../../../provider/serve/row-log";
import { UNKNOWN } from "../../../provider/engine/values";
import {
  HOST,
  HostProcess,
  LAUNCHER,
  PULUMI,
  Struct,
  engineServices,
  expectPinned,
  fakeEngine,
  grpc,
  hostMethod,
  hostSource,
  hostVersion,
  proto,
  sha,
  withoutMember,
} from "./real-host";

jest.setTimeout(60_000);

/* eslint-disable @typescript-eslint/no-require-imports -- the host's own protocol modules */
const engineProto = require(path.join(PULUMI, "proto/engine_pb")) as Record<string, unknown>;
/* eslint-enable @typescript-eslint/no-require-imports */

/** The parts of the host the patch relies on, as text: its provider service's methods and its launcher. */
function hostParts(): Record<string, string> {
  const source = hostSource();
  return {
    version: hostVersion(),
    configure: sha(hostMethod("configure", source)),
    create: sha(hostMethod("create", source)),
    update: sha(hostMethod("update", source)),
    diff: sha(hostMethod("diff", source)),
    addService: sha(/server\.addService\(provrpc\.ResourceProviderService, resourceProvider\);/.exec(source)?.[0] ?? "(missing)"),
    // The engine's address is the host's first argument (`engine-log.ts` reads process.argv[2]).
    engineArgument: sha(
      /if \(args\.length === 0\) \{[\s\S]*?\n\}\nexports\.main = main;\nmain\(process\.argv\.slice\(2\)\);/.exec(source)?.[0] ??
        "(missing)",
    ),
    launcher: sha(fs.readFileSync(path.join(PULUMI, "pulumi-resource-pulumi-nodejs"), "utf8")),
  };
}

test("the host's code that preview support and detailed diffs rely on is the pinned @pulumi/pulumi's", () => {
  const pinned = {
    version: HOST_PINNED,
    configure: "d62cbea1f047b95f",
    create: "77fc63082579252f",
    update: "8973d50cbddab11b",
    diff: "774c4a09b005e785",
    addService: "49afe54749b5af4d",
    engineArgument: "de27ed2f33d88dcb",
    launcher: "a5e3bfde8aa51d3c",
  };
  expectPinned(
    hostParts(),
    pinned,
    "Pulumi's dynamic provider host is not the one provider/host/ was written against.\n" +
      "Re-read node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js (configure, create, update, diff, addService, main's\n" +
      "arguments) and its launcher, check provider/host/preload.ts, preview.ts, row-log.ts, diff.ts and plugins/pulumi-resource-pulumi-nodejs against them,",
  );
});

/** One host process, with the calls these tests make. */
class Host extends HostProcess {
  async configure(config: Record<string, string> = {}): Promise<boolean> {
    const req = new proto.ConfigureRequest!();
    req.setArgs!(Struct.fromJavaScript(config));
    return (await this.call("configure", req)).getSupportspreview!() as boolean;
  }

  async update(olds: object, news: object, preview: boolean): Promise<Record<string, unknown>> {
    const req = new proto.UpdateRequest!();
    req.setId!("1");
    req.setUrn!("urn:pulumi:dev::p::pulumi-nodejs:dynamic/compute:Vpc::app");
    req.setOlds!(Struct.fromJavaScript(olds));
    req.setNews!(Struct.fromJavaScript(news));
    req.setPreview!(preview);
    const resp = await this.call("update", req);
    return (resp.getProperties!() as { toJavaScript(): Record<string, unknown> }).toJavaScript();
  }

  async create(
    props: object,
    preview: boolean,
    urn = "urn:pulumi:dev::p::pulumi-nodejs:dynamic:Resource::x",
  ): Promise<{ id: string; props: Record<string, unknown> }> {
    const req = new proto.CreateRequest!();
    req.setUrn!(urn);
    req.setProperties!(Struct.fromJavaScript(props));
    req.setPreview!(preview);
    const resp = await this.call("create", req);
    return { id: resp.getId!() as string, props: (resp.getProperties!() as { toJavaScript(): Record<string, unknown> }).toJavaScript() };
  }
}

describe("the launcher and the real host", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "host-preview-"));
  const marker = path.join(dir, "wrote");
  /** Another dynamic provider, whose create and update leave a mark: a preview must never reach them. */
  const foreign = `exports.handler=()=>({create:async()=>{require('fs').appendFileSync(${JSON.stringify(marker)},'create\\n');return {id:'9',outs:{made:true}}},update:async(id,o,n)=>{require('fs').appendFileSync(${JSON.stringify(marker)},'update\\n');return {outs:{...n,updated:true}}}})`;
  const vpcOlds = { label: "app-net", region: "us-iad", description: "", created: "2026-01-01T00:00:00", updated: "2026-01-01T00:00:00" };
  let patched: Host;
  let stock: Host;

  beforeAll(async () => {
    patched = await Host.start([LAUNCHER]);
    stock = await Host.start([process.execPath, HOST]);
  });
  afterAll(() => {
    patched?.stop();
    stock?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("Configure declares preview support through the launcher, and not on Pulumi's host alone", async () => {
    expect(await patched.configure()).toBe(true);
    expect(await stock.configure()).toBe(false);
  });

  test("a previewed update of a pulumi-compute resource answers its preview, with no request and no call of update", async () => {
    const text = providerText("Vpc");
    const outs = await patched.update({ ...vpcOlds, __provider: text }, { label: "renamed", region: "us-iad", __provider: text }, true);
    expect(outs).toEqual({ ...vpcOlds, label: "renamed", updated: UNKNOWN, __provider: text });
  });

  test("a previewed create of a pulumi-compute resource answers its inputs as the serving layer does, with no id and no call of create", async () => {
    let said = "";
    patched.child.stderr!.on("data", (chunk: Buffer) => (said += String(chunk)));
    const text = providerText("Vpc");
    const inputs = { label: "app-net", region: "us-iad", description: "", __provider: text };
    // The provider's create would send a request to the API, which the host has none of (no config): a preview never reaches it.
    const created = await patched.create(inputs, true, "urn:pulumi:dev::p::pulumi-nodejs:dynamic/compute:Vpc::app");
    expect(created).toEqual({ id: "", props: inputs });
    // A kind the serving layer does not know: the engine's answer without preview support, the inputs, and a line saying why.
    const unknownKind = { a: 1, __provider: providerText("NoSuchKind") };
    expect(await patched.create(unknownKind, true)).toEqual({ id: "", props: unknownKind });
    const fellBack = "pulumi-compute: previewing as Pulumi does without provider previews";
    for (let i = 0; i < 100 && !said.includes(fellBack); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    // Only the unknown kind fell back: the Vpc's inputs came from the serving layer.
    expect(said.split("\n").filter((line) => line.includes(fellBack))).toEqual([expect.stringContaining("NoSuchKind")]);
  });

  test("previews of another dynamic provider reach neither its create nor its update: the inputs come back, as without preview support", async () => {
    const created = await patched.create({ a: 1, __provider: foreign }, true);
    expect(created).toEqual({ id: "", props: { a: 1, __provider: foreign } });
    const updated = await patched.update({ a: 1, made: true, __provider: foreign }, { a: 2, __provider: foreign }, true);
    expect(updated).toEqual({ a: 2, __provider: foreign });
    expect(fs.existsSync(marker)).toBe(false);
    // Not a preview: the provider's own methods, as the host calls them.
    expect((await patched.create({ a: 1, __provider: foreign }, false)).id).toBe("9");
    expect(await patched.update({ a: 1, __provider: foreign }, { a: 2, __provider: foreign }, false)).toMatchObject({
      a: 2,
      updated: true,
    });
    expect(fs.readFileSync(marker, "utf8")).toBe("create\nupdate\n");
  });
});

describe("lines on the resource's own row", () => {
  /** A provider that keeps its config, and says two lines through the sink when there is one. */
  const talker =
    "exports.handler=()=>({configure:async(req)=>{globalThis.__key=req.config.get('test:key')}," +
    "create:async()=>{const log=globalThis[Symbol.for('pulumi-compute.row-log')];" +
    "const said=typeof log==='function'?[log('waiting for active, 3s so far: provisioning',true),log('adopted',false)]:'no sink';" +
    "return {id:'7',outs:{key:globalThis.__key,said}}}})";
  const urn = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/compute:MysqlDatabase::my-db";
  let engine: Awaited<ReturnType<typeof fakeEngine>>;
  let patched: Host;
  let stock: Host;

  beforeAll(async () => {
    engine = await fakeEngine();
    patched = await Host.start([LAUNCHER], engine.address);
    stock = await Host.start([process.execPath, HOST], engine.address);
  });
  afterAll(() => {
    patched?.stop();
    stock?.stop();
    engine?.stop();
  });

  test("a status and a kept line reach the engine's Log with the URN of the resource being served", async () => {
    await patched.configure({ "test:key": "from-config" });
    const created = await patched.create({ __provider: talker }, false, urn);
    // The host's configure kept the config on the host itself: the provider still reads it.
    expect(created.props).toMatchObject({ key: "from-config", said: [true, true] });
    for (let i = 0; i < 100 && engine.logs.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(engine.logs).toEqual([
      { urn, message: "waiting for active, 3s so far: provisioning", ephemeral: true, severity: 1 },
      { urn, message: "adopted", ephemeral: false, severity: 1 },
    ]);
  });

  test("Pulumi's host alone has no sink: lines stay on stdout, as before", async () => {
    await stock.configure({ "test:key": "stock" });
    expect((await stock.create({ __provider: talker }, false, urn)).props).toMatchObject({ key: "stock", said: "no sink" });
  });

  test("a protocol without the engine's Log, or no engine address, leaves lines on stdout (fails closed)", () => {
    const modules = {
      client: (engineServices as unknown as { EngineClient: EngineModules["client"] }).EngineClient,
      logRequest: engineProto.LogRequest as EngineModules["logRequest"],
      insecure: () => grpc.credentials.createInsecure(),
      info: (engineProto.LogSeverity as { INFO: number }).INFO,
      warning: (engineProto.LogSeverity as { WARNING: number }).WARNING,
    };
    expect(unloggable(modules, "127.0.0.1:1")).toBeUndefined();
    expect(unloggable(modules, undefined)).toMatch(/no engine address/);
    expect(unloggable({ ...modules, logRequest: function () {} as unknown as EngineModules["logRequest"] }, "127.0.0.1:1")).toMatch(
      /LogRequest\.setSeverity/,
    );
    expect(unloggable({ ...modules, client: undefined }, "127.0.0.1:1")).toMatch(/no Engine client/);
    expect(unloggable({ ...modules, warning: undefined }, "127.0.0.1:1")).toMatch(/LogSeverity\.WARNING/);
  });
});

describe("fails closed", () => {
  const modules = hostModules(HOST);
  const host = { configure() {}, create() {}, update() {} };

  test("the pinned host can be patched", () => {
    expect(previewUnpatchable(modules)).toBeUndefined();
    expect(hostUnpatchable(host)).toBeUndefined();
    expect(undiffable(modules.proto)).toBeUndefined();
  });

  test("a host that handles previews itself, or lacks a method, or a protocol without the preview flag, is left alone", () => {
    const handles = {
      ...host,
      create(call: { request: { getPreview(): boolean } }) {
        return call.request.getPreview();
      },
    };
    expect(hostUnpatchable(handles)).toMatch(/create already handles previews/);
    expect(hostUnpatchable({ configure() {}, create() {} })).toMatch(/no update method/);
    const older = { ...modules, proto: { ...modules.proto, ConfigureResponse: function () {} } } as unknown as typeof modules;
    expect(previewUnpatchable(older)).toMatch(/ConfigureResponse\.setSupportspreview/);
    expect(previewUnpatchable({ ...modules, struct: undefined })).toMatch(/Struct/);
    // The id a previewed update is served with.
    const noId = { ...modules, proto: { ...modules.proto, UpdateRequest: function () {} } } as unknown as typeof modules;
    expect(previewUnpatchable(noId)).toBe("the protocol has no UpdateRequest.getId");
  });

  test("a protocol without a part of the detailed diff is left alone", () => {
    const without = (message: string, member: string) => withoutMember(modules.proto, message, member);
    expect(undiffable(without("DiffResponse", "setDiffsList"))).toBe("the protocol has no DiffResponse.setDiffsList");
    expect(undiffable(without("PropertyDiff", "setKind"))).toBe("the protocol has no PropertyDiff.setKind");
  });

  test("only this package's provider text is previewed by its specs", () => {
    expect(kindOf(providerText("MysqlDatabase"))).toBe("MysqlDatabase");
    expect(kindOf("exports.handler=()=>require('other/registry').provider('Vpc')")).toBeUndefined();
    expect(kindOf(UNKNOWN)).toBeUndefined();
  });
});
