/**
 * The Go guide's first hour as written (docs/guides/go.md): its runnable steps and the files it
 * gives, in the page's order, typed into a user's shell in a new folder outside the repository,
 * from the packed tarball — the package installed from it, `go.mod` pointing at the tarball's
 * `sdks/go`, `go mod tidy`, the program's tests beside it under Pulumi's mocks (`go test`), a
 * standalone emulator, a stack and its configuration. `pulumi preview` and `up` build and run
 * the program, which needs the Go language host: where it is not on PATH (this machine and CI:
 * it cannot be built here, see the guide's end-to-end section) those steps still run, must fail
 * naming it, and the test prints that they did; `scripts/e2e-language.sh` runs them wherever a
 * host is.
 */
import { finishHostSteps, expectProjectFromTarball, expectTarballSteps, pageRun, runsTheProgram } from "../support/page-steps";
import { ENGINE_GO_BUILD } from "../sdks/languages";

// `go test` compiles Pulumi's Go SDK and gRPC: minutes on two shared cores where the engine
// build's cache does not serve them.
jest.setTimeout(25 * 60_000);

const GUIDE = "docs/guides/go.md";
const HOST = "pulumi-language-go";

const run = pageRun(GUIDE, {
  // Go builds as the engine build did (test/sdks/languages.ts), so that its compiled packages
  // serve this build from Go's cache: how paths are recorded, and tags the program never reaches.
  env: { CGO_ENABLED: ENGINE_GO_BUILD.CGO_ENABLED, GOFLAGS: `${process.env.GOFLAGS ?? ""} ${ENGINE_GO_BUILD.GOFLAGS}`.trim() },
  needs: runsTheProgram(HOST),
});

test("the guide installs the tarball `npm pack` writes for this version, and says how to make it", () => expectTarballSteps(GUIDE));

test("the guide's steps as written: the tarball, go.mod on its sdks/go, the program's tests under the mocks, a stack on an emulator", async () => {
  await run.steps.runUntil("npx compute-emulator");
  // Every file the layout lists is there.
  const project = expectProjectFromTarball(run, "my-infra", ["Pulumi.yaml", "go.mod", "go.sum", "main.go", "main_test.go"]);
  // The SDK is the tarball's, and Pulumi's Go SDK the engine's version.
  const listed = await run.user.run("go list -m -f '{{.Path}} {{.Version}} {{if .Replace}}{{.Replace.Path}}{{end}}' all", project);
  expect(listed.code).toBe(0);
  expect(listed.stdout).toContain("github.com/pulumi-compute/pulumi-compute/sdks/go v0.1.0 ./node_modules/pulumi-compute/sdks/go\n");
  expect(listed.stdout).toMatch(/^github\.com\/pulumi\/pulumi\/sdk\/v3 v3\.259\.0 $/m);
  // The program's tests, beside it, answered by the tarball's plugin.
  expect(run.steps.output("go test ./...")).toMatch(/^ok\s+my-infra\b/m);

  await finishHostSteps(run.steps, GUIDE, HOST, "go");
  expect(run.steps.ran.map((r) => r.out).join("\n")).not.toContain("slower than it could");
});
