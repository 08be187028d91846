#!/usr/bin/env bash
# The OpenAgents peer network's memory with idle agents, for the side-by-side
# with tests/bench/memory.mjs (workerd's resident memory at the same stages) in
# BENCHMARKS.md: the peer's figure taken from its own package in the same sitting.
#
# Starts the peer's network as its users do (`openagents network start` on the
# default workspace its CLI creates, only moved to a scratch folder, 127.0.0.1
# and free ports), connects idle agents with the peer's own Python SDK
# (WorkerAgent.async_start, the way its template agents/simple_agent.py
# connects) and reads the network process's VmRSS, VmHWM (peak) and
# smaps_rollup Rss from /proc at each stage:
#
#   1. a fresh network that has answered one request;
#   2. 1 agent connected;
#   3. 21 idle agents connected (also printed at 20);
#   4. PEER_AGENTS idle agents (default 1,000; per-agent figures from stage 3 to 4);
#   5. all disconnected and 10 s later.
#
# Run: bash tests/bench/peer-memory.sh   (PEER_AGENTS=1000 PEER_AGENTS_PER_WORKER=250)
# Linux only (/proc). Needs Python 3.10+ with venv; installs openagents[sdk]
# 0.9.3.post20 from PyPI once into ${XDG_CACHE_HOME:-$HOME/.cache}/agentnet/peer-venv
# (the `sdk` extra brings grpcio, without which `openagents network start`
# refuses its default config's gRPC transport), with mcp held below 2: the
# package asks for mcp>=1.15 with no ceiling, and mcp 2 (July 2026, after this
# release of May 2026) no longer has the `streamablehttp_client` its agents
# import. Prints figures; asserts nothing.
set -euo pipefail

PEER_VERSION=0.9.3.post20
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="${XDG_CACHE_HOME:-$HOME/.cache}/agentnet/peer-venv"

installed() {
  [ -x "$venv/bin/python" ] && "$venv/bin/python" - "$PEER_VERSION" <<'EOF' 2>/dev/null
import sys
from importlib.metadata import version
import grpc  # noqa: F401  (the sdk extra)
import openagents.agents.worker_agent  # noqa: F401  (fails with mcp 2)
sys.exit(0 if version("openagents") == sys.argv[1] else 1)
EOF
}

if ! installed; then
  command -v python3 >/dev/null || { echo "Python 3.10+ (with venv) is required"; exit 1; }
  echo "installing openagents[sdk]==$PEER_VERSION into $venv"
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "openagents[sdk]==$PEER_VERSION" 'mcp<2'
fi

exec "$venv/bin/python" "$here/peer-memory.py"
