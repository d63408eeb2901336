/**
 * The provider plugin's gRPC service, called as the engine calls it (Pulumi's own client of the
 * ResourceProvider protocol, from `@pulumi/pulumi`), against the emulator over HTTP: what it
 * declares, its configuration, check in the program's words, previews that send nothing, the
 * detailed diff, the life of a VPC, an import by id (and one it cannot make), customTimeouts as
 * deadlines, a data function.
 * The engine's end-to-end runs are `test/e2e/yaml.e2e.test.ts` and the preview-truth test.
 */
import * as grpc from "@grpc/grpc-js";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as provgrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import type { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { serve } from "../../../provider/plugin/main";
import { loadProtocol, providerMethodPath } from "../../../provider/plugin/protocol";
import { providerService } from "../../../provider/plugin/server";
import { SDK_VERSION } from "../../../sdk/version";
import { ComputeClient } from "../../../sdk/client";
import { writesSince } from "../../support/requests";

type Values = Record<string, unknown>;
const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const URN = "urn:pulumi:dev::p::compute:index:Vpc::net";

let emulator: RunningEmulator;
let api: ComputeClient;
let plugin: Awaited<ReturnType<typeof serve>>;
let client: provgrpc.ResourceProviderClient;

type Callback<R> = (error: grpc.ServiceError | null, response: R) => void;

/** One call of the service, as a promise of its response. */
function call<R>(method: (request: never, callback: Callback<R>) => unknown, request: unknown): Promise<R> {
  return new Promise((resolve, reject) =>
    (method as (request: unknown, callback: Callback<R>) => unknown).call(client, request, (error, response) =>
      error ? reject(error) : resolve(response),
    ),
  );
}

const struct = (values: Values) => Struct.fromJavaScript(values as Record<string, never>);

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  api = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  plugin = await serve([]);
  client = new provgrpc.ResourceProviderClient(`127.0.0.1:${plugin.port}`, grpc.credentials.createInsecure());
  const configure = new proto.ConfigureRequest().setArgs(
    struct({ token: { ...SECRET, value: emulator.token }, apiUrl: emulator.url, pacing: "off" }),
  );
  const configured = await call<proto.ConfigureResponse>(client.configure, configure);
  expect({ preview: configured.getSupportspreview(), secrets: configured.getAcceptsecrets() }).toEqual({ preview: true, secrets: false });
});

afterAll(async () => {
  client?.close();
  plugin?.server.forceShutdown();
  await api?.close();
  await emulator?.close();
});

test("every method the plugin serves is the ResourceProvider method of its name, and reads that method's request", () => {
  // The plugin serves Pulumi's protocol without the generated service file (it loads grpc-js): the paths and request classes are Pulumi's.
  const service = providerService(loadProtocol(), { schema: () => "{}", print: () => undefined });
  const definitions = provgrpc.ResourceProviderService as unknown as Record<string, { path: string; requestType: unknown }>;
  const served = Object.entries(service).map(([name, method]) => ({ name, path: providerMethodPath(name), request: method.requestType }));
  expect(served).toEqual(
    Object.keys(service).map((name) => ({ name, path: definitions[name]!.path, request: definitions[name]!.requestType })),
  );
});

test("the plugin names its version, and hands the engine no secrets to keep", async () => {
  expect((await call<PluginInfo>(client.getPluginInfo, new Empty())).getVersion()).toBe(SDK_VERSION);
  const handshake = await call<proto.ProviderHandshakeResponse>(client.handshake, new proto.ProviderHandshakeRequest());
  expect(handshake.getAcceptSecrets()).toBe(false);
});

test("the configuration: the token comes back secret, a key the package lacks is refused naming the variables", async () => {
  const request = new proto.CheckRequest()
    .setUrn("urn:pulumi:dev::p::pulumi:providers:compute::default")
    .setNews(struct({ token: "t0ken", apiUrl: emulator.url, colour: "blue" }));
  const checked = await call<proto.CheckResponse>(client.checkConfig, request);
  expect(checked.getInputs()!.toJavaScript()).toEqual({ token: { ...SECRET, value: "t0ken" }, apiUrl: emulator.url, colour: "blue" });
  expect(checked.getFailuresList().map((f) => [f.getProperty(), f.getReason()])).toEqual([
    ["colour", "compute:colour is not a configuration variable of pulumi-compute; its variables: token, apiUrl, previewSupport, pacing"],
  ]);
});

test("compute:previewSupport false turns preview support off, as for the dynamic resources; the configuration is then restored", async () => {
  const configureWith = async (extra: Values) =>
    (
      await call<proto.ConfigureResponse>(
        client.configure,
        new proto.ConfigureRequest().setArgs(
          struct({ token: { ...SECRET, value: emulator.token }, apiUrl: emulator.url, pacing: "off", ...extra }),
        ),
      )
    ).getSupportspreview();
  expect(await configureWith({ previewSupport: "false" })).toBe(false);
  expect(await configureWith({})).toBe(true);
});

