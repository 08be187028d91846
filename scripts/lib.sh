# Shared set-up and build steps for scripts/run, scripts/test, scripts/deploy and scripts/build-worker.
# Every step is idempotent: it checks what is installed and skips work already done.
# Build output and tools live under $AGENTNET_CACHE (outside the clone) so repeat runs are fast.
# Runs on Debian/Ubuntu and macOS (bash 3.2 and BSD tools included); where it cannot install
# something itself it says what to install.

set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export AGENTNET_CACHE="${AGENTNET_CACHE:-$HOME/.cache/agentnet}"
# One build directory per clone: cargo judges freshness by file times, so a clone whose files
# are older than another clone's build would take that build (made from other sources) as its own.
# SHA-256 in hex of a file, or of stdin without one: sha256sum (Linux) or shasum -a 256 (macOS).
sha256() {
  if command -v sha256sum >/dev/null; then sha256sum "$@" | cut -d' ' -f1; else shasum -a 256 "$@" | cut -d' ' -f1; fi
}
CLONE_KEY="$(printf '%s' "$ROOT" | sha256 | cut -c1-12)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$AGENTNET_CACHE/target/$CLONE_KEY}"
WASM32="wasm32-unknown-unknown"
source "$ROOT/scripts/tools.sh"

export PATH="$TOOLS/bin:$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# worker-build would download these; point it at the pinned copies instead.
export WASM_BINDGEN_BIN="$TOOLS/bin/wasm-bindgen"
# wasm-opt through a cache (scripts/wasm-opt-cached): an unchanged build costs a copy, not the
# minute wasm-opt takes over the edge.
export AGENTNET_WASM_OPT="$ROOT/node_modules/.bin/wasm-opt"
export WASM_OPT_BIN="$ROOT/scripts/wasm-opt-cached"
export ESBUILD_BIN="$ROOT/node_modules/.bin/esbuild"
export WRANGLER_SEND_METRICS=false
# No network here for wrangler's Request.cf lookup; skip it instead of waiting for it.
export CLOUDFLARE_CF_FETCH_ENABLED=false

# On a terminal cargo shows its own progress bar (a cold build takes many minutes); in logs it stays quiet.
if [ -t 1 ]; then CARGO_QUIET=""; else CARGO_QUIET="--quiet"; fi

note() { printf '    %s\n' "$*"; }

# Each step says when it starts and, when the next one starts (or the script ends), how long it
# took; step_summary lists them all, so a slow run shows where its time went.
# (bash's own SECONDS clock: no date command needed.)
STEP_NAME=""
STEP_STARTED=0
STEP_TIMES=""
# duration SECONDS: 75 -> 1m15s
duration() { if [ "$1" -ge 60 ]; then printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); else printf '%ds' "$1"; fi; }
step_done() {
  [ -n "$STEP_NAME" ] || return 0
  local took=$((SECONDS - STEP_STARTED))
  note "took $(duration "$took")"
  STEP_TIMES="${STEP_TIMES}$(printf '%8s  %s' "$(duration "$took")" "$STEP_NAME")"$'\n'
  STEP_NAME=""
}
step() {
  step_done
  STEP_NAME="$*"
  STEP_STARTED=$SECONDS
  printf '\n\033[1m==> %s\033[0m  (at %s)\n' "$*" "$(duration "$SECONDS")"
}
step_summary() {
  step_done
  [ -n "$STEP_TIMES" ] || return 0
  printf '\n\033[1m==> Time by step (%s in all)\033[0m\n%s' \
    "$(duration "$SECONDS")" "$STEP_TIMES"
  [ -z "$TOOLS_IN_BACKGROUND" ] || note "(the pinned tools compiled in the background meanwhile; the steps waited $(duration "$TOOLS_WAITED") for them)"
}
# At exit: a background compile of the tools stops with the script; with SUMMARY_AT_EXIT=1
# (scripts/test) the step table is printed however the script ends.
at_exit() {
  stop_background_tools
  [ -z "${SUMMARY_AT_EXIT:-}" ] || step_summary
}
trap at_exit EXIT

