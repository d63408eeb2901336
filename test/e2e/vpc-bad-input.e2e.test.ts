/**
 * Bad input through the real engine: locally checkable mistakes fail at preview, naming the
 * field, before any request reaches the API; the ones only the API can judge (an overlapping
 * range, an 11th VPC in a region) fail at `up` with the API's reason, naming the input, and
 * leave nothing half-created.
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { VPC_REASONS } from "../../sdk/resources/vpcs";
import { Vpc, VpcSubnet } from "../../provider";
import { createTestStack, eventRecorder, type TestStack } from "../support/engine";

jest.setTimeout(240_000);

let emulator: RunningEmulator;
let client: ComputeClient;
const stacks: TestStack[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
});

afterAll(async () => {
  for (const s of stacks) {
    await s.stack.destroy().catch(() => undefined);
    s.cleanup();
  }
  await client?.close();
  await emulator?.close();
});

async function stackFor(name: string, program: () => unknown): Promise<TestStack> {
  const s = await createTestStack({
    name,
    apiUrl: emulator.url,
    token: emulator.token,
    program: async () => {
      program();
    },
  });
  stacks.push(s);
  return s;
}

/** API requests (method and path) the emulator received since the last call. */
async function takeRequests(): Promise<string[]> {
  const requests = emulator.control.listRequests();
  emulator.control.clearRequests();
  return requests.map((r) => `${r.method} ${r.path}`);
}

test.each([
  ["an underscore in a VPC label", () => new Vpc("v", { label: "bad_label", region: "us-iad" }), "label", VPC_REASONS.labelChars],
  ["two dashes in a VPC label", () => new Vpc("v", { label: "bad--label", region: "us-iad" }), "label", VPC_REASONS.labelDashes],
  ["an invalid subnet range", () => new VpcSubnet("s", { vpcId: 1, label: "s", ipv4: "10.0.0.0/33" }), "ipv4", VPC_REASONS.ipv4Invalid],
  ["a public subnet range", () => new VpcSubnet("s", { vpcId: 1, label: "s", ipv4: "203.0.113.0/24" }), "ipv4", VPC_REASONS.ipv4Private],
])("preview refuses %s, naming the field, and sends no request", async (_what, program, field, reason) => {
  const s = await stackFor(`bad-${field}`, program);
  await takeRequests();
  const recorder = eventRecorder();
  await expect(s.stack.preview({ onEvent: recorder.onEvent })).rejects.toThrow();
  const diagnostics = recorder.diagnostics();
  expect(diagnostics).toContain(`property ${field}`);
  expect(diagnostics).toContain(reason);
  expect(await takeRequests()).toEqual([]);
});

test("overlapping subnets: the API's refusal names ipv4, and nothing is half-created", async () => {
  const s = await stackFor("overlap", () => {
    const vpc = new Vpc("net", { label: "overlap-net", region: "us-iad" });
    const a = new VpcSubnet("a", { vpcId: vpc.id, label: "a", ipv4: "10.1.0.0/16" });
    new VpcSubnet("b", { vpcId: vpc.id, label: "b", ipv4: "10.1.2.0/24" }, { dependsOn: a });
  });
  const recorder = eventRecorder();
  await expect(s.stack.up({ onEvent: recorder.onEvent })).rejects.toThrow();
  expect(recorder.diagnostics()).toContain(`ipv4: ${VPC_REASONS.ipv4Overlap}`);
  // What the API accepted is in state; what it refused does not exist anywhere.
  const inState = s
    .resources()
    .filter((r) => r.type.includes("compute:"))
    .map((r) => r.urn.split("::").pop());
  expect(inState.sort()).toEqual(["a", "net"]);
  const [vpc] = await client.vpcs.listAll({ filter: { label: "overlap-net" } });
  expect(vpc!.subnets.map((x) => x.label)).toEqual(["a"]);
  await s.stack.destroy();
  expect(await client.vpcs.listAll({ filter: { label: "overlap-net" } })).toEqual([]);
});

test("an 11th VPC in a region: the API's refusal names region", async () => {
  for (let i = 0; i < 10; i += 1) await client.vpcs.create({ label: `filler-${i}`, region: "us-ord" });
  const s = await stackFor("eleventh", () => new Vpc("net", { label: "eleventh", region: "us-ord" }));
  const recorder = eventRecorder();
  await expect(s.stack.up({ onEvent: recorder.onEvent })).rejects.toThrow();
  expect(recorder.diagnostics()).toContain(`region: ${VPC_REASONS.vpcLimit}`);
  expect(s.resources().filter((r) => r.type.includes("compute:"))).toEqual([]);
  for (const v of await client.vpcs.listAll()) if (v.label.startsWith("filler-")) await client.vpcs.delete(v.id);
});