test("check refuses bad input in the program's words, before any request", async () => {
  const mark = emulator.control.listRequests().length;
  const checked = await call<proto.CheckResponse>(
    client.check,
    new proto.CheckRequest()
      .setUrn(URN)
      .setType("compute:index:Vpc")
      .setNews(struct({ label: "net" })),
  );
  expect(checked.getFailuresList().map((f) => [f.getProperty(), f.getReason()])).toEqual([["region", "region is required"]]);
  expect(writesSince(emulator, mark)).toEqual([]);
});

test("a VPC's life: a previewed create sends nothing, create, the detailed diff, a previewed update, update, read, delete", async () => {
  const inputs = { label: "plugin-net", region: "us-iad" };
  let mark = emulator.control.listRequests().length;
  const previewed = await call<proto.CreateResponse>(
    client.create,
    new proto.CreateRequest().setUrn(URN).setType("compute:index:Vpc").setProperties(struct(inputs)).setPreview(true),
  );
  expect({ id: previewed.getId(), properties: previewed.getProperties()!.toJavaScript() }).toEqual({ id: "", properties: inputs });
  expect(writesSince(emulator, mark)).toEqual([]);

  const created = await call<proto.CreateResponse>(
    client.create,
    new proto.CreateRequest().setUrn(URN).setType("compute:index:Vpc").setProperties(struct(inputs)),
  );
  const id = created.getId();
  const outputs = created.getProperties()!.toJavaScript();
  expect(outputs).toMatchObject({ ...inputs, description: "" });
  expect((await api.vpcs.get(Number(id))).label).toBe("plugin-net");

  const news = { label: "plugin-net-2", region: "us-ord" };
  const diff = await call<proto.DiffResponse>(
    client.diff,
    new proto.DiffRequest().setId(id).setUrn(URN).setType("compute:index:Vpc").setOlds(struct(outputs)).setNews(struct(news)),
  );
  const detailed: Record<string, number> = {};
  diff.getDetaileddiffMap().forEach((d, path) => (detailed[path] = d.getKind()));
  expect({
    changes: diff.getChanges(),
    replaces: diff.getReplacesList(),
    diffs: diff.getDiffsList().sort(),
    detailed,
    has: diff.getHasdetaileddiff(),
  }).toEqual({
    changes: proto.DiffResponse.DiffChanges.DIFF_SOME,
    replaces: ["region"],
    diffs: ["label", "region"],
    detailed: { label: proto.PropertyDiff.Kind.UPDATE, region: proto.PropertyDiff.Kind.UPDATE_REPLACE },
    has: true,
  });

  const renamed = { ...inputs, label: "plugin-net-2" };
  mark = emulator.control.listRequests().length;
  const update = (preview: boolean) =>
    call<proto.UpdateResponse>(
      client.update,
      new proto.UpdateRequest()
        .setId(id)
        .setUrn(URN)
        .setType("compute:index:Vpc")
        .setOlds(struct(outputs))
        .setNews(struct(renamed))
        .setPreview(preview),
    );
  // The update's preview: the recorded outputs with the new label, as `up` will record them (the time it updates, unknown).
  expect((await update(true)).getProperties()!.toJavaScript()).toEqual({ ...outputs, label: "plugin-net-2", updated: expect.any(String) });
  expect(writesSince(emulator, mark)).toEqual([]);
  expect((await update(false)).getProperties()!.toJavaScript()).toMatchObject(renamed);

  const read = await call<proto.ReadResponse>(
    client.read,
    new proto.ReadRequest().setId(id).setUrn(URN).setType("compute:index:Vpc").setProperties(struct(outputs)),
  );
  expect(read.getProperties()!.toJavaScript()).toMatchObject(renamed);

  await call<Empty>(
    client.delete,
    new proto.DeleteRequest().setId(id).setUrn(URN).setType("compute:index:Vpc").setProperties(struct(outputs)),
  );
  const gone = await call<proto.ReadResponse>(
    client.read,
    new proto.ReadRequest().setId(id).setUrn(URN).setType("compute:index:Vpc").setProperties(struct(outputs)),
  );
  expect(gone.getId()).toBe("");
});

