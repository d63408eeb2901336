/** The spec-driven engine: check and diff derived from the VPC and subnet specs. */
import { BadRequestError } from "../../../sdk/core/errors";
import { VPC_REASONS } from "../../../sdk/resources/vpcs";
import { ResourceInitError, check, diff, explain, makeProvider } from "../../../provider/engine/engine";
import { UNKNOWN } from "../../../provider/engine/values";
import { REAL_TIME } from "../../../provider/engine/time";
import { vpcSpec } from "../../../provider/resources/vpc";
import { vpcSubnetSpec } from "../../../provider/resources/vpc-subnet";
import { domainSpec } from "../../../provider/resources/domain";
import { instanceSpec } from "../../../provider/resources/instance";
import type { VpcArgs } from "../../../provider";

const PROVIDER = { __provider: "exports.handler = …" };

function failuresOf(spec: typeof vpcSpec | typeof vpcSubnetSpec, inputs: Record<string, unknown>) {
  return check(spec, { ...PROVIDER, ...inputs }).failures ?? [];
}

describe("check", () => {
  test("accepts good inputs and returns them unchanged, __provider included", () => {
    const inputs = { ...PROVIDER, label: "app-net", region: "us-iad" };
    expect(check(vpcSpec, inputs)).toEqual({ inputs });
  });

  test.each([
    ["an underscore", "bad_label", VPC_REASONS.labelChars],
    ["two dashes", "bad--label", VPC_REASONS.labelDashes],
    ["65 characters", "a".repeat(65), VPC_REASONS.labelLength],
    ["nothing", "", VPC_REASONS.labelLength],
  ])("rejects a label with %s, naming the field with the API's reason", (_what, label, reason) => {
    expect(failuresOf(vpcSpec, { label, region: "us-iad" })).toEqual([{ property: "label", reason }]);
  });

  test("names every missing required input", () => {
    expect(failuresOf(vpcSubnetSpec, {})).toEqual([
      { property: "vpcId", reason: "vpcId is required" },
      { property: "label", reason: "label is required" },
      { property: "ipv4", reason: "ipv4 is required" },
    ]);
  });

  test.each([
    ["10.0.0.0/33", VPC_REASONS.ipv4Invalid],
    ["10.0.0", VPC_REASONS.ipv4Invalid],
    ["8.8.8.0/24", VPC_REASONS.ipv4Private],
    ["10.0.0.0/30", VPC_REASONS.ipv4Prefix],
    ["192.168.200.0/24", VPC_REASONS.ipv4Classic],
  ])("rejects the subnet range %s", (ipv4, reason) => {
    expect(failuresOf(vpcSubnetSpec, { vpcId: "1", label: "a", ipv4 })).toEqual([{ property: "ipv4", reason }]);
  });

  test("explains a non-canonical range with its canonical spelling", () => {
    const [failure] = failuresOf(vpcSubnetSpec, { vpcId: 1, label: "a", ipv4: "10.0.0.1/24" });
    expect(failure).toEqual({ property: "ipv4", reason: expect.stringContaining("10.0.0.0/24") });
  });

  test("lets preview's unknown values through", () => {
    expect(failuresOf(vpcSubnetSpec, { vpcId: UNKNOWN, label: UNKNOWN, ipv4: "10.0.0.0/24" })).toEqual([]);
  });

  test("refuses inputs the resource does not have, listing the valid ones", () => {
    const [failure] = failuresOf(vpcSpec, { label: "a", region: "us-iad", subnets: [] });
    expect(failure!.property).toBe("subnets");
    expect(failure!.reason).toMatch(/not an input of Vpc; valid inputs: label, region, description, adoptId, deleteAdopted, timeouts/);
  });

  test("validates timeouts and adoptId", () => {
    expect(failuresOf(vpcSpec, { label: "a", region: "r", timeouts: { create: "10m", delete: "1h30m" }, adoptId: 12 })).toEqual([]);
    expect(failuresOf(vpcSpec, { label: "a", region: "r", timeouts: { create: "soon" } })).toEqual([
      { property: "", reason: 'timeouts.create: "soon" is not a duration such as "90s", "10m" or "1h"' },
    ]);
    expect(failuresOf(vpcSpec, { label: "a", region: "r", timeouts: { destroy: "1m" } })[0]!.reason).toMatch(
      /timeouts.destroy: unknown operation/,
    );
    expect(failuresOf(vpcSpec, { label: "a", region: "r", adoptId: "" })).toEqual([
      { property: "adoptId", reason: "adoptId must be the id of an existing object" },
    ]);
  });
});

