#!/usr/bin/env bash
# An end-to-end run of the README's program in Python or Go with a real Pulumi language host:
#   scripts/e2e-language.sh --hosts DIR [python] [go]      (or PULUMI_COMPUTE_LANGUAGE_HOSTS=DIR)
# DIR holds pulumi-language-python (with pulumi-language-python-exec beside it) and/or
# pulumi-language-go, e.g. a Pulumi installation's ~/.pulumi/bin. The run uses the project's own
# engine, the package's provider plugin (plugins/) and an emulator in the driver's process, and
# writes only into one temporary folder and the project's cache (pip's downloads, the Go program's
# builds). See docs/guides/python.md, go.md and docs/toolchain.md.
# It needs a set-up checkout (npm run build): it sets up nothing in the working tree itself.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=toolchain.sh
source "$ROOT/scripts/toolchain.sh"

[ -d "$ROOT/node_modules/@pulumi/pulumi" ] && [ -f "$ROOT/dist/scripts/e2e-language/main.js" ] ||
  die "this checkout is not built: run \`npm run build\` first (it installs the npm dependencies and compiles dist/)"
ensure_node
ensure_engine
export PULUMI_COMPUTE_CACHE="$CACHE"
exec node "$ROOT/dist/scripts/e2e-language/main.js" "$@"
