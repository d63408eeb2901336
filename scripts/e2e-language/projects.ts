/**
 * The projects of the README's program in Python and Go, as the language guides lay them out
 * (docs/guides/python.md, go.md): what `scripts/e2e-language.sh` runs with a real language host,
 * and what the Go SDK's test vets.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { packageRoot } from "../../provider/launch/plugins";
import { codeBlocks } from "../docs/examples";

/** The checkout, from the source (jest) or from dist/ alike. */
export const REPO_ROOT = packageRoot(__dirname);
const PYTHON_SDK = path.join(REPO_ROOT, "sdks", "python");
const GO_SDK = path.join(REPO_ROOT, "sdks", "go");

/** The README's program in Python: the Python SDK's own test program (`sdks/python/tests/program.py`, the guide's). */
export const pythonProgram = (): string => fs.readFileSync(path.join(PYTHON_SDK, "tests", "program.py"), "utf8");

/** The README's program in Go: the Go guide's `main.go` (its `go vet` is test/sdks/go.test.ts's). */
export function goProgram(): string {
  const markdown = fs.readFileSync(path.join(REPO_ROOT, "docs", "guides", "go.md"), "utf8");
  const main = codeBlocks("docs/guides/go.md", markdown).find((b) => b.writes?.path === "main.go");
  if (!main) throw new Error("docs/guides/go.md gives no main.go (`<!-- file: main.go -->`)");
  return main.code + "\n";
}

/** The Pulumi version the Python SDK's tests pin (`sdks/python/tests/requirements.txt`). */
export function pinnedPythonPulumi(): string {
  const requirements = fs.readFileSync(path.join(PYTHON_SDK, "tests", "requirements.txt"), "utf8");
  const pin = /^pulumi==(\S+)$/m.exec(requirements);
  if (!pin) throw new Error("sdks/python/tests/requirements.txt pins no pulumi version");
  return pin[1]!;
}

/**
 * A Go module of a project's shape in `dir`: a `go.mod` (module `module`) that requires the SDK
 * through a `replace` to this checkout's `sdks/go` with the SDK's own pins, and its go.sum.
 */
export function writeGoModule(dir: string, module: string): void {
  const sdkMod = fs.readFileSync(path.join(GO_SDK, "go.mod"), "utf8");
  const requires = sdkMod.slice(sdkMod.indexOf("require"));
  fs.writeFileSync(
    path.join(dir, "go.mod"),
    `module ${module}\n\ngo 1.26.0\n\nrequire github.com/pulumi-compute/pulumi-compute/sdks/go v0.1.0\n\n${requires}\n` +
      `replace github.com/pulumi-compute/pulumi-compute/sdks/go => ${GO_SDK}\n`,
  );
  fs.copyFileSync(path.join(GO_SDK, "go.sum"), path.join(dir, "go.sum"));
}

/** Writes a Go project of the guide's shape into `dir`: its module (`writeGoModule`) and `main.go`. */
export function writeGoProject(dir: string, program: string): void {
  writeGoModule(dir, "my-infra");
  fs.writeFileSync(path.join(dir, "main.go"), program);
}
