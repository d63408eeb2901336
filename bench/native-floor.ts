/**
 * The engine's native floor for the scale benchmark: `pulumi-resource-noop`, a provider plugin in
 * Go that does no work of its own (`native-floor/main.go`: Check returns its inputs, Diff says no
 * change, Create numbers the object, Read returns what it is given, Delete does nothing).
 *
 * Its module (`native-floor/go.mod`, `go.sum`) pins Pulumi's Go SDK and every module it needs at
 * the versions of the engine's own build (`tools/pulumi-engine/go.mod`), and it is built with the
 * engine's flags (`ENGINE_GO_BUILD`: no cgo, `-trimpath`, the tags `osusergo,grpcnotrace`) and
 * `-mod=readonly`: the module cache the engine build filled has every module, and Go's build cache
 * has most packages compiled, so the build downloads nothing and takes seconds. The binary goes
 * into `$PULUMI_COMPUTE_CACHE/native-floor-<hash>/`, named by the module's files (as the setup
 * names the engine's folder), and a project declares that folder in its `Pulumi.yaml`
 * (`plugins: providers:`): nothing is put on PATH or beside a user's `pulumi`.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { packageRoot } from "../provider/launch/plugins";
import { runProcess } from "../test/support/process";
import { ENGINE_GO_BUILD } from "../test/sdks/languages";

/** The plugin's package name: its resources are `noop:index:Record`. */
export const NATIVE_FLOOR_PLUGIN = "noop";

/** The Go module's folder, in the repository (the build runs from `dist/bench/` or from the sources). */
export const NATIVE_FLOOR_MODULE = path.join(packageRoot(), "bench", "native-floor");

/** The project's cache folder, as `scripts/toolchain.sh` names it. */
function cacheDir(): string {
  return process.env.PULUMI_COMPUTE_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-compute");
}

/** The module's files that decide the binary: go.mod, go.sum and the sources. */
function moduleHash(): string {
  const hash = createHash("sha256");
  for (const file of fs
    .readdirSync(NATIVE_FLOOR_MODULE)
    .filter((f) => /^go\.(mod|sum)$|\.go$/.test(f))
    .sort()) {
    hash.update(file).update(fs.readFileSync(path.join(NATIVE_FLOOR_MODULE, file)));
  }
  return hash.digest("hex").slice(0, 12);
}

/**
 * The folder holding `pulumi-resource-noop` under `cache` (the project's cache folder), built first
 * when it is not there (into a temporary folder renamed when done, so an interrupted build never
 * looks finished). Throws with Go's output when the build fails.
 */
export async function nativeFloorPlugin(cache = cacheDir()): Promise<string> {
  const dir = path.join(cache, `native-floor-${moduleHash()}`);
  const binary = path.join(dir, `pulumi-resource-${NATIVE_FLOOR_PLUGIN}`);
  if (fs.existsSync(binary)) return dir;
  const tmp = `${dir}.tmp.${process.pid}`;
  fs.mkdirSync(tmp, { recursive: true });
  const result = await runProcess("go", ["build", "-ldflags", "-s -w", "-o", path.join(tmp, path.basename(binary)), "."], {
    cwd: NATIVE_FLOOR_MODULE,
    env: {
      ...process.env,
      CGO_ENABLED: ENGINE_GO_BUILD.CGO_ENABLED,
      GOFLAGS: `${process.env.GOFLAGS ?? ""} -mod=readonly ${ENGINE_GO_BUILD.GOFLAGS}`.trim(),
    },
    timeoutMs: 15 * 60_000,
  }).catch((error: unknown) => ({ code: -1, out: String(error) }));
  if (result.code !== 0) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw new Error(`building the native floor (bench/native-floor, go build) failed:\n${result.out}`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(tmp, dir);
  return dir;
}

/** A resource of a no-op floor (the native one by default): its inputs are recorded as its outputs, its id a number. */
export class NativeNoop extends pulumi.CustomResource {
  /** `plugin`: the no-op plugin serving it, the native floor's or the Node.js floor's (`node-floor-plugin.ts`). */
  constructor(name: string, props: Record<string, unknown>, opts?: pulumi.CustomResourceOptions, plugin = NATIVE_FLOOR_PLUGIN) {
    super(`${plugin}:index:Record`, name, props, opts);
  }
}
