#!/usr/bin/env python3
"""The OpenAgents peer network's memory with idle agents (run it through
tests/bench/peer-memory.sh, which provides the venv).

Mirrors tests/bench/memory.mjs on the peer's side: starts the peer's network
as its own process the way its CLI does (`openagents network start DIR`, DIR
being the default workspace `initialize_workspace` writes for a bare
`openagents network start`, here in a scratch folder with HOME pointed there
too), with every listener moved to 127.0.0.1 and a free port and nothing else
changed: its HTTP transport (with MCP, A2A and Studio routes on; the wheel
carries no Studio build, so /studio answers 404), gRPC, and the A2A
transport, whose `port: null` still binds aiohttp's default 0.0.0.0:8080 in
this release; the six default mods stay on. Agents are the SDK's own WorkerAgent, started as its template
agents/simple_agent.py starts one (`async_start(network_host, network_port)`
with the HTTP port): the SDK asks GET /api/health and takes the network's
recommended transport, gRPC in the default config. After about 2 s at each
stage the network process's VmRSS, VmHWM (its peak so far) and
smaps_rollup Rss are read from /proc:

  1. a fresh network that has answered one request (GET /api/health);
  2. 1 agent connected;
  3. 21 idle agents connected (also read at 20, the issue's figure);
  4. PEER_AGENTS idle agents (default 1000; per-agent figures from 3 to 4);
  5. every agent disconnected (the SDK's async_stop: UnregisterAgent, channel
     closed) and 10 s later.

The first 21 agents run in this process; the rest in worker processes of up
to PEER_AGENTS_PER_WORKER (default 250) agents each: every SDK agent keeps a
1 s message-poll loop and a 1 s runner loop, which keeps one Python process
busy long before 1,000 agents. Agents join five at a time per process; one
whose first gRPC call misses the SDK's 5 s deadline (the network is busy
answering every join's GET /api/health, which lists every agent) is started
again, up to three times, and the output says how many were.

Also printed at each stage: the agents the network itself counts, the gRPC
connections it holds (the SDK's agents in one process share one: gRPC's
subchannel pool) and its CPU use over the settle time (idle SDK agents poll).
PEER_KEEP=1 keeps the scratch folder and its logs. Prints figures; asserts
nothing. Linux only.
"""

import asyncio
import ctypes
import json
import logging
import os
import platform
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from importlib.metadata import version
from pathlib import Path

SETTLE = 2.0
MiB = 1024  # figures are read in kB


def _die_with_parent():
    """Child side of Popen: receive SIGTERM if the bench process dies."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


# --- idle agents (the peer's SDK, unmodified) -------------------------------


def quiet_sdk(log_path):
    """The SDK prints and logs freely: send it to a file, keep stdout for figures."""
    logging.basicConfig(filename=log_path, level=logging.WARNING,
                        format="%(asctime)s %(process)d %(name)s %(levelname)s %(message)s")
    out = sys.stdout
    sys.stdout = open(log_path, "a", buffering=1)
    return out


async def connect_agents(names, host, port, agents, parallel=5, tries=3):
    """Start a WorkerAgent per name, a few at a time; returns (names that never
    connected, attempts that failed). Under load the SDK's 5 s deadline on its
    first gRPC Heartbeat expires now and then: such an agent is started again,
    as its user would."""
    from openagents.agents.worker_agent import WorkerAgent

    failed = []
    attempts_failed = 0

    async def one(name):
        agent = WorkerAgent(agent_id=name)
        try:
            await agent.async_start(network_host=host, network_port=port)
            agents.append(agent)
        except Exception as e:  # noqa: BLE001
            logging.error("agent %s failed to connect: %s", name, e)
            failed.append(name)

    for attempt in range(tries):
        todo, failed = (names if attempt == 0 else failed), []
        for i in range(0, len(todo), parallel):
            await asyncio.gather(*(one(n) for n in todo[i:i + parallel]))
        attempts_failed += len(failed)
        if not failed:
            break
    return failed, attempts_failed


async def disconnect_agents(agents, parallel=20):
    while agents:
        group = [agents.pop() for _ in range(min(parallel, len(agents)))]
        await asyncio.gather(*(a.async_stop() for a in group), return_exceptions=True)


async def worker_main(first, count, host, port, log_path):
    """A worker process: connect `count` agents, report, hold them until told to stop."""
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    quiet_sdk(log_path)
    loop = asyncio.get_running_loop()
    # Started before the bench's own agents; connects when told ("go").
    if (await loop.run_in_executor(None, sys.stdin.readline)).strip() != "go":
        return
    agents = []
    failed, retried = await connect_agents([f"idle-{k}" for k in range(first, first + count)],
                                           host, int(port), agents)
    proto.write(f"connected {len(agents)} failed {len(failed)} retried {retried}\n")
    await loop.run_in_executor(None, sys.stdin.readline)  # "stop", or EOF if the bench died
    await disconnect_agents(agents)
    proto.write("stopped\n")


# --- the network process and its memory -------------------------------------


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def process_tree(root):
    """root and its descendants (the network may run children)."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, []))
    return tree


