#!/usr/bin/env bash
# Cold-start figures for BENCHMARKS.md ("the two commands"), on this machine, from an empty cache.
# Each takes the machine for a quarter to half an hour: run it with nothing else building.
#
#   tests/bench/cold-start.sh run     # a fresh clone's ./scripts/run until the workspace answers
#   tests/bench/cold-start.sh test    # a fresh clone's ./scripts/test, to its end
#   tests/bench/cold-start.sh lints   # the lints and native tests, cold: four clippy passes and
#                                     # `cargo test` against the clippy-linted test build
#   tests/bench/cold-start.sh tools-beside N
#                                     # the native test build from an empty folder with the
#                                     # pinned tools compiling beside it at niceness N, as a
#                                     # cold ./scripts/test starts (BENCHMARKS.md, "The pinned
#                                     # tools at the lowest priority")
#
# `run` and `test` also print how busy the processors were in each step (sampled from
# /proc/stat every 5 s, where there is one): all of them, and the share at a nice level (the
# pinned tools' background compile).
#
# `run` and `test` clone HEAD into a scratch folder and run it with a scratch HOME, as on a fresh
# machine: ~/.cache (agentnet's: no pinned tools, no build output, no wasm-opt results; pip's,
# Deno's) and ~/.config start empty, while the toolchain and the crates and npm packages come
# from this machine's ~/.rustup, ~/.cargo and ~/.npm. (A separate AGENTNET_CACHE alone is not
# enough: the deploy test runs ./scripts/deploy with nothing but HOME, which would build into the
# real ~/.cache/agentnet from scratch.) They print the script's own step table; `run` stops the
# edge once it says Ready and GET / answers.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SCRATCH="${COLD_SCRATCH:-/tmp/agentnet-cold}"
export PORT="${PORT:-8899}"

fresh_clone() {
  rm -rf "$SCRATCH"
  mkdir -p "$SCRATCH/home"
  local keep
  for keep in .rustup .cargo .npm; do
    [ ! -e "$HOME/$keep" ] || ln -s "$HOME/$keep" "$SCRATCH/home/$keep"
  done
  git clone --quiet "$ROOT" "$SCRATCH/clone"
  echo "cold start of $(git -C "$SCRATCH/clone" log --oneline -1 | cut -c1-60)"
}

# in_fresh_home COMMAND...: becomes COMMAND (exec, same process) in the clone, with the scratch
# HOME and no cache settings; call it in a subshell.
in_fresh_home() {
  cd "$SCRATCH/clone"
  exec env -u AGENTNET_CACHE -u CARGO_TARGET_DIR HOME="$SCRATCH/home" "$@"
}

# sample_busy LOG: in the background, every 5 s, the time, /proc/stat's busy, idle and niced
# jiffies and the step LOG is at, into $SCRATCH/busy.txt; busy_by_step prints them per step.
SAMPLER=""
sample_busy() {
  [ -r /proc/stat ] || return 0
  local log="$1"
  : > "$SCRATCH/busy.txt"
  (
    while true; do
      read -r _ user nice system idle iowait irq softirq steal _ < /proc/stat
      printf '%s %s %s %s|%s\n' "$(date +%s)" $((user + nice + system + irq + softirq + steal)) \
        $((idle + iowait)) "$nice" "$(grep -a '==> ' "$log" 2>/dev/null | tail -n 1 | sed 's/.*==> //; s/\x1b.*//' | cut -c1-70)"
      sleep 5
    done
  ) >> "$SCRATCH/busy.txt" &
  SAMPLER=$!
  trap 'kill "$SAMPLER" 2>/dev/null || true' EXIT
}
busy_by_step() {
  [ -n "$SAMPLER" ] || return 0
  kill "$SAMPLER" 2>/dev/null || true
  echo "processors busy per step (of 2 = both; in brackets the niced share: the pinned tools):"
  awk -F'|' -v cores="$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)" '
    { split($1, v, " ") }
    NR > 1 {
      step = $2; if (!(step in wall)) order[++n] = step
      wall[step] += v[1] - t; busy[step] += v[2] - b; idle[step] += v[3] - i; niced[step] += v[4] - c
    }
    { t = v[1]; b = v[2]; i = v[3]; c = v[4] }
    END {
      for (k = 1; k <= n; k++) {
        s = order[k]; all = busy[s] + idle[s]; if (all == 0) all = 1
        printf "%6d s  %4.2f (%4.2f)  %s\n", wall[s], cores * busy[s] / all, cores * niced[s] / all, s
      }
    }' "$SCRATCH/busy.txt"
}

