/**
 * The retry policy against injected faults over real HTTP: 429 with Retry-After and 503 are
 * retried (and counted), a maintenance 503 is not, and a POST is never repeated after an
 * ambiguous connection failure.
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { ConnectionError, ServiceUnavailableError } from "../../sdk/core/errors";

let emulator: RunningEmulator;
let retries: Array<{ reason: string; delayMs: number; method: string; path: string }>;
let client: ComputeClient;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});
afterAll(() => emulator.close());

beforeEach(() => {
  emulator.control.reset();
  emulator.control.clearFaults();
  emulator.control.clearRequests();
  retries = [];
  client = new ComputeClient({
    baseUrl: emulator.url,
    token: emulator.token,
    sleep: async () => undefined, // delays are recorded, not waited
    onRetry: (r) => retries.push({ reason: r.reason, delayMs: r.delayMs, method: r.method, path: r.path }),
  });
});
afterEach(() => client.close());

const requestsTo = (method: string, path: string) =>
  emulator.control.listRequests().filter((r) => r.method === method && r.path.split("?")[0] === path);

test("429 with Retry-After and 503 faults: every operation succeeds, each retry counted", async () => {
  emulator.control.addFault({ pathPattern: "/v4/vpcs", method: "POST", kind: "429", retryAfterSeconds: 2, count: 2 });
  emulator.control.addFault({ pathPattern: "/v4/vpcs*", method: "GET", kind: "503", count: 3 });

  const vpc = await client.vpcs.create({ label: "resilient", region: "us-iad" });
  const fetched = await client.vpcs.get(vpc.id);
  const listed = await client.vpcs.listAll();

  expect(fetched.label).toBe("resilient");
  expect(listed).toHaveLength(1);
  const on429 = retries.filter((r) => r.method === "POST");
  const on503 = retries.filter((r) => r.method === "GET");
  expect(on429).toHaveLength(2);
  expect(on429.every((r) => r.delayMs === 2000)).toBe(true); // Retry-After honoured
  expect(on503).toHaveLength(3);
  expect(requestsTo("POST", "/v4/vpcs").map((r) => r.status)).toEqual([429, 429, 200]);
  const faults = emulator.control.listFaults();
  expect(faults.map((f) => f.fired)).toEqual([2, 3]);
});

test("a 503 during platform maintenance is not retried", async () => {
  emulator.control.addFault({ pathPattern: "/v4/vpcs", method: "GET", kind: "503-maintenance", count: 1 });
  const error = await client.vpcs.listAll().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ServiceUnavailableError);
  expect((error as ServiceUnavailableError).maintenance).toBe(true);
  expect(retries).toEqual([]);
});

test("a POST is not repeated after an ambiguous connection failure", async () => {
  emulator.control.addFault({ pathPattern: "/v4/vpcs", method: "POST", kind: "reset-after", count: 1 });
  const error = await client.vpcs.create({ label: "once-only", region: "us-iad" }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ConnectionError);
  expect((error as ConnectionError).sent).toBe(true);
  expect(retries).toEqual([]);
  expect(requestsTo("POST", "/v4/vpcs")).toHaveLength(1);
  // The API did process it: exactly one VPC exists.
  expect((await client.vpcs.listAll()).map((v) => v.label)).toEqual(["once-only"]);
});

test("a GET is retried after a connection reset", async () => {
  emulator.control.addFault({ pathPattern: "/v4/vpcs", method: "GET", kind: "reset", count: 2 });
  await expect(client.vpcs.listAll()).resolves.toEqual([]);
  expect(retries.map((r) => r.method)).toEqual(["GET", "GET"]);
});