# first_build OUTPUT WHAT MINUTES: before a cargo step, says what it compiles and, when OUTPUT
# (a path under the build directory) is not there yet, that this is the cold first build and
# roughly how long it takes, so a first run is not minutes of silence.
first_build() {
  local output="$1" what="$2" minutes="$3"
  if [ -e "$CARGO_TARGET_DIR/$output" ]; then
    note "compiling $what (only what changed)"
  else
    note "compiling $what for the first time: roughly $minutes minutes on 2 cores, seconds on later runs"
    [ -t 1 ] || note "(cargo's progress bar shows on a terminal; here it is quiet)"
  fi
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

setup_npm() {
  step "npm tools (wrangler, ws, playwright-core, binaryen, typescript, esbuild, Vite, webpack, Deno, Bun, the MCP and A2A SDKs for interop tests) from package-lock.json"
  command -v npm >/dev/null || { echo "Node.js 20.3+ with npm is required"; exit 1; }
  local stamp="$ROOT/node_modules/.agentnet-lock.sha256"
  local want
  want="$(sha256 "$ROOT/package-lock.json")"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    note "node_modules up to date"
  else
    (cd "$ROOT" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$want" > "$stamp"
  fi
}

# ANP's official Python SDK (`anp` from PyPI, pinned) for the ANP interop test
# (tests/e2e/protocols/anp-sdk.test.mjs), in its own virtual environment under the cache, exported as
# ANP_PYTHON. Needs Python 3.10+ with venv (Debian: python3-venv).
ANP_SDK_VERSION="1.0.7"
setup_anp_python() {
  step "ANP's Python SDK (anp $ANP_SDK_VERSION from PyPI) for the ANP interop test"
  local venv="$AGENTNET_CACHE/python/anp-$ANP_SDK_VERSION"
  if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c 'import anp.anp_crawler' 2>/dev/null; then
    note "anp $ANP_SDK_VERSION installed"
  else
    command -v python3 >/dev/null || { echo "Python 3.10+ (with venv) is required for the ANP interop test"; exit 1; }
    note "installing anp $ANP_SDK_VERSION into $venv"
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "anp==$ANP_SDK_VERSION"
  fi
  export ANP_PYTHON="$venv/bin/python"
}

# Chromium for the browser tests, exported as CHROMIUM_PATH (tests/support/browser.mjs): the one
# given, one on PATH, Chromium or Chrome in /Applications (macOS), else Debian's package via apt-get.
setup_chromium() {
  step "Chromium for browser tests"
  local found="${CHROMIUM_PATH:-}" candidate
  if [ -z "$found" ]; then
    for candidate in "$(command -v chromium || true)" "$(command -v chromium-browser || true)" \
      "/Applications/Chromium.app/Contents/MacOS/Chromium" "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"; do
      if [ -n "$candidate" ] && [ -x "$candidate" ]; then found="$candidate"; break; fi
    done
  fi
  if [ -z "$found" ] && command -v apt-get >/dev/null; then
    note "installing Debian's chromium"
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
    found="$(command -v chromium)"
  fi
  if [ -z "$found" ]; then
    echo "Chromium is needed for the browser tests: install it (macOS: brew install --cask chromium;"
    echo "Fedora: dnf install chromium) or set CHROMIUM_PATH to a Chromium or Chrome binary."
    exit 1
  fi
  export CHROMIUM_PATH="$found"
  note "$("$found" --version 2>/dev/null || echo "$found")"
  # Reactions and messages show emoji: without a colour emoji font Chromium draws empty boxes
  # (in the tests' screenshots too). Debian's is one package; elsewhere the system has one.
  if command -v fc-list >/dev/null && ! fc-list | grep -qi emoji && command -v apt-get >/dev/null; then
    note "installing Debian's fonts-noto-color-emoji"
    local sudo_fonts=""
    [ "$(id -u)" = 0 ] || sudo_fonts="sudo"
    DEBIAN_FRONTEND=noninteractive $sudo_fonts apt-get install -y -qq fonts-noto-color-emoji >/dev/null 2>&1 ||
      { $sudo_fonts apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo_fonts apt-get install -y -qq fonts-noto-color-emoji >/dev/null; } ||
      note "no colour emoji font: emoji show as boxes in screenshots"
  fi
}

# mtime FILE: seconds since the epoch (GNU stat -c, BSD stat -f).
mtime() { stat -c %Y "$1" 2>/dev/null || stat -f %m "$1"; }

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
    dir="$(find "$AGENTNET_CACHE"/target -mindepth 2 -maxdepth 2 -name .last-used -mmin +180 2>/dev/null \
      | while read -r used; do echo "$(mtime "$used") $(dirname "$used")"; done \
      | sort -n | awk '{ print $2 }' | grep -vx "$CARGO_TARGET_DIR" | head -1 || true)"
    [ -n "$dir" ] || break
    note "removing $(basename "$dir"): less than 20 GiB free"
    rm -rf "$dir"
  done
  find "$AGENTNET_CACHE/wasm-opt" -name '*.wasm' -mtime +7 -delete 2>/dev/null || true
  note "$(df -Ph "$AGENTNET_CACHE" | awk 'NR == 2 { print $4 }') free"
}

setup() {
  if [ ! -d "$CARGO_TARGET_DIR/$WASM32" ] && [ ! -d "$CARGO_TARGET_DIR/debug" ]; then
    step "First run for this clone: nothing is built yet"
    note "Installing the pinned tools and compiling every crate (native for tests, wasm32 for the"
    note "edge, the web workspace and the npm package) takes time on 2 cores: ./scripts/run serves"
    note "after 11 to 15 minutes, ./scripts/test passes after 25 to 45 (BENCHMARKS.md);"
    note "later runs reuse $CARGO_TARGET_DIR and rebuild only what changed."
  fi
  prune_build_cache
  setup_rust
  setup_tools
  setup_npm
}

# with_clippy CARGO-COMMAND...: runs a cargo build with clippy-driver standing in for rustc on
# agentnet's own crates, warnings denied: exactly what `cargo clippy` sets up (the workspace
# wrapper and its CLIPPY_ARGS, whose separator is clippy's own), but the build also compiles, so
# the native tests are linted and built in one pass and `cargo test` reuses that build (there is
# no separate check of every dependency). The toolchain is pinned (rust-toolchain.toml).
with_clippy() {
  RUSTC_WORKSPACE_WRAPPER="$(cd "$ROOT" && rustup which clippy-driver)" \
    CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__" "$@"
}

# The cargo profile of the wasm builds, and whether wasm-opt runs after them:
#   release (the default): what `wrangler deploy` uploads and the size figures measure: whole-program
#     LTO, one codegen unit, then wasm-opt -Oz. scripts/test builds this way, so the deploy test
#     (tests/e2e/edge/deploy.test.mjs) reuses the test's builds.
#   local (scripts/run): the same optimisation level without the whole-program link and without
#     wasm-opt, which together cost minutes per module on two cores; larger, as fast to serve locally.
AGENTNET_PROFILE="${AGENTNET_PROFILE:-release}"
case "$AGENTNET_PROFILE" in
  release | local) ;;
  *) echo "AGENTNET_PROFILE is release or local, not $AGENTNET_PROFILE"; exit 1 ;;
