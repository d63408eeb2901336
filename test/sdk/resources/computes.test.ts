/**
 * `client.computes`: every method of the area against the emulator (its clock stopped, moved by the
 * waiter's own sleep), the requests each one sends, and the status waiter on recorded sequences.
 */
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { ComputeClient } from "../../../sdk/client";
import { ClientValidationError, WaitError } from "../../../sdk/core/errors";
import { COMPUTE_ENDPOINTS, computeStatusWaiter, type Compute, type ComputeStatus } from "../../../sdk/resources/computes";
import { endpointsOf } from "../../../sdk/core/endpoint";

let emulator: RunningEmulator;
let client: ComputeClient;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, timeScale: 0 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
});
afterAll(async () => {
  await client.close();
  await emulator.close();
});
beforeEach(() => emulator.control.reset());

/** A waiter's options that move the emulated clock by each pause instead of sleeping. */
const onClock = (seen?: string[]) => {
  let elapsed = 0;
  return {
    intervalMs: 5_000,
    sleep: async (ms: number) => {
      elapsed += ms;
      emulator.control.setClock({ advanceMs: ms });
    },
    now: () => elapsed,
    progress: (c: Compute | undefined) => void seen?.push(c?.status ?? "gone"),
  };
};
const sent = () =>
  emulator.control
    .listRequests()
    .filter((r) => r.path.startsWith("/v4/compute"))
    .map((r) => `${r.method} ${r.path.replace(/\?.*/, "").replace(/\/\d+/g, "/N")}`);
const deploy = { region: "us-iad", type: "g6-nanode-1", label: "sdk-web-1", image: "public/debian12", root_pass: "a-long-secret-1" };

test("the area declares every endpoint under computes.instances and computes.types, each with its scope", () => {
  const names = endpointsOf(COMPUTE_ENDPOINTS).map((e) => e.name);
  expect(names).toContain("computes.instances.configs.interfaces.update");
  expect(names).toContain("computes.types.get");
  expect(COMPUTE_ENDPOINTS.instances.create.scopes).toEqual(["computes:read_write"]);
  expect(COMPUTE_ENDPOINTS.instances.list.scopes).toEqual(["computes:read_only"]);
});

test("an instance's life: create, wait running, update, shutdown, resize, boot, reboot, ips, delete", async () => {
  const seen: string[] = [];
  const made = await client.computes.instances.create(deploy);
  expect(made).toMatchObject({ label: "sdk-web-1", status: "provisioning", type: "g6-nanode-1" });
  const up = await client.computes.instances.waitForStatus(made.id, "running", onClock(seen));
  expect(up.status).toBe("running");
  expect([...new Set(seen)]).toEqual(["provisioning", "booting", "running"]);

  await expect(client.computes.instances.update(made.id, { label: "sdk-web-2", tags: ["web"] })).resolves.toMatchObject({
    label: "sdk-web-2",
    tags: ["web"],
  });
  await expect(client.computes.instances.shutdown(made.id)).resolves.toBeUndefined();
  await client.computes.instances.waitForStatus(made.id, "offline", onClock());
  await client.computes.instances.resize(made.id, { type: "g6-standard-1" });
  const resized = await client.computes.instances.waitForStatus(made.id, ["offline", "running"], onClock());
  expect(resized.type).toBe("g6-standard-1");
  await client.computes.instances.boot(made.id, {});
  await client.computes.instances.waitForStatus(made.id, "running", onClock());
  await client.computes.instances.reboot(made.id, {});
  await client.computes.instances.waitForStatus(made.id, "running", onClock());
  const ips = await client.computes.instances.ips(made.id);
  expect(ips.ipv4.public.map((a) => a.address)).toEqual(up.ipv4.filter((a) => !a.startsWith("192.168.")));
  expect((await client.computes.instances.listAll()).map((c) => c.id)).toEqual([made.id]);

  await client.computes.instances.delete(made.id);
  await expect(client.computes.instances.waitForStatus(made.id, "running", onClock())).rejects.toMatchObject({
    kind: "failed",
    message: expect.stringContaining(`instance ${made.id} no longer exists`),
  });
  expect(sent()).toEqual(
    expect.arrayContaining([
      "POST /v4/compute/instances",
      "PUT /v4/compute/instances/N",
      "POST /v4/compute/instances/N/shutdown",
      "POST /v4/compute/instances/N/resize",
      "POST /v4/compute/instances/N/boot",
      "POST /v4/compute/instances/N/reboot",
      "GET /v4/compute/instances/N/ips",
      "DELETE /v4/compute/instances/N",
    ]),
  );
});