cold_run() {
  fresh_clone
  local log="$SCRATCH/run.log" started=$SECONDS pid
  # Its own session (setsid in place of the subshell, same pid), so stopping it stops wrangler and workerd.
  (PORT="$PORT" in_fresh_home setsid ./scripts/run > "$log" 2>&1 < /dev/null) &
  pid=$!
  sample_busy "$log"
  until grep -q "Ready on" "$log" 2>/dev/null; do
    kill -0 "$pid" 2>/dev/null || { tail -n 40 "$log"; echo "./scripts/run ended before serving"; exit 1; }
    sleep 2
  done
  local status
  status="$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/")"
  echo "serving after $((SECONDS - started)) s (GET / answered $status)"
  sed -n '/Time by step/,/Starting the edge/p' "$log" | sed '$d'
  busy_by_step
  pkill -TERM -s "$pid" 2>/dev/null || true
}

cold_test() {
  fresh_clone
  local log="$SCRATCH/test.log" started=$SECONDS rc=0
  sample_busy "$log"
  (in_fresh_home ./scripts/test > "$log" 2>&1) || rc=$?
  echo "./scripts/test ended with $rc after $((SECONDS - started)) s"
  sed -n '/Time by step/,$p' "$log"
  grep -E '^ℹ (tests|pass|fail) ' "$log" || true
  busy_by_step
}

# The native test build (through clippy-driver, as scripts/test's) from an empty build folder,
# with install_tools compiling the pinned tools from an empty tools folder beside it at niceness
# $1; the crates as this machine's ~/.cargo has them.
cold_tools_beside() {
  local niceness="${1:?tools-beside needs a niceness, 0 to 19}" started=$SECONDS
  cd "$ROOT"
  source scripts/lib.sh
  trap - EXIT
  rm -rf "$SCRATCH" && mkdir -p "$SCRATCH"
  export CARGO_TARGET_DIR="$SCRATCH/target"
  TOOLS="$SCRATCH/tools"
  AGENTNET_CACHE="$SCRATCH"
  (install_tools "$(pinned_tools)" "$niceness" > "$SCRATCH/tools.log" 2>&1 &&
    echo "the tools done after $((SECONDS - started)) s (niceness $niceness)") &
  local tools=$!
  with_clippy cargo test --quiet --workspace --all-targets --no-run > "$SCRATCH/native.log" 2>&1 ||
    { tail -n 30 "$SCRATCH/native.log"; exit 1; }
  echo "the native build done after $((SECONDS - started)) s"
  wait "$tools" || { tail -n 30 "$SCRATCH/tools.log"; exit 1; }
  rm -rf "$SCRATCH"
}

# The lints and native tests from an empty build directory, both ways, one after the other.
cold_lints() {
  cd "$ROOT"
  source scripts/lib.sh
  local wasm="wasm32-unknown-unknown"
  timed() {
    local started=$SECONDS
    "$@" > "$SCRATCH/lints.log" 2>&1 || { tail -n 30 "$SCRATCH/lints.log"; exit 1; }
    printf '%5d s  %s\n' $((SECONDS - started)) "$*"
  }
  rm -rf "$SCRATCH" && mkdir -p "$SCRATCH"
  echo "== four clippy passes, then cargo test (the scheme before the lints were folded into the test build)"
  export CARGO_TARGET_DIR="$SCRATCH/before"
  timed cargo clippy -q --workspace --all-targets -- -D warnings
  timed cargo clippy -q -p agentnet-edge -p agentnet-web -p agentnet-js --target "$wasm" -- -D warnings
  timed cargo clippy -q -p agentnet-core --all-targets -- -D warnings
  timed cargo clippy -q -p agentnet-edge -p agentnet-web -p agentnet-js --target "$wasm" --no-default-features -- -D warnings
  timed cargo test -q --workspace
  rm -rf "$CARGO_TARGET_DIR"
  echo "== the native crates linted as they compile for the tests (scripts/test now)"
  export CARGO_TARGET_DIR="$SCRATCH/after"
  timed with_clippy cargo test -q --workspace --all-targets --no-run
  timed cargo clippy -q -p agentnet-core --all-targets -- -D warnings
  timed cargo clippy -q -p agentnet-edge -p agentnet-web -p agentnet-js --target "$wasm" -- -D warnings
  timed cargo clippy -q -p agentnet-edge -p agentnet-web -p agentnet-js --target "$wasm" --no-default-features -- -D warnings
  timed with_clippy cargo test -q --workspace
  rm -rf "$CARGO_TARGET_DIR"
}

case "${1:-}" in
  run) cold_run ;;
  test) cold_test ;;
  lints) cold_lints ;;
  tools-beside) cold_tools_beside "${2:-}" ;;
  *) sed -n '2,17p' "$0"; exit 2 ;;
esac