esac

# wasm_cargo CARGO-ARGS...: a wasm32 cargo build in $AGENTNET_PROFILE.
wasm_cargo() {
  cargo "$@" --target "$WASM32" --profile "$AGENTNET_PROFILE"
}

# optimize_wasm FILE: shrink a wasm-bindgen output with binaryen's wasm-opt -Oz (npm binaryen),
# through the cache (scripts/wasm-opt-cached): an unchanged build costs a copy. A function with
# one caller is inlined into it only when it is small (1,000 bytes): binaryen's default inlines
# every one, which merged the edge's request futures into functions of 200 KB and more, and V8's
# optimizing tier takes about 70 MB of scratch memory to compile one of those, which workerd
# keeps (BENCHMARKS.md, "Memory"); the outputs come out a few KB smaller too. The function
# names (the name section) go, unless AGENTNET_WASM_NAMES=1 keeps them for a profile
# (tests/support/profile.mjs) or a stack trace that names Rust functions.
optimize_wasm() {
  local file="$1" names=()
  [ "$AGENTNET_PROFILE" = release ] || return 0
  [ "${AGENTNET_WASM_NAMES:-}" = 1 ] && names=(--debuginfo)
  note "wasm-opt -Oz $(basename "$file")"
  "$WASM_OPT_BIN" "$file" -o "$file.opt" -Oz --enable-simd --enable-bulk-memory \
    --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
    --enable-reference-types --enable-multivalue --enable-exception-handling --one-caller-inline-max-function-size 1000 "${names[@]}"
  mv "$file.opt" "$file"
}

