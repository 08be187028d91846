#!/usr/bin/env bash
# What shared documents (Automerge, core feature `documents`) add to each wasm
# output: builds the npm binding, the web workspace and the edge worker with
# and without the feature, optimises each as the real builds do (wasm-bindgen,
# wasm-opt -Oz) and prints raw and gzip bytes; then the npm tarball (`npm pack`)
# of the package with each of the two npm wasm builds.
# Run: bash tests/bench/documents-size.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
setup >/dev/null
cd "$ROOT"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

measure() { # crate artifact features-flag label
  local crate=$1 artifact=$2 flags=$3 label=$4
  cargo build --quiet -p "$crate" --target "$WASM32" --release $flags
  wasm-bindgen --target web --no-typescript --out-dir "$out/$label" --out-name m \
    "$CARGO_TARGET_DIR/$WASM32/release/$artifact.wasm"
  optimize_wasm "$out/$label/m_bg.wasm" >/dev/null
  local raw gz
  raw=$(stat -c %s "$out/$label/m_bg.wasm")
  gz=$(gzip -9 -c "$out/$label/m_bg.wasm" | wc -c)
  echo "$raw $gz"
}

printf '%-10s %12s %12s %12s %12s %10s\n' output "without raw" "with raw" "without gz" "with gz" "added gz"
for spec in "agentnet-js agentnet_js npm" "agentnet-web agentnet-web web" "agentnet-edge agentnet_edge edge"; do
  set -- $spec
  read -r raw0 gz0 < <(measure "$1" "$2" --no-default-features "$3-without")
  read -r raw1 gz1 < <(measure "$1" "$2" "" "$3-with")
  printf '%-10s %12d %12d %12d %12d %10d\n' "$3" "$raw0" "$raw1" "$gz0" "$gz1" $((gz1 - gz0))
done

# The npm tarball with each build: a copy of core/js whose pkg/ holds that wasm.
tarball() { # label
  local copy="$out/pack-$1"
  mkdir -p "$copy"
  cp -r "$ROOT/core/js/." "$copy/"
  rm -rf "$copy/node_modules"
  cp "$out/$1/m_bg.wasm" "$copy/pkg/agentnet_js_bg.wasm"
  (cd "$copy" && npm pack --dry-run --json 2>/dev/null) | node -e \
    'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const [p]=JSON.parse(s);console.log(p.size+" "+p.unpackedSize)})'
}
read -r size0 unpacked0 < <(tarball npm-without)
read -r size1 unpacked1 < <(tarball npm-with)
printf 'npm tarball: without documents %d B gzip (%d unpacked), with documents %d B gzip (%d unpacked)\n' \
  "$size0" "$unpacked0" "$size1" "$unpacked1"
# Leave the default (with documents) build in the cache for the real build steps.
