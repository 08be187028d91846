#!/usr/bin/env bash
# Instructions per event through the core's standard-mod network, counted by
# valgrind's callgrind: a figure that does not swing with the machine's load
# as the timings of `cargo bench -p agentnet-core --bench network` do (by up
# to 40 % on the shared 2-core machine), so changes to the hot path can be
# compared exactly. Runs the same criterion benchmark in profile mode and
# prints, per target, the instructions of one iteration (one event handed to
# `Network::handle_event`, the input clone and dropping the effects
# included) and of `handle_event` alone. A `wire/` target measures the
# benchmark's `network_wire` group instead: the frame's text decoded, and
# the ack, every recipient's frame and the log row encoded.
# Run: bash tests/bench/core-instructions.sh [direct|channel_20|broadcast_100|wire/direct|wire/channel_20|wire/broadcast_100 ...]
# Needs valgrind (Debian: apt-get install valgrind).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
cd "$ROOT"
command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install valgrind)"; exit 1; }
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(direct channel_20 broadcast_100)
bench="$(cargo bench -p agentnet-core --bench network --no-run --message-format=json 2>/dev/null \
  | grep -o '"executable":"[^"]*"' | tail -1 | cut -d'"' -f4)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for target in "${targets[@]}"; do
  case "$target" in
    wire/*) filter="^network_wire/${target#wire/}\$" ;;
    *) filter="^network/$target\$" ;;
  esac
  cg="$out/${target//\//_}.cg"
  valgrind --tool=callgrind --callgrind-out-file="$cg" \
    "$bench" --bench --profile-time 2 "$filter" >/dev/null 2>&1
  # In the caller tree, handle_event's block lists its callers above it; the
  # timed loop's line ("< Bencher::iter (Nx)") gives the events handled.
  # `handle_event` is inlined into `handle_event_on` in optimised builds.
  read -r handled calls < <(callgrind_annotate --tree=caller --inclusive=yes "$cg" 2>/dev/null \
    | grep -B8 -E '\* .*Network>?::handle_event(_on)? \[' | grep 'Bencher<M>::iter (' | head -1 \
    | sed -E 's/^ *([0-9,]+).*\(([0-9,]+)x\).*/\1 \2/; s/,//g')
  total="$(callgrind_annotate --inclusive=yes "$cg" 2>/dev/null \
    | grep -E 'Bencher<M>::iter \[' | head -1 | sed -E 's/^ *([0-9,]+).*/\1/; s/,//g')"
  echo "$target: $((total / calls)) instructions per event ($((handled / calls)) in handle_event), $calls events"
done