# js_core FEATURE-FLAGS OUT-NAME: one wasm build of the npm package's core, bound into core/js/pkg.
js_core() {
  local flags="$1" name="$2"
  first_build "$WASM32/$AGENTNET_PROFILE/agentnet_js.wasm" "the npm package's core ($name, wasm32 $AGENTNET_PROFILE)" "5-10"
  (cd "$ROOT" && wasm_cargo build $CARGO_QUIET -p agentnet-js $flags)
  need_tool wasm-bindgen
  wasm-bindgen --target web --out-dir "$ROOT/core/js/pkg" --out-name "$name" \
    "$CARGO_TARGET_DIR/$WASM32/$AGENTNET_PROFILE/agentnet_js.wasm"
  optimize_wasm "$ROOT/core/js/pkg/${name}_bg.wasm"
}

build_js_package() {
  step "Building the npm package (core/js): the full core, then the lite one (no shared documents)"
  js_core "" agentnet_js
  js_core --no-default-features agentnet_js_lite
  note "core/js/pkg ready"
}

# build_web: the web workspace into www/pkg, cut into chunks: the first page's wasm
# (agentnet_web_bg.wasm) and one split_*.wasm per part loaded when first opened (web/src/parts.rs),
# with the loader __wasm_split.js. The final link keeps its relocations (--emit-relocs, for this
# crate only: the dependencies' builds stay shared) so wasm-split-cli can tell each part's code.
build_web() {
  step "Building the web workspace (web -> www/pkg: the first page, then the parts opened later)"
  first_build "$WASM32/$AGENTNET_PROFILE/agentnet-web.wasm" "the web workspace (Leptos, wasm32 $AGENTNET_PROFILE)" "5-10"
  # `erase_components` (Leptos): every component returns a type-erased view instead of its own
  # nested view type, so the rendering code is not instantiated once per component shape: the
  # first page's wasm is 11 % smaller (BENCHMARKS.md, "Leptos components erased"). Given in
  # RUSTFLAGS for this build alone (with .cargo/config.toml's simd128, which RUSTFLAGS replaces):
  # set there, for every wasm32 build, cargo failed to rebuild leptos against it.
  # Optimised for size (`opt-level = "z"`, the whole web build: the core keeps "s" in the edge
  # and the npm package, whose events/s `z` cut by 8-24 %; the edge Workers' own crates are "z"
  # in Cargo.toml): the first page 12 % smaller and usable 10 % sooner on the throttled phone
  # (BENCHMARKS.md, "The web optimised for size").
  (cd "$ROOT" && RUSTFLAGS="-C target-feature=+simd128 --cfg erase_components" \
    CARGO_PROFILE_RELEASE_OPT_LEVEL=z CARGO_PROFILE_LOCAL_OPT_LEVEL=z \
    cargo rustc $CARGO_QUIET -p agentnet-web --bin agentnet-web --target "$WASM32" \
    --profile "$AGENTNET_PROFILE" -- -C link-arg=--emit-relocs)
  need_tool wasm-split-cli
  need_tool wasm-bindgen
  local split="$CARGO_TARGET_DIR/$WASM32/$AGENTNET_PROFILE/web-split" pkg="$ROOT/www/pkg" file
  local stage="$CARGO_TARGET_DIR/$WASM32/$AGENTNET_PROFILE/web-pkg"
  rm -rf "$split" "$stage" && mkdir -p "$split" "$stage" "$pkg"
  wasm-split-cli "$CARGO_TARGET_DIR/$WASM32/$AGENTNET_PROFILE/agentnet-web.wasm" "$split" \
    --target web --out-name agentnet_web
  wasm-bindgen --target web --no-typescript --keep-lld-exports --out-dir "$stage" --out-name agentnet_web \
    "$split/agentnet_web.wasm"
  # The parts (split_*.wasm, one per split point) and the code some of them share (chunk_*.wasm).
  cp "$split/__wasm_split.js" "$split"/split_*.wasm "$stage/"
  cp "$split"/chunk_*.wasm "$stage/" 2>/dev/null || true
  # The emoji table, fetched when the composer or a picker first needs it (web/src/emoji/table.rs).
  cp "$ROOT/web/src/emoji/table.txt" "$stage/emoji-table.txt"
  for file in "$stage"/*.wasm; do optimize_wasm "$file"; done
  sync_into_pkg "$stage" "$pkg"
  bundle_styles
  note "www/pkg ready ($(ls "$pkg"/split_*.wasm | wc -l | tr -d ' ') parts loaded when first opened)"
}

# sync_into_pkg STAGE PKG: makes the web build's files in PKG what STAGE holds, writing only those
# that changed and removing parts and chunks no longer built. A `wrangler dev` serving www/ (the
# tests' edges, ./scripts/run) reloads its worker when a file there is written, and a reload fails
# the requests in flight, so an unchanged rebuild (./scripts/deploy beside running tests) writes nothing.
sync_into_pkg() {
  local stage="$1" pkg="$2" file
  (cd "$stage" && find . -type f) | while read -r file; do
    if ! cmp -s "$stage/$file" "$pkg/$file"; then
      mkdir -p "$(dirname "$pkg/$file")" && cp "$stage/$file" "$pkg/$file"
    fi
  done
  for file in "$pkg"/split_*.wasm "$pkg"/chunk_*.wasm "$pkg/__wasm_split.js"; do
    [ -e "$file" ] && [ ! -e "$stage/$(basename "$file")" ] && rm -f "$file"
  done
  return 0
}

# bundle_styles: joins the style sheets www/styles/index.css imports, in its order, into
# www/pkg/styles.css, the one sheet the page loads (one request instead of two dozen).
bundle_styles() {
  local index="$ROOT/www/styles/index.css" out="$ROOT/www/pkg/styles.css" file joined
  joined="$(mktemp)"
  mkdir -p "$ROOT/www/pkg"
  {
    printf '/* Joined from www/styles/ (index.css order) by scripts/lib.sh: edit those files. */\n'
    sed -n 's/^@import url("\([a-z0-9-]*\.css\)");$/\1/p' "$index" | while read -r file; do
      printf '\n/* %s */\n' "$file"
      cat "$ROOT/www/styles/$file"
    done
  } > "$joined"
  # Written only when it changed (see sync_into_pkg), from a file outside www/.
  if cmp -s "$joined" "$out"; then rm -f "$joined"; else cp "$joined" "$out" && rm -f "$joined"; fi
}