def cpu_ticks(pids):
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
        except (OSError, IndexError, ValueError):
            pass
    return total


def memory_kb(pid):
    figures = {"name": "?"}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                figures[key] = int(value.split()[0])
            elif key == "Name":
                figures["name"] = value.strip()
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            if line.startswith("Rss:"):
                figures["Rss"] = int(line.split()[1])
    return figures


def established(port):
    """Server-side TCP connections on `port` (how many sockets the agents share)."""
    n = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                next(f)
                for line in f:
                    fields = line.split()
                    if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "01":
                        n += 1
        except OSError:
            pass
    return n


def _address(hex_addr):
    addr, port = hex_addr.split(":")
    raw = bytes.fromhex(addr)
    # /proc/net/tcp* print each 32-bit word in host (little-endian) order
    raw = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
    if len(raw) == 16 and raw[:12] == b"\0" * 10 + b"\xff\xff":
        raw = raw[12:]
    return f"{socket.inet_ntop(socket.AF_INET if len(raw) == 4 else socket.AF_INET6, raw)}:{int(port, 16)}"


def listening(pid):
    """The TCP addresses the process listens on."""
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            next(f)
            for line in f:
                fields = line.split()
                if fields[3] == "0A" and fields[9] in inodes:
                    found.append(_address(fields[1]))
    return sorted(set(found))


def health(http_port):
    with urllib.request.urlopen(f"http://127.0.0.1:{http_port}/api/health", timeout=30) as res:
        body = json.load(res)
    return body.get("data", body)


def mib(kb):
    return f"{kb / MiB:.1f} MiB"


def write_config(workspace, ports):
    """The CLI's default workspace, every listener on 127.0.0.1 and a free port."""
    import yaml
    from openagents.client.cli_helpers import initialize_workspace

    config_path = initialize_workspace(workspace)
    config = yaml.safe_load(config_path.read_text())
    moved = []
    for transport in config["network"]["transports"]:
        kind, conf = transport["type"], transport.setdefault("config", {})
        if kind in ports:
            conf["host"], conf["port"] = "127.0.0.1", ports[kind]
            moved.append(kind)
    profile = config.get("network_profile") or {}
    if profile:
        profile["host"], profile["port"] = "127.0.0.1", ports["http"]
    config_path.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True))
    return config, moved


