/**
 * Pulumi's import of this package's dynamic resources in Pulumi's dynamic provider host
 * (`provider/host/import.ts`), tested on the real host of the pinned `@pulumi/pulumi`, started as the
 * engine starts it (through the launcher) and called over gRPC as the engine's import calls it (a
 * Read with the id alone), against the emulator:
 *
 * - the host's code this relies on (its read, how it finds a provider) is exactly the pinned one;
 * - through the launcher, a Read by id alone of a `pulumi-nodejs:dynamic/compute:Vpc` answers the
 *   object's outputs and the inputs that manage it, each with the kind's provider line, with no write;
 * - Pulumi's host alone fails such a Read, and the patched host leaves another provider's as it was;
 * - a protocol or a host without a part it uses is left alone (fails closed).
 */
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { ComputeClient } from "../../../sdk/client";
import { providerText } from "../../../provider/classes/shim";
import { hostReadUnpatchable, importUnpatchable } from "../../../provider/host/import";
import { hostModules } from "../../../provider/host/modules";
import { HOST_PINNED } from "../../../provider/host/entry";
import { writesSince } from "../../support/requests";
import { HOST, HostProcess, LAUNCHER, Struct, expectPinned, hostMethod, hostSource, hostVersion, proto, sha } from "./real-host";

jest.setTimeout(60_000);

/** A function of the host's file, as text. */
function hostFunction(signature: string): string {
  const source = hostSource();
  const from = source.indexOf(signature);
  const to = source.indexOf("\n}\n", from);
  return from < 0 || to < 0 ? "(missing)" : source.slice(from, to);
}

test("the host's code that imports rely on is the pinned @pulumi/pulumi's", () => {
  const found = {
    version: hostVersion(),
    read: sha(hostMethod("read")),
    getProvider: sha(hostFunction("async function getProvider(props, rawConfig) {")),
    resultIncludingProvider: sha(hostFunction("function resultIncludingProvider(result, props) {")),
  };
  const pinned = {
    version: HOST_PINNED,
    read: "36dcd1553fbf387a",
    getProvider: "2962d7d06ec35239",
    resultIncludingProvider: "b802d012af65d9f0",
  };
  expectPinned(
    found,
    pinned,
    "Pulumi's dynamic provider host is not the one provider/host/import.ts was written against.\n" +
      "Re-read node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js (read, getProvider, resultIncludingProvider): does a Read\n" +
      "still find its provider in the request's properties, and pass the provider's inputs on? Check import.ts against it,",
  );
});

/** One host process, serving the emulator's account (configured with no stack config: the environment's credentials). */
class Host extends HostProcess {
  async configured(): Promise<this> {
    const configure = new proto.ConfigureRequest!();
    configure.setArgs!(Struct.fromJavaScript({}));
    await this.call("configure", configure);
    return this;
  }

  /** The engine's import: a Read with the id alone. Its answer, or the error's text. */
  async importRead(type: string, id: string): Promise<{ id: string; props: unknown; inputs: unknown } | string> {
    const req = new proto.ReadRequest!();
    req.setId!(id);
    req.setUrn!(`urn:pulumi:dev::p::${type}::imported`);
    req.setType!(type);
    return this.call("read", req).then(
      (resp) => ({
        id: resp.getId!() as string,
        props: (resp.getProperties!() as { toJavaScript(): unknown }).toJavaScript(),
        inputs: (resp.getInputs!() as { toJavaScript(): unknown } | undefined)?.toJavaScript(),
      }),
      (error: Error & { details?: string }) => error.details ?? error.message,
    );
  }
}

describe("the launcher and the real host", () => {
  let emulator: RunningEmulator;
  let api: ComputeClient;
  let patched: Host;
  let stock: Host;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    api = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
    const env = { ...process.env, COMPUTE_API_URL: emulator.url, COMPUTE_TOKEN: emulator.token };
    patched = await (await Host.start([LAUNCHER], undefined, env)).configured();
    stock = await (await Host.start([process.execPath, HOST], undefined, env)).configured();
  });
  afterAll(async () => {
    patched?.stop();
    stock?.stop();
    await api?.close();
    await emulator?.close();
  });

  test("a Read by id alone of a pulumi-compute resource answers the object and the inputs that manage it, with the provider line, and no write", async () => {
    const made = await api.vpcs.create({ label: "by-hand", region: "us-iad", description: "made by hand" });
    const mark = emulator.control.listRequests().length;
    const imported = await patched.importRead("pulumi-nodejs:dynamic/compute:Vpc", String(made.id));
    const line = providerText("Vpc");
    expect(imported).toEqual({
      id: String(made.id),
      props: expect.objectContaining({ label: "by-hand", region: "us-iad", description: "made by hand", __provider: line }),
      inputs: { label: "by-hand", region: "us-iad", description: "made by hand", __provider: line },
    });
    expect(writesSince(emulator, mark)).toEqual([]);
  });

  test("Pulumi's host alone cannot answer it; another dynamic provider's Read by id alone reaches the host as it was", async () => {
    const made = await api.vpcs.create({ label: "by-hand-2", region: "us-iad" });
    const stockAnswer = await stock.importRead("pulumi-nodejs:dynamic/compute:Vpc", String(made.id));
    expect(typeof stockAnswer).toBe("string");
    const foreign = await patched.importRead("pulumi-nodejs:dynamic:Resource", String(made.id));
    expect(foreign).toBe(await stock.importRead("pulumi-nodejs:dynamic:Resource", String(made.id)));
  });
});

describe("fails closed", () => {
  const modules = hostModules(HOST);
  const readMethod = () => hostMethod("read");
  const realRead = Object.assign(function read() {}, { toString: readMethod });

  test("the pinned host can be patched", () => {
    expect(importUnpatchable(modules)).toBeUndefined();
    expect(hostReadUnpatchable({ read: realRead })).toBeUndefined();
  });

  test("a protocol without ReadResponse.setInputs, a host without a read, or one whose read drops the inputs or finds its provider otherwise, is left alone", () => {
    const older = { ...modules, proto: { ...modules.proto, ReadResponse: function () {} } } as unknown as typeof modules;
    expect(importUnpatchable(older)).toBe("the protocol has no ReadResponse.setInputs");
    expect(importUnpatchable({ ...modules, struct: undefined })).toMatch(/Struct/);
    expect(hostReadUnpatchable({})).toBe("the host has no read method");
    const reshaped = (text: string) => ({ read: Object.assign(function read() {}, { toString: () => text }) });
    expect(hostReadUnpatchable(reshaped(readMethod().replace(/setInputs/g, "setOther")))).toBe(
      "the host's read does not pass a provider's inputs on",
    );
    expect(hostReadUnpatchable(reshaped(readMethod().replace("getProvider(props", "getProvider(req.getInputs().toJavaScript()")))).toMatch(
      /finds its provider otherwise/,
    );
  });
});
