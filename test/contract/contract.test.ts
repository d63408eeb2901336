/**
 * The contract test with a real client: the official Go client of the original API
 * (`github.com/linode/linodego`, pinned in `test/contract/go.mod`) drives the emulator over HTTP
 * through its own methods and waiters (`test/contract/*_test.go`). This file starts the emulator
 * on a free port, seeds the instances the Go tests need, runs `go test` with Go's caches outside
 * the tree (Go's defaults, as for the engine build; on a fresh machine `go test` downloads the
 * pinned modules through the configured proxy, which `test/setup/module-proxy.test.ts` checks
 * serves them), and asserts that every Go test ran and passed and which endpoints they reached.
 */
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { runProcess } from "../support/process";
import { REPO_ROOT } from "../support/engine";
import { COMPUTE_LIFE_ENDPOINTS, endpointOf } from "./endpoint-of";

const CONTRACT_DIR = path.join(REPO_ROOT, "test", "contract");
/** Emulated time runs this much faster: provisioning (15–30 min) takes seconds. */
const TIME_SCALE = 600;
/** Every Go test of the package; each must be reported as passed. */
const GO_TESTS = [
  "TestVPCsAndSubnets",
  "TestFirewallsWithRulesAndDevices",
  "TestIPv6RangesAndReverseDNS",
  "TestDomainsAndRecordsOfEveryType",
  "TestMySQLDatabaseLifecycle",
  "TestPostgreSQLDatabaseLifecycle",
  "TestImagesUploadedAndCaptured",
  "TestPaginationOverMoreThan500ObjectsAndTheirEvents",
  "TestErrorsOfEachKindParsedByTheClient",
  "TestComputeInstancesConfigsAndInterfaces",
];

/** What the issue asks the client to drive, one endpoint for each behaviour at least. */
const REQUIRED_ENDPOINTS = [
  "POST /v4/vpcs/{vpcId}/subnets",
  "PUT /v4/networking/firewalls/{firewallId}/rules",
  "POST /v4/networking/firewalls/{firewallId}/devices",
  "POST /v4/networking/ipv6/ranges",
  "PUT /v4/networking/ips/{address}",
  "POST /v4/domains/{domainId}/records",
  "GET /v4/domains/{domainId}/zone-file",
  "GET /v4/databases/engines",
  "POST /v4/databases/mysql/instances",
  "POST /v4/databases/postgresql/instances",
  "PUT /v4/databases/mysql/instances/{instanceId}",
  "POST /v4/databases/mysql/instances/{instanceId}/credentials/reset",
  "DELETE /v4/databases/postgresql/instances/{instanceId}",
  "GET /v4/account/events",
  "POST /v4/account/events/{eventId}/seen",
  "POST /v4/images/upload",
  "POST /v4/images",
  "GET /v4/images/{imageId}",
  ...COMPUTE_LIFE_ENDPOINTS,
];

// Cold (empty Go caches) the first run downloads linodego and compiles it and Go's standard
// library for tests: about 9 minutes measured on two shared cores. Warm it takes about 25 s.
jest.setTimeout(20 * 60_000);

let emu: RunningEmulator;
beforeAll(async () => {
  // A real client meets the API's own behaviour: unknown body fields ignored, not strict.
  emu = await startEmulator({ port: 0, timeScale: TIME_SCALE, strict: false });
});
afterAll(() => emu?.close());

/** The environment of `go test`: this process's, without anything that would redirect the client. */
function goEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  // -mod=readonly: exactly the pins of go.mod and go.sum, never another version the proxy might refuse.
  const goflags = `${process.env.GOFLAGS ?? ""} -mod=readonly`.trim();
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra, GOFLAGS: goflags };
  for (const name of Object.keys(env)) if (name.startsWith("LINODE_")) delete env[name];
  return env;
}

test("the official Go client runs its whole life against the emulator", async () => {
  const compute = emu.control.seedCompute({ label: "contract-compute", region: "us-iad", configs: [] });
  const other = emu.control.seedCompute({ label: "contract-other", region: "us-iad", configs: [] });
  // A token that may only read VPCs, and a restricted user without grants: the 401 and 403 cases.
  const scoped = emu.control.createToken({ scopes: ["vpc:read_only"] });
  const restricted = emu.control.createToken({ restricted: true });
  const seed = {
    computeId: compute.id,
    region: compute.region,
    publicIpv4: compute.ipv4[0],
    slaac: compute.ipv6,
    diskId: compute.disks?.[0]?.id,
    otherComputeId: other.id,
  };
  const result = await runProcess("go", ["test", "-count=1", "-v", "./..."], {
    cwd: CONTRACT_DIR,
    env: goEnv({
      CONTRACT_API_URL: emu.url,
      CONTRACT_TOKEN: emu.token,
      CONTRACT_CONTROL_URL: emu.controlUrl,
      CONTRACT_SCOPED_TOKEN: scoped.token,
      CONTRACT_RESTRICTED_TOKEN: restricted.token,
      CONTRACT_SEED: JSON.stringify(seed),
    }),
    timeoutMs: 19 * 60_000,
  });
  if (result.code !== 0) throw new Error(`go test failed (exit ${result.code}):\n${result.out}`);
  const passed = [...result.out.matchAll(/^\s*--- PASS: (\w+)/gm)].map((m) => m[1]);
  expect(passed.sort()).toEqual([...GO_TESTS].sort());

  const requests = emu.control.listRequests();
  const endpoints = new Set(requests.map((r) => endpointOf(r.method, r.path)));
  expect([...endpoints].filter((e) => e.includes("(unknown)"))).toEqual([]);
  expect([...endpoints]).toEqual(expect.arrayContaining(REQUIRED_ENDPOINTS));
  // The image upload's PUT of the data goes to the upload URL, outside /v4, and is not logged
  // here; more than 500 records were listed, so pages beyond the fifth were asked for.
  expect(requests.some((r) => /\/domains\/\d+\/records\?page=6\b/.test(r.path))).toBe(true);
  // The compute life ran with no request refused: every one of them answered 2xx.
  const computeRequests = requests.filter((r) => r.path.startsWith("/v4/compute/"));
  expect(computeRequests.length).toBeGreaterThan(20);
  expect(computeRequests.filter((r) => r.status === null || r.status >= 300)).toEqual([]);
  // Every request got an answer (no connection was cut, nothing is still in flight).
  expect(requests.filter((r) => r.status === null || r.status === 0)).toEqual([]);
  console.log(`contract: ${requests.length} requests, ${endpoints.size} endpoints:\n${[...endpoints].sort().join("\n")}`);
});