test("configs and their interfaces: a vpc interface joins the subnet, is updated in place and deleted", async () => {
  const vpc = await client.vpcs.create({ label: "sdk-vpc", region: "us-iad", subnets: [{ label: "sub-1", ipv4: "10.0.0.0/24" }] });
  const subnetId = vpc.subnets[0]!.id;
  const made = await client.computes.instances.create({ ...deploy, booted: false });
  await client.computes.instances.waitForStatus(made.id, "offline", onClock());
  const [config] = await client.computes.instances.configs.listAll(made.id);
  expect(config).toBeDefined();
  const iface = await client.computes.instances.configs.interfaces.create(made.id, config!.id, { purpose: "vpc", subnet_id: subnetId });
  expect(iface).toMatchObject({ purpose: "vpc", subnet_id: subnetId, vpc_id: vpc.id, ipv4: { vpc: "10.0.0.2" } });
  await expect(
    client.computes.instances.configs.interfaces.update(made.id, config!.id, iface.id, { ipv4: { vpc: "10.0.0.9" } }),
  ).resolves.toMatchObject({ ipv4: { vpc: "10.0.0.9" } });
  await expect(client.computes.instances.configs.interfaces.list(made.id, config!.id)).resolves.toHaveLength(config!.interfaces.length + 1);
  const again = await client.computes.instances.configs.get(made.id, config!.id);
  expect(again.interfaces.map((i) => i.purpose)).toContain("vpc");
  await client.computes.instances.configs.update(made.id, config!.id, { interfaces: [{ purpose: "public" }] });
  expect((await client.computes.instances.configs.get(made.id, config!.id)).interfaces.map((i) => i.purpose)).toEqual(["public"]);
  await expect(client.vpcs.subnets.get(vpc.id, subnetId)).resolves.toMatchObject({ computes: [] });
});

test("types: the catalogue needs no token; a request the schema refuses is never sent", async () => {
  const anonymous = new ComputeClient({ baseUrl: emulator.url });
  try {
    const types = await anonymous.computes.types.listAll();
    expect(types.map((t) => t.id)).toContain("g6-nanode-1");
    await expect(anonymous.computes.types.get("g6-standard-2")).resolves.toMatchObject({ vcpus: 2 });
  } finally {
    await anonymous.close();
  }
  const before = sent().length;
  const refused = await client.computes.instances.create({ ...deploy, label: "a" }).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(ClientValidationError);
  expect((refused as ClientValidationError).errors).toEqual([
    { field: "label", reason: "Label must contain between 3 and 64 characters." },
  ]);
  expect(sent().length).toBe(before);
});

describe("computeStatusWaiter on recorded sequences", () => {
  const replay = (until: ComputeStatus[], statuses: Array<ComputeStatus | undefined>) => {
    const waiter = computeStatusWaiter(7, until);
    for (const status of statuses) {
      const record = status === undefined ? undefined : ({ id: 7, label: "web", status } as Compute);
      const failure = waiter.failed(record);
      if (failure !== undefined) return `failed: ${failure}`;
      if (waiter.done(record)) return "done";
    }
    return "waiting";
  };

  test("a create: provisioning → booting → running", () => {
    expect(replay(["running"], ["provisioning", "booting", "running"])).toBe("done");
    expect(replay(["offline"], ["provisioning", "offline"])).toBe("done");
  });
  test("a boot read offline before it starts keeps waiting; one that falls back to offline fails fast", () => {
    expect(replay(["running"], ["offline", "offline", "booting"])).toBe("waiting");
    expect(replay(["running"], ["offline", "booting", "offline"])).toBe("failed: instance 7 (web) came to rest offline");
  });
  test("an instance deleted under the wait fails fast", () => {
    expect(replay(["running"], ["rebooting", undefined])).toBe("failed: instance 7 no longer exists");
  });
  test("the waiter's error is a WaitError of kind failed", async () => {
    const made = await client.computes.instances.create(deploy);
    await client.computes.instances.delete(made.id);
    const error = await client.computes.instances.waitForStatus(made.id, "running", onClock()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitError);
  });
});
