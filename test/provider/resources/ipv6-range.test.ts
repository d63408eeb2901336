/**
 * The Ipv6Range provider's methods against the emulator over HTTP: check refuses every locally
 * checkable mistake naming the input (and sends nothing), the create → read → delete round trip
 * combines the API's three answers, drift after a re-assignment, a new target moved in place
 * and a new prefix length replacing, adoption after an ambiguous create.
 */
import { IP_REASONS } from "../../../sdk/resources/ips";
import { provider } from "../../../provider/registry";
import { UNKNOWN, makeProvider } from "../../../provider/engine/engine";
import { ProviderContext } from "../../../provider/engine/context";
import { ipv6RangeSpec } from "../../../provider/resources/ipv6-range";
import { useProviderHarness } from "../harness";

const harness = useProviderHarness();
const ranges = provider("Ipv6Range");

const seed = (label: string, region = "us-iad") => harness.emulator.control.seedCompute({ label, region });

describe("check", () => {
  test.each([
    [
      "both computeId and routeTarget",
      { prefixLength: 64, computeId: 1, routeTarget: "2001:db8::1" },
      ["computeId", "routeTarget"],
      "Specify either computeId or routeTarget, not both",
    ],
    [
      "neither computeId nor routeTarget",
      { prefixLength: 64 },
      ["computeId", "routeTarget"],
      "Either computeId or routeTarget is required",
    ],
    ["a prefix length of 48", { prefixLength: 48, computeId: 1 }, ["prefixLength"], "prefixLength must be 56 or 64"],
    [
      "a route target with /128",
      { prefixLength: 64, routeTarget: "2001:db8::1/128" },
      ["routeTarget"],
      "routeTarget must be an IPv6 address without a prefix length",
    ],
  ])("refuses %s, naming the input in the program's words, without a request", async (_what, inputs, properties, reason) => {
    const result = await ranges.check!({}, inputs);
    expect(result.failures).toEqual(properties.map((property) => ({ property, reason })));
    expect(harness.emulator.control.listRequests()).toEqual([]);
  });

  test("refuses a computeId that is no id, naming the input, without a request", async () => {
    const result = await ranges.check!({}, { prefixLength: 64, computeId: "web" });
    expect(result.failures).toEqual([{ property: "computeId", reason: expect.any(String) }]);
    expect(harness.emulator.control.listRequests()).toEqual([]);
  });

  test("lets preview's unknown values through and accepts either target", async () => {
    expect((await ranges.check!({}, { prefixLength: 64, computeId: UNKNOWN })).failures).toBeUndefined();
    expect((await ranges.check!({}, { prefixLength: 56, routeTarget: "2001:DB8::1" })).failures).toBeUndefined();
    expect((await ranges.check!({}, { prefixLength: 64, computeId: "52000001" })).failures).toBeUndefined();
  });
});

describe("diff", () => {
  test("a new prefix length replaces, deleting the old range first; a new target moves it in place; spellings of the route target do not diff", async () => {
    const olds = { prefixLength: 64, routeTarget: "2001:db8:4::f03c:91ff:fe00:1", computeId: 52000001 };
    expect(await ranges.diff!("r", olds, { prefixLength: 64, routeTarget: "2001:DB8:4:0:F03C:91FF:FE00:1" })).toMatchObject({
      changes: false,
      replaces: [],
      deleteBeforeReplace: true,
    });
    expect(await ranges.diff!("r", olds, { prefixLength: 56, routeTarget: olds.routeTarget })).toMatchObject({
      changes: true,
      replaces: ["prefixLength"],
      deleteBeforeReplace: true,
    });
    const byId = { prefixLength: 64, computeId: "52000001" };
    expect((await ranges.diff!("r", olds, byId)).changes).toBe(false);
    expect(await ranges.diff!("r", olds, { ...byId, computeId: 52000002 })).toMatchObject({ changes: true, replaces: [] });
    expect(await ranges.diff!("r", olds, { prefixLength: 64, routeTarget: "2001:db8:4::f03c:91ff:fe00:2" })).toMatchObject({
      changes: true,
      replaces: [],
    });
  });
});

