# Shared set-up and build steps for scripts/run and scripts/test.
# Every step is idempotent: it checks what is installed and skips work already done.
# Build output and tools live under $AGENTNET_CACHE (outside the clone) so repeat runs are fast.

set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
AGENTNET_CACHE="${AGENTNET_CACHE:-$HOME/.cache/agentnet}"
# One build directory per clone: cargo judges freshness by file times, so a clone whose files
# are older than another clone's build would take that build (made from other sources) as its own.
CLONE_KEY="$(printf '%s' "$ROOT" | sha256sum | cut -c1-12)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$AGENTNET_CACHE/target/$CLONE_KEY}"
TOOLS="$AGENTNET_CACHE/tools"
WORKER_BUILD_VERSION="0.8.7"
WASM32="wasm32-unknown-unknown"

export PATH="$TOOLS/bin:$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# worker-build would download these; point it at the pinned copies instead.
export WASM_BINDGEN_BIN="$TOOLS/bin/wasm-bindgen"
export WASM_OPT_BIN="$ROOT/node_modules/.bin/wasm-opt"
export ESBUILD_BIN="$ROOT/node_modules/.bin/esbuild"
export WRANGLER_SEND_METRICS=false
# No network here for wrangler's Request.cf lookup; skip it instead of waiting for it.
export CLOUDFLARE_CF_FETCH_ENABLED=false

# On a terminal cargo shows its own progress bar (a cold build takes many minutes); in logs it stays quiet.
if [ -t 1 ]; then CARGO_QUIET=""; else CARGO_QUIET="--quiet"; fi

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
note() { printf '    %s\n' "$*"; }

# The wasm-bindgen version every crate is pinned to, read from Cargo.lock.
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock"
}

setup_rust() {
  step "Rust toolchain and the $WASM32 target"
  command -v rustup >/dev/null || { echo "rustup is required (https://rustup.rs)"; exit 1; }
  (cd "$ROOT" && rustup show active-toolchain >/dev/null)
  if ! (cd "$ROOT" && rustup target list --installed | grep -qx "$WASM32"); then
    (cd "$ROOT" && rustup target add "$WASM32")
  else
    note "target installed"
  fi
}

# cargo_tool CRATE VERSION BINARY: install a crate's binaries at exactly VERSION into $TOOLS.
cargo_tool() {
  local crate="$1" version="$2" binary="$3" have=""
  if [ -x "$TOOLS/bin/$binary" ]; then
    have="$("$TOOLS/bin/$binary" --version 2>/dev/null | awk '{print $NF}')"
  fi
  if [ "$have" = "$version" ]; then
    note "$crate $version installed"
  else
    note "installing $crate $version (compiles from crates.io; a few minutes the first time)"
    cargo install --quiet --locked --root "$TOOLS" "$crate" --version "$version"
  fi
}

setup_tools() {
  step "Pinned build tools"
  cargo_tool wasm-bindgen-cli "$(wasm_bindgen_version)" wasm-bindgen
  cargo_tool worker-build "$WORKER_BUILD_VERSION" worker-build
}

