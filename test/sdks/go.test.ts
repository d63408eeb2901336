/**
 * The Go SDK as a Go team meets it: the module sdks/go (`github.com/pulumi/pulumi/sdk/v3` from the
 * module proxy, exactly as go.mod and go.sum pin it) passes `go vet`, and its test program passes
 * `go test` under Pulumi's mocks (`pulumi.WithMocks`) with the SDK's `compute/testing` mocks, which
 * answer through this checkout's provider plugin; and every reference page's ```go example, as
 * the page has it, compiled and run under the same mocks (test/sdks/reference-examples/).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { codeBlocks } from "../../scripts/docs/examples";
import { goProgram, writeGoModule, writeGoProject } from "../../scripts/e2e-language/projects";
import { REPO_ROOT } from "../support/engine";
import { runProcess } from "../support/process";
import { buildList } from "../../scripts/setup/module-proxy";
import { ENGINE_GO_BUILD, passed, required, sdkTestEnv } from "./languages";

const SDK_DIR = path.join(REPO_ROOT, "sdks", "go");
/** Every Go test of sdks/go/tests; each must be reported as passed. */
const GO_TESTS = [
  "TestARefusedInputIsRefused",
  "TestDataFunctionsAskTheSameAccount",
  "TestProgramAnswersAsTheAPIDoes",
  "TestRootPasswordIsSecret",
];

// Cold (empty Go build cache) vet and the test binary compile Pulumi's Go SDK and gRPC: minutes on
// two shared cores; warm, seconds. The reference pages' examples start the plugin once per page.
jest.setTimeout(20 * 60_000);

// -mod=readonly: exactly the pins of go.mod and go.sum, never another version the proxy might
// refuse; and the engine build's settings, whose compiled packages then serve these builds.
const env = () =>
  sdkTestEnv({
    CGO_ENABLED: ENGINE_GO_BUILD.CGO_ENABLED,
    GOFLAGS: `${process.env.GOFLAGS ?? ""} -mod=readonly ${ENGINE_GO_BUILD.GOFLAGS}`.trim(),
  });

test("the Go SDK pins the engine's version of every module both use, and the tests build as the engine does", () => {
  const pins = (dir: string) =>
    new Map(buildList(fs.readFileSync(path.join(REPO_ROOT, dir, "go.mod"), "utf8")).map((m) => [m.path, m.version]));
  const engine = pins("tools/pulumi-engine");
  const sdk = pins("sdks/go");
  const apart = [...sdk].filter(([mod, version]) => engine.has(mod) && engine.get(mod) !== version);
  expect(apart.map(([mod, version]) => `${mod} ${version}, the engine ${engine.get(mod)}`)).toEqual([]);
  expect(sdk.get("github.com/pulumi/pulumi/sdk/v3")).toBe(engine.get("github.com/pulumi/pulumi/sdk/v3"));
  // The engine's build line has the same tags and flags (scripts/toolchain.sh, build_engine).
  const toolchain = fs.readFileSync(path.join(REPO_ROOT, "scripts/toolchain.sh"), "utf8");
  expect(toolchain).toMatch(/go_build=\(go build -mod=readonly -trimpath\)/);
  expect(toolchain).toMatch(/CGO_ENABLED=0 "\$\{go_build\[@\]\}" -tags osusergo,grpcnotrace/);
});

// On a fresh machine the module cache lacks some of the SDK's pins (which ones depends on the Go
// tests that ran before: the engine, sdkgen, the contract test), and `go vet` says "go: downloading
// …" for each: the pins are fetched first, so that vet's output is vet's findings alone.
beforeAll(async () => {
  const go = required("go", "the Go SDK's tests (sdks/go)");
  const result = await runProcess(go, ["mod", "download"], { cwd: SDK_DIR, env: env(), timeoutMs: 15 * 60_000 });
  expect({ code: result.code, out: result.code ? result.out : "" }).toEqual({ code: 0, out: "" });
});

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

/** The reference pages with a program (resources and data functions), and their ```go block. */
const REFERENCE_DIR = path.join(REPO_ROOT, "docs", "reference");
const PAGES = fs
  .readdirSync(REFERENCE_DIR)
  .map((file) => {
    const blocks = codeBlocks(`docs/reference/${file}`, fs.readFileSync(path.join(REFERENCE_DIR, file), "utf8"));
    return { name: file.replace(/\.md$/, ""), yaml: blocks.some((b) => b.lang === "yaml"), go: blocks.find((b) => b.lang === "go") };
  })
  .filter((p) => p.yaml);

/**
 * A page's program as a file of the examples package: the block as the page has it, but for
 * `package main`, `func main()` and `pulumi.Run(`, each there exactly once.
 */
function examplesFile(name: string, code: string, fn: string): string {
  const swaps: Array<[string, string]> = [
    ["package main\n", "package examples\n"],
    ["\nfunc main() {\n", `\nfunc ${fn}() {\n`],
    ["\tpulumi.Run(func(ctx *pulumi.Context) error {\n", "\trun(func(ctx *pulumi.Context) error {\n"],
  ];
  for (const [from, to] of swaps) {
    if (code.split(from).length !== 2) throw new Error(`docs/reference/${name}.md: its Go program has not one ${JSON.stringify(from)}`);
    code = code.replace(from, to);
  }
  return code + "\n";
}

test("every reference page's Go example compiles and runs under the Go mocks, answered by the plugin", async () => {
  const go = required("go", "the Go SDK's tests (sdks/go)");
  expect(PAGES.length).toBeGreaterThanOrEqual(41);
  for (const p of PAGES) expect({ page: p.name, go: p.go !== undefined }).toEqual({ page: p.name, go: true });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-compute-go-examples-"));
  try {
    writeGoModule(dir, "examples");
    fs.copyFileSync(path.join(REPO_ROOT, "test", "sdks", "reference-examples", "harness_test.go"), path.join(dir, "harness_test.go"));
    const rows = PAGES.map((p) => {
      const fn = `${p.name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}Page`;
      fs.writeFileSync(path.join(dir, `${p.name}.go`), examplesFile(p.name, p.go!.code, fn));
      const resources = (p.go!.code.match(/compute\.New[A-Z]\w*\(/g) ?? []).length;
      return `\t{${JSON.stringify(p.name)}, ${fn}, ${resources}},`;
    });
    fs.writeFileSync(path.join(dir, "pages_test.go"), ["package examples", "", "var pages = []page{", ...rows, "}", ""].join("\n"));
    // An image a page uploads from a file (`build/disk.img.gz`), beside the test, where the plugin runs.
    fs.mkdirSync(path.join(dir, "build"));
    fs.writeFileSync(path.join(dir, "build", "disk.img.gz"), zlib.gzipSync(Buffer.alloc(4096)));
    const result = await runProcess(go, ["test", "-count=1", "-v", "-timeout=15m", "."], { cwd: dir, env: env(), timeoutMs: 18 * 60_000 });
    if (result.code !== 0) throw new Error(`go test failed (${result.code}):\n${result.out}`);
    expect(passed(result.out, /^\s*--- PASS: TestReferenceExamples\/(\S+)/gm)).toEqual(PAGES.map((p) => p.name).sort());
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