describe("diff", () => {
  const olds = { ...PROVIDER, label: "app-net", region: "us-iad", description: "", subnets: [], created: "t", updated: "t" };

  // `deleteBeforeReplace` says the order of a replacement Pulumi may make of any diff (for
  // `replaceOnChanges`): true wherever an unchanged unique label would collide.
  test("no change when only __provider and output-only fields differ", () => {
    const news = { __provider: "something else entirely", label: "app-net", region: "us-iad" };
    expect(diff(vpcSpec, { ...olds, updated: "later" }, news)).toMatchObject({ changes: false, replaces: [], deleteBeforeReplace: true });
  });

  test("a label change updates in place", () => {
    expect(diff(vpcSpec, olds, { label: "other", region: "us-iad" })).toMatchObject({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  test("a region change replaces; the unchanged unique label makes it delete first", () => {
    expect(diff(vpcSpec, olds, { label: "app-net", region: "us-ord" })).toMatchObject({
      changes: true,
      replaces: ["region"],
      deleteBeforeReplace: true,
    });
    expect(diff(vpcSpec, olds, { label: "new-net", region: "us-ord" })).toMatchObject({
      changes: true,
      replaces: ["region"],
      deleteBeforeReplace: false,
    });
  });

  test("the detailed diff names each changed input's path, marked update or replace; no change, no path", () => {
    expect(diff(vpcSpec, olds, { label: "app-net", region: "us-iad" })).toMatchObject({ diffs: [], detailedDiff: {} });
    expect(diff(vpcSpec, olds, { label: "other", region: "us-ord", description: "text" })).toMatchObject({
      diffs: ["label", "region", "description"],
      detailedDiff: {
        label: { kind: "update", inputDiff: false },
        region: { kind: "update-replace", inputDiff: false },
        description: { kind: "update", inputDiff: false },
      },
    });
  });

  test("set elements are named by position, so Pulumi prints their values: an added one where the program has it, a removed one where state had it", () => {
    const zone = { domain: "example.com", type: "master", soaEmail: "a@example.com", tags: ["prod", "web"] };
    // "dns" is added at the program's [2]; "prod" was state's [0].
    expect(diff(domainSpec, zone, { ...zone, tags: ["web", "api", "dns"] }).detailedDiff).toEqual({
      "tags[0]": { kind: "delete", inputDiff: false },
      "tags[1]": { kind: "add", inputDiff: false },
      "tags[2]": { kind: "add", inputDiff: false },
    });
    // One position that lost an element and got another is an update of it: Pulumi prints "prod" => "dns".
    expect(diff(domainSpec, zone, { ...zone, tags: ["dns", "web"] }).detailedDiff).toEqual({
      "tags[0]": { kind: "update", inputDiff: false },
    });
    // Order alone is no change; an unknown list is named as a whole.
    expect(diff(domainSpec, zone, { ...zone, tags: ["web", "prod"] }).changes).toBe(false);
    expect(diff(domainSpec, zone, { ...zone, tags: [UNKNOWN] }).detailedDiff).toEqual({ tags: { kind: "update", inputDiff: false } });
  });

  test("a changed object or list names the paths inside it that differ, so an id the program gives as text and state holds as a number does not read as changed", () => {
    const instance = { label: "web", region: "us-iad", type: "g6-nanode-1", image: "public/debian12" };
    const recorded = { ...instance, interfaces: [{ purpose: "public" }, { purpose: "vpc", subnetId: 11000 }] };
    const wanted = { ...instance, interfaces: [{ purpose: "public" }, { purpose: "vpc", subnetId: "11000", ipv4: { vpc: "10.0.3.9" } }] };
    // Before: `interfaces` was named whole, and preview --diff printed `~ subnetId: 11000 => "11000"` beside the address.
    expect(diff(instanceSpec, recorded, wanted).detailedDiff).toEqual({ "interfaces[1].ipv4": { kind: "add", inputDiff: false } });
    // An element added to the list is named at its position; an unknown list as a whole.
    expect(
      diff(instanceSpec, recorded, { ...wanted, interfaces: [...recorded.interfaces, { purpose: "vlan", label: "v1" }] }).detailedDiff,
    ).toEqual({
      "interfaces[2]": { kind: "add", inputDiff: false },
    });
    expect(
      diff(instanceSpec, recorded, { ...wanted, interfaces: [{ purpose: "public" }, { purpose: "vpc", subnetId: UNKNOWN }] }).detailedDiff,
    ).toEqual({
      interfaces: { kind: "update", inputDiff: false },
    });
  });

  test("removing the description resets it to the API default; an empty one is no change", () => {
    const described = { ...olds, description: "text" };
    expect(diff(vpcSpec, described, { label: "app-net", region: "us-iad" }).changes).toBe(true);
    expect(diff(vpcSpec, olds, { label: "app-net", region: "us-iad", description: "" }).changes).toBe(false);
  });

  test("an unknown value during preview is a change, and a replacement where the field replaces", () => {
    expect(diff(vpcSpec, olds, { label: UNKNOWN, region: "us-iad" })).toMatchObject({ changes: true, replaces: [] });
    const subnet = { vpcId: 7, label: "web", ipv4: "10.0.1.0/24" };
    expect(diff(vpcSubnetSpec, subnet, { ...subnet, vpcId: UNKNOWN })).toMatchObject({ changes: true, replaces: ["vpcId"] });
  });

  test("a vpcId given as the VPC resource's string id equals the number in state", () => {
    const subnet = { vpcId: 7, label: "web", ipv4: "10.0.1.0/24" };
    expect(diff(vpcSubnetSpec, subnet, { ...subnet, vpcId: "7" }).changes).toBe(false);
  });

  test("a subnet whose new range overlaps the old one is deleted before its replacement is created", () => {
    const subnet = { vpcId: 7, label: "web", ipv4: "10.0.1.0/24" };
    expect(diff(vpcSubnetSpec, subnet, { ...subnet, label: "web2", ipv4: "10.0.1.0/25" })).toMatchObject({
      replaces: ["ipv4"],
      deleteBeforeReplace: true,
    });
    expect(diff(vpcSubnetSpec, subnet, { ...subnet, label: "web2", ipv4: "10.0.9.0/24" })).toMatchObject({
      replaces: ["ipv4"],
      deleteBeforeReplace: false,
    });
  });
});

describe("explain", () => {
  test("rewrites the API's wire field into the program's input name", () => {
    const error = new BadRequestError(400, [{ field: "ipv4", reason: VPC_REASONS.ipv4Overlap }], {
      method: "POST",
      path: "/vpcs/3/subnets",
    });
    expect(explain(vpcSubnetSpec, "create", error).message).toBe(
      `the API refused the subnet create: ipv4: ${VPC_REASONS.ipv4Overlap} (HTTP 400 POST /vpcs/3/subnets)`,
    );
  });
});

describe("argument types derived from the spec", () => {
  test("required and optional inputs", () => {
    const args: VpcArgs = { label: "a", region: "us-iad" };
    // @ts-expect-error label is required
    const missing: VpcArgs = { region: "us-iad" };
    expect([args, missing]).toHaveLength(2);
  });
});

describe("settle after create", () => {
  const ctx = { progress: () => undefined, time: REAL_TIME } as never;
  const base = {
    ...vpcSpec,
    naturalKey: undefined,
    hooks: { ...vpcSpec.hooks, create: async () => ({ id: 41, label: "slow", region: "us-iad", description: "" }) },
  };

  test("a failure after the API accepted the create keeps the object, with the provider text, in state", async () => {
    const spec = {
      ...base,
      hooks: {
        ...base.hooks,
        settle: async () => {
          throw new Error("status is failed");
        },
      },
    };
    const provider = makeProvider(spec, () => ctx);
    const error = await provider.create({ __provider: "shim", label: "slow", region: "us-iad" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResourceInitError);
    expect(error).toMatchObject({
      id: "41",
      message: "VPC 41 was created but did not become ready: status is failed",
      properties: { __provider: "shim", label: "slow", region: "us-iad", description: "" },
    });
  });

  test("a settled create returns the settled record", async () => {
    const spec = {
      ...base,
      hooks: { ...base.hooks, settle: async ({ record }: { record: Record<string, unknown> }) => ({ ...record, description: "ready" }) },
    };
    const created = await makeProvider(spec, () => ctx).create({ label: "slow", region: "us-iad" });
    expect(created).toEqual({ id: "41", outs: { label: "slow", region: "us-iad", description: "ready" } });
  });

  test("a create refused by the API is a plain error: nothing to record", async () => {
    const spec = {
      ...base,
      hooks: {
        ...base.hooks,
        create: async () => {
          throw new Error("refused");
        },
      },
    };
    const error = await makeProvider(spec, () => ctx)
      .create({ label: "x", region: "us-iad" })
      .catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ResourceInitError);
  });
});
