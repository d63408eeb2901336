#!/usr/bin/env bash
# The project's single entry point: `npm test`, `npm run demo`, … all come here.
# It sets up what a fresh machine lacks (Node 24, npm dependencies, the Pulumi engine, the
# TypeScript build), then runs the task with Node 24 first on PATH.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=toolchain.sh
source "$ROOT/scripts/toolchain.sh"

task=${1:-}
shift || true
# The caller's own PULUMI_HOME, before ensure_engine gives the project's runs one of their own.
callers_pulumi_home=${PULUMI_HOME:-}

# The tests start Node thousands of times (programs through the language host, provider processes,
# emulators, npm): every one of them compiles Pulumi's SDK, this package and TypeScript again,
# about 0.4 s of CPU a start. Node's compile cache, in this repository's node_modules (where the
# provider processes already keep theirs, provider/launch/quick-start.ts), compiles each file once
# for the whole run. A test of the cache itself unsets it (test/e2e/emulated-stack.e2e.test.ts).
suite_compile_cache() {
  export NODE_COMPILE_CACHE=${NODE_COMPILE_CACHE:-$ROOT/node_modules/.cache/pulumi-compute/compile}
}

ensure_node
ensure_deps
case "$task" in
  build)
    build_ts ;;
  env)
    # `eval "$(npm run -s env)"`: stdout carries only the exports; set-up progress goes to stderr.
    ensure_engine
    print_env "$callers_pulumi_home" ;;
  test)
    ensure_engine
    ensure_postgres
    build_ts
    suite_compile_cache
    exec node "$ROOT/scripts/jest-run.js" "$@" ;;
  jest)
    # For development: compile (reporting type errors without stopping) and run jest with the
    # given arguments, e.g. `scripts/run.sh jest test/provider`.
    ensure_engine
    ensure_postgres
    (cd "$ROOT" && node node_modules/typescript/bin/tsc -p .) || echo "[setup] type errors above; running the tests anyway" >&2
    suite_compile_cache
    exec node "$ROOT/node_modules/jest/bin/jest.js" "$@" ;;
  demo)
    ensure_engine
    build_ts
    exec node "$ROOT/dist/examples/demo/main.js" "$@" ;;
  bench)
    ensure_engine
    ensure_postgres
    build_ts
    exec node "$ROOT/dist/bench/main.js" "$@" ;;
  coverage)
    build_ts
    exec node "$ROOT/dist/scripts/coverage/main.js" "$@" ;;
  generate)
    # Everything generated from the code: the coverage table, the emulator's spec endpoint list,
    # the provider's generated files, the provider plugin's schema, the reference pages of
    # docs/reference/ and the Python and Go SDKs of sdks/.
    build_ts
    node "$ROOT/dist/scripts/coverage/main.js"
    node "$ROOT/dist/scripts/docs/main.js"
    # After the docs part, which rewrites the classes the schema's types are read from.
    node "$ROOT/dist/scripts/schema/main.js"
    # The Python and Go SDKs, from the schema just written (tools/sdkgen).
    ensure_sdkgen
    exec "$SDKGEN" "$ROOT/provider/plugin/schema.json" "$ROOT/sdks/python" "$ROOT/sdks/go" ;;
  sdkgen)
    # The SDK generator with the given arguments; the SDK tests run `sdkgen --check …`.
    ensure_sdkgen
    exec "$SDKGEN" "$@" ;;
  emulator)
    build_ts
    exec node "$ROOT/dist/emulator/cli.js" "$@" ;;
  *)
    echo "usage: scripts/run.sh {test|demo|env|build|bench|emulator|jest|coverage|generate|sdkgen} [args…]" >&2
    exit 64 ;;
esac