# `build_edge` builds the local edge the tests run against (tests/support/edge.mjs starts
# edge-worker/build-test): with the `test-hooks` feature (test-only routes, still off unless
# wrangler dev gets --var AGENTNET_TEST_HOOKS:1). `build_edge --deploy` (scripts/build-worker,
# which `wrangler deploy` and `wrangler dev` run) builds edge-worker/build without it; the two
# never overwrite each other, so a deploy build (tests/e2e/edge/deploy.test.mjs) leaves the test edge.
build_edge() {
  local features=(--features test-hooks) out=build-test what="with test hooks"
  if [ "${1:-}" = "--deploy" ]; then features=(); out=build; what="for deployment"; fi
  step "Building the edge worker (worker-build, $what)"
  first_build "$WASM32/$AGENTNET_PROFILE/agentnet_edge.wasm" "the edge worker (wasm32 $AGENTNET_PROFILE)" "5-10"
  worker_build edge-worker "$out" ${features[@]+"${features[@]}"}
  # What `wrangler deploy` uploads gets a second round of wasm-opt: it finds about 3 KB (gzip)
  # more, which keeps the network object's module under the 1.2 MB goal (BENCHMARKS.md, "Memory
  # at the peer's"); the test build and the local profile skip it (it takes about 20 s).
  [ "$out" = build ] && optimize_wasm "$ROOT/edge-worker/build/index_bg.wasm"
  note "edge-worker/$out ready ($what)"
}