// Seed 105 of the fuzzer (bench/README): the engine sends a resource's ignoreChanges with each
// Diff and Update; an update records the label set by hand that the program ignores, and the next
// diff must not plan to set it back, nor a later update send it.
test("ignoreChanges: the diff and the update leave what the request's ignoreChanges names as the API holds it", async () => {
  const FW = "urn:pulumi:dev::p::compute:index:Firewall::fw";
  const type = "compute:index:Firewall";
  const given = { label: "plugin-fw", inboundPolicy: "ACCEPT", outboundPolicy: "DROP" };
  const created = await call<proto.CreateResponse>(
    client.create,
    new proto.CreateRequest().setUrn(FW).setType(type).setProperties(struct(given)),
  );
  const id = created.getId();
  await api.networking.firewalls.update(Number(id), { label: "plugin-fw-hand" });
  const update = (olds: Values, news: Values, ignore: string[], preview = false) =>
    call<proto.UpdateResponse>(
      client.update,
      new proto.UpdateRequest()
        .setId(id)
        .setUrn(FW)
        .setType(type)
        .setOlds(struct(olds))
        .setNews(struct(news))
        .setPreview(preview)
        .setIgnorechangesList(ignore),
    ).then((r) => r.getProperties()!.toJavaScript());
  const diff = (olds: Values, news: Values, ignore: string[]) =>
    call<proto.DiffResponse>(
      client.diff,
      new proto.DiffRequest().setId(id).setUrn(FW).setType(type).setOlds(struct(olds)).setNews(struct(news)).setIgnorechangesList(ignore),
    ).then((r) => ({ changes: r.getChanges(), diffs: r.getDiffsList() }));
  const { DIFF_SOME, DIFF_NONE } = proto.DiffResponse.DiffChanges;

  // The program's outboundPolicy change, the label changed by hand unseen (no refresh): the update records the API's answer.
  const changed = { ...given, outboundPolicy: "ACCEPT" };
  const outputs = await update(created.getProperties()!.toJavaScript(), changed, ["label"]);
  expect(outputs).toMatchObject({ label: "plugin-fw-hand", outboundPolicy: "ACCEPT" });
  // The engine's news keep the recorded input's label: ignored, nothing to do; without the list, the label would be set back.
  expect(await diff(outputs, changed, ["label"])).toEqual({ changes: DIFF_NONE, diffs: [] });
  expect(await diff(outputs, changed, [])).toEqual({ changes: DIFF_SOME, diffs: ["label"] });

  // A later change: its preview and the update keep the hand label, and send nothing for it.
  const next = { ...changed, inboundPolicy: "DROP" };
  expect(await update(outputs, next, ["label"], true)).toMatchObject({ label: "plugin-fw-hand", inboundPolicy: "DROP" });
  const mark = emulator.control.listRequests().length;
  expect(await update(outputs, next, ["label"])).toMatchObject({ label: "plugin-fw-hand", inboundPolicy: "DROP" });
  expect(writesSince(emulator, mark)).toEqual([`PUT /v4/networking/firewalls/${id}/rules`]);
  expect((await api.networking.firewalls.get(Number(id))).label).toBe("plugin-fw-hand");
  await call<Empty>(client.delete, new proto.DeleteRequest().setId(id).setUrn(FW).setType(type).setProperties(struct(outputs)));
});

test("a create that fails after the API made the object answers ErrorResourceInitFailed with its id and properties, for state", async () => {
  const domain = await api.domains.create({ domain: "init-failure.example", type: "master", soa_email: "admin@init-failure.example" });
  const records = Array.from({ length: 6 }, (_, i) => ({ type: "A", name: `host${i}`, target: `192.0.2.${i + 1}` }));
  // Maintenance refuses at once: some records are made, then the create fails (a record set applied in part).
  const fault = emulator.control.addFault({ pathPattern: "/v4/domains/*/records", method: "POST", kind: "503-maintenance", count: 3 });
  try {
    const error = (await call<proto.CreateResponse>(
      client.create,
      new proto.CreateRequest()
        .setUrn("urn:pulumi:dev::p::compute:index:DomainRecordSet::set")
        .setType("compute:index:DomainRecordSet")
        .setProperties(struct({ domainId: domain.id, records })),
    ).catch((e: unknown) => e)) as grpc.ServiceError;
    expect(error.code).toBe(grpc.status.UNKNOWN);
    const status = Status.deserializeBinary(error.metadata.get("grpc-status-details-bin")[0] as Buffer);
    const detail = status
      .getDetailsList()[0]!
      .unpack(proto.ErrorResourceInitFailed.deserializeBinary, "pulumirpc.ErrorResourceInitFailed")!;
    const recorded = (detail.getProperties()!.toJavaScript().records as Array<{ name: string }>).map((r) => r.name);
    const inZone = (await api.domains.records.listAll(domain.id)).map((r) => r.name);
    expect({ id: detail.getId(), message: status.getMessage(), reasons: detail.getReasonsList() }).toEqual({
      id: String(domain.id),
      message: error.details,
      reasons: [error.details],
    });
    expect(recorded.sort()).toEqual(inZone.sort());
    expect(recorded.length).toBeGreaterThan(0);
    expect(recorded.length).toBeLessThan(records.length);
  } finally {
    emulator.control.removeFault(fault.id);
    await api.domains.delete(domain.id);
  }
});

