# The pinned Rust build tools (wasm-bindgen-cli at Cargo.lock's wasm-bindgen, worker-build),
# compiled from crates.io once per machine into $TOOLS. Sourced by lib.sh.
#
# On a machine without them the compile (about 5 minutes on 2 cores) runs in the background
# while the wasm builds compile: those need wasm-bindgen only after cargo has built the wasm, and
# worker-build only for the edge, so `need_tool` waits where a tool is first used. A release
# wasm build spends part of its time in single-threaded code generation and LTO, which leaves a
# core for the tools: a cold ./scripts/run serves about a minute sooner (BENCHMARKS.md, "The
# lints folded into the test build, the tools compiled in the background").

TOOLS="$AGENTNET_CACHE/tools"
TOOLS_LOG="$AGENTNET_CACHE/logs/tools-install.log"
WORKER_BUILD_VERSION="0.8.7"
TOOLS_JOB=""
TOOLS_IN_BACKGROUND=""
TOOLS_WAITED=0

# The wasm-bindgen version every crate is pinned to, read from Cargo.lock.
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock"
}

# tool_version BINARY: the version a pinned tool says it is ("" when it is not installed).
tool_version() {
  [ -x "$TOOLS/bin/$1" ] || return 0
  "$TOOLS/bin/$1" --version 2>/dev/null | awk '{print $NF}'
}

# The tools as "crate version binary" lines, in the order they are compiled (wasm-bindgen is
# needed first).
pinned_tools() {
  printf '%s\n' "wasm-bindgen-cli $(wasm_bindgen_version) wasm-bindgen" "worker-build $WORKER_BUILD_VERSION worker-build"
}

# The pinned tools not installed at their versions, as pinned_tools lines.
missing_tools() {
  local crate version binary
  pinned_tools | while read -r crate version binary; do
    [ "$(tool_version "$binary")" = "$version" ] || echo "$crate $version $binary"
  done
}

# install_tools LINES: cargo install each, in order, into $TOOLS. One build directory for every
# tool, so the dependencies they share compile once.
install_tools() {
  local crate version binary
  printf '%s\n' "$1" | while read -r crate version binary; do
    echo "==> cargo install $crate $version"
    cargo install --quiet --locked --root "$TOOLS" --target-dir "$AGENTNET_CACHE/tools-build" \
      "$crate" --version "$version" || exit 1
  done
}

# setup_tools: starts compiling what is missing, in the background.
setup_tools() {
  step "Pinned build tools"
  local missing
  missing="$(missing_tools)"
  if [ -z "$missing" ]; then
    note "wasm-bindgen-cli $(wasm_bindgen_version) and worker-build $WORKER_BUILD_VERSION installed"
    return 0
  fi
  local names
  names="$(printf '%s\n' "$missing" | awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2 }')"
  mkdir -p "$(dirname "$TOOLS_LOG")"
  note "compiling $names from crates.io in the background (about 5 minutes on 2 cores,"
  note "once per machine; log: $TOOLS_LOG); the builds below wait for a tool where they first use it"
  install_tools "$missing" > "$TOOLS_LOG" 2>&1 &
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