describe("update: a new target moves the same block", () => {
  test("by computeId and by routeTarget: one assign each, the range's address kept; the same target again sends nothing", async () => {
    const [a, b] = [seed("move-a"), seed("move-b")];
    const created = await ranges.create({ prefixLength: 64, computeId: String(a.id) });
    const moved = await ranges.update!(created.id, created.outs, { prefixLength: 64, computeId: String(b.id) });
    expect(moved.outs).toMatchObject({ range: created.outs.range, computeId: b.id, routeTarget: b.ipv6 });
    const back = await ranges.update!(created.id, moved.outs, { prefixLength: 64, routeTarget: a.ipv6! });
    expect(back.outs).toMatchObject({ range: created.outs.range, computeId: a.id, routeTarget: a.ipv6 });
    const assigns = () => harness.emulator.control.listRequests().filter((r) => r.path === "/v4/networking/ips/assign");
    expect(assigns()).toHaveLength(2);
    // Another spelling of where it already is: read, nothing sent.
    await ranges.update!(created.id, back.outs, { prefixLength: 64, computeId: String(a.id) });
    expect(assigns()).toHaveLength(2);
    expect(await harness.client.networking.ipv6.ranges.listAll()).toEqual([
      { range: created.outs.range, prefix: 64, region: "us-iad", route_target: a.ipv6 },
    ]);
  });
});

describe("create, read, delete", () => {
  test("a range by computeId: outputs from the create answer, the view and the list; delete removes it", async () => {
    const c = seed("a");
    const created = await ranges.create({ prefixLength: 64, computeId: String(c.id) });
    const [listed] = await harness.client.networking.ipv6.ranges.listAll();
    expect(created.id).toBe(listed!.range);
    expect(created.outs).toEqual({
      prefixLength: 64,
      computeId: c.id,
      routeTarget: c.ipv6,
      range: listed!.range,
      region: "us-iad",
    });
    expect((await ranges.read!(created.id, created.outs)).props).toEqual(created.outs);
    await ranges.delete!(created.id, created.outs);
    expect(await harness.client.networking.ipv6.ranges.listAll()).toEqual([]);
    expect(await ranges.read!(created.id, created.outs)).toEqual({});
    await expect(ranges.delete!(created.id, created.outs)).resolves.toBeUndefined();
  });

  test("a range by routeTarget in any spelling", async () => {
    const c = seed("a");
    const created = await ranges.create({ prefixLength: 56, routeTarget: c.ipv6!.toUpperCase() });
    expect(created.outs).toMatchObject({ prefixLength: 56, routeTarget: c.ipv6, computeId: c.id });
  });

  test("a range re-assigned behind Pulumi's back reads with the new instance and SLAAC address", async () => {
    const a = seed("a");
    const b = seed("b");
    const created = await ranges.create({ prefixLength: 64, computeId: a.id });
    await harness.client.networking.ips.assign({ region: "us-iad", assignments: [{ address: `${created.id}/64`, compute_id: b.id }] });
    const read = await ranges.read!(created.id, created.outs);
    expect(read.props).toMatchObject({ computeId: b.id, routeTarget: b.ipv6 });
    // The next up moves it back in place.
    expect(await ranges.diff!(created.id, read.props, { prefixLength: 64, computeId: a.id })).toMatchObject({
      changes: true,
      replaces: [],
    });
  });

  test("the API's refusal names the program's input", async () => {
    const a = seed("a");
    const created = await ranges.create({ prefixLength: 64, computeId: a.id });
    // The one range of the address is found before the API is asked; the API's own refusal names the input.
    await expect(ranges.create({ prefixLength: 56, routeTarget: a.ipv6 })).rejects.toThrow(
      `an IPv6 range with route target ${a.ipv6} already exists (id ${created.id}). If it is the one this resource should manage ` +
        `(a run that lost the create's answer may have made it), set adoptId: "${created.id}" on the resource`,
    );
    const noLookup = { ...ipv6RangeSpec, naturalKey: undefined };
    const context = new ProviderContext((key) => harness.config[key]);
    await expect(makeProvider(noLookup, () => context).create({ prefixLength: 56, routeTarget: a.ipv6 })).rejects.toThrow(
      `routeTarget: ${IP_REASONS.rangeSlaacLimit}`,
    );
  });

  test("a create whose connection breaks after the API accepted it adopts the range instead of orphaning it", async () => {
    const a = seed("a");
    harness.emulator.control.addFault({ pathPattern: "/v4/networking/ipv6/ranges", method: "POST", kind: "reset-after", count: 1 });
    const created = await ranges.create({ prefixLength: 64, computeId: a.id });
    const all = await harness.client.networking.ipv6.ranges.listAll();
    expect(all).toHaveLength(1);
    expect(created.id).toBe(all[0]!.range);
    expect(
      harness.emulator.control
        .listRequests()
        .filter((r) => r.method === "POST")
        .map((r) => r.path),
    ).toEqual(["/v4/networking/ipv6/ranges"]);
  });
});