test("an import reads an object by id alone, with the inputs that manage it, and its diff refuses inputs that differ; a subnet, under its VPC, is refused naming adoptId", async () => {
  const vpc = await api.vpcs.create({ label: "made-by-hand", region: "us-iad" });
  const imported = await call<proto.ReadResponse>(
    client.read,
    new proto.ReadRequest().setId(String(vpc.id)).setUrn(URN).setType("compute:index:Vpc"),
  );
  expect(imported.getInputs()!.toJavaScript()).toEqual({ label: "made-by-hand", region: "us-iad" });
  expect(imported.getProperties()!.toJavaScript()).toMatchObject({ label: "made-by-hand", region: "us-iad", description: "" });
  // The engine's diff after the import: the program's inputs differ from the object, so the import is refused, naming the field.
  const differs = await call<proto.DiffResponse>(
    client.diff,
    new proto.DiffRequest()
      .setId(String(vpc.id))
      .setUrn(URN)
      .setType("compute:index:Vpc")
      .setOlds(imported.getProperties())
      .setNews(struct({ label: "renamed", region: "us-iad" })),
  ).then(
    () => "",
    (error: grpc.ServiceError) => error.details,
  );
  expect(differs).toContain(`label: the \`import\` option takes the VPC ${vpc.id} as it is, and it has "made-by-hand":`);

  const subnet = await api.vpcs.subnets.create(vpc.id, { label: "web", ipv4: "10.0.1.0/24" });
  const refused = await call<proto.ReadResponse>(
    client.read,
    new proto.ReadRequest()
      .setId(String(subnet.id))
      .setUrn("urn:pulumi:dev::p::compute:index:VpcSubnet::web")
      .setType("compute:index:VpcSubnet"),
  ).then(
    () => "",
    (error: grpc.ServiceError) => error.details,
  );
  expect(refused).toMatch(
    new RegExp(
      `^the subnet ${subnet.id} cannot be imported by its id alone \\(.*\\); adopt it with \`adoptId: ${subnet.id}\` in the program instead$`,
    ),
  );
  await api.vpcs.subnets.delete(vpc.id, subnet.id);
  await api.vpcs.delete(vpc.id);
});

test("customTimeouts: the request's timeout is the operation's deadline; state keeps the program's own timeouts only", async () => {
  const create = (type: string, urn: string, inputs: Values, seconds: number) =>
    call<proto.CreateResponse>(
      client.create,
      new proto.CreateRequest().setUrn(urn).setType(type).setProperties(struct(inputs)).setTimeout(seconds),
    );
  const vpcUrn = "urn:pulumi:dev::p::compute:index:Vpc::timed";
  const plain = await create("compute:index:Vpc", vpcUrn, { label: "timed-a", region: "us-iad" }, 600);
  expect(plain.getProperties()!.toJavaScript()).not.toHaveProperty("timeouts");
  const own = await create("compute:index:Vpc", vpcUrn, { label: "timed-b", region: "us-iad", timeouts: { create: "5m" } }, 600);
  expect(own.getProperties()!.toJavaScript()).toMatchObject({ timeouts: { create: "5m" } });

  // The wait's first read answers after 3 s: past a 1 s customTimeouts, far inside the default.
  const fault = emulator.control.addFault({
    pathPattern: "^/v4/databases/mysql/instances/\\d+$",
    method: "GET",
    kind: "latency",
    latencyMs: 3000,
    count: 1,
  });
  try {
    const args = { label: "timed-db", region: "us-iad", type: "g6-nanode-1", engineId: "mysql/8" };
    await expect(create("compute:index:MysqlDatabase", "urn:pulumi:dev::p::compute:index:MysqlDatabase::db", args, 1)).rejects.toThrow(
      /MySQL database create did not finish within 1s/,
    );
  } finally {
    emulator.control.removeFault(fault.id);
  }
});

test("a data function: compute:index:getVpcs answers its list as items", async () => {
  const vpc = await api.vpcs.create({ label: "listed", region: "us-iad" });
  const answer = await call<proto.InvokeResponse>(
    client.invoke,
    new proto.InvokeRequest().setTok("compute:index:getVpcs").setArgs(struct({ label: "listed" })),
  );
  expect(answer.getReturn()!.toJavaScript()).toEqual({ items: [expect.objectContaining({ id: vpc.id, label: "listed" })] });
  const unknown = await call<proto.InvokeResponse>(
    client.invoke,
    new proto.InvokeRequest().setTok("compute:index:getNothing").setArgs(struct({})),
  ).then(
    () => "",
    (error: grpc.ServiceError) => error.details,
  );
  expect(unknown).toMatch(/^pulumi-compute has no data function getNothing; the functions are getDatabaseBackups, getDatabaseEngines, /);
  await api.vpcs.delete(vpc.id);
});
