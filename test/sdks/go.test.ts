/**
 * The Go SDK as a Go team meets it: the module sdks/go (`github.com/pulumi/pulumi/sdk/v3` from the
 * module proxy, exactly as go.mod and go.sum pin it) passes `go vet`, and its test program passes
 * `go test` under Pulumi's mocks (`pulumi.WithMocks`) with the SDK's `compute/testing` mocks, which
 * answer through this checkout's provider plugin.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { codeBlocks } from "../../scripts/docs/examples";
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
  const markdown = fs.readFileSync(path.join(REPO_ROOT, "docs", "guides", "go.md"), "utf8");
  const main = codeBlocks("docs/guides/go.md", markdown).find((b) => b.lang === "go" && b.code.startsWith("package main"));
  expect(main).toBeDefined();
  // A project of the guide's shape: its go.mod requires the SDK through a replace, with the SDK's own pins.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-compute-go-guide-"));
  try {
    const sdkMod = fs.readFileSync(path.join(SDK_DIR, "go.mod"), "utf8");
    const requires = sdkMod.slice(sdkMod.indexOf("require"));
    fs.writeFileSync(
      path.join(dir, "go.mod"),
      `module my-infra\n\ngo 1.26.0\n\nrequire github.com/pulumi-compute/pulumi-compute/sdks/go v0.1.0\n\n${requires}\n` +
        `replace github.com/pulumi-compute/pulumi-compute/sdks/go => ${SDK_DIR}\n`,
    );
    fs.copyFileSync(path.join(SDK_DIR, "go.sum"), path.join(dir, "go.sum"));
    fs.writeFileSync(path.join(dir, "main.go"), main!.code + "\n");
    const result = await runProcess(go, ["vet", "."], { cwd: dir, env: env(), timeoutMs: 15 * 60_000 });
    expect({ code: result.code, out: result.out }).toEqual({ code: 0, out: "" });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
