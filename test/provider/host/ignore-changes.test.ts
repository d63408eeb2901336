/**
 * A resource's `ignoreChanges` in Pulumi's dynamic provider host (`provider/host/ignore-changes.ts`),
 * tested on the real host of the pinned `@pulumi/pulumi`, started as the engine starts it and called
 * over gRPC as the engine calls it (a Diff and an Update carrying `ignoreChanges`), against the emulator:
 *
 * - the host's code this relies on (its diff and update hand the provider the values `getNews`
 *   gave) is exactly the pinned one;
 * - Pulumi's host drops the paths: a VPC's description set by hand and read back by an update is
 *   planned back, and the update sends it;
 * - through the launcher, the diff plans nothing for it, a previewed update and the update keep it
 *   as the API holds it, and the update sends the other changes only;
 * - under Pulumi's own launcher, the host is patched as it loads this package's first provider
 *   (at the engine's first Check), so the diffs after it get the paths too;
 * - a protocol without a part it uses is left alone (fails closed).
 */
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { ComputeClient } from "../../../sdk/client";
import { providerText } from "../../../provider/classes/shim";
import { HOST_PINNED } from "../../../provider/host/entry";
import { unignorable } from "../../../provider/host/ignore-changes";
import { hostModules } from "../../../provider/host/modules";
import { UNKNOWN } from "../../../provider/engine/values";
import { writesSince } from "../../support/requests";
import { HOST, HostProcess, LAUNCHER, Struct, expectPinned, hostMethod, hostVersion, proto, sha, withoutMember } from "./real-host";

jest.setTimeout(60_000);

test("the host's code that ignoreChanges relies on is the pinned @pulumi/pulumi's", () => {
  const found = { version: hostVersion(), diff: sha(hostMethod("diff")), update: sha(hostMethod("update")) };
  const pinned = { version: HOST_PINNED, diff: "774c4a09b005e785", update: "8973d50cbddab11b" };
  expectPinned(
    found,
    pinned,
    "Pulumi's dynamic provider host is not the one provider/host/ignore-changes.ts was written against.\n" +
      "Re-read node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js (diff, update): do they still hand the provider the values\n" +
      "`req.getNews().toJavaScript()` gives, and drop `ignoreChanges`? (A host that passes them needs no patch.) Check ignore-changes.ts against it,",
  );
});

const URN = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/compute:Vpc::app";
const PROVIDER = providerText("Vpc");
type Values = Record<string, unknown>;
const struct = (values: Values) => Struct.fromJavaScript(values);
const plain = (resp: Record<string, () => unknown>) => (resp.getProperties!() as { toJavaScript(): Values }).toJavaScript();

/** A Diff or Update request of the VPC `id`, as the engine sends it: the values with the kind's provider line, and the resource's ignoreChanges. */
function request(message: "DiffRequest" | "UpdateRequest", id: string, olds: Values, news: Values, ignore: string[]) {
  const req = new proto[message]!();
  req.setId!(id);
  req.setUrn!(URN);
  req.setOlds!(struct({ ...olds, __provider: PROVIDER }));
  req.setNews!(struct({ ...news, __provider: PROVIDER }));
  req.setIgnorechangesList!(ignore);
  return req;
}

/** One host process, serving the emulator's account, with the calls of a resource's update as the engine makes them. */
class Host extends HostProcess {
  async configured(): Promise<this> {
    const configure = new proto.ConfigureRequest!();
    configure.setArgs!(struct({}));
    await this.call("configure", configure);
    return this;
  }

  /** The engine's Check, which loads the resource's provider. */
  async check(news: Values): Promise<void> {
    const req = new proto.CheckRequest!();
    req.setUrn!(URN);
    req.setOlds!(struct({}));
    req.setNews!(struct({ ...news, __provider: PROVIDER }));
    await this.call("check", req);
  }

  /** The engine's Diff: whether it plans a change, and of which properties. */
  async diff(id: string, olds: Values, news: Values, ignore: string[]): Promise<{ changes: unknown; diffs: unknown }> {
    const resp = await this.call("diff", request("DiffRequest", id, olds, news, ignore));
    const some = (proto.DiffResponse as unknown as { DiffChanges: { DIFF_SOME: number } }).DiffChanges.DIFF_SOME;
    return { changes: resp.getChanges!() === some, diffs: resp.getDiffsList!() };
  }

