/**
 * The Vpc and VpcSubnet providers' methods called directly against the emulator over HTTP:
 * the CRUD round trip, objects gone behind Pulumi's back, adoption, recovery from an ambiguous
 * create, and missing credentials.
 */
import { forgetSessions, provider } from "../../../provider/registry";
import { useProviderHarness } from "../harness";

const harness = useProviderHarness();
const { config } = harness;
const vpcs = provider("Vpc");
const subnets = provider("VpcSubnet");

const posts = () =>
  harness.emulator.control
    .listRequests()
    .filter((r) => r.method === "POST")
    .map((r) => r.path);

test("create, read, update and delete a VPC and a subnet", async () => {
  const vpc = await vpcs.create({ label: "round-trip", region: "us-iad" });
  expect(vpc.outs).toMatchObject({ label: "round-trip", region: "us-iad", description: "" });
  expect(vpc.outs.created).toEqual(expect.any(String));

  const subnet = await subnets.create({ vpcId: vpc.id, label: "web", ipv4: "10.0.1.0/24" });
  expect(subnet.outs).toMatchObject({ vpcId: Number(vpc.id), label: "web", ipv4: "10.0.1.0/24" });

  // The VPC's outputs are its own: a subnet made (by another resource) does not change them, so a
  // refresh of an adopted or new VPC never shows its subnets as a change (provider/README.md).
  const read = await vpcs.read!(vpc.id, vpc.outs);
  expect(read.props).toEqual(vpc.outs);
  expect(Object.keys(vpc.outs)).not.toContain("subnets");
  expect(Object.keys(subnet.outs)).not.toContain("computes");

  const updated = await subnets.update!(subnet.id, subnet.outs, { vpcId: vpc.id, label: "frontend", ipv4: "10.0.1.0/24" });
  expect(updated.outs).toMatchObject({ label: "frontend", vpcId: Number(vpc.id) });
  expect((await harness.client.vpcs.subnets.get(Number(vpc.id), Number(subnet.id))).label).toBe("frontend");

  await subnets.delete!(subnet.id, updated.outs!);
  await vpcs.delete!(vpc.id, vpc.outs);
  expect(await harness.client.vpcs.listAll()).toEqual([]);
});

test("an object deleted behind Pulumi's back reads as gone, and deleting it again succeeds", async () => {
  const vpc = await vpcs.create({ label: "vanishing", region: "us-iad" });
  await harness.client.vpcs.delete(Number(vpc.id));
  expect(await vpcs.read!(vpc.id, vpc.outs)).toEqual({});
  await expect(vpcs.delete!(vpc.id, vpc.outs)).resolves.toBeUndefined();
});

test("adoptId manages an existing VPC and brings its label to the program's", async () => {
  const existing = await harness.client.vpcs.create({ label: "made-elsewhere", region: "us-iad", description: "kept" });
  const adopted = await vpcs.create({ adoptId: existing.id, label: "now-managed", region: "us-iad", description: "kept" });
  expect(adopted.id).toBe(String(existing.id));
  expect(adopted.outs).toMatchObject({ label: "now-managed", adoptId: existing.id });
  expect((await harness.client.vpcs.listAll()).map((v) => v.label)).toEqual(["now-managed"]);
});

test("adoptId refuses an object that differs in a field that cannot change in place", async () => {
  const existing = await harness.client.vpcs.create({ label: "elsewhere", region: "us-iad" });
  await expect(vpcs.create({ adoptId: existing.id, label: "elsewhere", region: "us-ord" })).rejects.toThrow(
    `adoptId ${existing.id}: the VPC differs in fields that cannot change in place: region is "us-iad", the program says "us-ord"`,
  );
  await expect(vpcs.create({ adoptId: 999999, label: "x", region: "us-iad" })).rejects.toThrow("adoptId 999999: no such VPC");
});

test("a create whose connection breaks after the API accepted it adopts the object instead of orphaning it", async () => {
  harness.emulator.control.addFault({ pathPattern: "/v4/vpcs", method: "POST", kind: "reset-after", count: 1 });
  const created = await vpcs.create({ label: "ambiguous", region: "us-iad" });
  const all = await harness.client.vpcs.listAll();
  expect(all).toHaveLength(1);
  expect(created.id).toBe(String(all[0]!.id));
  expect(posts()).toEqual(["/v4/vpcs"]); // the POST was sent once, never repeated
});

test("a create cut before processing is looked up, found missing, and sent again: one VPC", async () => {
  harness.emulator.control.addFault({ pathPattern: "/v4/vpcs", method: "POST", kind: "reset", count: 1 });
  const created = await vpcs.create({ label: "refused", region: "us-iad" });
  expect((await harness.client.vpcs.listAll()).map((v) => String(v.id))).toEqual([created.id]);
  expect(posts()).toEqual(["/v4/vpcs", "/v4/vpcs"]);
});

test("a taken label is reported with the VPC's id and the adoptId to set, without a POST", async () => {
  const existing = await harness.client.vpcs.create({ label: "taken", region: "us-iad" });
  harness.emulator.control.clearRequests();
  await expect(vpcs.create({ label: "taken", region: "us-iad", description: "another" })).rejects.toThrow(
    `a VPC with label "taken" already exists (id ${existing.id}). If it is the one this resource should manage ` +
      `(a run that lost the create's answer may have made it), set adoptId: ${existing.id} on the resource and run \`pulumi up\` again; ` +
      "otherwise change the key or delete that VPC.",
  );
  // The same VPC as declared: most likely made by an interrupted run, so recover comes first.
  await expect(vpcs.create({ label: "taken", region: "us-iad" })).rejects.toThrow(
    `a VPC with label "taken" already exists (id ${existing.id}) and equals this resource's inputs: if an earlier run was interrupted, ` +
      "run `npx pulumi-compute recover`",
  );
  expect(posts()).toEqual([]);
});