async def main():
    total = int(os.environ.get("PEER_AGENTS", "1000"))
    per_worker = int(os.environ.get("PEER_AGENTS_PER_WORKER", "250"))
    total = max(total, 22)
    scratch = Path(tempfile.mkdtemp(prefix="peer-memory-"))
    (scratch / "home").mkdir()
    out = quiet_sdk(scratch / "agents.log")

    def say(text=""):
        out.write(text + "\n")
        out.flush()

    ports = {"http": free_port(), "grpc": free_port(), "a2a": free_port()}
    config, moved = write_config(scratch / "network", ports)
    net = config["network"]
    say(f"openagents {version('openagents')} (grpcio {version('grpcio')}, "
        f"Python {platform.python_version()}), {os.cpu_count()} CPUs")
    say(f"network: `openagents network start` on its default workspace in {scratch}; "
        f"transports {[t['type'] for t in net['transports']]}, recommended {net.get('recommended_transport')}, "
        f"mods {len(net.get('mods', []))}; moved to 127.0.0.1: " +
        ", ".join(f"{k} :{ports[k]}" for k in moved))

    cli = Path(sys.executable).with_name("openagents")
    log = open(scratch / "network.log", "w")
    network = subprocess.Popen(
        [str(cli), "network", "start", str(scratch / "network")],
        cwd=scratch, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
        env=dict(os.environ, HOME=str(scratch / "home"), PYTHONUNBUFFERED="1", COLUMNS="200"),
        start_new_session=True, preexec_fn=_die_with_parent)
    workers = []
    local_agents = []
    ok = False
    try:
        launched = time.monotonic()
        deadline = launched + 180
        while True:
            if network.poll() is not None:
                raise RuntimeError(f"the network exited with {network.returncode} before answering")
            try:
                health(ports["http"])
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("the network did not answer GET /api/health in 180 s")
                await asyncio.sleep(0.5)
        say(f"network pid {network.pid} answering after {time.monotonic() - launched:.1f} s; listening on "
            + ", ".join(listening(network.pid)))

        stages = {}

        async def read(stage, agents):
            cpu = cpu_ticks(process_tree(network.pid))
            await asyncio.sleep(SETTLE)
            tree = process_tree(network.pid)
            busy = (cpu_ticks(tree) - cpu) / os.sysconf("SC_CLK_TCK") / SETTLE
            each = []
            for pid in tree:
                try:
                    each.append((pid, memory_kb(pid)))
                except OSError:
                    pass
            sums = {k: sum(f.get(k, 0) for _, f in each) for k in ("VmRSS", "VmHWM", "Rss")}
            count = health(ports["http"]).get("agent_count")
            stages[stage] = sums
            say(f"{stage}: network {mib(sums['VmRSS'])} resident (VmRSS), peak {mib(sums['VmHWM'])} (VmHWM), "
                f"smaps_rollup Rss {mib(sums['Rss'])}; the network counts {count} agents, "
                f"{established(ports['grpc'])} gRPC connections, {busy:.0%} of a CPU over the {SETTLE:.0f} s before")
            if len(each) > 1:
                for pid, f in each:
                    say(f"    pid {pid} ({f['name']}): VmRSS {mib(f.get('VmRSS', 0))}, VmHWM {mib(f.get('VmHWM', 0))}, "
                        f"Rss {mib(f.get('Rss', 0))}")
            return sums

        host, port = "127.0.0.1", ports["http"]
        # The workers start now (forked before this process runs any gRPC) and wait.
        rest = total - 21
        n_workers = -(-rest // per_worker)
        first = 21
        for w in range(n_workers):
            count = min(per_worker, total - first)
            proc = await asyncio.create_subprocess_exec(
                sys.executable, __file__, "--worker", str(first), str(count), host, str(port),
                str(scratch / f"worker{w}.log"),
                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=open(scratch / f"worker{w}.err", "w"), preexec_fn=_die_with_parent)
            workers.append(proc)
            first += count

        await read("fresh network (answered GET /api/health)", 0)

        async def local_upto(n):
            names = [f"idle-{k}" for k in range(len(local_agents), n)]
            failed, retried = await connect_agents(names, host, port, local_agents)
            if retried:
                say(f"  {retried} connection attempts failed and were retried; {len(failed)} agents never connected")

        await local_upto(1)
        connector = type(local_agents[0].client.connector).__name__ if local_agents else "none"
        say(f"agents: the SDK's WorkerAgent.async_start(network_host, network_port={port}) → {connector}")
        await read("1 agent", 1)
        await local_upto(20)
        await read("20 idle agents", 20)
        await local_upto(21)
        few = await read("21 idle agents", 21)

        say(f"connecting {rest} more agents from {n_workers} worker processes of up to {per_worker} agents each "
            f"(every SDK agent polls the network each second)")
        started = time.monotonic()
        for proc in workers:
            proc.stdin.write(b"go\n")
            await proc.stdin.drain()
        connected = failed = retried = 0
        for proc in workers:
            line = (await proc.stdout.readline()).decode().split()
            if len(line) != 6:
                raise RuntimeError(f"a worker died while connecting (see {scratch})")
            connected += int(line[1])
            failed += int(line[3])
            retried += int(line[5])
        say(f"  {connected} connected in {time.monotonic() - started:.0f} s" +
            (f"; {retried} attempts timed out or failed and were retried" if retried else "") +
            (f"; {failed} agents never connected" if failed else ""))
        n = 21 + connected
        many = await read(f"{n} idle agents", n)
        per = lambda key: (many[key] - few[key]) / (n - 21)  # noqa: E731
        say(f"per idle agent (21 → {n}): VmRSS {per('VmRSS'):.1f} KiB, smaps_rollup Rss {per('Rss'):.1f} KiB")

        for proc in workers:
            proc.stdin.write(b"stop\n")
            await proc.stdin.drain()
        await disconnect_agents(local_agents)
        for proc in workers:
            await proc.stdout.readline()
            await proc.wait()
        await asyncio.sleep(8)
        await read("all disconnected, 10 s later", 0)
        ok = True
    finally:
        for agent in local_agents:
            try:
                await asyncio.wait_for(agent.async_stop(), 5)
            except Exception:  # noqa: BLE001
                pass
        for proc in workers:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
        if network.poll() is None:
            os.killpg(network.pid, signal.SIGTERM)
            try:
                network.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(network.pid, signal.SIGKILL)
                network.wait()
        log.close()
        if ok and not os.environ.get("PEER_KEEP"):
            import shutil
            shutil.rmtree(scratch, ignore_errors=True)
        elif ok:
            say(f"logs kept in {scratch}")
        else:
            say(f"failed; the network's log and the agents' logs are kept in {scratch}")
            say("".join(open(scratch / "network.log", errors="replace").readlines()[-30:]))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        first, count, host, port, log_path = sys.argv[2:7]
        asyncio.run(worker_main(int(first), int(count), host, port, log_path))
    else:
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
        asyncio.run(main())