setup_npm() {
  step "npm tools (wrangler, ws, playwright-core, binaryen, typescript, esbuild, Vite, Deno, Bun, the MCP and A2A SDKs for interop tests) from package-lock.json"
  command -v npm >/dev/null || { echo "Node.js 20.3+ with npm is required"; exit 1; }
  local stamp="$ROOT/node_modules/.agentnet-lock.sha256"
  local want
  want="$(sha256sum "$ROOT/package-lock.json" | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    note "node_modules up to date"
  else
    (cd "$ROOT" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$want" > "$stamp"
  fi
}

setup_chromium() {
  step "Chromium for browser tests"
  if command -v chromium >/dev/null; then
    note "$(chromium --version 2>/dev/null || echo chromium present)"
  else
    note "installing Debian's chromium"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi
}

# Every clone gets its own build directory (~10 GiB), so clones that come and go (CI runs, worktrees)
# would fill the disk. Drop the build directories of other clones unused for two days, and all of
# those unused for three hours, oldest first, while less than 20 GiB is free (a directory in use by
# a concurrent run is never taken); drop optimized wasm unused for a week.
prune_build_cache() {
  step "Build cache (${CARGO_TARGET_DIR})"
  mkdir -p "$CARGO_TARGET_DIR"
  touch "$CARGO_TARGET_DIR/.last-used"
  local dir
  for dir in "$AGENTNET_CACHE"/target/*/; do
    dir="${dir%/}"
    [ "$dir" = "$CARGO_TARGET_DIR" ] && continue
    if [ -z "$(find "$dir" -maxdepth 1 -name .last-used -mtime -2 2>/dev/null)" ] \
      && [ -z "$(find "$dir" -maxdepth 0 -mtime -2 2>/dev/null)" ]; then
      note "removing $(basename "$dir"), unused for two days"
      rm -rf "$dir"
    fi
  done
  while [ "$(df -Pk "$AGENTNET_CACHE" | awk 'NR == 2 { print $4 }')" -lt $((20 * 1024 * 1024)) ]; do
    dir="$(find "$AGENTNET_CACHE"/target -mindepth 2 -maxdepth 2 -name .last-used -mmin +180 \
      -printf '%T@ %h\n' 2>/dev/null | sort -n | awk '{ print $2 }' | grep -vx "$CARGO_TARGET_DIR" | head -1 || true)"
    [ -n "$dir" ] || break
    note "removing $(basename "$dir"): less than 20 GiB free"
    rm -rf "$dir"
  done
  find "$AGENTNET_CACHE/wasm-opt" -name '*.wasm' -mtime +7 -delete 2>/dev/null || true
  note "$(df -Ph "$AGENTNET_CACHE" | awk 'NR == 2 { print $4 }') free"
}

setup() {
  prune_build_cache
  setup_rust
  setup_tools
  setup_npm
}

# optimize_wasm FILE: shrink a wasm-bindgen output with binaryen's wasm-opt -Oz (npm binaryen).
# Results are cached by the input's hash, so an unchanged build costs a copy, not a re-optimization.
optimize_wasm() {
  local file="$1" hash cached
  hash="$(sha256sum "$file" | cut -d' ' -f1)"
  cached="$AGENTNET_CACHE/wasm-opt/$hash.wasm"
  if [ ! -f "$cached" ]; then
    note "wasm-opt -Oz $(basename "$file")"
    mkdir -p "$(dirname "$cached")"
    wasm-opt -Oz --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
      --enable-mutable-globals --enable-reference-types --enable-multivalue \
      "$file" -o "$cached.tmp"
    mv "$cached.tmp" "$cached"
  fi
  cp "$cached" "$file"
}

# js_core FEATURE-FLAGS OUT-NAME: one wasm build of the npm package's core, bound into core/js/pkg.
js_core() {
  local flags="$1" name="$2"
  (cd "$ROOT" && cargo build $CARGO_QUIET -p agentnet-js --target "$WASM32" --release $flags)
  wasm-bindgen --target web --out-dir "$ROOT/core/js/pkg" --out-name "$name" \
    "$CARGO_TARGET_DIR/$WASM32/release/agentnet_js.wasm"
  optimize_wasm "$ROOT/core/js/pkg/${name}_bg.wasm"
}

build_js_package() {
  step "Building the npm package (core/js): the full core, then the lite one (no shared documents)"
  js_core "" agentnet_js
  js_core --no-default-features agentnet_js_lite
  note "core/js/pkg ready"
}

build_web() {
  step "Building the web workspace (web -> www/pkg)"
  (cd "$ROOT" && cargo build $CARGO_QUIET -p agentnet-web --target "$WASM32" --release)
  wasm-bindgen --target web --no-typescript --out-dir "$ROOT/www/pkg" --out-name agentnet_web \
    "$CARGO_TARGET_DIR/$WASM32/release/agentnet-web.wasm"
  optimize_wasm "$ROOT/www/pkg/agentnet_web_bg.wasm"
  note "www/pkg ready"
}

build_edge() {
  step "Building the edge worker (worker-build)"
  (cd "$ROOT/edge-worker" && worker-build --release >/dev/null)
  note "edge-worker/build ready"
}