test("missing credentials give an error naming the stack config key and the environment variable", async () => {
  const saved = { token: config["compute:token"], env: process.env.COMPUTE_TOKEN };
  config["compute:token"] = undefined;
  delete process.env.COMPUTE_TOKEN;
  try {
    await expect(vpcs.create({ label: "no-creds", region: "us-iad" })).rejects.toThrow(
      "no API token: set the stack config compute:token (pulumi config set --secret compute:token <token>) or the environment variable COMPUTE_TOKEN",
    );
  } finally {
    config["compute:token"] = saved.token;
    if (saved.env !== undefined) process.env.COMPUTE_TOKEN = saved.env;
  }
  expect(harness.emulator.control.listRequests()).toEqual([]);
});

test("an apiUrl without the API's version is refused before any request, naming the config key and the URL to set", async () => {
  const saved = config["compute:apiUrl"];
  const base = saved!.replace(/\/v4\/?$/, "");
  config["compute:apiUrl"] = base;
  forgetSessions();
  try {
    await expect(vpcs.check!({}, { label: "no-version", region: "us-iad" })).rejects.toThrow(
      `compute:apiUrl is ${base}, which is not the API's base URL: that ends in the API's version. ` +
        `Set it with \`pulumi config set compute:apiUrl ${base}/v4\` (an emulator prints its own as \`API:\`)`,
    );
  } finally {
    config["compute:apiUrl"] = saved;
    forgetSessions();
  }
  expect(harness.emulator.control.listRequests()).toEqual([]);
});

test("a token without the scope a request needs: the error names the scope it needs, the token's own, and what to do", async () => {
  const saved = config["compute:token"];
  config["compute:token"] = harness.emulator.control.createToken({ scopes: ["vpc:read_only", "domains:read_write"] }).token;
  try {
    await expect(vpcs.create({ label: "scoped", region: "us-iad" })).rejects.toThrow(
      "the API refused the VPC create: the token lacks the OAuth scope vpc:read_write, which this VPC needs for up and destroy (this call needs vpc:read_write; the token has vpc:read_only, domains:read_write). " +
        "Give the stack a token that has it: `pulumi config set --secret compute:token <token>` (or COMPUTE_TOKEN); " +
        "`pulumi-compute scopes` lists every scope the stack needs (HTTP 401 POST /vpcs)",
    );
  } finally {
    config["compute:token"] = saved;
  }
});

test("a restricted user without the grant: the error says which grant the operation needs and what to do", async () => {
  const saved = config["compute:token"];
  config["compute:token"] = harness.emulator.control.createToken({ restricted: true }).token;
  try {
    await expect(vpcs.create({ label: "granted", region: "us-iad" })).rejects.toThrow(
      /^the API refused the VPC create: the token's user may not do this \(.+\)\. A restricted user needs the account's grant to add a VPC: an account administrator grants it in the user's permissions, or give the stack a token of a user who has it: `pulumi config set --secret compute:token <token>` \(HTTP 403 POST \/vpcs\)$/,
    );
  } finally {
    config["compute:token"] = saved;
  }
  const made = await vpcs.create({ label: "granted", region: "us-iad" });
  config["compute:token"] = harness.emulator.control.createToken({ restricted: true, grants: { global: { add_vpc: true } } }).token;
  try {
    await expect(vpcs.update!(made.id, made.outs, { label: "renamed", region: "us-iad" })).rejects.toThrow(
      "A restricted user needs read_write access to this VPC",
    );
  } finally {
    config["compute:token"] = saved;
  }
});

test("the environment supplies credentials when the stack config has none", async () => {
  const saved = { ...config };
  config["compute:token"] = undefined;
  config["compute:apiUrl"] = undefined;
  process.env.COMPUTE_TOKEN = harness.emulator.token;
  process.env.COMPUTE_API_URL = harness.emulator.url;
  try {
    const vpc = await vpcs.create({ label: "from-env", region: "us-iad" });
    expect(vpc.outs.label).toBe("from-env");
  } finally {
    Object.assign(config, saved);
    delete process.env.COMPUTE_TOKEN;
    delete process.env.COMPUTE_API_URL;
  }
});

test("a refresh of a VPC's subnets is one listing; a change behind Pulumi's back is read back", async () => {
  const vpc = await vpcs.create({ label: "coalesced", region: "us-iad" });
  const created = await Promise.all([1, 2, 3].map((i) => subnets.create({ vpcId: vpc.id, label: `net-${i}`, ipv4: `10.0.${i}.0/24` })));
  await harness.client.vpcs.subnets.update(Number(vpc.id), Number(created[1]!.id), { label: "renamed" });
  forgetSessions(); // a refresh is a new provider process
  harness.emulator.control.clearRequests();
  const read = await Promise.all(created.map((s) => subnets.read!(s.id, s.outs)));
  expect(read.map((r) => r.props!.label)).toEqual(["net-1", "renamed", "net-3"]);
  expect(harness.emulator.control.listRequests().map((r) => `${r.method} ${r.path.replace(/\d+/g, "#")}`)).toEqual([
    "GET /v#/vpcs/#/subnets?page=#&page_size=#",
  ]);
});
