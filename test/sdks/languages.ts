/**
 * What the SDK tests share: the language toolchains they drive as child processes, which must be
 * there (a missing one fails the test naming it, never skips it), and the environment in which
 * the SDKs' mocks find this checkout's provider plugin.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { REPO_ROOT } from "../support/engine";

/** The path of `command` on PATH; throws naming it and what needs it when it is missing. */
export function required(command: string, neededFor: string): string {
  const found = spawnSync("sh", ["-c", `command -v ${command}`], { encoding: "utf8" });
  const where = found.stdout.trim();
  if (found.status !== 0 || !where) throw new Error(`${command} is not on PATH: ${neededFor} needs it`);
  return where;
}

/**
 * The environment of a language's tests: this process's (Node 24 first on PATH, as the setup
 * puts it), the plugins/ folder of this checkout for the mocks (`PULUMI_COMPUTE_PLUGINS`, as a
 * project's Pulumi.yaml would name node_modules/pulumi-compute/plugins), and no credentials or
 * stack configuration of the caller's.
 */
export function sdkTestEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PULUMI_COMPUTE_PLUGINS: path.join(REPO_ROOT, "plugins"), ...extra };
  // The emulator's strictness stays as the test run has it (test/support/strict-emulator.ts).
  for (const name of Object.keys(env)) if (/^COMPUTE_(TOKEN|API_URL)$|^PULUMI_CONFIG$/.test(name)) delete env[name];
  return env;
}

/** The names of the tests a runner reported as passed, from lines matching `pattern` (group 1: the name). */
export function passed(output: string, pattern: RegExp): string[] {
  return [...output.matchAll(pattern)].map((m) => m[1]!).sort();
}

/**
 * The Go build settings of the engine's build (`build_engine` in scripts/toolchain.sh: no cgo,
 * `-trimpath`, the tags `osusergo,grpcnotrace`), for the Go SDK's tests. With them, and with the
 * SDK pinning the engine's version of every module both use (sdks/go/go.mod), Go takes the
 * packages the engine build compiled from its build cache instead of compiling them again: on a
 * fresh machine that is most of the SDK's dependencies (Pulumi's Go SDK, gRPC, protobuf). What
 * they change is how paths are recorded, the tags' tracing and user lookup, and cgo, none of which
 * the SDK's programs under mocks reach.
 */
export const ENGINE_GO_BUILD = { CGO_ENABLED: "0", GOFLAGS: "-trimpath -tags=osusergo,grpcnotrace" } as const;
