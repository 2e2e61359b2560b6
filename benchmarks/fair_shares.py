"""Fair shares of the machine: one client's computer players and hints while other clients load the server.

Starts ``barbu serve`` (SQLite, 127.0.0.1) in its own process.  Each client
connects from its own loopback address (127.0.0.x: Linux answers for all of
127/8), so the server sees as many client addresses as the benchmark uses.

1. A victim table of four ``expert`` computer players, watched alone: the gap
   between its computer moves (median, p90).
2. The same while 8 other addresses each run 5 tables of ``expert`` players
   (the most one address may set up): the victim's gaps and its ratio to alone.
3. A second client's hint time (median, max) alone, then while a first client
   floods hints from 60 connections on its own seat.

With ``--gil``, first: whether the compiled search core runs in parallel in two
threads (it does not: it holds the GIL), against two processes.

    python benchmarks/fair_shares.py
    python benchmarks/fair_shares.py --gil --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

VICTIM, FLOODER, ASKER = "127.0.0.2", "127.0.0.3", "127.0.0.4"
LOADERS = [f"127.0.0.{10 + i}" for i in range(8)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post(port: int, path: str, body: dict, source: str) -> dict:
    """A JSON POST from the client address ``source``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    try:
        conn.request("POST", path, json.dumps(body), {"content-type": "application/json"})
        r = conn.getresponse()
        data = json.loads(r.read())
        if r.status >= 300:
            raise RuntimeError(f"{path} from {source}: {r.status} {data}")
        return data
    finally:
        conn.close()


RULES = ["salad"]  # every deal is played by tricks, searched: no cheap Domino deal to flatter a window


def bot_table(port: int, source: str, strength: str = "expert") -> str:
    """A table of four computer players set up from ``source``."""
    t = post(port, "/api/tables", {"rules": RULES[0]}, source)
    for seat in range(4):
        post(port, f"/api/tables/{t['id']}/bots", {"seat": seat, "strength": strength, "token": t["creator"]}, source)
    return t["id"]


def seated_table(port: int, source: str) -> tuple[str, str]:
    """A table with a person in seat 0 (the caller, from ``source``) and three random players."""
    t = post(port, "/api/tables", {"rules": "classic"}, source)
    token = post(port, f"/api/tables/{t['id']}/seats", {"seat": 0, "name": "Ann"}, source)["token"]
    for seat in (1, 2, 3):
        post(port, f"/api/tables/{t['id']}/bots", {"seat": seat, "strength": "random", "token": t["creator"]}, source)
    return t["id"], token


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(p * len(s)))] if s else float("nan")


async def watch_gaps(ws_base: str, table: str, seconds: float) -> list[float]:
    """Seconds between the table's consecutive computer moves, watched as a spectator for ``seconds``."""
    gaps: list[float] = []
    last: float | None = None
    async with connect(f"{ws_base}/ws/{table}", local_addr=(VICTIM, 0), max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), left))
            except asyncio.TimeoutError:
                break
            move = msg.get("last") if msg.get("type") == "state" else None
            if move and move.get("seat", -1) >= 0:
                now = time.monotonic()
                if last is not None:
                    gaps.append(now - last)
                last = now
    return gaps


async def at_my_turn(ws) -> None:
    while True:
        msg = json.loads(await ws.recv())
        st = msg.get("state")
        if st and st.get("to_act") == 0 and st.get("legal"):
            return


