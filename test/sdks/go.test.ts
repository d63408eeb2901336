/**
 * The Go SDK as a Go team meets it: the module sdks/go (`github.com/pulumi/pulumi/sdk/v3` from the
 * module proxy, exactly as go.mod and go.sum pin it) passes `go vet`, and its test program passes
 * `go test` under Pulumi's mocks (`pulumi.WithMocks`) with the SDK's `compute/testing` mocks, which
 * answer through this checkout's provider plugin.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { goProgram, writeGoProject } from "../../scripts/e2e-language/projects";
import { REPO_ROOT } from "../support/engine";
import { runProcess } from "../support/process";
import { passed, required, sdkTestEnv } from "./languages";

const SDK_DIR = path.join(REPO_ROOT, "sdks", "go");
/** Every Go test of sdks/go/tests; each must be reported as passed. */
const GO_TESTS = [
  "TestARefusedInputIsRefused",
  "TestDataFunctionsAskTheSameAccount",
  "TestProgramAnswersAsTheAPIDoes",
  "TestRootPasswordIsSecret",
];

// Cold (empty Go build cache) vet and the test binary compile Pulumi's Go SDK and gRPC: minutes on
// two shared cores; warm, seconds.
jest.setTimeout(20 * 60_000);

// -mod=readonly: exactly the pins of go.mod and go.sum, never another version the proxy might refuse.
const env = () => sdkTestEnv({ GOFLAGS: `${process.env.GOFLAGS ?? ""} -mod=readonly`.trim() });

test("go vet accepts the Go SDK", async () => {
  const go = required("go", "the Go SDK's tests (sdks/go)");
  const result = await runProcess(go, ["vet", "./..."], { cwd: SDK_DIR, env: env(), timeoutMs: 15 * 60_000 });
  expect({ code: result.code, out: result.out }).toEqual({ code: 0, out: "" });
});

test("the Go test program passes under Pulumi's mocks", async () => {
  const go = required("go", "the Go SDK's tests (sdks/go)");
  const result = await runProcess(go, ["test", "-count=1", "-v", "./..."], { cwd: SDK_DIR, env: env(), timeoutMs: 15 * 60_000 });
  if (result.code !== 0) throw new Error(`go test failed (${result.code}):\n${result.out}`);
  expect(passed(result.out, /^--- PASS: (\w+)/gm)).toEqual(GO_TESTS);
});

test("the Go guide's program builds against the SDK (go vet)", async () => {
  const go = required("go", "the Go SDK's tests (sdks/go)");
  // A project of the guide's shape: its go.mod requires the SDK through a replace, with the SDK's own pins.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-compute-go-guide-"));
  try {
    writeGoProject(dir, goProgram());
    const result = await runProcess(go, ["vet", "."], { cwd: dir, env: env(), timeoutMs: 15 * 60_000 });
    expect({ code: result.code, out: result.out }).toEqual({ code: 0, out: "" });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