# build_documents: the documents Worker (edge-documents/build): the keeper of the network objects'
# shared documents, with Automerge, which the main Worker's module leaves out (its network objects
# ask this Worker's objects through their DOCUMENTS binding). The same build for tests and deploys;
# edge-documents/wrangler.toml's build command (scripts/build-worker documents) runs it for a deploy.
build_documents() {
  step "Building the documents Worker (edge-documents: the shared documents' keeper, with Automerge)"
  first_build "$WASM32/$AGENTNET_PROFILE/agentnet_edge_documents.wasm" "the documents Worker (wasm32 $AGENTNET_PROFILE)" "3-6"
  worker_build edge-documents build
  note "edge-documents/build ready"
}

# build_registry: the registry Worker (edge-registry/build): the deployment-wide identity registry
# and directory of public networks, which the main Worker's module leaves out (it asks them
# through its REGISTRY and DIRECTORY bindings). The same build for tests and deploys;
# edge-registry/wrangler.toml's build command (scripts/build-worker registry) runs it for a deploy.
build_registry() {
  step "Building the registry Worker (edge-registry: the identity registry and the directory)"
  first_build "$WASM32/$AGENTNET_PROFILE/agentnet_edge_registry.wasm" "the registry Worker (wasm32 $AGENTNET_PROFILE)" "1-3"
  worker_build edge-registry build
  note "edge-registry/build ready"
}

# worker_build DIR OUT [CARGO-ARGS...]: the Worker crate in DIR, bound by worker-build into DIR/OUT
# and shrunk by optimize_wasm.
worker_build() {
  local dir="$1" out="$2"
  shift 2
  # The same cargo build worker-build runs first (its command and environment), so it can go
  # ahead while worker-build itself may still be compiling; worker-build's own is then a no-op.
  (cd "$ROOT/$dir" && WASM_BINDGEN_USE_JS_SYS=1 wasm_cargo build $CARGO_QUIET --lib "$@")
  need_tool worker-build
  need_tool wasm-bindgen
  # worker-build's own wasm-opt step (-O, names kept) is left out for optimize_wasm's.
  local build=(worker-build --release --no-opt --out-dir "$out")
  [ "$AGENTNET_PROFILE" = release ] || build=(worker-build --profile "$AGENTNET_PROFILE" --no-opt --out-dir "$out")
  # On a terminal worker-build shows cargo's progress and its own steps; in logs only errors.
  if [ -t 1 ]; then
    (cd "$ROOT/$dir" && "${build[@]}" . "$@")
  else
    (cd "$ROOT/$dir" && "${build[@]}" . "$@" >/dev/null)
  fi
  optimize_wasm "$ROOT/$dir/$out/index_bg.wasm"
}