async def hint_times(ws_base: str, table: str, token: str, source: str, count: int) -> list[float]:
    """``count`` hints asked one after the other by the seat's player; the time each took."""
    times: list[float] = []
    async with connect(f"{ws_base}/ws/{table}", local_addr=(source, 0), max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await at_my_turn(ws)
        for _ in range(count):
            t0 = time.monotonic()
            await ws.send(json.dumps({"type": "hint"}))
            while True:
                msg = json.loads(await ws.recv())
                if msg["type"] in ("hint", "error"):
                    break
            times.append(time.monotonic() - t0)
    return times


async def flood_hints(
    ws_base: str, table: str, token: str, connections: int, stop: asyncio.Event, asked: list[int]
) -> None:
    """``connections`` connections on one seat, each asking for a hint again as soon as one comes back."""

    async def one() -> None:
        async with connect(f"{ws_base}/ws/{table}", local_addr=(FLOODER, 0), max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            await at_my_turn(ws)
            while not stop.is_set():
                await ws.send(json.dumps({"type": "hint"}))
                asked[0] += 1
                while json.loads(await ws.recv())["type"] not in ("hint", "error"):
                    pass

    tasks = [asyncio.create_task(one()) for _ in range(connections)]
    await stop.wait()
    for t in tasks:
        t.cancel()
    for r in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(r, Exception) and not isinstance(r, asyncio.CancelledError):
            print(f"a flooding connection failed: {r!r}")


def line(name: str, gaps: list[float]) -> str:
    return (
        (f"{name:<34} {len(gaps):>5} moves   median {statistics.median(gaps):5.2f} s   p90 {pct(gaps, 0.9):5.2f} s")
        if gaps
        else f"{name:<34} no computer move seen"
    )


async def run(args: argparse.Namespace, port: int) -> None:
    ws_base = f"ws://127.0.0.1:{port}"
    # 3 first (no computer-player load yet): hints alone, then against a flood from another address.
    asker, asker_token = seated_table(port, ASKER)
    alone_hints = await hint_times(ws_base, asker, asker_token, ASKER, args.hints)
    flooded, flood_token = seated_table(port, FLOODER)
    stop = asyncio.Event()
    asked = [0]
    flood = asyncio.create_task(flood_hints(ws_base, flooded, flood_token, 60, stop, asked))
    while not asked[0]:  # the flood's connections are up and asking
        await asyncio.sleep(0.1)
    await asyncio.sleep(1)
    flood_hints_times = await hint_times(ws_base, asker, asker_token, ASKER, args.hints)
    stop.set()
    await flood
    # 1: the victim's table alone.
    victim = bot_table(port, VICTIM)
    alone = await watch_gaps(ws_base, victim, args.seconds)
    # 2: the same table while 8 addresses run 5 expert tables each.
    for source in LOADERS:
        for _ in range(5):
            bot_table(port, source)
    await asyncio.sleep(args.warmup)
    loaded = await watch_gaps(ws_base, victim, args.seconds)
    print(line("victim alone", alone))
    print(line(f"victim with {len(LOADERS)}x5 expert tables", loaded))
    if alone and loaded:
        print(
            f"ratio to alone: median {statistics.median(loaded) / statistics.median(alone):.2f}x, "
            f"p90 {pct(loaded, 0.9) / pct(alone, 0.9):.2f}x (aim: median within 1.5x)"
        )
    print(
        f"hint of a second client alone:        median {statistics.median(alone_hints):5.2f} s   "
        f"max {max(alone_hints):5.2f} s"
    )
    print(
        f"... while a first floods (60 conns):   median {statistics.median(flood_hints_times):5.2f} s   "
        f"max {max(flood_hints_times):5.2f} s   ({asked[0]} hints asked by the flood)"
    )


def _think(seconds: float) -> float:
    """One expert decision with a fixed number of sampled deals (no deadline), timed."""
    from barbu.agents import make_agent
    from barbu.classic.match import CHANCE, Match

    m, rule = Match("classic", 5), make_agent("rule", 5)
    while True:
        seat = m.to_act()
        if seat == CHANCE:
            m.apply(m.sample_chance())
            continue
        view = m.view(seat)
        if len(view.legal) > 2 and isinstance(view.legal[0], int):
            break
        m.apply(rule.act(view))
    agent = make_agent(f"expert(samples=160, seconds={seconds})", 7)
    t0 = time.perf_counter()
    agent.act(view)
    return time.perf_counter() - t0


def gil(n: int = 8) -> None:
    """The same decisions one after the other, in two threads, and in two processes."""
    _think(60)
    t0 = time.perf_counter()
    for _ in range(n):
        _think(60)
    one = time.perf_counter() - t0
    with ThreadPoolExecutor(2) as ex:
        t0 = time.perf_counter()
        list(ex.map(_think, [60] * n))
        threads = time.perf_counter() - t0
    with ProcessPoolExecutor(2) as ex:
        list(ex.map(_think, [60] * 2))
        t0 = time.perf_counter()
        list(ex.map(_think, [60] * n))
        procs = time.perf_counter() - t0
    print(
        f"{n} expert decisions: one after the other {one:.2f} s, two threads {threads:.2f} s "
        f"({one / threads:.2f}x), two processes {procs:.2f} s ({one / procs:.2f}x)"
    )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=40, help="seconds the victim's table is watched, each time")
    p.add_argument("--warmup", type=float, default=10, help="seconds the load runs before the victim is watched")
    p.add_argument("--hints", type=int, default=8, help="hints the second client asks, each time")
    p.add_argument("--rules", default=RULES[0], help="the computer players' tables' rules (default %(default)s)")
    p.add_argument("--gil", action="store_true", help="first measure threads against processes")
    p.add_argument(
        "--server-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="an extra argument for barbu serve (repeatable), e.g. --server-arg=--thinking-workers=1",
    )
    p.add_argument(
        "--server-src",
        default=str(ROOT / "src"),
        metavar="DIR",
        help="the barbu sources the server runs (default this checkout's): to time another version, "
        "e.g. one unpacked with git archive",
    )
    args = p.parse_args()
    RULES[0] = args.rules
    random.seed(1)
    if args.gil:
        gil()
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f} before the start")
    tmp = tempfile.mkdtemp(prefix="barbu-fair-")
    port = free_port()
    log = open(Path(tmp) / "server.log", "wb")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "barbu",
            "serve",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{Path(tmp) / 'fair.db'}",
            "--grace",
            "3600",
            "--tables-per-hour",
            "0",
            "--connections-per-address",
            "0",
            "--http-connections-per-address",
            "0",
            "--log-level",
            "warning",
            *args.server_arg,
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=dict(os.environ, PYTHONPATH=args.server_src),
    )
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        asyncio.run(asyncio.wait_for(run(args, port), 4 * args.seconds + args.warmup + 240))
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
        print(f"server log: {Path(tmp) / 'server.log'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