  async update(id: string, olds: Values, news: Values, ignore: string[], preview = false): Promise<Values> {
    const req = request("UpdateRequest", id, olds, news, ignore);
    req.setPreview!(preview);
    const { __provider: _text, ...outs } = plain(await this.call("update", req));
    return outs;
  }
}

describe("the launcher and the real host", () => {
  let emulator: RunningEmulator;
  let api: ComputeClient;
  let patched: Host;
  let stock: Host;
  const env = () => ({ ...process.env, COMPUTE_API_URL: emulator.url, COMPUTE_TOKEN: emulator.token });

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    api = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
    patched = await (await Host.start([LAUNCHER], undefined, env())).configured();
    stock = await (await Host.start([process.execPath, HOST], undefined, env())).configured();
  });
  afterAll(async () => {
    patched?.stop();
    stock?.stop();
    await api?.close();
    await emulator?.close();
  });

  /** A VPC made as the program gave it, its description then set by hand: its outputs as state records them, before any refresh. */
  async function vpcChangedByHand(label: string): Promise<{ id: string; recorded: Values; given: Values }> {
    const given = { label, region: "us-iad", description: "the program's" };
    const made = await api.vpcs.create(given);
    const recorded = { ...given, created: made.created, updated: made.updated };
    await api.vpcs.update(made.id, { description: "set by hand" });
    return { id: String(made.id), recorded, given };
  }

  test("through the launcher: the update keeps the ignored description, and the next diff plans nothing for it", async () => {
    const { id, recorded, given } = await vpcChangedByHand("ignore-launcher");
    const renamed = { ...given, label: "ignore-launcher-2" };
    // The preview of the update: the description as recorded (the API's is not known yet), never the program's.
    const previewed = await patched.update(id, { ...recorded, description: "read-before" }, renamed, ["description"], true);
    expect(previewed).toMatchObject({ label: "ignore-launcher-2", description: "read-before", updated: UNKNOWN });
    const mark = emulator.control.listRequests().length;
    const outs = await patched.update(id, recorded, renamed, ["description"]);
    expect(outs).toMatchObject({ label: "ignore-launcher-2", description: "set by hand" });
    // One PUT, which did not send the program's description: the API still holds the hand one.
    expect(writesSince(emulator, mark)).toEqual([`PUT /v4/vpcs/${id}`]);
    expect((await api.vpcs.get(Number(id))).description).toBe("set by hand");
    expect(await patched.diff(id, outs, renamed, ["description"])).toEqual({ changes: false, diffs: [] });
    // The same request without the paths: the hand description would be set back.
    expect(await patched.diff(id, outs, renamed, [])).toEqual({ changes: true, diffs: ["description"] });
    // A later update sends nothing for it, and the API keeps it.
    await patched.update(id, outs, { ...renamed, label: "ignore-launcher-3" }, ["description"]);
    expect((await api.vpcs.get(Number(id))).description).toBe("set by hand");
  });

  test("Pulumi's launcher: the first Diff the host serves reaches the provider without the paths; after the host loaded it, they come", async () => {
    const { id, recorded, given } = await vpcChangedByHand("ignore-stock");
    const outs = { ...recorded, description: "set by hand" };
    // The host loads the provider at its first request of the kind; that Diff's values were read before: Pulumi's host as it is.
    expect(await stock.diff(id, outs, given, ["description"])).toMatchObject({ changes: true });
    await stock.check(given);
    expect(await stock.diff(id, outs, given, ["description"])).toMatchObject({ changes: false });
    const renamed = { ...given, label: "ignore-stock-2" };
    expect(await stock.update(id, recorded, renamed, ["description"])).toMatchObject({ description: "set by hand" });
    expect((await api.vpcs.get(Number(id))).description).toBe("set by hand");
  });
});

describe("fails closed", () => {
  const modules = hostModules(HOST);

  test("the pinned protocol can be patched", () => {
    expect(unignorable(modules.proto)).toBeUndefined();
  });

  test("a protocol without a request's ignoreChanges or news is left alone", () => {
    const without = (message: string, member: string) => withoutMember(modules.proto, message, member);
    expect(unignorable(without("DiffRequest", "getIgnorechangesList"))).toBe("the protocol has no DiffRequest.getIgnorechangesList");
    expect(unignorable(without("UpdateRequest", "getIgnorechangesList"))).toBe("the protocol has no UpdateRequest.getIgnorechangesList");
    expect(unignorable(without("UpdateRequest", "getNews"))).toBe("the protocol has no UpdateRequest.getNews");
  });
});
