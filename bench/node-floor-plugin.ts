/**
 * `pulumi-resource-nodenoop`: the Node.js floor of the scale benchmark (bench/README.md). The native
 * floor's no-op provider (`native-floor/main.go`) written for Node.js on the provider plugin's own
 * transport (`provider/serve/grpc.ts`, Node's HTTP/2) and `@pulumi/pulumi`'s message classes:
 * Check returns its inputs, Diff says no change, Create numbers the object, Read returns what it is
 * given, Delete does nothing. What a run of its resources costs above the native floor is what any
 * provider process in Node.js pays (its start, HTTP/2, google-protobuf) before doing any work; the
 * plugin's row above this one is what pulumi-compute's own work adds.
 *
 * Started by `bench/node-floor/pulumi-resource-nodenoop`, which a project declares in its
 * `Pulumi.yaml` (`plugins: providers:`), like the native floor's folder.
 */
import { flushCompileCache } from "node:module";
import { serveUnary, type Message, type UnaryMethod } from "../provider/serve/grpc";
import { loadProtocol, providerMethodPath } from "../provider/plugin/protocol";

/** The plugin's package name: its resources are `nodenoop:index:Record`. */
export const NODE_FLOOR_PLUGIN = "nodenoop";

interface Decodable<Q> {
  deserializeBinary(bytes: Uint8Array): Q;
}

/** One method: its request's class and an answer that does nothing but echo. */
const method = <Q>(requestType: Decodable<Q>, answer: (request: Q) => Message): UnaryMethod => ({
  decode: (bytes) => requestType.deserializeBinary(bytes),
  handle: (call, callback) => callback(null, answer(call.request as Q)),
});

async function main(): Promise<void> {
  const { provider: p, plugin, empty } = loadProtocol();
  let created = 0;
  const methods: Record<string, UnaryMethod> = {
    handshake: method(p.ProviderHandshakeRequest, () => new p.ProviderHandshakeResponse()),
    getPluginInfo: method(empty.Empty, () => new plugin.PluginInfo().setVersion("0.0.1")),
    getSchema: method(p.GetSchemaRequest, () => new p.GetSchemaResponse().setSchema(`{"name":"${NODE_FLOOR_PLUGIN}","version":"0.0.1"}`)),
    checkConfig: method(p.CheckRequest, (r) => new p.CheckResponse().setInputs(r.getNews())),
    diffConfig: method(p.DiffRequest, () => new p.DiffResponse().setChanges(p.DiffResponse.DiffChanges.DIFF_NONE)),
    configure: method(p.ConfigureRequest, () => new p.ConfigureResponse().setSupportspreview(true)),
    check: method(p.CheckRequest, (r) => new p.CheckResponse().setInputs(r.getNews())),
    diff: method(p.DiffRequest, () => new p.DiffResponse().setChanges(p.DiffResponse.DiffChanges.DIFF_NONE)),
    create: method(p.CreateRequest, (r) =>
      r.getPreview()
        ? new p.CreateResponse().setProperties(r.getProperties())
        : new p.CreateResponse().setId(String(++created)).setProperties(r.getProperties()),
    ),
    read: method(p.ReadRequest, (r) => new p.ReadResponse().setId(r.getId()).setProperties(r.getProperties()).setInputs(r.getInputs())),
    update: method(p.UpdateRequest, (r) => new p.UpdateResponse().setProperties(r.getNews())),
    delete: method(p.DeleteRequest, () => new empty.Empty()),
    cancel: method(empty.Empty, () => new empty.Empty()),
  };
  const { port } = await serveUnary(new Map(Object.entries(methods).map(([name, m]) => [providerMethodPath(name), m])));
  // Node's compile cache (NODE_COMPILE_CACHE, when the bench sets one) written now, as the plugin's launcher does.
  flushCompileCache?.();
  process.stdout.write(`${port}\n`);
}

if (require.main === module) void main();
