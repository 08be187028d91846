# The pinned Rust build tools (wasm-bindgen-cli at Cargo.lock's wasm-bindgen, worker-build, and
# wasm-split-cli, which cuts the web workspace's wasm into the first page's and the lazy parts'),
# compiled from crates.io once per machine into $TOOLS. Sourced by lib.sh.
#
# On a machine without them the compile (about 5 minutes on 2 cores) runs in the background
# while the wasm builds compile: those need wasm-bindgen only after cargo has built the wasm, and
# worker-build only for the edge, so `need_tool` waits where a tool is first used. A release
# wasm build spends part of its time in single-threaded code generation and LTO, which leaves a
# core for the tools: a cold ./scripts/run serves about a minute sooner (BENCHMARKS.md, "The
# lints folded into the test build, the tools compiled in the background"). The compile runs at
# the lowest priority (niceness 19), in what the builds in front of it leave idle: beside it at
# the same priority, a cold ./scripts/test's native build took 697 s instead of 455 s (one
# sitting; BENCHMARKS.md, "The pinned tools at the lowest priority").

TOOLS="$AGENTNET_CACHE/tools"
TOOLS_LOG="$AGENTNET_CACHE/logs/tools-install.log"
WORKER_BUILD_VERSION="0.8.7"
# The splitter of the chunks wasm_split_helpers (Cargo.lock, through leptos) marks: same 0.2 line.
WASM_SPLIT_VERSION="0.2.4"
TOOLS_JOB=""
TOOLS_IN_BACKGROUND=""
TOOLS_WAITED=0

# The wasm-bindgen version every crate is pinned to, read from Cargo.lock.
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock"
}

# tool_version BINARY: the version of the crate cargo installed BINARY from ("" when it is not
# installed), from cargo install's own record (wasm-split-cli has no --version).
tool_version() {
  [ -x "$TOOLS/bin/$1" ] && [ -f "$TOOLS/.crates.toml" ] || return 0
  awk -v b="\"$1\"" '
    /^"/ { split($0, key, " "); version = key[2] }
    index($0, b) { print version; exit }
  ' "$TOOLS/.crates.toml"
}

# The tools as "crate version binary [features]" lines, in the order they are compiled (the
# web build needs wasm-split-cli and wasm-bindgen first).
pinned_tools() {
  printf '%s\n' "wasm_split_cli_support $WASM_SPLIT_VERSION wasm-split-cli build-binary" \
    "wasm-bindgen-cli $(wasm_bindgen_version) wasm-bindgen" "worker-build $WORKER_BUILD_VERSION worker-build"
}

# The pinned tools not installed at their versions, as pinned_tools lines.
missing_tools() {
  local crate version binary features
  pinned_tools | while read -r crate version binary features; do
    [ "$(tool_version "$binary")" = "$version" ] || echo "$crate $version $binary $features"
  done
}

# install_tools LINES: cargo install each, in order, into $TOOLS. One build directory for every
# tool, so the dependencies they share compile once. Optimised at level 1, not cargo install's 3:
# the three compile in 4 min 51 s instead of 5 min 54 s on 2 cores (8 min 25 s of processor time
# instead of 10 min 16 s), they write the same bytes, and each run takes tens of milliseconds
# longer on a 10 MB module (BENCHMARKS.md, "The pinned tools at opt-level 1"). NICENESS (0 when
# not given) is the compile's scheduling niceness.
install_tools() {
  local crate version binary features
  printf '%s\n' "$1" | while read -r crate version binary features; do
    echo "==> cargo install $crate $version"
    CARGO_PROFILE_RELEASE_OPT_LEVEL=1 nice -n "${2:-0}" \
      cargo install --quiet --locked --root "$TOOLS" --target-dir "$AGENTNET_CACHE/tools-build" \
        "$crate" --version "$version" ${features:+--features "$features"} || exit 1
  done
}

# setup_tools: starts compiling what is missing, in the background.
setup_tools() {
  step "Pinned build tools"
  local missing
  missing="$(missing_tools)"
  if [ -z "$missing" ]; then
    note "wasm-bindgen-cli $(wasm_bindgen_version), worker-build $WORKER_BUILD_VERSION and wasm-split-cli $WASM_SPLIT_VERSION installed"
    return 0
  fi
  local names
  names="$(printf '%s\n' "$missing" | awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2 }')"
  mkdir -p "$(dirname "$TOOLS_LOG")"
  note "compiling $names from crates.io in the background (about 5 minutes on 2 cores,"
  note "once per machine; log: $TOOLS_LOG); the builds below wait for a tool where they first use it"
  # At the lowest priority: the builds in front of it get the processors first, and the compile
  # runs in what they leave idle (a crate's single-threaded code generation and link).
  install_tools "$missing" 19 > "$TOOLS_LOG" 2>&1 &
  TOOLS_JOB=$!
  TOOLS_IN_BACKGROUND=1
}

# need_tool BINARY: returns once BINARY is installed at its pinned version, waiting for the
# background compile if it is still running; stops the script if that compile failed.
need_tool() {
  local binary="$1" want started=$SECONDS
  want="$(pinned_tools | awk -v b="$binary" '$3 == b { print $2 }')"
  [ "$(tool_version "$binary")" = "$want" ] && return 0
  note "waiting for $binary $want (compiling in the background; log: $TOOLS_LOG)"
  while [ "$(tool_version "$binary")" != "$want" ]; do
    if [ -z "$TOOLS_JOB" ] || ! kill -0 "$TOOLS_JOB" 2>/dev/null; then
      [ "$(tool_version "$binary")" = "$want" ] && break
      echo "Installing $binary $want failed; the end of $TOOLS_LOG:"
      tail -n 40 "$TOOLS_LOG" 2>/dev/null || true
      exit 1
    fi
    sleep 1
  done
  TOOLS_WAITED=$((TOOLS_WAITED + SECONDS - started))
  note "$binary ready after $(duration $((SECONDS - started))) of waiting"
}

# stop_background_tools: at exit, ends a background compile the script no longer waits for
# (its children first: cargo, then the rustc processes under it).
stop_background_tools() {
  [ -n "$TOOLS_JOB" ] || return 0
  kill_tree "$TOOLS_JOB"
  TOOLS_JOB=""
}
kill_tree() {
  local child
  for child in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$child"; done
  kill "$1" 2>/dev/null || true
}
