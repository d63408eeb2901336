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
import * as fs from "node:fs";
import * as path from "node:path";
import { PageSteps, QUIET_NPM, emulatorVpcs, expectHostSteps, expectTarballSteps, pageSteps, userWithTarball } from "../support/page-steps";
import { type UserShell } from "../support/user-shell";
import { ENGINE_GO_BUILD } from "../sdks/languages";

// `go test` compiles Pulumi's Go SDK and gRPC: minutes on two shared cores where the engine
// build's cache does not serve them.
jest.setTimeout(25 * 60_000);

const GUIDE = "docs/guides/go.md";
const HOST = "pulumi-language-go";

let base: string;
let user: UserShell;
let steps: PageSteps;

beforeAll(async () => {
  ({ base, user } = await userWithTarball("pc-guide-go-"));
  steps = new PageSteps(user, base, pageSteps(GUIDE), {
    // Go builds as the engine build did (test/sdks/languages.ts), so that its compiled packages
    // serve this build from Go's cache: how paths are recorded, and tags the program never reaches.
    env: {
      ...QUIET_NPM,
      CGO_ENABLED: ENGINE_GO_BUILD.CGO_ENABLED,
      GOFLAGS: `${process.env.GOFLAGS ?? ""} ${ENGINE_GO_BUILD.GOFLAGS}`.trim(),
    },
    needs: (line) => (/^pulumi (preview|up|refresh)\b/.test(line) ? HOST : undefined),
  });
});

afterAll(async () => {
  await steps?.close();
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

test("the guide installs the tarball `npm pack` writes for this version, and says how to make it", () => expectTarballSteps(GUIDE));

test("the guide's steps as written: the tarball, go.mod on its sdks/go, the program's tests under the mocks, a stack on an emulator", async () => {
  await steps.runUntil("npx compute-emulator");
  const project = path.join(base, "my-infra");
  expect(steps.folder).toBe(project);
  for (const file of ["Pulumi.yaml", "go.mod", "go.sum", "main.go", "main_test.go", "package.json"]) {
    expect({ file, there: fs.existsSync(path.join(project, file)) }).toEqual({ file, there: true });
  }
  // The SDK is the tarball's, and Pulumi's Go SDK the engine's version.
  const listed = await user.run("go list -m -f '{{.Path}} {{.Version}} {{if .Replace}}{{.Replace.Path}}{{end}}' all", project);
  expect(listed.code).toBe(0);
  expect(listed.stdout).toContain("github.com/pulumi-compute/pulumi-compute/sdks/go v0.1.0 ./node_modules/pulumi-compute/sdks/go\n");
  expect(listed.stdout).toMatch(/^github\.com\/pulumi\/pulumi\/sdk\/v3 v3\.259\.0 $/m);
  // The program's tests, beside it, answered by the tarball's plugin.
  expect(steps.output("go test ./...")).toMatch(/^ok\s+my-infra\b/m);

  await steps.runUntil("kill %1");
  // What up made, destroy deleted; or nothing was made.
  expect(await emulatorVpcs(steps)).toEqual([]);
  await steps.runUntil();
  expect(steps.output("kill %1")).toMatch(/closed/);
  expectHostSteps(steps, GUIDE, HOST, "go");
  expect(steps.ran.map((r) => r.out).join("\n")).not.toContain("slower than it could");
});
